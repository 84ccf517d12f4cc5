func.func private @batch_not_first(%x: !ew.tensor<[n, ...], f32>)
