module {
  ew.kernel @silu(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.sigmoid %arg0 : !ew.tensor<[n], f32>
    %1 = ew.mul %arg0, %0 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ew.return %1 : !ew.tensor<[n], f32>
  }
}

