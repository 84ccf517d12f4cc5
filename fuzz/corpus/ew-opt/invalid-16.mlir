

func.func @cast_to_tensor(%s: f32) {
  // expected-error @+1 {{'ew.cast' op if a result is non-scalar, then at least one operand must be non-scalar}}
  %0 = ew.cast %s : f32 to tensor<?xbf16>
  return
}

