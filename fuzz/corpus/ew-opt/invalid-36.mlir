ew.kernel @where_dims(%c: !ew.tensor<[m], i1>, %x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.where %c, %x, %x : !ew.tensor<[m], i1>, !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %x : !ew.tensor<[m, n], f32>
}
