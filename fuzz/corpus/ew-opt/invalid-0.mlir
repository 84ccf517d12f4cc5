ew.kernel @mixed_elements(%x: !ew.tensor<[n], f32>, %s: f64) -> !ew.tensor<[n], f32> {
  %0 = "ew.mul"(%x, %s) : (!ew.tensor<[n], f32>, f64) -> !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
