ew.kernel @no_result(%x: !ew.tensor<[n], f32>) {
  ew.return
}
