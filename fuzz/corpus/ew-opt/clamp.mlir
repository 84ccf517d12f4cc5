module {
  ew.kernel @clamp_bounds(%arg0: !ew.tensor<[n], f32>, %arg1: f32 {ew.default = -1.000000e+00 : f32}, %arg2: f32 {ew.default = 1.000000e+00 : f32}) -> !ew.tensor<[n], f32> {
    %0 = ew.max %arg0, %arg1 : !ew.tensor<[n], f32>, f32
    %1 = ew.min %0, %arg2 : !ew.tensor<[n], f32>, f32
    ew.return %1 : !ew.tensor<[n], f32>
  }
}

