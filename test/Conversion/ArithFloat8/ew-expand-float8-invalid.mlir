// RUN: ewc-opt %s --split-input-file --ew-expand-float8 --verify-diagnostics

// ew-expand-float8's errors: the ew lowering converts 8-bit floats from and
// to f32 only, and anything else would fail later in LLVM without a word.

func.func @from_f64(%x: f64) -> f8E4M3FN {
  // expected-error @+1 {{'arith.truncf' op converts an 8-bit float from or to another type than f32, which ew-expand-float8 does not lower}}
  %y = arith.truncf %x : f64 to f8E4M3FN
  return %y : f8E4M3FN
}

// -----

func.func @to_f16(%x: f8E5M2) -> f16 {
  // expected-error @+1 {{'arith.extf' op converts an 8-bit float from or to another type than f32, which ew-expand-float8 does not lower}}
  %y = arith.extf %x : f8E5M2 to f16
  return %y : f16
}
