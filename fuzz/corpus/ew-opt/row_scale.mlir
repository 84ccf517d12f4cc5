module {
  ew.kernel @row_scale(%arg0: !ew.tensor<[m, n], f32>, %arg1: !ew.tensor<[m], f32>) -> !ew.tensor<[m, n], f32> {
    %0 = ew.broadcast %arg1 : <[m], f32> to <[m, n], f32>
    %1 = ew.mul %arg0, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    ew.return %1 : !ew.tensor<[m, n], f32>
  }
}

