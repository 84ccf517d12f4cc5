

ew.kernel @no_identity_folds(%x: tensor<?xf32>, %s: f32, %i: tensor<?xi32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xi32>) {
  %zero = ew.constant 0.0 : f32
  %izero = ew.constant 0 : i32
  %0 = ew.add %x, %zero : tensor<?xf32>, f32
  %1 = ew.add %s, %zero : f32, f32
  %2 = ew.mul %x, %zero : tensor<?xf32>, f32
  %3 = ew.mul %s, %zero : f32, f32
  %4 = ew.mul %i, %izero : tensor<?xi32>, i32
  ew.return %0, %1, %2, %3, %4 : tensor<?xf32>, f32, tensor<?xf32>, f32, tensor<?xi32>
}

