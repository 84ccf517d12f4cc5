ew.kernel @cmp_result(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i1> {
  %0 = "ew.cmp"(%x, %x) {predicate = 5 : i64} : (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32>
  ew.return %x : !ew.tensor<[n], i32>
}
