module {
  ew.kernel @silu(%arg0: tensor<?xf32>) -> tensor<?xf32> {
    %0 = ew.sigmoid %arg0 : tensor<?xf32>
    %1 = ew.mul %arg0, %0 : tensor<?xf32>, tensor<?xf32>
    ew.return %1 : tensor<?xf32>
  }
}

