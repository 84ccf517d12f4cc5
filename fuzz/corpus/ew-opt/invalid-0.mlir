

ew.kernel @mixed_elements(%x: tensor<?xf32>, %s: f64) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.mul' op requires the same element type for all operands and results}}
  %0 = "ew.mul"(%x, %s) : (tensor<?xf32>, f64) -> tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

