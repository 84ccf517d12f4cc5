module {
  ew.kernel @softplus(%arg0: tensor<?xf32>, %arg1: f32 {ew.default = 2.000000e+01 : f32}) -> tensor<?xf32> {
    %0 = ew.cmp gt, %arg0, %arg1 : tensor<?xf32>, f32
    %1 = ew.constant 1.000000e+00 : f32
    %2 = ew.exp %arg0 : tensor<?xf32>
    %3 = ew.add %1, %2 : f32, tensor<?xf32>
    %4 = ew.log %3 : tensor<?xf32>
    %5 = ew.where %0, %arg0, %4 : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
    ew.return %5 : tensor<?xf32>
  }
}

