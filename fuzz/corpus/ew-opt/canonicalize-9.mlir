ew.kernel @fold_cast_constants() -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, !ew.tensor<[n], i32>, !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>) {
  %big = ew.constant 1.0e10 : f32
  %small = ew.constant -1.0e10 : f32
  %nan = ew.constant 0x7FC00000 : f32
  %x = ew.constant -2.9 : f64
  %nz = ew.constant -0.0 : f32
  %t = ew.constant true
  %m1 = ew.constant -1 : i32
  %wide = ew.constant 4294967297 : i64
  %tie = ew.constant 1.00390625 : f32
  %int = ew.constant 16777217 : i32
  %0 = ew.cast %big : f32 to i32
  %1 = ew.cast %small : f32 to i32
  %2 = ew.cast %nan : f32 to i32
  %3 = ew.cast %x : f64 to i32
  %4 = ew.cast %nan : f32 to i1
  %5 = ew.cast %nz : f32 to i1
  %6 = ew.cast %t : i1 to i64
  %7 = ew.cast %m1 : i32 to i64
  %8 = ew.cast %wide : i64 to i32
  %9 = ew.cast %tie : f32 to bf16
  %10 = ew.cast %int : i32 to bf16
  ew.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, i32, i32, i32, i1, i1, i64, i64, i32, bf16, bf16
}
