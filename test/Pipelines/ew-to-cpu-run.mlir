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
ew.kernel @div(%a: !ew.tensor<[n], i32>, %b: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  %0 = ew.div %a, %b : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i32>
}

// 2.75, -2.75, 1e10, -1e10, NaN, -0.0 to i32: truncation, saturation, NaN 0.
// CHECK-NEXT: 2 -2 2147483647 -2147483648 0 0
ew.kernel @to_int(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], i32> {
  %0 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i32>
}

// f64 to bf16 rounds once: 1 + 2^-8 + 2^-30 is just above the tie between
// 1.0 (3f80) and 1.0078125 (3f81), so 3f81 (via f32 with two nearest-even
// roundings it would be 3f80); the tie 1 + 2^-8 itself goes to even 3f80;
// 1e300 overflows to inf, NaN stays NaN, -0.0 and 3.0 are exact.
// CHECK-NEXT: 3f81 3f80 7f80 7fc0 8000 4040
ew.kernel @to_bf16(%d: !ew.tensor<[n], f64>) -> !ew.tensor<[n], bf16> {
  %0 = ew.cast %d : !ew.tensor<[n], f64> to !ew.tensor<[n], bf16>
  ew.return %0 : !ew.tensor<[n], bf16>
}

// sqrt(2) correctly rounded, rsqrt(0) = inf, exp(0) = 1, sigmoid(0) = 0.5,
// tanh(0) = 0, erf(0) = 0; then log(0) = -inf, log(2) (to a few ulps) and
// sigmoid(-95), the subnormal e^-95 (0 if exp(95) overflowed).
// CHECK-NEXT: 3fb504f3 7f800000 3f800000 3f000000 0 0
// CHECK-NEXT: ff800000 3f31721{{[0-9a-f]}} f64 0 0 0
ew.kernel @math(%y: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.sqrt %y : !ew.tensor<[n], f32>
  %1 = ew.rsqrt %y : !ew.tensor<[n], f32>
  %2 = ew.exp %y : !ew.tensor<[n], f32>
  %3 = ew.sigmoid %y : !ew.tensor<[n], f32>
  %4 = ew.tanh %y : !ew.tensor<[n], f32>
  %5 = ew.erf %y : !ew.tensor<[n], f32>
  %6 = ew.log %y : !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3, %4, %5, %6 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}
