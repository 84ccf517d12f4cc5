// RUN: ewc-opt %s -convert-ew-to-gpu=vectorize=false -split-input-file | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s -convert-ew-to-gpu="gpu-module-name=kernels vectorize=false" -split-input-file | FileCheck %s --check-prefix=NAME

// The ABI (tensors as global pointers, scalars by value, result pointers,
// i64 n), the 64-bit grid-stride loop, and the element code.

// NAME: gpu.module @kernels
// CHECK:       module attributes {gpu.container_module}
// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @leaky_relu(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr<1>, %[[S:.*]]: f32, %[[OUT:.*]]: !llvm.ptr<1>, %[[N:.*]]: i64) kernel
// CHECK:         %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[BID64:.*]] = arith.index_castui %[[BID]] : index to i64
// CHECK-NEXT:    %[[BDIM:.*]] = gpu.block_dim x
// CHECK-NEXT:    %[[BDIM64:.*]] = arith.index_castui %[[BDIM]] : index to i64
// CHECK-NEXT:    %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[TID64:.*]] = arith.index_castui %[[TID]] : index to i64
// CHECK-NEXT:    %[[GDIM:.*]] = gpu.grid_dim x
// CHECK-NEXT:    %[[GDIM64:.*]] = arith.index_castui %[[GDIM]] : index to i64
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[BID64]], %[[BDIM64]] : i64
// CHECK-NEXT:    %[[START:.*]] = arith.addi %[[OFF]], %[[TID64]] : i64
// CHECK-NEXT:    %[[STEP:.*]] = arith.muli %[[GDIM64]], %[[BDIM64]] : i64
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[START]] to %[[N]] step %[[STEP]] : i64 {
// CHECK-NEXT:      %[[PX:.*]] = llvm.getelementptr inbounds %[[X]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      %[[V:.*]] = llvm.load %[[PX]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[K:.*]] = arith.cmpf oge, %[[V]], %[[Z]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[S]], %[[V]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[K]], %[[V]], %[[M]] : f32
// CHECK-NEXT:      %[[PO:.*]] = llvm.getelementptr inbounds %[[OUT]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      llvm.store %[[R]], %[[PO]] : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return
// CHECK-NOT:   ew.
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}

// -----

// Two kernels share one gpu.module; several results each get a pointer, in
// order, before n.
// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @first(
// CHECK-SAME:    %[[A:.*]]: !llvm.ptr<1>, %[[B:.*]]: !llvm.ptr<1>, %[[O0:.*]]: !llvm.ptr<1>, %[[O1:.*]]: !llvm.ptr<1>, %[[N:.*]]: i64) kernel
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} : i64
// CHECK:           %[[VA:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f64
// CHECK:           %[[VB:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f64
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[VA]], %[[VB]] : f64
// CHECK-NEXT:      %[[DIF:.*]] = arith.subf %[[VA]], %[[VB]] : f64
// CHECK-NEXT:      %[[P0:.*]] = llvm.getelementptr inbounds %[[O0]][%[[I]]]
// CHECK-NEXT:      llvm.store %[[SUM]], %[[P0]] : f64, !llvm.ptr<1>
// CHECK-NEXT:      %[[P1:.*]] = llvm.getelementptr inbounds %[[O1]][%[[I]]]
// CHECK-NEXT:      llvm.store %[[DIF]], %[[P1]] : f64, !llvm.ptr<1>
// CHECK-LABEL: gpu.func @second(
// CHECK:           arith.divf
// CHECK:           arith.negf
ew.kernel @first(%a: tensor<?xf64>, %b: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %0 = ew.add %a, %b : tensor<?xf64>, tensor<?xf64>
  %1 = ew.sub %a, %b : tensor<?xf64>, tensor<?xf64>
  ew.return %0, %1 : tensor<?xf64>, tensor<?xf64>
}
ew.kernel @second(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = ew.div %a, %a : tensor<?xf32>, tensor<?xf32>
  %1 = ew.neg %0 : tensor<?xf32>
  ew.return %1 : tensor<?xf32>
}

// -----

// Integers use the integer ops (signed comparisons, 0 - x for negation);
// bool elements live in memory as bytes.
// CHECK-LABEL: gpu.func @ints(
// CHECK-SAME:    %[[A:.*]]: !llvm.ptr<1>, %[[K:.*]]: i32, %[[F:.*]]: !llvm.ptr<1>,
// CHECK:           %[[VA:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// CHECK:           %[[BYTE:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK-NEXT:      %[[VF:.*]] = arith.trunci %[[BYTE]] : i8 to i1
// CHECK-NEXT:      %[[MUL:.*]] = arith.muli %[[VA]], %[[K]] : i32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[NEG:.*]] = arith.subi %[[ZERO]], %[[MUL]] : i32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[NEG]], %[[VA]] : i32
// CHECK-NEXT:      %[[NE:.*]] = arith.cmpi ne, %[[LT]], %[[VF]] : i1
// CHECK-NEXT:      %[[ULT:.*]] = arith.cmpi ult, %[[LT]], %[[VF]] : i1
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[NE]], %[[MUL]], %[[NEG]] : i32
// CHECK:           llvm.store %[[SEL]], %{{.*}} : i32, !llvm.ptr<1>
// CHECK:           %[[OUT:.*]] = arith.extui %[[ULT]] : i1 to i8
// CHECK:           llvm.store %[[OUT]], %{{.*}} : i8, !llvm.ptr<1>
ew.kernel @ints(%a: tensor<?xi32>, %k: i32, %flag: tensor<?xi1>) -> (tensor<?xi32>, tensor<?xi1>) {
  %0 = ew.mul %a, %k : tensor<?xi32>, i32
  %1 = ew.neg %0 : tensor<?xi32>
  %2 = ew.cmp lt, %1, %a : tensor<?xi32>, tensor<?xi32>
  %3 = ew.cmp ne, %2, %flag : tensor<?xi1>, tensor<?xi1>
  %4 = ew.cmp lt, %2, %flag : tensor<?xi1>, tensor<?xi1>
  %5 = ew.where %3, %0, %1 : tensor<?xi1>, tensor<?xi32>, tensor<?xi32>
  ew.return %5, %4 : tensor<?xi32>, tensor<?xi1>
}

// -----

// Float comparisons: ordered, except `ne`, which is unordered (true on NaN).
// CHECK-LABEL: gpu.func @float_predicates(
// CHECK: arith.cmpf oeq,
// CHECK: arith.cmpf une,
// CHECK: arith.cmpf olt,
// CHECK: arith.cmpf ole,
// CHECK: arith.cmpf ogt,
// CHECK: arith.cmpf oge,
ew.kernel @float_predicates(%a: tensor<?xf16>, %b: f16) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  %0 = ew.cmp eq, %a, %b : tensor<?xf16>, f16
  %1 = ew.cmp ne, %a, %b : tensor<?xf16>, f16
  %2 = ew.cmp lt, %a, %b : tensor<?xf16>, f16
  %3 = ew.cmp le, %a, %b : tensor<?xf16>, f16
  %4 = ew.cmp gt, %a, %b : tensor<?xf16>, f16
  %5 = ew.cmp ge, %a, %b : tensor<?xf16>, f16
  ew.return %0, %1, %2, %3, %4, %5 : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
}

// -----

// A module without kernels is left alone: no empty gpu.module.
// CHECK-LABEL: func.func @no_kernels
// CHECK-NOT:   gpu.module
func.func @no_kernels() {
  return
}
