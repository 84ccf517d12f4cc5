ew.kernel @index_rank(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.index "n" : !ew.tensor<[m, n], i64>
  ew.return %x : !ew.tensor<[m, n], f32>
}
