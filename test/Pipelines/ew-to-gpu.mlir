// RUN: ewc-opt %s --ew-to-gpu | FileCheck %s --enable-var-scope

// Stage 1 of ew-to-ptx: ew cleanup (canonicalize, cse), gpu.func kernels
// (convert-ew-to-gpu), and their layouts realized (ew-vectorize-gpu-loops).
// The duplicated constant and multiply are merged by cse before lowering, so
// each point of the vector loop has one mulf: four for its four points.

// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @ew$leaky_relu(
// CHECK-SAME:    %{{[^:]*}}: memref<?xf32, strided<[1], offset: ?>, 1>, %[[S:[^:]*]]: f32, %{{[^:]*}}: memref<?xf32, strided<[1], offset: ?>, 1>) kernel
// CHECK-SAME:    elements_per_thread = 4
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:             vector.load
// CHECK-COUNT-4:     arith.mulf %[[S]]
// CHECK-NOT:         arith.mulf
// CHECK:             vector.store
// CHECK-NEXT:      } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
// CHECK:         gpu.return
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %zero2 = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %neg2 = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %keep2 = ew.cmp ge, %x, %zero2 : !ew.tensor<[n], f32>, f32
  %r = ew.where %keep2, %x, %neg2 : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}
