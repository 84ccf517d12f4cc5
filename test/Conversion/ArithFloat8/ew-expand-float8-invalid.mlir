// RUN: ewc-opt %s --ew-expand-float8 --verify-diagnostics

// ew-expand-float8's error: f64 would round twice through f32 (the ew
// lowering rounds it to odd in f32 first), and left alone it would fail
// later in LLVM without a word.

func.func @from_f64(%x: f64) -> f8E4M3FN {
  // expected-error @+1 {{'arith.truncf' op rounds f64 to an 8-bit float, which ew-expand-float8 does not lower (the ew lowering rounds f64 to odd in f32 first)}}
  %y = arith.truncf %x : f64 to f8E4M3FN
  return %y : f8E4M3FN
}
