func.func @cast_to_tensor(%s: f32) {
  %0 = ew.cast %s : f32 to !ew.tensor<[n], bf16>
  return
}
