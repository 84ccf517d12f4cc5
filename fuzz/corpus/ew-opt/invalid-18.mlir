

func.func @cast_to_i8(%x: tensor<?xf32>) {
  // expected-error @+1 {{'ew.cast' op result #0 must be ew tensor or scalar, but got 'tensor<?xi8>'}}
  %0 = ew.cast %x : tensor<?xf32> to tensor<?xi8>
  return
}

