// RUN: ewc-opt %s -canonicalize -split-input-file | FileCheck %s --enable-var-scope

// Scalar constant folding and the folds of ew.where; tensor values are never
// folded into constants (ew.constant is scalar).

// CHECK-LABEL: ew.kernel @fold_scalars(
// CHECK-SAME:    %[[X:.*]]: tensor<?xf32>)
// CHECK-NEXT:    %[[C:.*]] = ew.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[R:.*]] = ew.mul %[[X]], %[[C]] : tensor<?xf32>, f32
// CHECK-NEXT:    ew.return %[[R]]
ew.kernel @fold_scalars(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = ew.constant 3.0 : f32
  %b = ew.constant 2.0 : f32
  %s = ew.sub %a, %b : f32, f32
  %p = ew.mul %s, %b : f32, f32
  %q = ew.div %p, %b : f32, f32
  %r = ew.mul %x, %q : tensor<?xf32>, f32
  ew.return %r : tensor<?xf32>
}

// -----

// CHECK-LABEL: ew.kernel @fold_int_and_neg(
// CHECK-NEXT:    %[[C:.*]] = ew.constant -7 : i32
// CHECK-NEXT:    %[[R:.*]] = ew.add %{{.*}}, %[[C]] : tensor<?xi32>, i32
ew.kernel @fold_int_and_neg(%x: tensor<?xi32>) -> tensor<?xi32> {
  %a = ew.constant 3 : i32
  %b = ew.constant 4 : i32
  %s = ew.add %a, %b : i32, i32
  %n = ew.neg %s : i32
  %r = ew.add %x, %n : tensor<?xi32>, i32
  ew.return %r : tensor<?xi32>
}

// -----

// Comparisons fold with IEEE semantics: NaN is unordered, so `eq` is false
// and `ne` is true; the where ops on the folded conditions then fold away.
// CHECK-LABEL: ew.kernel @fold_cmp(
// CHECK:         %[[A:.*]] = ew.cmp lt,
// CHECK-NEXT:    %[[B:.*]] = ew.cmp gt,
// CHECK-NEXT:    ew.return %[[B]], %[[A]] : tensor<?xi1>, tensor<?xi1>
ew.kernel @fold_cmp(%x: tensor<?xf32>) -> (tensor<?xi1>, tensor<?xi1>) {
  %nan = ew.constant 0x7FC00000 : f32
  %one = ew.constant 1.0 : f32
  %eq = ew.cmp eq, %nan, %nan : f32, f32
  %ne = ew.cmp ne, %nan, %one : f32, f32
  %a = ew.cmp lt, %x, %one : tensor<?xf32>, f32
  %b = ew.cmp gt, %x, %one : tensor<?xf32>, f32
  %r0 = ew.where %eq, %a, %b : i1, tensor<?xi1>, tensor<?xi1>
  %r1 = ew.where %ne, %a, %b : i1, tensor<?xi1>, tensor<?xi1>
  ew.return %r0, %r1 : tensor<?xi1>, tensor<?xi1>
}

// -----

// A constant condition picks its side when that side already has the result
// type; a scalar picked into a tensor result must stay a where (broadcast).
// CHECK-LABEL: ew.kernel @fold_where(
// CHECK-SAME:    %[[X:.*]]: tensor<?xf32>, %[[Y:.*]]: tensor<?xf32>, %[[S:.*]]: f32)
// CHECK:         %[[W:.*]] = ew.where %{{.*}}, %[[S]], %[[X]] : i1, f32, tensor<?xf32>
// CHECK-NEXT:    ew.return %[[Y]], %[[X]], %[[W]]
ew.kernel @fold_where(%x: tensor<?xf32>, %y: tensor<?xf32>, %s: f32) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %t = ew.constant true
  %f = ew.constant false
  %c = ew.cmp lt, %x, %y : tensor<?xf32>, tensor<?xf32>
  %0 = ew.where %f, %x, %y : i1, tensor<?xf32>, tensor<?xf32>
  %1 = ew.where %c, %x, %x : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  %2 = ew.where %t, %s, %x : i1, f32, tensor<?xf32>
  ew.return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// -----

// Unused pure ops are erased.
// CHECK-LABEL: ew.kernel @dead_code(
// CHECK-NEXT:    ew.return %{{.*}} : tensor<?xf32>
ew.kernel @dead_code(%x: tensor<?xf32>) -> tensor<?xf32> {
  %unused = ew.mul %x, %x : tensor<?xf32>, tensor<?xf32>
  ew.return %x : tensor<?xf32>
}
