module {
  ew.kernel @relu(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.constant 0.000000e+00 : f32
    %1 = ew.max %arg0, %0 : !ew.tensor<[n], f32>, f32
    ew.return %1 : !ew.tensor<[n], f32>
  }
}

