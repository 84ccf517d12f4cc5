module {
  ew.kernel @in_range(%arg0: !ew.tensor<[n], f32>, %arg1: f32 {ew.default = -1.000000e+00 : f32}, %arg2: f32 {ew.default = 1.000000e+00 : f32}) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
    %0 = ew.cmp ge, %arg0, %arg1 : !ew.tensor<[n], f32>, f32
    %1 = ew.cmp le, %arg0, %arg2 : !ew.tensor<[n], f32>, f32
    %2 = ew.and %0, %1 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
    %3 = ew.not %2 : !ew.tensor<[n], i1>
    %4 = ew.cmp ne, %arg0, %arg0 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    %5 = ew.or %3, %4 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
    ew.return %2, %5 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  }
}

