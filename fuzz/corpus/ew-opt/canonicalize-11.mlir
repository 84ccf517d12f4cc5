ew.kernel @no_identity_folds(%x: !ew.tensor<[n], f32>, %s: f32, %i: !ew.tensor<[n], i32>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i32>) {
  %zero = ew.constant 0.0 : f32
  %izero = ew.constant 0 : i32
  %0 = ew.add %x, %zero : !ew.tensor<[n], f32>, f32
  %1 = ew.add %s, %zero : f32, f32
  %2 = ew.mul %x, %zero : !ew.tensor<[n], f32>, f32
  %3 = ew.mul %s, %zero : f32, f32
  %4 = ew.mul %i, %izero : !ew.tensor<[n], i32>, i32
  ew.return %0, %1, %2, %3, %4 : !ew.tensor<[n], f32>, f32, !ew.tensor<[n], f32>, f32, !ew.tensor<[n], i32>
}
