ew.kernel @int_logic(%x: !ew.tensor<[n], i32>, %p: i1) -> !ew.tensor<[n], i1> {
  %0 = "ew.and"(%x, %p) : (!ew.tensor<[n], i32>, i1) -> !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i1>
}
