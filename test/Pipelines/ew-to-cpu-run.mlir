// REQUIRES: llvm-jit-tools
// RUN: ewc-opt %s --ew-to-cpu | %mlir-translate --mlir-to-llvmir > %t.kernels.ll
// RUN: %llvm-link %t.kernels.ll %S/Inputs/cpu-run-main.ll -S -o %t.ll
// RUN: %lli -mcpu=x86-64 %t.ll | FileCheck %s

// The CPU pipeline's numerics, run on a baseline x86-64 (no AVX512-BF16, as
// on some machines that run ewc): integer division never traps, casts
// saturate and round once, and the math functions' libm symbols resolve in
// the JIT. Inputs/cpu-run-main.ll holds the inputs and prints the results.

// 7/2, -7/2, 5/0, INT_MIN/-1, INT_MIN/1, 0/0 (SIGFPE if any division traps).
// CHECK: 3 -3 0 -2147483648 -2147483648 0
ew.kernel @div(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %0 = ew.div %a, %b : tensor<?xi32>, tensor<?xi32>
  ew.return %0 : tensor<?xi32>
}

// 2.75, -2.75, 1e10, -1e10, NaN, -0.0 to i32: truncation, saturation, NaN 0.
// CHECK-NEXT: 2 -2 2147483647 -2147483648 0 0
ew.kernel @to_int(%x: tensor<?xf32>) -> tensor<?xi32> {
  %0 = ew.cast %x : tensor<?xf32> to tensor<?xi32>
  ew.return %0 : tensor<?xi32>
}

// f64 to bf16 rounds once: 1 + 2^-8 + 2^-30 is just above the tie between
// 1.0 (3f80) and 1.0078125 (3f81), so 3f81 (via f32 with two nearest-even
// roundings it would be 3f80); the tie 1 + 2^-8 itself goes to even 3f80;
// 1e300 overflows to inf, NaN stays NaN, -0.0 and 3.0 are exact.
// CHECK-NEXT: 3f81 3f80 7f80 7fc0 8000 4040
ew.kernel @to_bf16(%d: tensor<?xf64>) -> tensor<?xbf16> {
  %0 = ew.cast %d : tensor<?xf64> to tensor<?xbf16>
  ew.return %0 : tensor<?xbf16>
}

// sqrt(2) correctly rounded, rsqrt(0) = inf, exp(0) = 1, sigmoid(0) = 0.5,
// tanh(0) = 0, erf(0) = 0; then log(0) = -inf, log(2) (to a few ulps) and
// sigmoid(-95), the subnormal e^-95 (0 if exp(95) overflowed).
// CHECK-NEXT: 3fb504f3 7f800000 3f800000 3f000000 0 0
// CHECK-NEXT: ff800000 3f31721{{[0-9a-f]}} f64 0 0 0
ew.kernel @math(%y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = ew.sqrt %y : tensor<?xf32>
  %1 = ew.rsqrt %y : tensor<?xf32>
  %2 = ew.exp %y : tensor<?xf32>
  %3 = ew.sigmoid %y : tensor<?xf32>
  %4 = ew.tanh %y : tensor<?xf32>
  %5 = ew.erf %y : tensor<?xf32>
  %6 = ew.log %y : tensor<?xf32>
  ew.return %0, %1, %2, %3, %4, %5, %6 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
