func.func @cast_to_i8(%x: !ew.tensor<[n], f32>) {
  %0 = "ew.cast"(%x) : (!ew.tensor<[n], f32>) -> tensor<?xi8>
  return
}
