

ew.kernel @float_not(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.not' op operand #0 must be ew tensor or scalar of i1, but got 'tensor<?xf32>'}}
  %0 = ew.not %x : tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

