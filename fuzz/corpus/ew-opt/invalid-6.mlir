

ew.kernel @int_logic(%x: tensor<?xi32>, %p: i1) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.and' op operand #0 must be ew tensor or scalar of i1, but got 'tensor<?xi32>'}}
  %0 = "ew.and"(%x, %p) : (tensor<?xi32>, i1) -> tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

