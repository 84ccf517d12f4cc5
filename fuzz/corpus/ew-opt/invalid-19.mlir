func.func @tensor_constant() {
  %0 = "ew.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  return
}
