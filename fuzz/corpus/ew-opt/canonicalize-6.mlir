ew.kernel @fold_max_min_abs() -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>) {
  %pz = ew.constant 0.0 : f32
  %nz = ew.constant -0.0 : f32
  %nan = ew.constant 0x7FC00000 : f32
  %one = ew.constant 1.0 : f32
  %m1 = ew.constant -1 : i64
  %min = ew.constant -9223372036854775808 : i64
  %0 = ew.max %nz, %pz : f32, f32
  %1 = ew.min %pz, %nz : f32, f32
  %2 = ew.max %one, %nan : f32, f32
  %3 = ew.abs %nz : f32
  %4 = ew.max %m1, %min : i64, i64
  %5 = ew.min %m1, %min : i64, i64
  %6 = ew.abs %min : i64
  ew.return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, i64, i64, i64
}
