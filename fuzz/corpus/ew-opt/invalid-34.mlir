ew.kernel @add_dims(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.add %x, %b : !ew.tensor<[m, n], f32>, !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[m, n], f32>
}
