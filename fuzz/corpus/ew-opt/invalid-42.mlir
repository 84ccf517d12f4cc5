ew.kernel @index_unknown(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.index "m" : !ew.tensor<[m], i64>
  ew.return %x : !ew.tensor<[n], f32>
}
