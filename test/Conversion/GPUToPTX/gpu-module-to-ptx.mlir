// RUN: ewc-opt %s --gpu-module-to-ptx | %python %S/../../Pipelines/Inputs/extract-ptx.py \
// RUN:   | FileCheck %s --check-prefixes=CHECK,CHECK-OPT \
// RUN:       --implicit-check-not=.func --implicit-check-not=call --implicit-check-not=bra.uni \
// RUN:       '--implicit-check-not=_$_str'
// Empty llvm-passes: LLVM's default<O3> (the target's O), as upstream runs.
// RUN: ewc-opt %s --gpu-module-to-ptx='llvm-passes=' | %python %S/../../Pipelines/Inputs/extract-ptx.py \
// RUN:   | FileCheck %s --check-prefixes=CHECK,CHECK-OPT \
// RUN:       --implicit-check-not=.func --implicit-check-not=call --implicit-check-not=bra.uni \
// RUN:       '--implicit-check-not=_$_str'
// Any other pipeline is run as given: inlining alone leaves libdevice's
// string and the loop as MLIR built it.
// RUN: ewc-opt %s --gpu-module-to-ptx='llvm-passes=always-inline' | %python %S/../../Pipelines/Inputs/extract-ptx.py \
// RUN:   | FileCheck %s --check-prefixes=CHECK,CHECK-INLINE --implicit-check-not=.func --implicit-check-not=call
// The gpu.binary keeps the target and records its O, as upstream's does.
// RUN: ewc-opt %s --gpu-module-to-ptx | FileCheck %s --check-prefix=CHECK-BINARY

// gpu-module-to-ptx links the libdevice embedded in ewc where a kernel calls
// it, then runs ewc's LLVM passes (kKernelLLVMPasses) before NVPTX: expf is
// inlined (its ex2.approx in the kernel, no call, no .func), the
// __nvvm_reflect string that libdevice brings is dropped, and the loop is
// rotated, so that each iteration ends in one conditional branch back.

// CHECK-BINARY:     gpu.binary @ewc_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {O = 3 : i32}, assembly = "
// CHECK-BINARY-NOT: gpu.module

// CHECK-INLINE:     .global .align 1 .b8 _$_str
// CHECK:            .visible .entry exp_k(
// CHECK-OPT:        $L__BB0_[[LOOP:[0-9]+]]:
// CHECK:            ld.global.b32
// CHECK:            ex2.approx
// CHECK:            st.global.b32
// CHECK-OPT-NEXT:   add.s64
// CHECK-OPT-NEXT:   add.s64
// CHECK-OPT-NEXT:   setp.lt.s64 %p[[MORE:[0-9]+]],
// CHECK-OPT-NEXT:   @%p[[MORE]] bra $L__BB0_[[LOOP]];
// CHECK-INLINE:     bra.uni
module attributes {gpu.container_module} {
  gpu.module @ewc_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @exp_k(%x: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i64) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %start = llvm.sext %tid : i32 to i64
      %ntid = nvvm.read.ptx.sreg.ntid.x : i32
      %step = llvm.sext %ntid : i32 to i64
      llvm.br ^header(%start : i64)
    ^header(%i: i64):
      %more = llvm.icmp "slt" %i, %n : i64
      llvm.cond_br %more, ^body, ^exit
    ^body:
      %p = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %v = llvm.load %p : !llvm.ptr<1> -> f32
      %e = llvm.call @__nv_expf(%v) : (f32) -> f32
      %q = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      llvm.store %e, %q : f32, !llvm.ptr<1>
      %next = llvm.add %i, %step : i64
      llvm.br ^header(%next : i64)
    ^exit:
      llvm.return
    }
  }
}
