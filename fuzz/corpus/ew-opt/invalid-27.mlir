

ew.kernel @static_result(%x: tensor<?xf32>) -> tensor<4xf32> {
  ew.return %x : tensor<?xf32>
}

