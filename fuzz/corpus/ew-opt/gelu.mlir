module {
  ew.kernel @gelu_tanh(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.constant 5.000000e-01 : f32
    %1 = ew.mul %0, %arg0 : f32, !ew.tensor<[n], f32>
    %2 = ew.constant 1.000000e+00 : f32
    %3 = ew.constant 0.797884583 : f32
    %4 = ew.constant 4.471500e-02 : f32
    %5 = ew.mul %4, %arg0 : f32, !ew.tensor<[n], f32>
    %6 = ew.mul %5, %arg0 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    %7 = ew.mul %6, %arg0 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    %8 = ew.add %arg0, %7 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    %9 = ew.mul %3, %8 : f32, !ew.tensor<[n], f32>
    %10 = ew.tanh %9 : !ew.tensor<[n], f32>
    %11 = ew.add %2, %10 : f32, !ew.tensor<[n], f32>
    %12 = ew.mul %1, %11 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ew.return %12 : !ew.tensor<[n], f32>
  }
  ew.kernel @gelu_erf(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.constant 5.000000e-01 : f32
    %1 = ew.mul %0, %arg0 : f32, !ew.tensor<[n], f32>
    %2 = ew.constant 1.000000e+00 : f32
    %3 = ew.constant 0.707106769 : f32
    %4 = ew.mul %arg0, %3 : !ew.tensor<[n], f32>, f32
    %5 = ew.erf %4 : !ew.tensor<[n], f32>
    %6 = ew.add %2, %5 : f32, !ew.tensor<[n], f32>
    %7 = ew.mul %1, %6 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ew.return %7 : !ew.tensor<[n], f32>
  }
}

