ew.kernel @return_count(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  ew.return %x : !ew.tensor<[n], f32>
}
