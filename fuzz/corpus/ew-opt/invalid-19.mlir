

func.func @tensor_constant() {
  // expected-error @+1 {{result #0 must be ew element type, but got 'tensor<4xf32>'}}
  %0 = "ew.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  return
}

