ew.kernel @fold_where(%x: !ew.tensor<[n], f32>, %y: !ew.tensor<[n], f32>, %s: f32) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %t = ew.constant true
  %f = ew.constant false
  %c = ew.cmp lt, %x, %y : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %0 = ew.where %f, %x, %y : i1, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %1 = ew.where %c, %x, %x : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %2 = ew.where %t, %s, %x : i1, f32, !ew.tensor<[n], f32>
  ew.return %0, %1, %2 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}
