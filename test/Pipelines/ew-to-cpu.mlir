// RUN: ewc-opt %s --ew-to-cpu | FileCheck %s --enable-var-scope

// The CPU pipeline, exactly as ewc-run runs it: an LLVM-dialect function
// with the plain ABI and a loop over n, nothing left of ew, scf or arith.

// CHECK-LABEL: llvm.func @leaky_relu(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr, %[[S:.*]]: f32, %[[OUT:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:         llvm.icmp "slt" %{{.*}}, %[[N]] : i64
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         %[[K:.*]] = llvm.fcmp "oge" %[[V]], %{{.*}} : f32
// CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[S]], %[[V]] : f32
// CHECK-NEXT:    %[[R:.*]] = llvm.select %[[K]], %[[V]], %[[M]] : i1, f32
// CHECK:         llvm.store %[[R]], %{{.*}} : f32, !llvm.ptr
// CHECK:         llvm.return
// CHECK-NOT:   {{ew\.|scf\.|arith\.|unrealized}}
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}
