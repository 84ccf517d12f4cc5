ew.kernel @fold_broadcast(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[k, m, n], f32>) {
  %same = ew.broadcast %x : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32>
  %t = ew.broadcast %x : !ew.tensor<[m, n], f32> to !ew.tensor<[n, m], f32>
  %tt = ew.broadcast %t : !ew.tensor<[n, m], f32> to !ew.tensor<[m, n], f32>
  %bm = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
  %bk = ew.broadcast %bm : !ew.tensor<[m, n], f32> to !ew.tensor<[k, m, n], f32>
  %dead = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[n, m], f32>
  ew.return %same, %tt, %bk : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[k, m, n], f32>
}
