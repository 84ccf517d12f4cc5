func.func @broadcast_element(%x: !ew.tensor<[n], f32>) {
  %0 = ew.broadcast %x : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f64>
  return
}
