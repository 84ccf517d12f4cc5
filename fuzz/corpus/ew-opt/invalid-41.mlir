func.func @broadcast_scalar(%s: f32) {
  %0 = "ew.broadcast"(%s) : (f32) -> !ew.tensor<[n], f32>
  return
}
