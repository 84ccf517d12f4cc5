// RUN: ewc-opt %s --ew-gpu-to-nvvm | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s --ew-gpu-to-nvvm="chip=sm_80 features=+ptx75" | FileCheck %s --check-prefix=CHIP
// RUN: ewc-opt %s --ew-gpu-to-nvvm | FileCheck %s --check-prefix=CHECK-LOWERED

// Stage 2 of ew-to-ptx: the target attribute, then NVVM and LLVM dialects
// with 64-bit index arithmetic and global-space loads and stores.

// O = 2 (ewc's opt-level, Pipelines.h) is the attribute's default: not printed.
// CHECK:       gpu.module @ewc_kernels [#nvvm.target<chip = "sm_90">]
// CHIP:        gpu.module @ewc_kernels [#nvvm.target<chip = "sm_80", features = "+ptx75">]
// CHECK-LABEL: llvm.func @scale(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr<1>, %[[S:.*]]: f32, %[[OUT:.*]]: !llvm.ptr<1>, %[[N:.*]]: i64)
// CHECK-SAME:    attributes {gpu.kernel, nvvm.kernel}
// CHECK-DAG:     nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-DAG:     nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-DAG:     nvvm.read.ptx.sreg.tid.x : i32
// CHECK-DAG:     nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK:         llvm.icmp "slt" %{{.*}}, %[[N]] : i64
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %[[X]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[R:.*]] = llvm.fmul %[[S]], %[[V]] : f32
// CHECK:         llvm.store %[[R]], %{{.*}} : f32, !llvm.ptr<1>
// Nothing is left of the dialects before LLVM's and NVVM's, anywhere.
// CHECK-LOWERED-NOT: {{scf\.|arith\.|gpu\.func|gpu\.return|gpu\.block|gpu\.thread|gpu\.grid|unrealized}}
module attributes {gpu.container_module} {
  gpu.module @ewc_kernels {
    gpu.func @scale(%x: !llvm.ptr<1>, %s: f32, %out: !llvm.ptr<1>, %n: i64) kernel {
      %bid = gpu.block_id x
      %b = arith.index_castui %bid : index to i64
      %bdim = gpu.block_dim x
      %d = arith.index_castui %bdim : index to i64
      %tid = gpu.thread_id x
      %t = arith.index_castui %tid : index to i64
      %gdim = gpu.grid_dim x
      %g = arith.index_castui %gdim : index to i64
      %0 = arith.muli %b, %d : i64
      %start = arith.addi %0, %t : i64
      %step = arith.muli %g, %d : i64
      scf.for %i = %start to %n step %step : i64 {
        %p = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %v = llvm.load %p : !llvm.ptr<1> -> f32
        %r = arith.mulf %s, %v : f32
        %q = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        llvm.store %r, %q : f32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}
