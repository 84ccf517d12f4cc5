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
ew.kernel @math(%x: tensor<?xf32>, %d: tensor<?xf64>, %h: tensor<?xbf16>, %i: tensor<?xi64>)
    -> (tensor<?xf32>, tensor<?xf64>, tensor<?xbf16>, tensor<?xi64>) {
  %0 = ew.exp %x : tensor<?xf32>
  %1 = ew.log %0 : tensor<?xf32>
  %2 = ew.tanh %1 : tensor<?xf32>
  %3 = ew.erf %2 : tensor<?xf32>
  %4 = ew.rsqrt %3 : tensor<?xf32>
  %5 = ew.sigmoid %4 : tensor<?xf32>
  %6 = ew.exp %d : tensor<?xf64>
  %7 = ew.log %6 : tensor<?xf64>
  %8 = ew.tanh %7 : tensor<?xf64>
  %9 = ew.erf %8 : tensor<?xf64>
  %10 = ew.exp %h : tensor<?xbf16>
  %11 = ew.abs %i : tensor<?xi64>
  ew.return %5, %9, %10, %11 : tensor<?xf32>, tensor<?xf64>, tensor<?xbf16>, tensor<?xi64>
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
ew.kernel @ieee(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = ew.mul %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = ew.add %0, %c : tensor<?xf32>, tensor<?xf32>
  %2 = ew.div %a, %b : tensor<?xf32>, tensor<?xf32>
  %3 = ew.sqrt %c : tensor<?xf32>
  ew.return %1, %2, %3 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
