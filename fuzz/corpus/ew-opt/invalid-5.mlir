ew.kernel @bool_abs(%x: !ew.tensor<[n], i1>) -> !ew.tensor<[n], i1> {
  %0 = ew.abs %x : !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i1>
}
