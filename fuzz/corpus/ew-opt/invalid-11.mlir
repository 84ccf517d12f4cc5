ew.kernel @cmp_bad_predicate(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i1> {
  %0 = ew.cmp gte, %x, %x : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i1>
}
