// RUN: ewc-opt %s --ew-gpu-mul-hi | FileCheck %s

// An i32 extended product becomes mul.lo (arith.muli) and mul.hi (the
// NVVM intrinsic); other widths and vectors stay as they are.
// CHECK-LABEL: func.func @products(
// CHECK-SAME:      %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i64, %[[V:.*]]: vector<2xi32>)
// CHECK-NEXT:    %[[LO:.*]] = arith.muli %[[A]], %[[B]] : i32
// CHECK-NEXT:    %[[HI:.*]] = llvm.call_intrinsic "llvm.nvvm.mulhi.ui"(%[[A]], %[[B]]) : (i32, i32) -> i32
// CHECK-NEXT:    %{{.*}}, %{{.*}} = arith.mului_extended %[[C]], %[[C]] : i64
// CHECK-NEXT:    %{{.*}}, %{{.*}} = arith.mului_extended %[[V]], %[[V]] : vector<2xi32>
// CHECK-NEXT:    %[[X:.*]] = arith.xori %[[LO]], %[[HI]] : i32
// CHECK-NEXT:    return %[[X]]
func.func @products(%a: i32, %b: i32, %c: i64, %v: vector<2xi32>) -> i32 {
  %lo, %hi = arith.mului_extended %a, %b : i32
  %lo64, %hi64 = arith.mului_extended %c, %c : i64
  %lov, %hiv = arith.mului_extended %v, %v : vector<2xi32>
  %x = arith.xori %lo, %hi : i32
  return %x : i32
}
