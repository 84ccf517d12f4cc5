func.func private @empty_name(%x: !ew.tensor<[""], f32>)
