ew.kernel @where_values(%c: !ew.tensor<[n], i1>, %x: !ew.tensor<[n], f32>, %y: !ew.tensor<[n], f16>) -> !ew.tensor<[n], f32> {
  %0 = ew.where %c, %x, %y : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f16>
  ew.return %0 : !ew.tensor<[n], f32>
}
