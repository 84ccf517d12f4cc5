// RUN: ewc-opt %s --ew-to-ptx | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s

// bf16 operands reach the f32 ops with their own range. LLVM 22's
// InstCombine rewrote fptrunc(fdiv(fpext bf16 x, fpext bf16 x)) to half as a
// division in half, so x = 2^-126 or 3.4e38 became 0 or inf before dividing
// and f16(x / x) gave NaN on the H200 (found by ewc-fuzz, 2026-11-30). With
// the extension as integer code (a shift), the division stays in f32 and
// the only f16 conversion is the result's.

// CHECK-LABEL: .entry ew$div_to_f16(
// CHECK:         ld.global.b16 [[X:%r[0-9]+]]
// CHECK-NOT:     cvt.rn.f16.f32
// CHECK:         shl.b32 [[W:%r[0-9]+]], [[X]], 16;
// CHECK-NOT:     cvt.rn.f16.f32
// CHECK:         div.rn.f32 [[Q:%r[0-9]+]], [[W]], [[W]];
// CHECK-NEXT:    cvt.rn.f16.f32 {{%rs[0-9]+}}, [[Q]];
ew.kernel @div_to_f16(%x: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], f16> {
  %0 = ew.cast %x : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %1 = ew.div %0, %0 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %2 = ew.cast %1 : !ew.tensor<[n], f32> to !ew.tensor<[n], f16>
  ew.return %2 : !ew.tensor<[n], f16>
}

// The other rewrite: fpext(fptrunc(sitofp(fptosi(fpext bf16 x))) to half)
// lost the rounding to half, so f16(i32(x)) of x = -3.4e38 was -2^31
// instead of -inf. The integer converts straight to f16 (cvt.rn.f16.s32,
// which overflows to infinity as it must), and integers from 65520 on are
// set to the infinities explicitly (Cast.cpp), which holds whatever
// InstCombine makes of the conversion.
// CHECK-LABEL: .entry ew$int_to_f16(
// CHECK:         cvt.rzi.s32.f32
// CHECK:         cvt.rn.f16.s32 {{%rs[0-9]+}}, [[I:%r[0-9]+]];
// CHECK-DAG:     setp.gt.s32 {{%p[0-9]+}}, [[I]], 65519;
// CHECK-DAG:     setp.lt.s32 {{%p[0-9]+}}, [[I]], -65519;
ew.kernel @int_to_f16(%x: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], f16> {
  %0 = ew.cast %x : !ew.tensor<[n], bf16> to !ew.tensor<[n], i32>
  %1 = ew.cast %0 : !ew.tensor<[n], i32> to !ew.tensor<[n], f16>
  %2 = ew.mul %1, %1 : !ew.tensor<[n], f16>, !ew.tensor<[n], f16>
  ew.return %2 : !ew.tensor<[n], f16>
}
