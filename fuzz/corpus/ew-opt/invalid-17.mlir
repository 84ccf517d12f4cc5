

func.func @cast_to_scalar(%x: tensor<?xf32>) {
  // expected-error @+1 {{'ew.cast' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = ew.cast %x : tensor<?xf32> to i32
  return
}

