module {
  ew.kernel @int_ops(%arg0: tensor<?xi32>, %arg1: tensor<?xi32>, %arg2: i32 {ew.default = 7 : i32}) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi64>) {
    %0 = ew.abs %arg0 : tensor<?xi32>
    %1 = ew.max %arg1, %arg2 : tensor<?xi32>, i32
    %2 = ew.add %0, %1 : tensor<?xi32>, tensor<?xi32>
    %3 = ew.min %arg0, %arg1 : tensor<?xi32>, tensor<?xi32>
    %4 = ew.div %3, %arg2 : tensor<?xi32>, i32
    %5 = ew.cast %arg0 : tensor<?xi32> to tensor<?xi64>
    %6 = ew.cast %arg1 : tensor<?xi32> to tensor<?xi64>
    %7 = ew.mul %5, %6 : tensor<?xi64>, tensor<?xi64>
    ew.return %2, %4, %7 : tensor<?xi32>, tensor<?xi32>, tensor<?xi64>
  }
}

