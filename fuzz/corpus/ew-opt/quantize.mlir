module {
  ew.kernel @quantize(%arg0: tensor<?xf32>, %arg1: f32 {ew.default = 5.000000e-02 : f32}) -> (tensor<?xi32>, tensor<?xf32>) {
    %0 = ew.div %arg0, %arg1 : tensor<?xf32>, f32
    %1 = ew.constant -1.280000e+02 : f32
    %2 = ew.constant 1.270000e+02 : f32
    %3 = ew.max %0, %1 : tensor<?xf32>, f32
    %4 = ew.min %3, %2 : tensor<?xf32>, f32
    %5 = ew.cast %4 : tensor<?xf32> to tensor<?xi32>
    %6 = ew.cast %5 : tensor<?xi32> to tensor<?xf32>
    %7 = ew.mul %6, %arg1 : tensor<?xf32>, f32
    ew.return %5, %7 : tensor<?xi32>, tensor<?xf32>
  }
}

