// RUN: ewc-opt %s | ewc-opt | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s --mlir-print-op-generic | ewc-opt | FileCheck %s --enable-var-scope

// Round trip of every ew op in its custom assembly, with broadcasting and
// each element type.

// CHECK-LABEL: ew.kernel @leaky_relu(
// CHECK-SAME:    %[[X:.*]]: tensor<?xf32>, %[[S:.*]]: f32 {ew.default = 0.00999999977 : f32}) -> tensor<?xf32>
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  // CHECK-NEXT: %[[Z:.*]] = ew.constant 0.000000e+00 : f32
  // CHECK-NEXT: %[[K:.*]] = ew.cmp ge, %[[X]], %[[Z]] : tensor<?xf32>, f32
  // CHECK-NEXT: %[[N:.*]] = ew.mul %[[S]], %[[X]] : f32, tensor<?xf32>
  // CHECK-NEXT: %[[R:.*]] = ew.where %[[K]], %[[X]], %[[N]] : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  // CHECK-NEXT: ew.return %[[R]] : tensor<?xf32>
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}

// CHECK-LABEL: ew.kernel @arith(
// CHECK-SAME:    %[[A:.*]]: tensor<?xf64>, %[[B:.*]]: tensor<?xf64>, %[[C:.*]]: f64)
// CHECK-SAME:    -> (tensor<?xf64>, tensor<?xf64>)
ew.kernel @arith(%a: tensor<?xf64>, %b: tensor<?xf64>, %c: f64) -> (tensor<?xf64>, tensor<?xf64>) {
  // CHECK-NEXT: %[[ADD:.*]] = ew.add %[[A]], %[[B]] : tensor<?xf64>, tensor<?xf64>
  // CHECK-NEXT: %[[SUB:.*]] = ew.sub %[[ADD]], %[[C]] : tensor<?xf64>, f64
  // CHECK-NEXT: %[[DIV:.*]] = ew.div %[[C]], %[[SUB]] : f64, tensor<?xf64>
  // CHECK-NEXT: %[[NEG:.*]] = ew.neg %[[DIV]] : tensor<?xf64>
  // CHECK-NEXT: ew.return %[[NEG]], %[[ADD]] : tensor<?xf64>, tensor<?xf64>
  %0 = ew.add %a, %b : tensor<?xf64>, tensor<?xf64>
  %1 = ew.sub %0, %c : tensor<?xf64>, f64
  %2 = ew.div %c, %1 : f64, tensor<?xf64>
  %3 = ew.neg %2 : tensor<?xf64>
  ew.return %3, %0 : tensor<?xf64>, tensor<?xf64>
}

// CHECK-LABEL: ew.kernel @types(
ew.kernel @types(%i: tensor<?xi32>, %l: tensor<?xi64>, %h: tensor<?xf16>, %bf: tensor<?xbf16>,
                 %flag: i1 {ew.default = true}, %k: i64 {ew.default = -3 : i64})
    -> (tensor<?xi32>, tensor<?xi64>, tensor<?xf16>, tensor<?xbf16>, tensor<?xi1>) {
  // CHECK: ew.mul %{{.*}}, %{{.*}} : tensor<?xi32>, tensor<?xi32>
  // CHECK: ew.add %{{.*}}, %{{.*}} : tensor<?xi64>, i64
  // CHECK: ew.neg %{{.*}} : tensor<?xf16>
  // CHECK: ew.constant 1.500000e+00 : bf16
  // CHECK: ew.cmp ne, %{{.*}}, %{{.*}} : tensor<?xi1>, i1
  %0 = ew.mul %i, %i : tensor<?xi32>, tensor<?xi32>
  %1 = ew.add %l, %k : tensor<?xi64>, i64
  %2 = ew.neg %h : tensor<?xf16>
  %c = ew.constant 1.5 : bf16
  %3 = ew.mul %bf, %c : tensor<?xbf16>, bf16
  %4 = ew.cmp lt, %i, %i : tensor<?xi32>, tensor<?xi32>
  %5 = ew.cmp ne, %4, %flag : tensor<?xi1>, i1
  ew.return %0, %1, %2, %3, %5 : tensor<?xi32>, tensor<?xi64>, tensor<?xf16>, tensor<?xbf16>, tensor<?xi1>
}

// Every predicate prints as its keyword.
// CHECK-LABEL: ew.kernel @predicates(
// CHECK: ew.cmp eq,
// CHECK: ew.cmp ne,
// CHECK: ew.cmp lt,
// CHECK: ew.cmp le,
// CHECK: ew.cmp gt,
// CHECK: ew.cmp ge,
ew.kernel @predicates(%a: tensor<?xi32>, %b: i32) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  %0 = ew.cmp eq, %a, %b : tensor<?xi32>, i32
  %1 = ew.cmp ne, %a, %b : tensor<?xi32>, i32
  %2 = ew.cmp lt, %a, %b : tensor<?xi32>, i32
  %3 = ew.cmp le, %a, %b : tensor<?xi32>, i32
  %4 = ew.cmp gt, %a, %b : tensor<?xi32>, i32
  %5 = ew.cmp ge, %a, %b : tensor<?xi32>, i32
  ew.return %0, %1, %2, %3, %4, %5 : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
}

// Scalar-only values broadcast into a tensor only at a tensor operand.
// CHECK-LABEL: ew.kernel @scalars(
// CHECK: %[[P:.*]] = ew.mul %{{.*}}, %{{.*}} : f32, f32
// CHECK: %[[W:.*]] = ew.where %{{.*}}, %[[P]], %{{.*}} : tensor<?xi1>, f32, tensor<?xf32>
ew.kernel @scalars(%x: tensor<?xf32>, %a: f32, %b: f32) -> tensor<?xf32> {
  %p = ew.mul %a, %b : f32, f32
  %c = ew.cmp gt, %x, %p : tensor<?xf32>, f32
  %w = ew.where %c, %p, %x : tensor<?xi1>, f32, tensor<?xf32>
  ew.return %w : tensor<?xf32>
}
