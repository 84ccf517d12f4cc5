func.func @broadcast_drops(%x: !ew.tensor<[m, n], f32>) {
  %0 = ew.broadcast %x : !ew.tensor<[m, n], f32> to !ew.tensor<[k, n], f32>
  return
}
