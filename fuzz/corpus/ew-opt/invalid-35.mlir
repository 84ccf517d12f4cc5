ew.kernel @add_order(%x: !ew.tensor<[m, n], f32>, %y: !ew.tensor<[n, m], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.mul %x, %y : !ew.tensor<[m, n], f32>, !ew.tensor<[n, m], f32>
  ew.return %0 : !ew.tensor<[m, n], f32>
}
