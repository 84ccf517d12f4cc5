// RUN: ewc-opt %s -convert-ew-to-loops -split-input-file | FileCheck %s --enable-var-scope

// The CPU form: the same ABI in address space 0, and a loop from 0 to n.

// CHECK-LABEL: func.func @ew$leaky_relu(
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
// CHECK-LABEL: func.func @ew$scalar_math(
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
// CHECK-LABEL: func.func @ew$copy(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr, %[[OUT:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:           %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK-NEXT:      %[[P:.*]] = llvm.getelementptr inbounds %[[OUT]]
// CHECK-NEXT:      llvm.store %[[V]], %[[P]] : bf16, !llvm.ptr
ew.kernel @copy(%x: tensor<?xbf16>) -> tensor<?xbf16> {
  ew.return %x : tensor<?xbf16>
}

// -----

// The element code is the GPU's (EwToArith, tested op by op in
// convert-ew-to-gpu.mlir); here each op once more on the CPU path, and what
// differs: bf16 <-> f32 conversions become integer code, since LLVM would
// call __truncsfbf2 for them on hosts without AVX512-BF16 and Debian 12's
// libgcc has no such function.

// CHECK-LABEL: func.func @ew$int_div(
// CHECK:           %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK:           %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK:           %[[ISZ:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i32
// CHECK-NEXT:      %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i32
// CHECK-NEXT:      %[[SPECIAL:.*]] = arith.ori %[[ISZ]], %[[ISM1]] : i1
// CHECK-NEXT:      %[[DIVISOR:.*]] = arith.select %[[SPECIAL]], %{{.*}}, %[[B]] : i32
// CHECK-NEXT:      arith.divsi %[[A]], %[[DIVISOR]] : i32
ew.kernel @int_div(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %0 = ew.div %a, %b : tensor<?xi32>, tensor<?xi32>
  ew.return %0 : tensor<?xi32>
}

// -----

// CHECK-LABEL: func.func @ew$arith_logic_math(
// CHECK-DAG:       arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-DAG:       arith.minsi %{{.*}}, %{{.*}} : i64
// CHECK-DAG:       math.absf %{{.*}} : f32
// CHECK-DAG:       arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK-DAG:       arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-DAG:       arith.ori %{{.*}}, %{{.*}} : i1
// CHECK-DAG:       arith.xori %{{.*}}, %{{.*}} : i1
// CHECK-DAG:       math.exp %{{.*}} : f32
// CHECK-DAG:       math.log %{{.*}} : f32
// CHECK-DAG:       math.tanh %{{.*}} : f32
// CHECK-DAG:       math.erf %{{.*}} : f32
// CHECK-DAG:       llvm.call_intrinsic "llvm.sqrt.f32"
// CHECK:         return
ew.kernel @arith_logic_math(%x: tensor<?xf32>, %i: tensor<?xi64>, %p: tensor<?xi1>, %q: tensor<?xi1>)
    -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi1>) {
  %0 = ew.max %x, %x : tensor<?xf32>, tensor<?xf32>
  %1 = ew.abs %0 : tensor<?xf32>
  %2 = ew.exp %1 : tensor<?xf32>
  %3 = ew.log %2 : tensor<?xf32>
  %4 = ew.tanh %3 : tensor<?xf32>
  %5 = ew.erf %4 : tensor<?xf32>
  %6 = ew.sqrt %5 : tensor<?xf32>
  %7 = ew.min %i, %i : tensor<?xi64>, tensor<?xi64>
  %8 = ew.abs %7 : tensor<?xi64>
  %9 = ew.and %p, %q : tensor<?xi1>, tensor<?xi1>
  %10 = ew.or %9, %p : tensor<?xi1>, tensor<?xi1>
  %11 = ew.not %10 : tensor<?xi1>
  ew.return %6, %8, %11 : tensor<?xf32>, tensor<?xi64>, tensor<?xi1>
}

// -----

// bf16 computes in f32 as on the GPU, but the extension is a shift of the
// bits and the rounding back is integer round-to-nearest-even (NaN to the
// quiet NaN 0x7FC0 = 32704).
// CHECK-LABEL: func.func @ew$bf16_exp(
// CHECK:           %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : i32
// CHECK-NEXT:      %[[SHL:.*]] = arith.shli %[[WIDE]], %[[C16]] : i32
// CHECK-NEXT:      %[[X:.*]] = arith.bitcast %[[SHL]] : i32 to f32
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf une, %[[E]], %[[E]] : f32
// CHECK:           %[[QNAN:.*]] = arith.constant 32704 : i16
// CHECK:           %[[ROUNDED:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-NEXT:      %[[R16:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[ROUNDED]] : i16
// CHECK-NEXT:      %[[R:.*]] = arith.bitcast %[[R16]] : i16 to bf16
// CHECK:           llvm.store %[[R]], %{{.*}} : bf16, !llvm.ptr
// CHECK-NOT:       arith.extf %{{.*}} : bf16
// CHECK-NOT:       arith.truncf %{{.*}} to bf16
// CHECK:         return
ew.kernel @bf16_exp(%b: tensor<?xbf16>) -> tensor<?xbf16> {
  %0 = ew.exp %b : tensor<?xbf16>
  ew.return %0 : tensor<?xbf16>
}

// -----

// Every cast kind; f64 -> bf16 rounds to odd in f32 first, whose rounding to
// bf16 is then integer code like any f32 -> bf16.
// CHECK-LABEL: func.func @ew$casts(
// CHECK:           %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK:           %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:           %[[I:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK:           %[[P:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK-NEXT:      %[[NEAR:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK:           %[[ODD:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:           arith.bitcast %[[ODD]] : f32 to i32
// CHECK:           %[[B:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK:           arith.fptosi %[[X]] : f32 to i32
// CHECK:           %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[SAT:.*]] = arith.select %[[NAN]], %[[Z]], %{{.*}} : i32
// CHECK:           %[[NZ:.*]] = arith.cmpf une, %[[X]], %{{.*}} : f32
// CHECK-NEXT:      %[[ID:.*]] = arith.sitofp %[[I]] : i32 to f64
// CHECK-NEXT:      %[[NEAR16:.*]] = arith.truncf %[[ID]] : f64 to f16
// CHECK-NEXT:      %[[LIMIT:.*]] = arith.constant 65520 : i32
// CHECK-NEXT:      %[[NLIMIT:.*]] = arith.constant -65520 : i32
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpi sge, %[[I]], %[[LIMIT]] : i32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpi sle, %[[I]], %[[NLIMIT]] : i32
// CHECK-NEXT:      %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-NEXT:      %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK-NEXT:      %[[HIGH:.*]] = arith.select %[[ABOVE]], %[[INF]], %[[NEAR16]] : f16
// CHECK-NEXT:      %[[H:.*]] = arith.select %[[BELOW]], %[[NINF]], %[[HIGH]] : f16
// CHECK-NEXT:      %[[L:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK:           %[[PF:.*]] = arith.select %[[P]], %{{.*}}, %{{.*}} : f32
// CHECK:           llvm.store %[[B]], %{{.*}} : bf16, !llvm.ptr
// CHECK:           llvm.store %[[SAT]], %{{.*}} : i32, !llvm.ptr
// CHECK:           arith.extui %[[NZ]] : i1 to i8
// CHECK:           llvm.store %[[H]], %{{.*}} : f16, !llvm.ptr
// CHECK:           llvm.store %[[L]], %{{.*}} : i64, !llvm.ptr
// CHECK:           llvm.store %[[PF]], %{{.*}} : f32, !llvm.ptr
ew.kernel @casts(%d: tensor<?xf64>, %x: tensor<?xf32>, %i: tensor<?xi32>, %p: tensor<?xi1>)
    -> (tensor<?xbf16>, tensor<?xi32>, tensor<?xi1>, tensor<?xf16>, tensor<?xi64>, tensor<?xf32>) {
  %0 = ew.cast %d : tensor<?xf64> to tensor<?xbf16>
  %1 = ew.cast %x : tensor<?xf32> to tensor<?xi32>
  %2 = ew.cast %x : tensor<?xf32> to tensor<?xi1>
  %3 = ew.cast %i : tensor<?xi32> to tensor<?xf16>
  %4 = ew.cast %i : tensor<?xi32> to tensor<?xi64>
  %5 = ew.cast %p : tensor<?xi1> to tensor<?xf32>
  ew.return %0, %1, %2, %3, %4, %5 : tensor<?xbf16>, tensor<?xi32>, tensor<?xi1>, tensor<?xf16>, tensor<?xi64>, tensor<?xf32>
}

// -----

// A scalar returned for a tensor result is stored at every index.
// CHECK-LABEL: func.func @ew$fill(
// CHECK-SAME:    %[[S:.*]]: i64, %[[OUT:.*]]: !llvm.ptr, %{{.*}}: i64)
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[P:.*]] = llvm.getelementptr inbounds %[[OUT]][%[[I]]]
// CHECK-NEXT:      llvm.store %[[S]], %[[P]] : i64, !llvm.ptr
ew.kernel @fill(%s: i64) -> tensor<?xi64> {
  ew.return %s : i64
}
