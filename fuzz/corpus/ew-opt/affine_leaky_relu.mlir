module {
  ew.kernel @affine_leaky_relu(%arg0: !ew.tensor<[n], f32>, %arg1: f32 {ew.default = 1.500000e+00 : f32}, %arg2: f32 {ew.default = -2.500000e-01 : f32}, %arg3: f32 {ew.default = 0.00999999977 : f32}) -> !ew.tensor<[n], f32> {
    %0 = ew.mul %arg1, %arg0 : f32, !ew.tensor<[n], f32>
    %1 = ew.add %0, %arg2 : !ew.tensor<[n], f32>, f32
    %2 = ew.constant 0.000000e+00 : f32
    %3 = ew.cmp ge, %1, %2 : !ew.tensor<[n], f32>, f32
    %4 = ew.mul %arg3, %1 : f32, !ew.tensor<[n], f32>
    %5 = ew.where %3, %1, %4 : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    %6 = ew.constant 6.000000e+00 : f32
    %7 = ew.cmp gt, %5, %6 : !ew.tensor<[n], f32>, f32
    %8 = ew.constant 6.000000e+00 : f32
    %9 = ew.constant -6.000000e+00 : f32
    %10 = ew.cmp lt, %5, %9 : !ew.tensor<[n], f32>, f32
    %11 = ew.constant -6.000000e+00 : f32
    %12 = ew.where %10, %11, %5 : !ew.tensor<[n], i1>, f32, !ew.tensor<[n], f32>
    %13 = ew.where %7, %8, %12 : !ew.tensor<[n], i1>, f32, !ew.tensor<[n], f32>
    ew.return %13 : !ew.tensor<[n], f32>
  }
}

