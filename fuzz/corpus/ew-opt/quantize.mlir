module {
  ew.kernel @quantize(%arg0: !ew.tensor<[n], f32>, %arg1: f32 {ew.default = 5.000000e-02 : f32}) -> (!ew.tensor<[n], i32>, !ew.tensor<[n], f32>) {
    %0 = ew.div %arg0, %arg1 : !ew.tensor<[n], f32>, f32
    %1 = ew.constant -1.280000e+02 : f32
    %2 = ew.constant 1.270000e+02 : f32
    %3 = ew.max %0, %1 : !ew.tensor<[n], f32>, f32
    %4 = ew.min %3, %2 : !ew.tensor<[n], f32>, f32
    %5 = ew.cast %4 : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
    %6 = ew.cast %5 : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
    %7 = ew.mul %6, %arg1 : !ew.tensor<[n], f32>, f32
    ew.return %5, %7 : !ew.tensor<[n], i32>, !ew.tensor<[n], f32>
  }
}

