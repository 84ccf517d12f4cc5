

ew.kernel @cmp_result(%x: tensor<?xi32>) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.cmp' op result #0 must be ew tensor or scalar of i1, but got 'tensor<?xi32>'}}
  %0 = "ew.cmp"(%x, %x) {predicate = 5 : i64} : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  ew.return %x : tensor<?xi32>
}

