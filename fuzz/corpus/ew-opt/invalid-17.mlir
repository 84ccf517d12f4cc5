func.func @cast_to_scalar(%x: !ew.tensor<[n], f32>) {
  %0 = ew.cast %x : !ew.tensor<[n], f32> to i32
  return
}
