module {
  ew.kernel @leaky_relu_mask(%arg0: !ew.tensor<[n], f32>, %arg1: f32 {ew.default = 0.00999999977 : f32}) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i1>) {
    %0 = ew.constant 0.000000e+00 : f32
    %1 = ew.cmp ge, %arg0, %0 : !ew.tensor<[n], f32>, f32
    %2 = ew.mul %arg1, %arg0 : f32, !ew.tensor<[n], f32>
    %3 = ew.where %1, %arg0, %2 : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ew.return %3, %1 : !ew.tensor<[n], f32>, !ew.tensor<[n], i1>
  }
}

