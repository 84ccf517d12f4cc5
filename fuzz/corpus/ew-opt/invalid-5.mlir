

ew.kernel @bool_abs(%x: tensor<?xi1>) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.abs' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got 'tensor<?xi1>'}}
  %0 = ew.abs %x : tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

