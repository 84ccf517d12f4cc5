module {
  ew.kernel @outer_add(%arg0: !ew.tensor<[m], f32>, %arg1: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
    %0 = ew.broadcast %arg0 : <[m], f32> to <[m, n], f32>
    %1 = ew.broadcast %arg1 : <[n], f32> to <[m, n], f32>
    %2 = ew.add %0, %1 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
    ew.return %2 : !ew.tensor<[m, n], f32>
  }
}

