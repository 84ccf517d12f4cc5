// RUN: ewc-opt %s --ew-to-ptx | %python %S/Inputs/extract-ptx.py \
// RUN:   | FileCheck %s --enable-var-scope --implicit-check-not=__nv_ \
// RUN:       --implicit-check-not=.extern --implicit-check-not=call
// NVVM's serializer also looks for a toolkit's libdevice where CUDA_HOME,
// CUDA_PATH or CUDA_ROOT point; ewc links its own, so variables that name no
// toolkit change nothing and print nothing.
// RUN: env CUDA_HOME=%t.none CUDA_PATH=%t.none CUDA_ROOT=%t.none \
// RUN:   ewc-opt %s --ew-to-ptx 2> %t.err | %python %S/Inputs/extract-ptx.py \
// RUN:   | FileCheck %s --enable-var-scope --implicit-check-not=__nv_
// RUN: count 0 < %t.err

// Math functions on the GPU: convert-gpu-to-nvvm calls libdevice for them
// (__nv_expf, ...), and ew-nvvm-to-ptx links the libdevice embedded in ewc and
// inlines it, so no call, no .extern and no __nv_ name is left in the PTX.
// Evidence of the inlined bodies: expf's ex2.approx, the libdevice core of
// exp, log, tanh, erf and sigmoid. sqrt and 1/sqrt (rsqrt: rcp.rn, the
// correctly rounded reciprocal, or div.rn) are correctly rounded, bf16 rounds
// with cvt.rn.

// CHECK-LABEL: .visible .entry ew$math(
// CHECK-DAG:   ex2.approx.ftz.f32
// CHECK-DAG:   sqrt.rn.f32 %[[ROOT:r[0-9]+]],
// CHECK-DAG:   {{(rcp|div)}}.rn.f32 %{{r[0-9]+}}, {{.*}}%[[ROOT]];
// CHECK-DAG:   cvt.rn.bf16.f32
// CHECK:       ret;
ew.kernel @math(%x: !ew.tensor<[n], f32>, %d: !ew.tensor<[n], f64>, %h: !ew.tensor<[n], bf16>, %i: !ew.tensor<[n], i64>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f64>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i64>) {
  %0 = ew.exp %x : !ew.tensor<[n], f32>
  %1 = ew.log %0 : !ew.tensor<[n], f32>
  %2 = ew.tanh %1 : !ew.tensor<[n], f32>
  %3 = ew.erf %2 : !ew.tensor<[n], f32>
  %4 = ew.rsqrt %3 : !ew.tensor<[n], f32>
  %5 = ew.sigmoid %4 : !ew.tensor<[n], f32>
  %6 = ew.exp %d : !ew.tensor<[n], f64>
  %7 = ew.log %6 : !ew.tensor<[n], f64>
  %8 = ew.tanh %7 : !ew.tensor<[n], f64>
  %9 = ew.erf %8 : !ew.tensor<[n], f64>
  %10 = ew.exp %h : !ew.tensor<[n], bf16>
  %11 = ew.abs %i : !ew.tensor<[n], i64>
  ew.return %5, %9, %10, %11 : !ew.tensor<[n], f32>, !ew.tensor<[n], f64>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i64>
}

// No contraction: a * b + c stays a rounded multiply and a rounded add (the
// .rn suffix also keeps ptxas from fusing them), f32 division is div.rn and
// sqrt is sqrt.rn, none of the approximate forms.
// CHECK-LABEL: .visible .entry ew$ieee(
// CHECK-NOT:   fma
// CHECK:       mul.rn.f32 %[[P:r[0-9]+]], %[[A:r[0-9]+]], %[[B:r[0-9]+]];
// CHECK-NEXT:  add.rn.f32 %{{r[0-9]+}}, %[[P]], %[[C:r[0-9]+]];
// CHECK-NEXT:  div.rn.f32 %{{r[0-9]+}}, %[[A]], %[[B]];
// CHECK-NEXT:  sqrt.rn.f32 %{{r[0-9]+}}, %[[C]];
// CHECK-NOT:   fma
// CHECK:       ret;
ew.kernel @ieee(%a: !ew.tensor<[n], f32>, %b: !ew.tensor<[n], f32>, %c: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.mul %a, %b : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %1 = ew.add %0, %c : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %2 = ew.div %a, %b : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %3 = ew.sqrt %c : !ew.tensor<[n], f32>
  ew.return %1, %2, %3 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// Rounding to integral values is one PTX conversion each: floor cvt.rmi
// (__nv_floorf, inlined), ceil cvt.rpi, trunc cvt.rzi (llvm.trunc), round
// cvt.rni (__nv_rintf: ties to even), in f32 and f64; none is a call.
// CHECK-LABEL: .visible .entry ew$rounding(
// CHECK-DAG:   cvt.rmi.f32.f32
// CHECK-DAG:   cvt.rpi.f32.f32
// CHECK-DAG:   cvt.rzi.f32.f32
// CHECK-DAG:   cvt.rni.f32.f32
// CHECK-DAG:   cvt.rmi.f64.f64
// CHECK-DAG:   cvt.rpi.f64.f64
// CHECK-DAG:   cvt.rzi.f64.f64
// CHECK-DAG:   cvt.rni.f64.f64
// CHECK:       ret;
ew.kernel @rounding(%x: !ew.tensor<[n], f32>, %d: !ew.tensor<[n], f64>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f64>) {
  %0 = ew.floor %x : !ew.tensor<[n], f32>
  %1 = ew.ceil %x : !ew.tensor<[n], f32>
  %2 = ew.trunc %x : !ew.tensor<[n], f32>
  %3 = ew.round %x : !ew.tensor<[n], f32>
  %4 = ew.add %0, %1 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %5 = ew.add %2, %3 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %6 = ew.add %4, %5 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %7 = ew.floor %d : !ew.tensor<[n], f64>
  %8 = ew.ceil %d : !ew.tensor<[n], f64>
  %9 = ew.trunc %d : !ew.tensor<[n], f64>
  %10 = ew.round %d : !ew.tensor<[n], f64>
  %11 = ew.add %7, %8 : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %12 = ew.add %9, %10 : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %13 = ew.add %11, %12 : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  ew.return %6, %13 : !ew.tensor<[n], f32>, !ew.tensor<[n], f64>
}

// The functions of libm's are libdevice's too, inlined (no call, no __nv_
// name: the implicit checks above), f64 and bf16 alike; pow with the
// constant exponent 2 is one rounded multiply.
// CHECK-LABEL: .visible .entry ew$libm(
// CHECK-DAG:   mul.rn.f32 %[[SQ:r[0-9]+]], %[[B:r[0-9]+]], %[[B]];
// CHECK-DAG:   cvt.rn.bf16.f32
// CHECK:       ret;
ew.kernel @libm(%x: !ew.tensor<[n], f32>, %d: !ew.tensor<[n], f64>, %h: !ew.tensor<[n], bf16>, %b: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f64>, !ew.tensor<[n], bf16>, !ew.tensor<[n], f32>) {
  %0 = ew.sin %x : !ew.tensor<[n], f32>
  %1 = ew.expm1 %0 : !ew.tensor<[n], f32>
  %2 = ew.log1p %1 : !ew.tensor<[n], f32>
  %3 = ew.atan2 %2, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %4 = ew.pow %3, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %5 = ew.erfc %4 : !ew.tensor<[n], f32>
  %6 = ew.cos %d : !ew.tensor<[n], f64>
  %7 = ew.acosh %6 : !ew.tensor<[n], f64>
  %8 = ew.tan %h : !ew.tensor<[n], bf16>
  %two = ew.constant 2.0 : f32
  %9 = ew.pow %b, %two : !ew.tensor<[n], f32>, f32
  ew.return %5, %7, %8, %9 : !ew.tensor<[n], f32>, !ew.tensor<[n], f64>, !ew.tensor<[n], bf16>, !ew.tensor<[n], f32>
}

// fma, asked for, is one fma.rn (the only one: ew never contracts on its
// own); an integer remainder is one rem.s32 by the guarded divisor.
// CHECK-LABEL: .visible .entry ew$fused(
// CHECK-DAG:   fma.rn.f32
// CHECK-DAG:   rem.s32
// CHECK:       ret;
ew.kernel @fused(%a: !ew.tensor<[n], f32>, %b: !ew.tensor<[n], f32>, %k: !ew.tensor<[n], i32>, %j: !ew.tensor<[n], i32>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i32>) {
  %0 = ew.fma %a, %b, %a : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %1 = ew.remainder %k, %j : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %0, %1 : !ew.tensor<[n], f32>, !ew.tensor<[n], i32>
}
