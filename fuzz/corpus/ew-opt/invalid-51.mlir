ew.kernel @return_order(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[n, m], f32> {
  ew.return %x : !ew.tensor<[m, n], f32>
}
