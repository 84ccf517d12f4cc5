func.func @cast_dims(%x: !ew.tensor<[n], f32>) {
  %0 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[m], bf16>
  return
}
