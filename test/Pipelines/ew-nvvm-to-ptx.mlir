// RUN: ewc-opt %s --ew-nvvm-to-ptx | FileCheck %s

// Stage 3 of ew-to-ptx: the NVVM module becomes a gpu.binary whose object
// is PTX text (format isa) for the target's chip and PTX version.

// CHECK:     gpu.binary @ewc_kernels
// CHECK-SAME:  #gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME:  assembly = "
// CHECK-SAME:  .version 8.0
// CHECK-SAME:  .target sm_90
// CHECK-SAME:  .address_size 64
// CHECK-SAME:  .visible .entry copy(
// CHECK-SAME:  ld.global.b32
// CHECK-SAME:  st.global.b32
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @ewc_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
    llvm.func @copy(%x: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i64) attributes {gpu.kernel, nvvm.kernel} {
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %1 = llvm.sext %0 : i32 to i64
      %2 = llvm.icmp "slt" %1, %n : i64
      llvm.cond_br %2, ^bb1, ^bb2
    ^bb1:
      %p = llvm.getelementptr inbounds %x[%1] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %v = llvm.load %p : !llvm.ptr<1> -> f32
      %q = llvm.getelementptr inbounds %out[%1] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      llvm.store %v, %q : f32, !llvm.ptr<1>
      llvm.br ^bb2
    ^bb2:
      llvm.return
    }
  }
}
