ew.kernel @dead_code(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %unused = ew.mul %x, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %x : !ew.tensor<[n], f32>
}
