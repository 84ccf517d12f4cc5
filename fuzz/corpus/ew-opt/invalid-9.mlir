ew.kernel @cmp_mixed(%x: !ew.tensor<[n], i32>, %y: !ew.tensor<[n], i64>) -> !ew.tensor<[n], i1> {
  %0 = ew.cmp ge, %x, %y : !ew.tensor<[n], i32>, !ew.tensor<[n], i64>
  ew.return %0 : !ew.tensor<[n], i1>
}
