

ew.kernel @cmp_bad_predicate(%x: tensor<?xi32>) -> tensor<?xi1> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = ew.cmp gte, %x, %x : tensor<?xi32>, tensor<?xi32>
  ew.return %0 : tensor<?xi1>
}

