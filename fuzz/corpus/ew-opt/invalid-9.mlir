

ew.kernel @cmp_mixed(%x: tensor<?xi32>, %y: tensor<?xi64>) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.cmp' op requires the same element type for all operands}}
  %0 = ew.cmp ge, %x, %y : tensor<?xi32>, tensor<?xi64>
  ew.return %0 : tensor<?xi1>
}

