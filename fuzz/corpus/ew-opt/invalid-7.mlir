ew.kernel @float_not(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.not %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
