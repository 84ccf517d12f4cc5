

ew.kernel @int_exp(%x: tensor<?xi32>) -> tensor<?xi32> {
  // expected-error @+1 {{'ew.exp' op operand #0 must be ew tensor or scalar of floats, but got 'tensor<?xi32>'}}
  %0 = ew.exp %x : tensor<?xi32>
  ew.return %0 : tensor<?xi32>
}

