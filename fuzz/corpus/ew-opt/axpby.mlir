module {
  ew.kernel @axpby(%arg0: !ew.tensor<[n], f32>, %arg1: !ew.tensor<[n], f32>, %arg2: f32 {ew.default = 2.000000e+00 : f32}, %arg3: f32 {ew.default = -5.000000e-01 : f32}) -> !ew.tensor<[n], f32> {
    %0 = ew.mul %arg2, %arg0 : f32, !ew.tensor<[n], f32>
    %1 = ew.mul %arg3, %arg1 : f32, !ew.tensor<[n], f32>
    %2 = ew.add %0, %1 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ew.return %2 : !ew.tensor<[n], f32>
  }
}

