// RUN: ewc-opt %s -convert-ew-to-loops -split-input-file | FileCheck %s --enable-var-scope

// The CPU form: the same ABI in address space 0, and a loop from 0 to n.

// CHECK-LABEL: func.func @leaky_relu(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr, %[[S:.*]]: f32, %[[OUT:.*]]: !llvm.ptr, %[[N:.*]]: i64) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] : i64 {
// CHECK-NEXT:      %[[PX:.*]] = llvm.getelementptr inbounds %[[X]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:      %[[V:.*]] = llvm.load %[[PX]] : !llvm.ptr -> f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[K:.*]] = arith.cmpf oge, %[[V]], %[[Z]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[S]], %[[V]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[K]], %[[V]], %[[M]] : f32
// CHECK-NEXT:      %[[PO:.*]] = llvm.getelementptr inbounds %[[OUT]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:      llvm.store %[[R]], %[[PO]] : f32, !llvm.ptr
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:   ew.
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}

// -----

// Scalar-only ops stay in the loop body on scalars (LLVM's LICM hoists
// them); the tensor result gets a store per element.
// CHECK-LABEL: func.func @scalar_math(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr, %[[A:.*]]: i64, %[[B:.*]]: i64, %[[OUT:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[PX:.*]] = llvm.getelementptr inbounds %[[X]][%[[I]]]
// CHECK-NEXT:      %[[V:.*]] = llvm.load %[[PX]] : !llvm.ptr -> i64
// CHECK-NEXT:      %[[AB:.*]] = arith.addi %[[A]], %[[B]] : i64
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[V]], %[[AB]] : i64
// CHECK-NEXT:      %[[P:.*]] = llvm.getelementptr inbounds %[[OUT]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:      llvm.store %[[R]], %[[P]] : i64, !llvm.ptr
ew.kernel @scalar_math(%x: tensor<?xi64>, %a: i64, %b: i64) -> tensor<?xi64> {
  %0 = ew.add %a, %b : i64, i64
  %1 = ew.sub %x, %0 : tensor<?xi64>, i64
  ew.return %1 : tensor<?xi64>
}

// -----

// A kernel may return a parameter unchanged: a copy.
// CHECK-LABEL: func.func @copy(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr, %[[OUT:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:           %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK-NEXT:      %[[P:.*]] = llvm.getelementptr inbounds %[[OUT]]
// CHECK-NEXT:      llvm.store %[[V]], %[[P]] : bf16, !llvm.ptr
ew.kernel @copy(%x: tensor<?xbf16>) -> tensor<?xbf16> {
  ew.return %x : tensor<?xbf16>
}
