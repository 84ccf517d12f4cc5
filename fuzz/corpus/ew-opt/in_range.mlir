module {
  ew.kernel @in_range(%arg0: tensor<?xf32>, %arg1: f32 {ew.default = -1.000000e+00 : f32}, %arg2: f32 {ew.default = 1.000000e+00 : f32}) -> (tensor<?xi1>, tensor<?xi1>) {
    %0 = ew.cmp ge, %arg0, %arg1 : tensor<?xf32>, f32
    %1 = ew.cmp le, %arg0, %arg2 : tensor<?xf32>, f32
    %2 = ew.and %0, %1 : tensor<?xi1>, tensor<?xi1>
    %3 = ew.not %2 : tensor<?xi1>
    %4 = ew.cmp ne, %arg0, %arg0 : tensor<?xf32>, tensor<?xf32>
    %5 = ew.or %3, %4 : tensor<?xi1>, tensor<?xi1>
    ew.return %2, %5 : tensor<?xi1>, tensor<?xi1>
  }
}

