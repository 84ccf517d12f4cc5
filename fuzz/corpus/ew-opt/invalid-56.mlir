func.func private @i8_element(%x: !ew.tensor<[n], i8>)
