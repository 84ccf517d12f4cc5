module {
  ew.kernel @transpose_add(%arg0: !ew.tensor<[m, n], f32>, %arg1: !ew.tensor<[n, m], f32>) -> !ew.tensor<[m, n], f32> {
    %0 = ew.broadcast %arg1 : <[n, m], f32> to <[m, n], f32>
    %1 = ew.add %arg0, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    ew.return %1 : !ew.tensor<[m, n], f32>
  }
}

