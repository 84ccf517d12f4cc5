module {
  ew.kernel @batch_bias(%arg0: !ew.tensor<[..., n], bf16>, %arg1: !ew.tensor<[n], bf16>) -> !ew.tensor<[..., n], bf16> {
    %0 = ew.cast %arg0 : !ew.tensor<[..., n], bf16> to !ew.tensor<[..., n], f32>
    %1 = ew.cast %arg1 : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
    %2 = ew.broadcast %1 : <[n], f32> to <[..., n], f32>
    %3 = ew.add %0, %2 : !ew.tensor<[..., n], f32>, !ew.tensor<[..., n], f32>
    %4 = ew.cast %3 : !ew.tensor<[..., n], f32> to !ew.tensor<[..., n], bf16>
    ew.return %4 : !ew.tensor<[..., n], bf16>
  }
}

