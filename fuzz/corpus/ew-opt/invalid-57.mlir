func.func private @extent(%x: !ew.tensor<[4], f32>)
