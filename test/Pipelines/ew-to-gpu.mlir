// RUN: ewc-opt %s --ew-to-gpu | FileCheck %s --enable-var-scope

// Stage 1 of ew-to-ptx: ew cleanup (canonicalize, cse), then gpu.func
// kernels. The duplicated constant and multiply are merged by cse before
// lowering, so the element code has one mulf.

// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @ew$leaky_relu(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1>, %[[S:.*]]: f32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64) kernel
// CHECK:         scf.for
// CHECK-DAG:       arith.cmpf oge
// CHECK-DAG:       arith.mulf %[[S]]
// CHECK-NOT:       arith.mulf
// CHECK:           arith.select
// CHECK:         gpu.return
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  %zero = ew.constant 0.0 : f32
  %zero2 = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %neg2 = ew.mul %slope, %x : f32, tensor<?xf32>
  %keep2 = ew.cmp ge, %x, %zero2 : tensor<?xf32>, f32
  %r = ew.where %keep2, %x, %neg2 : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}
