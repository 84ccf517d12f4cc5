module {
  ew.kernel @mish(%arg0: tensor<?xf32>) -> tensor<?xf32> {
    %0 = ew.constant 2.000000e+01 : f32
    %1 = ew.cmp gt, %arg0, %0 : tensor<?xf32>, f32
    %2 = ew.constant 1.000000e+00 : f32
    %3 = ew.exp %arg0 : tensor<?xf32>
    %4 = ew.add %2, %3 : f32, tensor<?xf32>
    %5 = ew.log %4 : tensor<?xf32>
    %6 = ew.where %1, %arg0, %5 : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
    %7 = ew.tanh %6 : tensor<?xf32>
    %8 = ew.mul %arg0, %7 : tensor<?xf32>, tensor<?xf32>
    ew.return %8 : tensor<?xf32>
  }
}

