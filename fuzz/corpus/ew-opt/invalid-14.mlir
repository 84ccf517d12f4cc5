func.func @static_tensor(%y: tensor<4xf32>) {
  %0 = "ew.neg"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
