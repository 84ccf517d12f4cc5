ew.kernel @int_exp(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  %0 = ew.exp %x : !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i32>
}
