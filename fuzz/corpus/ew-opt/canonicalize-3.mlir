

ew.kernel @fold_where(%x: tensor<?xf32>, %y: tensor<?xf32>, %s: f32) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %t = ew.constant true
  %f = ew.constant false
  %c = ew.cmp lt, %x, %y : tensor<?xf32>, tensor<?xf32>
  %0 = ew.where %f, %x, %y : i1, tensor<?xf32>, tensor<?xf32>
  %1 = ew.where %c, %x, %x : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  %2 = ew.where %t, %s, %x : i1, f32, tensor<?xf32>
  ew.return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

