module {
  ew.kernel @int_ops(%arg0: !ew.tensor<[n], i32>, %arg1: !ew.tensor<[n], i32>, %arg2: i32 {ew.default = 7 : i32}) -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i64>) {
    %0 = ew.abs %arg0 : !ew.tensor<[n], i32>
    %1 = ew.max %arg1, %arg2 : !ew.tensor<[n], i32>, i32
    %2 = ew.add %0, %1 : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
    %3 = ew.min %arg0, %arg1 : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
    %4 = ew.div %3, %arg2 : !ew.tensor<[n], i32>, i32
    %5 = ew.cast %arg0 : !ew.tensor<[n], i32> to !ew.tensor<[n], i64>
    %6 = ew.cast %arg1 : !ew.tensor<[n], i32> to !ew.tensor<[n], i64>
    %7 = ew.mul %5, %6 : !ew.tensor<[n], i64>, !ew.tensor<[n], i64>
    ew.return %2, %4, %7 : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i64>
  }
}

