module {
  ew.kernel @bias_gelu(%arg0: !ew.tensor<[m, n], f32>, %arg1: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
    %0 = ew.constant 5.000000e-01 : f32
    %1 = ew.broadcast %arg1 : <[n], f32> to <[m, n], f32>
    %2 = ew.add %arg0, %1 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    %3 = ew.mul %0, %2 : f32, !ew.tensor<[m, n], f32>
    %4 = ew.constant 1.000000e+00 : f32
    %5 = ew.constant 0.797884583 : f32
    %6 = ew.constant 4.471500e-02 : f32
    %7 = ew.mul %6, %2 : f32, !ew.tensor<[m, n], f32>
    %8 = ew.mul %7, %2 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    %9 = ew.mul %8, %2 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    %10 = ew.add %2, %9 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    %11 = ew.mul %5, %10 : f32, !ew.tensor<[m, n], f32>
    %12 = ew.tanh %11 : !ew.tensor<[m, n], f32>
    %13 = ew.add %4, %12 : f32, !ew.tensor<[m, n], f32>
    %14 = ew.mul %3, %13 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    ew.return %14 : !ew.tensor<[m, n], f32>
  }
}

