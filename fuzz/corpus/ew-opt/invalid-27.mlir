ew.kernel @static_result(%x: !ew.tensor<[n], f32>) -> tensor<4xf32> {
  ew.return %x : !ew.tensor<[n], f32>
}
