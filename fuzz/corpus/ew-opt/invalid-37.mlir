ew.kernel @result_dims(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = "ew.neg"(%x) : (!ew.tensor<[m, n], f32>) -> !ew.tensor<[n], f32>
  ew.return %x : !ew.tensor<[m, n], f32>
}
