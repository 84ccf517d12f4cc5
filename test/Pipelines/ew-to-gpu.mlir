// RUN: ewc-opt %s --ew-to-gpu | FileCheck %s --enable-var-scope

// Stage 1 of ew-to-ptx: ew cleanup (canonicalize, cse), gpu.func kernels
// (convert-ew-to-gpu), and their layouts realized (ew-vectorize-gpu-loops).
// Each value is computed once per point. The kernel has two copies of its
// compare, multiply and select, each used (canonicalize keeps both): the
// pipeline's cse merges them before lowering, and ew-vectorize-gpu-loops's
// own cse (the index arithmetic of its versions) would merge what was left;
// so four cmpf and four mulf for the vector loop's four points, and the sum
// adds the one select to itself. Without either cse, eight of each.

// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @ew$leaky_relu(
// CHECK-SAME:    %{{[^:]*}}: memref<?xf32, strided<[1], offset: ?>, 1>, %[[S:[^:]*]]: f32, %{{[^:]*}}: memref<?xf32, strided<[1], offset: ?>, 1>) kernel
// CHECK-SAME:    elements_per_thread = 4
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:             vector.load
// CHECK-COUNT-4:     arith.mulf %[[S]]
// CHECK-NOT:         arith.mulf
// CHECK-NOT:         arith.cmpf
// CHECK:             vector.from_elements
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
  %r1 = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %r2 = ew.where %keep2, %x, %neg2 : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %r = ew.add %r1, %r2 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}
