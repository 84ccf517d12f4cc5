

ew.kernel @tensor_result_of_scalars(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.sub' op if a result is non-scalar, then at least one operand must be non-scalar}}
  %0 = "ew.sub"(%s, %s) : (f32, f32) -> tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

