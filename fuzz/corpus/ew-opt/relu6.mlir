module {
  ew.kernel @relu6(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.constant 0.000000e+00 : f32
    %1 = ew.constant 6.000000e+00 : f32
    %2 = ew.max %arg0, %0 : !ew.tensor<[n], f32>, f32
    %3 = ew.min %2, %1 : !ew.tensor<[n], f32>, f32
    ew.return %3 : !ew.tensor<[n], f32>
  }
}

