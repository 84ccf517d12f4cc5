module {
  ew.kernel @softplus(%arg0: !ew.tensor<[n], f32>, %arg1: f32 {ew.default = 2.000000e+01 : f32}) -> !ew.tensor<[n], f32> {
    %0 = ew.cmp gt, %arg0, %arg1 : !ew.tensor<[n], f32>, f32
    %1 = ew.constant 1.000000e+00 : f32
    %2 = ew.exp %arg0 : !ew.tensor<[n], f32>
    %3 = ew.add %1, %2 : f32, !ew.tensor<[n], f32>
    %4 = ew.log %3 : !ew.tensor<[n], f32>
    %5 = ew.where %0, %arg0, %4 : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ew.return %5 : !ew.tensor<[n], f32>
  }
}

