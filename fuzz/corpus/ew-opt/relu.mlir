module {
  ew.kernel @relu(%arg0: tensor<?xf32>) -> tensor<?xf32> {
    %0 = ew.constant 0.000000e+00 : f32
    %1 = ew.max %arg0, %0 : tensor<?xf32>, f32
    ew.return %1 : tensor<?xf32>
  }
}

