ew.kernel @where_condition(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.where %x, %x, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
