module {
  ew.kernel @leaky_relu_f16(%arg0: tensor<?xf16>, %arg1: f32 {ew.default = 0.00999999977 : f32}) -> tensor<?xf16> {
    %0 = ew.cast %arg0 : tensor<?xf16> to tensor<?xf32>
    %1 = ew.constant 0.000000e+00 : f32
    %2 = ew.cmp ge, %0, %1 : tensor<?xf32>, f32
    %3 = ew.mul %arg1, %0 : f32, tensor<?xf32>
    %4 = ew.where %2, %0, %3 : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
    %5 = ew.cast %4 : tensor<?xf32> to tensor<?xf16>
    ew.return %5 : tensor<?xf16>
  }
}

