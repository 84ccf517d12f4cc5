ew.kernel @size_batch(%x: !ew.tensor<[..., n], f32>) -> !ew.tensor<[..., n], f32> {
  %0 = ew.size "..." : i64
  ew.return %x : !ew.tensor<[..., n], f32>
}
