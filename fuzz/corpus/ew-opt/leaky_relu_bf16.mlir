module {
  ew.kernel @leaky_relu_bf16(%arg0: !ew.tensor<[...], bf16>, %arg1: f32 {ew.default = 0.00999999977 : f32}) -> !ew.tensor<[...], bf16> {
    %0 = ew.cast %arg0 : !ew.tensor<[...], bf16> to !ew.tensor<[...], f32>
    %1 = ew.constant 0.000000e+00 : f32
    %2 = ew.cmp ge, %0, %1 : !ew.tensor<[...], f32>, f32
    %3 = ew.mul %arg1, %0 : f32, !ew.tensor<[...], f32>
    %4 = ew.where %2, %0, %3 : !ew.tensor<[...], i1>, !ew.tensor<[...], f32>, !ew.tensor<[...], f32>
    %5 = ew.cast %4 : !ew.tensor<[...], f32> to !ew.tensor<[...], bf16>
    ew.return %5 : !ew.tensor<[...], bf16>
  }
}

