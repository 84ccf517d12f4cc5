

func.func @static_tensor(%y: tensor<4xf32>) {
  // expected-error @+1 {{'ew.neg' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got 'tensor<4xf32>'}}
  %0 = "ew.neg"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

