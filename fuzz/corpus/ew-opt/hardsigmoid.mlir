module {
  ew.kernel @hardsigmoid(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.constant 3.000000e+00 : f32
    %1 = ew.add %arg0, %0 : !ew.tensor<[n], f32>, f32
    %2 = ew.constant 0.000000e+00 : f32
    %3 = ew.constant 6.000000e+00 : f32
    %4 = ew.max %1, %2 : !ew.tensor<[n], f32>, f32
    %5 = ew.min %4, %3 : !ew.tensor<[n], f32>, f32
    %6 = ew.constant 6.000000e+00 : f32
    %7 = ew.div %5, %6 : !ew.tensor<[n], f32>, f32
    ew.return %7 : !ew.tensor<[n], f32>
  }
}

