module {
  ew.kernel @leaky_relu_mask(%arg0: tensor<?xf32>, %arg1: f32 {ew.default = 0.00999999977 : f32}) -> (tensor<?xf32>, tensor<?xi1>) {
    %0 = ew.constant 0.000000e+00 : f32
    %1 = ew.cmp ge, %arg0, %0 : tensor<?xf32>, f32
    %2 = ew.mul %arg1, %arg0 : f32, tensor<?xf32>
    %3 = ew.where %1, %arg0, %2 : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
    ew.return %3, %1 : tensor<?xf32>, tensor<?xi1>
  }
}

