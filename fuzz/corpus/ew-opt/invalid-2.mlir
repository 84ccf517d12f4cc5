

ew.kernel @scalar_result_of_tensor(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.add' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = "ew.add"(%x, %s) : (tensor<?xf32>, f32) -> f32
  ew.return %x : tensor<?xf32>
}

