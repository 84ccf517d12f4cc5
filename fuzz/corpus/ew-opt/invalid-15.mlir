

func.func @unsupported_element(%y: tensor<?xi8>) {
  // expected-error @+1 {{'ew.cmp' op operand #0 must be ew tensor or scalar, but got 'tensor<?xi8>'}}
  %0 = ew.cmp eq, %y, %y : tensor<?xi8>, tensor<?xi8>
  return
}

