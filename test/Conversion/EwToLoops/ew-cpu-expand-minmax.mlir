// RUN: ewc-opt %s -ew-cpu-expand-minmax -split-input-file | FileCheck %s --enable-var-scope

// minimum and maximum, scalar or vector, become what they mean in compares
// and selects: NaN (the operands' sum) if either is NaN, else the one that
// comes first, else (equal) the OR of the bits for the minimum, the AND for
// the maximum, which orders -0 before +0. No intrinsic is left for LLVM 22's
// x86 lowering, which returns the other operand for a signaling NaN.

// CHECK-LABEL: llvm.func @min_f32(
// CHECK-SAME:    %[[A:[^:]*]]: f32, %[[B:[^:]*]]: f32)
// CHECK-NEXT:    %[[UNO:.*]] = llvm.fcmp "uno" %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[NAN:.*]] = llvm.fadd %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[LT:.*]] = llvm.fcmp "olt" %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[GT:.*]] = llvm.fcmp "olt" %[[B]], %[[A]] : f32
// CHECK-NEXT:    %[[AI:.*]] = llvm.bitcast %[[A]] : f32 to i32
// CHECK-NEXT:    %[[BI:.*]] = llvm.bitcast %[[B]] : f32 to i32
// CHECK-NEXT:    %[[OR:.*]] = llvm.or %[[AI]], %[[BI]] : i32
// CHECK-NEXT:    %[[TIE:.*]] = llvm.bitcast %[[OR]] : i32 to f32
// CHECK-NEXT:    %[[S0:.*]] = llvm.select %[[GT]], %[[B]], %[[TIE]] : i1, f32
// CHECK-NEXT:    %[[S1:.*]] = llvm.select %[[LT]], %[[A]], %[[S0]] : i1, f32
// CHECK-NEXT:    %[[R:.*]] = llvm.select %[[UNO]], %[[NAN]], %[[S1]] : i1, f32
// CHECK-NEXT:    llvm.return %[[R]] : f32
// CHECK-NOT:     llvm.intr.minimum
llvm.func @min_f32(%a: f32, %b: f32) -> f32 {
  %0 = llvm.intr.minimum(%a, %b) : (f32, f32) -> f32
  llvm.return %0 : f32
}

// -----

// The maximum: "ogt" and the AND of the bits; f64 as i64.

// CHECK-LABEL: llvm.func @max_f64(
// CHECK-SAME:    %[[A:[^:]*]]: f64, %[[B:[^:]*]]: f64)
// CHECK:         llvm.fcmp "uno" %[[A]], %[[B]] : f64
// CHECK:         llvm.fcmp "ogt" %[[A]], %[[B]] : f64
// CHECK-NEXT:    llvm.fcmp "ogt" %[[B]], %[[A]] : f64
// CHECK:         llvm.and %{{.*}}, %{{.*}} : i64
// CHECK-NOT:     llvm.intr.maximum
llvm.func @max_f64(%a: f64, %b: f64) -> f64 {
  %0 = llvm.intr.maximum(%a, %b) : (f64, f64) -> f64
  llvm.return %0 : f64
}

// -----

// Vectors: the bits as a vector of integers, the selects on a vector of i1.

// CHECK-LABEL: llvm.func @min_vector(
// CHECK:         llvm.fcmp "uno" %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:         llvm.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK:         llvm.or %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK:         llvm.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NOT:     llvm.intr.minimum
llvm.func @min_vector(%a: vector<8xf32>, %b: vector<8xf32>) -> vector<8xf32> {
  %0 = llvm.intr.minimum(%a, %b) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  llvm.return %0 : vector<8xf32>
}

// -----

// Anything else, minnum included, is untouched.

// CHECK-LABEL: llvm.func @others(
// CHECK-NEXT:    llvm.intr.minnum
// CHECK-NEXT:    llvm.fadd
// CHECK-NEXT:    llvm.return
llvm.func @others(%x: f32, %y: f32) -> f32 {
  %0 = llvm.intr.minnum(%x, %y) : (f32, f32) -> f32
  %1 = llvm.fadd %0, %y : f32
  llvm.return %1 : f32
}
