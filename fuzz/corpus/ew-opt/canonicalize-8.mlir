ew.kernel @fold_math() -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f64>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], bf16>) {
  %zero = ew.constant 0.0 : f32
  %one = ew.constant 1.0 : f32
  %four = ew.constant 4.0 : f32
  %four64 = ew.constant 4.0 : f64
  %one16 = ew.constant 1.0 : bf16
  %0 = ew.exp %zero : f32
  %1 = ew.log %one : f32
  %2 = ew.sqrt %four64 : f64
  %3 = ew.rsqrt %four : f32
  %4 = ew.tanh %zero : f32
  %5 = ew.sigmoid %zero : f32
  %6 = ew.erf %zero : f32
  %7 = ew.exp %one16 : bf16
  ew.return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f64, f32, f32, f32, f32, bf16
}
