ew.kernel @bool_arith(%x: !ew.tensor<[n], i1>) -> !ew.tensor<[n], i1> {
  %0 = "ew.max"(%x, %x) : (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>) -> !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i1>
}
