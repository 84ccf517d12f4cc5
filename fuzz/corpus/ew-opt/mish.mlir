module {
  ew.kernel @mish(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.constant 2.000000e+01 : f32
    %1 = ew.cmp gt, %arg0, %0 : !ew.tensor<[n], f32>, f32
    %2 = ew.constant 1.000000e+00 : f32
    %3 = ew.exp %arg0 : !ew.tensor<[n], f32>
    %4 = ew.add %2, %3 : f32, !ew.tensor<[n], f32>
    %5 = ew.log %4 : !ew.tensor<[n], f32>
    %6 = ew.where %1, %arg0, %5 : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    %7 = ew.tanh %6 : !ew.tensor<[n], f32>
    %8 = ew.mul %arg0, %7 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ew.return %8 : !ew.tensor<[n], f32>
  }
}

