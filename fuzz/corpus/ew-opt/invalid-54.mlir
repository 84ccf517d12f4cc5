func.func private @twice(%x: !ew.tensor<[n, m, n], f32>)
