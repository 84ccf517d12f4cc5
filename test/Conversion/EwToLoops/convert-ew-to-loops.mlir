// RUN: ewc-opt %s -convert-ew-to-loops -split-input-file | FileCheck %s --enable-var-scope

// The CPU form: the kernel ABI (KernelABI.h), every tensor a strided memref
// (innermost stride 1 unless the variant says otherwise), and one loop nest
// per result shape, its extents read from the first tensor that has each
// dimension.

// CHECK-LABEL: func.func @ew$leaky_relu(
// CHECK-SAME:    %[[X:.*]]: memref<?xf32, strided<[1], offset: ?>>, %[[S:.*]]: f32,
// CHECK-SAME:    %[[OUT:.*]]: memref<?xf32, strided<[1], offset: ?>>) {
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT:      %[[K:.*]] = arith.cmpf oge, %[[V]], %[[Z]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[S]], %[[V]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[K]], %[[V]], %[[M]] : f32
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[I]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:   ew.
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// -----

// Scalar-only ops stay in the loop body on scalars (LLVM's LICM hoists
// them); the tensor result gets a store per element.
// CHECK-LABEL: func.func @ew$scalar_math(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xi64, {{.*}}>, %[[A:.*]]: i64, %[[B:.*]]: i64, %[[OUT:.*]]: memref<?xi64, {{.*}}>)
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT:      %[[AB:.*]] = arith.addi %[[A]], %[[B]] : i64
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[V]], %[[AB]] : i64
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[I]]]
ew.kernel @scalar_math(%x: !ew.tensor<[n], i64>, %a: i64, %b: i64) -> !ew.tensor<[n], i64> {
  %0 = ew.add %a, %b : i64, i64
  %1 = ew.sub %x, %0 : !ew.tensor<[n], i64>, i64
  ew.return %1 : !ew.tensor<[n], i64>
}

// -----

// A kernel may return a parameter unchanged: a copy.
// CHECK-LABEL: func.func @ew$copy(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xbf16, {{.*}}>, %[[OUT:.*]]: memref<?xbf16, {{.*}}>)
// CHECK:           %[[V:.*]] = memref.load %[[X]][%[[I:.*]]] : memref<?xbf16
// CHECK-NEXT:      memref.store %[[V]], %[[OUT]][%[[I]]] : memref<?xbf16
ew.kernel @copy(%x: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], bf16> {
  ew.return %x : !ew.tensor<[n], bf16>
}

// -----

// The element code is the GPU's (EwToArith, tested op by op in
// convert-ew-to-gpu.mlir); here each op once more on the CPU path, and what
// differs: bf16 <-> f32 conversions become integer code, since LLVM would
// call __truncsfbf2 for them on hosts without AVX512-BF16 and Debian 12's
// libgcc has no such function.

// CHECK-LABEL: func.func @ew$int_div(
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:       %[[MINUS1:.*]] = arith.constant -1 : i32
// CHECK:           %[[A:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK:           %[[B:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK-NEXT:      %[[ISZ:.*]] = arith.cmpi eq, %[[B]], %[[ZERO]] : i32
// CHECK-NEXT:      %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %[[MINUS1]] : i32
// CHECK-NEXT:      %[[SPECIAL:.*]] = arith.ori %[[ISZ]], %[[ISM1]] : i1
// CHECK-NEXT:      %[[DIVISOR:.*]] = arith.select %[[SPECIAL]], %{{.*}}, %[[B]] : i32
// CHECK-NEXT:      arith.divsi %[[A]], %[[DIVISOR]] : i32
ew.kernel @int_div(%a: !ew.tensor<[n], i32>, %b: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  %0 = ew.div %a, %b : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i32>
}

// -----

// bool tensors are i8 in memory: loaded and truncated, extended and stored.
// CHECK-LABEL: func.func @ew$arith_logic_math(
// CHECK-SAME:      %[[OUTP:[^:]*]]: memref<?xi8, strided<[1], offset: ?>>) {
// CHECK:           %[[P8:.*]] = memref.load %{{.*}} : memref<?xi8
// CHECK-NEXT:      %[[P:.*]] = arith.trunci %[[P8]] : i8 to i1
// CHECK-DAG:       arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-DAG:       arith.minsi %{{.*}}, %{{.*}} : i64
// CHECK-DAG:       math.absf %{{.*}} : f32
// CHECK-DAG:       arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK-DAG:       arith.andi %[[P]], %{{.*}} : i1
// CHECK-DAG:       arith.ori %{{.*}}, %[[P]] : i1
// CHECK-DAG:       %[[NOT:.*]] = arith.xori %{{.*}}, %{{.*}} : i1
// CHECK-DAG:       math.exp %{{.*}} : f32
// CHECK-DAG:       math.log %{{.*}} : f32
// CHECK-DAG:       math.tanh %{{.*}} : f32
// CHECK-DAG:       math.erf %{{.*}} : f32
// CHECK-DAG:       llvm.call_intrinsic "llvm.sqrt.f32"
// CHECK:           %[[NOT8:.*]] = arith.extui %[[NOT]] : i1 to i8
// CHECK-NEXT:      memref.store %[[NOT8]], %[[OUTP]]
// CHECK:         return
ew.kernel @arith_logic_math(%x: !ew.tensor<[n], f32>, %i: !ew.tensor<[n], i64>, %p: !ew.tensor<[n], i1>, %q: !ew.tensor<[n], i1>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i1>) {
  %half = ew.constant 0.5 : f32
  %three = ew.constant 3 : i64
  %0 = ew.max %x, %half : !ew.tensor<[n], f32>, f32
  %1 = ew.abs %0 : !ew.tensor<[n], f32>
  %2 = ew.exp %1 : !ew.tensor<[n], f32>
  %3 = ew.log %2 : !ew.tensor<[n], f32>
  %4 = ew.tanh %3 : !ew.tensor<[n], f32>
  %5 = ew.erf %4 : !ew.tensor<[n], f32>
  %6 = ew.sqrt %5 : !ew.tensor<[n], f32>
  %7 = ew.min %i, %three : !ew.tensor<[n], i64>, i64
  %8 = ew.abs %7 : !ew.tensor<[n], i64>
  %9 = ew.and %p, %q : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %10 = ew.or %9, %p : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %11 = ew.not %10 : !ew.tensor<[n], i1>
  ew.return %6, %8, %11 : !ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i1>
}

// -----

// bf16 computes in f32 as on the GPU, but the extension is a shift of the
// bits and the rounding back is integer round-to-nearest-even (NaN to the
// quiet NaN 0x7FC0 = 32704).
// CHECK-LABEL: func.func @ew$bf16_exp(
// CHECK-DAG:       %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG:       %[[QNAN:.*]] = arith.constant 32704 : i16
// CHECK:           %[[B:.*]] = memref.load %{{.*}} : memref<?xbf16
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK-NEXT:      %[[SHL:.*]] = arith.shli %[[WIDE]], %[[C16]] : i32
// CHECK-NEXT:      %[[X:.*]] = arith.bitcast %[[SHL]] : i32 to f32
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf une, %[[E]], %[[E]] : f32
// CHECK:           %[[ROUNDED:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-NEXT:      %[[R16:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[ROUNDED]] : i16
// CHECK-NEXT:      %[[R:.*]] = arith.bitcast %[[R16]] : i16 to bf16
// CHECK-NEXT:      memref.store %[[R]], %{{.*}} : memref<?xbf16
// CHECK-NOT:       arith.extf %{{.*}} : bf16
// CHECK-NOT:       arith.truncf %{{.*}} to bf16
// CHECK:         return
ew.kernel @bf16_exp(%b: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], bf16> {
  %0 = ew.exp %b : !ew.tensor<[n], bf16>
  ew.return %0 : !ew.tensor<[n], bf16>
}

// -----

// Every cast kind; f64 -> bf16 rounds to odd in f32 first, whose rounding to
// bf16 is then integer code like any f32 -> bf16.
// CHECK-LABEL: func.func @ew$casts(
// CHECK-DAG:       %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-DAG:       %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK-DAG:       %[[LIMIT:.*]] = arith.constant 65520 : i32
// CHECK-DAG:       %[[NLIMIT:.*]] = arith.constant -65520 : i32
// CHECK-DAG:       %[[Z:.*]] = arith.constant 0 : i32
// CHECK:           %[[D:.*]] = memref.load %{{.*}} : memref<?xf64
// CHECK:           %[[X:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK:           %[[I:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK:           %[[P8:.*]] = memref.load %{{.*}} : memref<?xi8
// CHECK-NEXT:      %[[P:.*]] = arith.trunci %[[P8]] : i8 to i1
// CHECK-NEXT:      %[[NEAR:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK:           %[[ODD:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:           arith.bitcast %[[ODD]] : f32 to i32
// CHECK:           %[[B:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK:           arith.fptosi %[[X]] : f32 to i32
// CHECK:           %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[SAT:.*]] = arith.select %[[NAN]], %[[Z]], %{{.*}} : i32
// CHECK:           %[[NZ:.*]] = arith.cmpf une, %[[X]], %{{.*}} : f32
// CHECK-NEXT:      %[[ID:.*]] = arith.sitofp %[[I]] : i32 to f64
// CHECK-NEXT:      %[[NEAR16:.*]] = arith.truncf %[[ID]] : f64 to f16
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpi sge, %[[I]], %[[LIMIT]] : i32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpi sle, %[[I]], %[[NLIMIT]] : i32
// CHECK-NEXT:      %[[HIGH:.*]] = arith.select %[[ABOVE]], %[[INF]], %[[NEAR16]] : f16
// CHECK-NEXT:      %[[H:.*]] = arith.select %[[BELOW]], %[[NINF]], %[[HIGH]] : f16
// CHECK-NEXT:      %[[L:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK-NEXT:      %[[PF:.*]] = arith.select %[[P]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[B]], %{{.*}} : memref<?xbf16
// CHECK-NEXT:      memref.store %[[SAT]], %{{.*}} : memref<?xi32
// CHECK-NEXT:      %[[NZ8:.*]] = arith.extui %[[NZ]] : i1 to i8
// CHECK-NEXT:      memref.store %[[NZ8]], %{{.*}} : memref<?xi8
// CHECK-NEXT:      memref.store %[[H]], %{{.*}} : memref<?xf16
// CHECK-NEXT:      memref.store %[[L]], %{{.*}} : memref<?xi64
// CHECK-NEXT:      memref.store %[[PF]], %{{.*}} : memref<?xf32
ew.kernel @casts(%d: !ew.tensor<[n], f64>, %x: !ew.tensor<[n], f32>, %i: !ew.tensor<[n], i32>, %p: !ew.tensor<[n], i1>)
    -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], i32>, !ew.tensor<[n], i1>, !ew.tensor<[n], f16>, !ew.tensor<[n], i64>, !ew.tensor<[n], f32>) {
  %0 = ew.cast %d : !ew.tensor<[n], f64> to !ew.tensor<[n], bf16>
  %1 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
  %2 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], i1>
  %3 = ew.cast %i : !ew.tensor<[n], i32> to !ew.tensor<[n], f16>
  %4 = ew.cast %i : !ew.tensor<[n], i32> to !ew.tensor<[n], i64>
  %5 = ew.cast %p : !ew.tensor<[n], i1> to !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3, %4, %5 : !ew.tensor<[n], bf16>, !ew.tensor<[n], i32>, !ew.tensor<[n], i1>, !ew.tensor<[n], f16>, !ew.tensor<[n], i64>, !ew.tensor<[n], f32>
}

// -----

// A scalar returned for a tensor result is stored at every index; the
// extent comes from the output's descriptor, the only tensor with n.
// CHECK-LABEL: func.func @ew$fill(
// CHECK-SAME:    %[[S:.*]]: i64, %[[OUT:.*]]: memref<?xi64, strided<[1], offset: ?>>)
// CHECK:         %[[N:.*]] = memref.dim %[[OUT]], %{{.*}}
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK-NEXT:      memref.store %[[S]], %[[OUT]][%[[I]]]
ew.kernel @fill(%s: i64) -> !ew.tensor<[n], i64> {
  ew.return %s : i64
}

// -----

// Broadcasting by name: one nest over [m, n]; b has n only and is indexed by
// the inner coordinate alone.
// CHECK-LABEL: func.func @ew$bias_add(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[B:[^:]*]]: memref<?xf32, strided<[1], offset: ?>>,
// CHECK-SAME:    %[[OUT:.*]]: memref<?x?xf32, strided<[?, 1], offset: ?>>)
// CHECK-DAG:     %[[M:.*]] = memref.dim %[[X]], %[[C0:[^ ]*]]
// CHECK-DAG:     %[[N:.*]] = memref.dim %[[X]], %[[C1:[^ ]*]]
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[M]]
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[N]]
// CHECK-NEXT:        %[[XV:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[BV:.*]] = memref.load %[[B]][%[[J]]]
// CHECK-NEXT:        %[[R:.*]] = arith.addf %[[XV]], %[[BV]] : f32
// CHECK-NEXT:        memref.store %[[R]], %[[OUT]][%[[I]], %[[J]]]
ew.kernel @bias_add(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}

// -----

// Results of different shapes get a nest each, which computes only what its
// result needs.
// CHECK-LABEL: func.func @ew$two_nests(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[Y:[^:]*]]: memref<?xi32, {{.*}}>, %[[OX:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[OY:[^:]*]]: memref<?xi32, {{.*}}>)
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        memref.load %[[X]]
// CHECK-NEXT:        arith.negf
// CHECK-NEXT:        memref.store %{{.*}}, %[[OX]]
// CHECK-NOT:         %[[Y]]
// CHECK:         scf.for %[[J:.*]] =
// CHECK-NEXT:      memref.load %[[Y]][%[[J]]]
// CHECK-NEXT:      arith.subi
// CHECK-NEXT:      memref.store %{{.*}}, %[[OY]][%[[J]]]
ew.kernel @two_nests(%x: !ew.tensor<[m, n], f32>, %y: !ew.tensor<[n], i32>) -> (!ew.tensor<[m, n], f32>, !ew.tensor<[n], i32>) {
  %0 = ew.neg %x : !ew.tensor<[m, n], f32>
  %1 = ew.neg %y : !ew.tensor<[n], i32>
  ew.return %0, %1 : !ew.tensor<[m, n], f32>, !ew.tensor<[n], i32>
}

// -----

// index is the loop's coordinate, size the extent, both as i64.
// CHECK-LABEL: func.func @ew$iota(
// CHECK-SAME:    %{{.*}}: i64, %[[OUT:.*]]: memref<?xi64, {{.*}}>)
// CHECK:         %[[N:.*]] = memref.dim %[[OUT]]
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK-NEXT:      %[[II:.*]] = arith.index_castui %[[I]] : index to i64
// CHECK-NEXT:      %[[NN:.*]] = arith.index_castui %[[N]] : index to i64
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[II]], %[[NN]] : i64
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[I]]]
ew.kernel @iota(%s: i64) -> !ew.tensor<[n], i64> {
  %0 = ew.index "n" : <[n], i64>
  %1 = ew.size "n" : i64
  %2 = ew.add %0, %1 : !ew.tensor<[n], i64>, i64
  ew.return %2 : !ew.tensor<[n], i64>
}

// -----

// A variant (LaunchPlan.h): the batch as 2 dimensions, and tensor 0 with a
// runtime innermost stride; the output keeps its static unit stride.
// CHECK-LABEL: func.func @ew$rows(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>,
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>)
// CHECK:         scf.for %[[A:[^ ]*]] =
// CHECK-NEXT:      scf.for %[[B:[^ ]*]] =
// CHECK-NEXT:        scf.for %[[C:[^ ]*]] =
// CHECK-NEXT:          memref.load %[[X]][%[[A]], %[[B]], %[[C]]]
ew.kernel @rows(%x: !ew.tensor<[..., n], f32>) -> !ew.tensor<[..., n], f32> attributes {ew.batch_rank = 2 : i64, ew.strided_tensors = array<i64: 0>} {
  %0 = ew.neg %x : !ew.tensor<[..., n], f32>
  ew.return %0 : !ew.tensor<[..., n], f32>
}

// -----

// The variant with streaming stores (EwToLoops.cpp): per row, the points
// before the output's first 64-byte line (none where one peel cannot align
// it), blocks of 1024 points computed into a buffer on the stack and
// copied out as integers of the element's width (i32 here) by 64-byte
// non-temporal stores aligned to 64, the rest; an
// SFENCE before the return orders those stores.
// CHECK-LABEL: func.func @ew$stream(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[OUT:[^:]*]]: memref<?x?xf32, {{.*}}>)
// CHECK-DAG:     %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-DAG:     %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %[[C1]]
// CHECK:         %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %{{.*}} step %[[C1]] {
// CHECK:           %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:           %[[ROW:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK-NEXT:      %[[MIS:.*]] = arith.remui %[[ROW]], %[[C64]] : index
// CHECK-NEXT:      %[[GAP0:.*]] = arith.subi %[[C64]], %[[MIS]] : index
// CHECK-NEXT:      %[[GAP:.*]] = arith.remui %[[GAP0]], %[[C64]] : index
// CHECK-NEXT:      %[[PEEL:.*]] = arith.divui %[[GAP]], %[[C4]] : index
// CHECK-NEXT:      %[[PEELN:.*]] = arith.minui %[[PEEL]], %[[N]] : index
// CHECK:           %[[OK:.*]] = arith.andi
// CHECK-NEXT:      %[[LO:.*]] = arith.select %[[OK]], %[[PEELN]], %[[N]] : index
// CHECK-NEXT:      %[[REST:.*]] = arith.subi %[[N]], %[[LO]] : index
// CHECK-NEXT:      %[[BLOCKS:.*]] = arith.divui %[[REST]], %[[C1024]] : index
// CHECK-NEXT:      %[[SPAN:.*]] = arith.muli %[[BLOCKS]], %[[C1024]] : index
// CHECK-NEXT:      %[[HI:.*]] = arith.addi %[[LO]], %[[SPAN]] : index
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[LO]] step %[[C1]] {
// CHECK:             memref.store %{{.*}}, %[[OUT]][%[[I]], %[[J]]]
// CHECK:           scf.for %[[B:.*]] = %[[LO]] to %[[HI]] step %[[C1024]] {
// CHECK-NEXT:        scf.for %[[K:.*]] = %[[C0]] to %[[C1024]] step %[[C1]] {
// CHECK-NEXT:          %[[P:.*]] = arith.addi %[[B]], %[[K]] : index
// CHECK-NEXT:          memref.load %[[X]][%[[I]], %[[P]]]
// CHECK:               memref.store %{{.*}}, %[[BUF]][%[[K]]] : memref<1024xf32>
// CHECK:             scf.for %[[OFF:.*]] = %[[C0]] to %[[C4096]] step %[[C64]] {
// CHECK:               %[[V:.*]] = llvm.load %{{.*}} {alignment = 64 : i64} : !llvm.ptr -> vector<16xi32>
// CHECK:               llvm.store %[[V]], %{{.*}} {alignment = 64 : i64, nontemporal} : vector<16xi32>, !llvm.ptr
// CHECK:           scf.for %[[T:.*]] = %[[HI]] to %[[N]] step %[[C1]] {
// CHECK:             memref.store %{{.*}}, %[[OUT]][%[[I]], %[[T]]]
// CHECK:         llvm.call_intrinsic "llvm.x86.sse.sfence"()
// CHECK-NEXT:    return
ew.kernel @stream(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> attributes {ew.streaming_stores} {
  %0 = ew.neg %x : !ew.tensor<[m, n], f32>
  ew.return %0 : !ew.tensor<[m, n], f32>
}

// -----

// Two results: one peel must align both (each its own check). A result in
// another order of the nest's dimensions cannot stream, and then neither
// does the nest: plain loops, no buffer, no fence.
// CHECK-LABEL: func.func @ew$two_streams(
// CHECK-COUNT-2: memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
// CHECK-COUNT-2: llvm.store %{{.*}} {alignment = 64 : i64, nontemporal} : vector<16xi32>
// CHECK:         llvm.call_intrinsic "llvm.x86.sse.sfence"()
// CHECK-NEXT:    return
ew.kernel @two_streams(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>) attributes {ew.streaming_stores} {
  %0 = ew.neg %x : !ew.tensor<[n], f32>
  ew.return %0, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// -----

// CHECK-LABEL: func.func @ew$transposed_result(
// CHECK-NOT:     memref.alloca
// CHECK-NOT:     nontemporal
// CHECK-NOT:     sfence
// CHECK:         return
ew.kernel @transposed_result(%x: !ew.tensor<[m, n], f32>) -> (!ew.tensor<[m, n], f32>, !ew.tensor<[n, m], f32>) attributes {ew.streaming_stores} {
  %0 = ew.broadcast %x : <[m, n], f32> to <[n, m], f32>
  ew.return %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[n, m], f32>
}

// -----

// Rounding: floor, ceil and round the math ops (round is roundeven: ties to
// even), trunc LLVM's intrinsic by name (convert-gpu-to-nvvm has no pattern
// for math.trunc); bf16 in f32, exactly, and back; integers as they are.
// CHECK-LABEL: func.func @ew$rounding(
// CHECK:         memref.load %{{.*}} : memref<?xbf16
// CHECK:         %[[K:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK-DAG:     math.floor %{{.*}} : f32
// CHECK-DAG:     math.ceil %{{.*}} : f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.trunc.f32"(%{{.*}}) : (f32) -> f32
// CHECK-DAG:     math.roundeven %{{.*}} : f32
// CHECK-NOT:     math.{{.*}} : i32
// CHECK:         memref.store %[[K]]
ew.kernel @rounding(%x: !ew.tensor<[n], bf16>, %k: !ew.tensor<[n], i32>) -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i32>) {
  %0 = ew.floor %x : !ew.tensor<[n], bf16>
  %1 = ew.ceil %x : !ew.tensor<[n], bf16>
  %2 = ew.trunc %x : !ew.tensor<[n], bf16>
  %3 = ew.round %x : !ew.tensor<[n], bf16>
  %4 = ew.floor %k : !ew.tensor<[n], i32>
  ew.return %0, %1, %2, %3, %4 : !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i32>
}

// -----

// The functions of libm's are the math op of the same name (the pipelines
// make them libdevice or libm calls), in f32 for bf16. pow with a constant
// exponent of 0, 1, 2 or -1 is one exact step (1, x, x * x, 1 / x); any
// other exponent, constant (3) or not, is math.powf.
// CHECK-LABEL: func.func @ew$libm(
// CHECK-DAG:     math.sin %{{.*}} : f32
// CHECK-DAG:     math.expm1 %{{.*}} : f32
// CHECK-DAG:     math.log1p %{{.*}} : f32
// CHECK-DAG:     math.erfc %{{.*}} : f32
// CHECK-DAG:     math.atanh %{{.*}} : f32
// CHECK-DAG:     math.atan2 %{{.*}}, %{{.*}} : f32
// CHECK-DAG:     math.powf %[[X:.*]], %[[Y:.*]] : f32
// CHECK-DAG:     %[[SQ:.*]] = arith.mulf %[[B:.*]], %[[B]] : f32
// CHECK-DAG:     arith.divf %{{.*}}, %[[B]] : f32
// CHECK-DAG:     math.powf %[[B]], %{{.*}} : f32
// CHECK:         return
ew.kernel @libm(%x: !ew.tensor<[n], bf16>, %y: !ew.tensor<[n], f32>, %b: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.sin %x : !ew.tensor<[n], bf16>
  %1 = ew.expm1 %0 : !ew.tensor<[n], bf16>
  %2 = ew.log1p %1 : !ew.tensor<[n], bf16>
  %3 = ew.erfc %2 : !ew.tensor<[n], bf16>
  %4 = ew.atanh %3 : !ew.tensor<[n], bf16>
  %5 = ew.atan2 %y, %b : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %6 = ew.pow %y, %b : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %zero = ew.constant 0.0 : f32
  %one = ew.constant 1.0 : f32
  %two = ew.constant 2.0 : f32
  %mone = ew.constant -1.0 : f32
  %three = ew.constant 3.0 : f32
  %7 = ew.pow %b, %zero : !ew.tensor<[n], f32>, f32
  %8 = ew.pow %b, %one : !ew.tensor<[n], f32>, f32
  %9 = ew.pow %b, %two : !ew.tensor<[n], f32>, f32
  %10 = ew.pow %b, %mone : !ew.tensor<[n], f32>, f32
  %11 = ew.pow %b, %three : !ew.tensor<[n], f32>, f32
  ew.return %4, %5, %6, %7, %8, %9, %10, %11 : !ew.tensor<[n], bf16>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// -----

// Remainders: floats arith.remf (C's fmod), integers arith.remsi by a divisor
// made 1 where it is 0 or -1 (x % 0 and INT_MIN % -1 give 0, nothing traps);
// `%` then adds the divisor where the remainder is not zero and its sign is
// not the divisor's. sign: two compares and two selects (x itself for zeros
// and NaN). fma: math.fma.
// CHECK-LABEL: func.func @ew$remainders(
// CHECK:         %[[X:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK:         %[[Y:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK:         %[[K:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK:         %[[J:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK-DAG:     %[[R:.*]] = arith.remf %[[X]], %[[Y]] : f32
// CHECK-DAG:     %[[NZ:.*]] = arith.cmpf une, %[[R]], %{{.*}} : f32
// CHECK-DAG:     %[[SUM:.*]] = arith.addf %[[R]], %[[Y]] : f32
// CHECK-DAG:     arith.select %{{.*}}, %[[SUM]], %[[R]] : f32
// CHECK-DAG:     %[[Z:.*]] = arith.cmpi eq, %[[J]], %{{.*}} : i32
// CHECK-DAG:     %[[D:.*]] = arith.select %{{.*}}, %{{.*}}, %[[J]] : i32
// CHECK-DAG:     arith.remsi %[[K]], %[[D]] : i32
// CHECK-DAG:     arith.cmpf ogt, %[[X]], %{{.*}} : f32
// CHECK-DAG:     math.fma %[[X]], %[[Y]], %[[X]] : f32
// CHECK:         return
ew.kernel @remainders(%x: !ew.tensor<[n], f32>, %y: !ew.tensor<[n], f32>, %k: !ew.tensor<[n], i32>, %j: !ew.tensor<[n], i32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.remainder %x, %y : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %1 = ew.fmod %k, %j : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %2 = ew.sign %x : !ew.tensor<[n], f32>
  %3 = ew.fma %x, %y, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3 : !ew.tensor<[n], f32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// -----

// Shifts: the amount clamped into range by an unsigned min (a negative
// amount is out of range too) so that LLVM's shift is never poison and no
// amount the shift sees is the width or more, then << selects 0 where it was
// out of range; >> shifts by width - 1 there. ~x is x xor -1.
// CHECK-LABEL: func.func @ew$shifts(
// CHECK:         %[[K:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK:         %[[J:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK-DAG:     %[[AMT:.*]] = arith.minui %[[J]], %c31_i32 : i32
// CHECK-DAG:     %[[SHL:.*]] = arith.shli %[[K]], %[[AMT]] : i32
// CHECK-DAG:     %[[IN:.*]] = arith.cmpi ult, %[[J]], %c32_i32 : i32
// CHECK-DAG:     arith.select %[[IN]], %[[SHL]], %c0_i32 : i32
// CHECK-DAG:     %[[AMT2:.*]] = arith.minui %[[J]], %c31_i32 : i32
// CHECK-DAG:     arith.shrsi %[[K]], %[[AMT2]] : i32
// CHECK-DAG:     arith.xori %[[K]], %c-1_i32 : i32
// CHECK:         return
ew.kernel @shifts(%k: !ew.tensor<[n], i32>, %j: !ew.tensor<[n], i32>) -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>) {
  %0 = ew.shl %k, %j : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %1 = ew.shr %k, %j : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %2 = ew.bitwise_not %k : !ew.tensor<[n], i32>
  ew.return %0, %1, %2 : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
}

// -----

// Classification: isnan is x != x (unordered), isinf |x| == inf, isfinite
// |x| < inf (ordered: false for NaN), f16 in f32; of an integer a constant
// (isfinite's true, stored as the byte 1).
// CHECK-LABEL: func.func @ew$classify(
// CHECK-DAG:     arith.cmpf uno, %[[W:.*]], %[[W]] : f32
// CHECK-DAG:     arith.cmpf oeq, %{{.*}}, %[[INF:.*]] : f32
// CHECK-DAG:     arith.cmpf olt, %{{.*}}, %[[INF]] : f32
// CHECK-DAG:     %[[INF]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i8
// CHECK:         memref.store %[[ONE]]
ew.kernel @classify(%x: !ew.tensor<[n], f16>, %k: !ew.tensor<[n], i32>) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %0 = ew.isnan %x : !ew.tensor<[n], f16>
  %1 = ew.isinf %x : !ew.tensor<[n], f16>
  %2 = ew.isfinite %x : !ew.tensor<[n], f16>
  %3 = ew.isfinite %k : !ew.tensor<[n], i32>
  ew.return %0, %1, %2, %3 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
}

// -----

// Reductions (CombineLoops.cpp): each is a loop over its dimension carrying
// the running value from the identity, emitted at the outermost loop where
// its own dimensions are bound, so softmax computes the row's maximum and
// sum once per row, then the row; the exp(x - max) before the sum is emitted
// inside the sum's loop.

// CHECK-LABEL: func.func @ew$softmax(
// CHECK-DAG:   %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:    %[[MAX:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %[[NINF]]) -> (f32) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %arg0[%[[I]], %[[K]]]
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[A]], %[[X]] : f32
// CHECK-NEXT:      scf.yield %[[M]] : f32
// CHECK:         %[[SUM:.*]] = scf.for %[[K2:.*]] = {{.*}} iter_args(%[[B:.*]] = %[[ZERO]]) -> (f32) {
// CHECK:           arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK:           math.exp
// CHECK:           arith.addf %[[B]], %{{.*}} : f32
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:       iter_args
// CHECK:           %[[D:.*]] = arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK-NEXT:      memref.store %[[D]], %arg1[%[[I]], %[[J]]]
ew.kernel @softmax(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %mx = ew.reduce %x over ["n"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  %mxb = ew.broadcast %mx : <[m], f32> to <[m, n], f32>
  %d = ew.sub %x, %mxb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %e = ew.exp %d : !ew.tensor<[m, n], f32>
  %s = ew.reduce %e over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  %sb = ew.broadcast %s : <[m], f32> to <[m, n], f32>
  %y = ew.div %e, %sb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %y : !ew.tensor<[m, n], f32>
}

// -----

// A reduction over the outer dimension (column sums): the nest loops over
// the columns outside, so each column's sum is computed once.

// CHECK-LABEL: func.func @ew$colnorm(
// CHECK:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:    %[[SUM:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args
// CHECK-NEXT:      memref.load %arg0[%[[K]], %[[J]]]
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK-NEXT:      memref.store %{{.*}}, %arg1[%[[I]], %[[J]]]
ew.kernel @colnorm(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %s = ew.reduce %x over ["m"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  %sb = ew.broadcast %s : <[n], f32> to <[m, n], f32>
  %y = ew.div %x, %sb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %y : !ew.tensor<[m, n], f32>
}

// -----

// A scan along the nest's innermost loop is carried by it: the running value
// is the loop's iter_arg, from the identity at each row, and each point adds
// its own element and stores the sum. A scan along another dimension (cummax
// over m here) combines its prefix at each point: a loop up to and including
// the point's coordinate.

// CHECK-LABEL: func.func @ew$cumsum(
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:    scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{[^ ]*}} iter_args(%[[ACC:.*]] = %[[ZERO:[^)]*]]) -> (f32) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %arg0[%[[I]], %[[J]]]
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      %[[END:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[C:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[END]] step %{{.*}} iter_args
// CHECK-NEXT:        memref.load %arg0[%[[K]], %[[J]]]
// CHECK:           memref.store %[[NEXT]], %arg1[%[[I]], %[[J]]]
// CHECK-NEXT:      memref.store %[[C]], %arg2[%[[I]], %[[J]]]
// CHECK-NEXT:      scf.yield %[[NEXT]] : f32
ew.kernel @cumsum(%x: !ew.tensor<[m, n], f32>) -> (!ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>) {
  %c = ew.scan %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  %d = ew.scan %x over ["m"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %c, %d : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
}

// -----

// Narrow and unsigned integers: ui16 is i16 in memory and in arith, its
// division divui (its divisor guarded against 0), its >> shrui; an i8
// remainder is remsi; a ui8 compare is ult.
// CHECK-LABEL: func.func @ew$narrow(
// CHECK:         %[[A:.*]] = memref.load %{{.*}} : memref<?xi16
// CHECK:         %[[B:.*]] = memref.load %{{.*}} : memref<?xi16
// CHECK:         arith.divui %[[A]], %{{.*}} : i16
// CHECK:         arith.shrui %[[A]], %{{.*}} : i16
// CHECK:         arith.remsi %{{.*}}, %{{.*}} : i8
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : i8
// CHECK:         return
ew.kernel @narrow(%a: !ew.tensor<[n], ui16>, %b: !ew.tensor<[n], ui16>, %s: !ew.tensor<[n], i8>, %u: !ew.tensor<[n], ui8>, %v: !ew.tensor<[n], ui8>) -> (!ew.tensor<[n], ui16>, !ew.tensor<[n], ui16>, !ew.tensor<[n], i8>, !ew.tensor<[n], i1>) {
  %0 = ew.div %a, %b : !ew.tensor<[n], ui16>, !ew.tensor<[n], ui16>
  %1 = ew.shr %a, %b : !ew.tensor<[n], ui16>, !ew.tensor<[n], ui16>
  %2 = ew.fmod %s, %s : !ew.tensor<[n], i8>, !ew.tensor<[n], i8>
  %3 = ew.cmp lt, %u, %v : !ew.tensor<[n], ui8>, !ew.tensor<[n], ui8>
  ew.return %0, %1, %2, %3 : !ew.tensor<[n], ui16>, !ew.tensor<[n], ui16>, !ew.tensor<[n], i8>, !ew.tensor<[n], i1>
}

// -----

// ew.bitcast: an arith.bitcast of the stored bits (bf16 and the 8-bit
// floats too, never their f32 compute values); bitcast(bitcast(x)) folds to
// one bitcast from x (f32 to ui32 to i32: f32 to i32). Between bf16 and f16
// the value is made in f32 and truncated (exact): LLVM 22's InstCombine
// turns a compare with zero of a bfloat-to-half bitcast into invalid IR.
// bf16 -> f16: the magnitude at f32's mantissa top times 2^112, infinity
// and NaN from 0x7C00 up, the sign or'ed in.
// CHECK-LABEL: func.func @ew$bitcasts(
// CHECK:         %[[X:.*]] = memref.load %{{.*}} : memref<?xf32, {{.*}}>
// CHECK:         %[[B:.*]] = memref.load %{{.*}} : memref<?xbf16, {{.*}}>
// CHECK:         %[[Q:.*]] = memref.load %{{.*}} : memref<?xf8E4M3FN, {{.*}}>
// CHECK:         %[[XU:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:         %[[XI:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:         %[[BBITS:.*]] = arith.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:    %[[BWIDE:.*]] = arith.extui %[[BBITS]] : i16 to i32
// CHECK-NEXT:    %[[SIGN:.*]] = arith.andi %[[BWIDE]], %{{.*}} : i32
// CHECK:         %[[MAG:.*]] = arith.andi %[[BWIDE]], %{{.*}} : i32
// CHECK:         %[[PLACED:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[SCALED:.*]] = arith.mulf %[[PLACED]], %{{.*}} : f32
// CHECK:         %[[SPECIAL:.*]] = arith.cmpi uge, %[[MAG]], %{{.*}} : i32
// CHECK:         %[[BHF:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[BH:.*]] = arith.truncf %[[BHF]] : f32 to f16
// CHECK:         %[[QI:.*]] = arith.bitcast %[[Q]] : f8E4M3FN to i8
// CHECK:         memref.store %[[XU]], %{{.*}} : memref<?xi32, {{.*}}>
// CHECK:         memref.store %[[XI]], %{{.*}} : memref<?xi32, {{.*}}>
// CHECK:         memref.store %[[BH]], %{{.*}} : memref<?xf16, {{.*}}>
// CHECK:         memref.store %[[QI]], %{{.*}} : memref<?xi8, {{.*}}>
ew.kernel @bitcasts(%x: !ew.tensor<[n], f32>, %b: !ew.tensor<[n], bf16>, %q: !ew.tensor<[n], f8E4M3FN>) -> (!ew.tensor<[n], ui32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f16>, !ew.tensor<[n], i8>) {
  %0 = ew.bitcast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], ui32>
  %1 = ew.bitcast %0 : !ew.tensor<[n], ui32> to !ew.tensor<[n], i32>
  %2 = ew.bitcast %b : !ew.tensor<[n], bf16> to !ew.tensor<[n], f16>
  %3 = ew.bitcast %q : !ew.tensor<[n], f8E4M3FN> to !ew.tensor<[n], i8>
  ew.return %0, %1, %2, %3 : !ew.tensor<[n], ui32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f16>, !ew.tensor<[n], i8>
}

// -----

// f16 -> bf16: bf16 is f32's top half, so the bits go there and the f32
// truncates to bf16 exactly (no bitcast between the two float types).
// CHECK-LABEL: func.func @ew$bitcast_f16_to_bf16(
// CHECK:         %[[H:.*]] = memref.load %{{.*}} : memref<?xf16, {{.*}}>
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[H]] : f16 to i16
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK-NEXT:    %[[HIGH:.*]] = arith.shli %[[WIDE]], %{{.*}} : i32
// CHECK-NEXT:    %[[F:.*]] = arith.bitcast %[[HIGH]] : i32 to f32
// CHECK-NOT:     arith.bitcast %{{.*}} : f16 to bf16
// CHECK:         memref.store
ew.kernel @bitcast_f16_to_bf16(%h: !ew.tensor<[n], f16>) -> !ew.tensor<[n], bf16> {
  %0 = ew.bitcast %h : !ew.tensor<[n], f16> to !ew.tensor<[n], bf16>
  ew.return %0 : !ew.tensor<[n], bf16>
}

// -----

// Philox4x32 for rand: the i64 seed's two words are the key, an i32 offset
// the counter's first word (no high word); ten rounds, of which the first
// multiplies by 0xD2511F53 (-766435501) only (its other product is of a
// zero word, folded), and the last by 0xCD9E8D57 (-845247145) only (the
// other product is dead): nine of each. The uniform: x ^ (x >> 31) to f32, times
// 4.6566127342e-10.
// CHECK-LABEL: func.func @ew$uniform(
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 4.6566126E-10 : f32
// CHECK-DAG:     %[[A:.*]] = arith.constant -766435501 : i32
// CHECK-DAG:     %[[B:.*]] = arith.constant -845247145 : i32
// CHECK-DAG:     %[[KA:.*]] = arith.constant -1640531527 : i32
// CHECK-DAG:     %[[KB:.*]] = arith.constant -1150833019 : i32
// CHECK:         %[[O:.*]] = memref.load %{{.*}} : memref<?xi32, {{.*}}>
// CHECK-NEXT:    %[[K0:.*]] = arith.trunci %[[SEED:.*]] : i64 to i32
// CHECK-NEXT:    %[[SH:.*]] = arith.shrui %[[SEED]], %{{.*}} : i64
// CHECK-NEXT:    %[[K1:.*]] = arith.trunci %[[SH]] : i64 to i32
// CHECK-NEXT:    %{{.*}}, %[[H0:.*]] = arith.mului_extended %[[O]], %[[A]] : i32
// CHECK-COUNT-8: arith.mului_extended %{{.*}}, %[[A]] : i32
// CHECK-NOT:     arith.mului_extended %{{.*}}, %[[A]] : i32
// CHECK:         %[[SIGN:.*]] = arith.shrsi %[[LAST:.*]], %{{.*}} : i32
// CHECK-NEXT:    %[[MAG:.*]] = arith.xori %[[LAST]], %[[SIGN]] : i32
// CHECK-NEXT:    %[[F:.*]] = arith.sitofp %[[MAG]] : i32 to f32
// CHECK-NEXT:    %[[U:.*]] = arith.mulf %[[F]], %[[SCALE]] : f32
// CHECK-NEXT:    memref.store %[[U]]
ew.kernel @uniform(%seed: i64, %o: !ew.tensor<[n], i32>) -> !ew.tensor<[n], f32> {
  %0 = ew.rand %seed, %o : i64, !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

// randn with two rounds (the rounds attribute, Triton's n_rounds): an i8
// seed sign-extends to the key, a u16 offset zero-extends to the counter;
// Box-Muller on the first two words' uniforms in f32.
// CHECK-LABEL: func.func @ew$normal(
// CHECK-DAG:     %[[M2:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG:     %[[TWOPI:.*]] = arith.constant 6.28318548 : f32
// CHECK-DAG:     %[[TINY:.*]] = arith.constant 1.000000e-07 : f32
// CHECK:         %[[SEED:.*]] = arith.extsi %{{.*}} : i8 to i64
// CHECK:         %[[C0:.*]] = arith.extui %{{.*}} : i16 to i32
// CHECK-COUNT-2: arith.mului_extended
// CHECK-NOT:     arith.mului_extended
// CHECK:         %[[U1:.*]] = arith.mulf
// CHECK:         %[[U2:.*]] = arith.mulf
// CHECK-NEXT:    %[[CLAMPED:.*]] = arith.maxnumf %[[U1]], %[[TINY]] : f32
// CHECK-NEXT:    %[[ANGLE:.*]] = arith.mulf %[[U2]], %[[TWOPI]] : f32
// CHECK-NEXT:    %[[LOG:.*]] = math.log %[[CLAMPED]] : f32
// CHECK-NEXT:    %[[SQ:.*]] = arith.mulf %[[LOG]], %[[M2]] : f32
// CHECK-NEXT:    %[[R:.*]] = math.sqrt %[[SQ]] : f32
// CHECK-NEXT:    %[[COS:.*]] = math.cos %[[ANGLE]] : f32
// CHECK-NEXT:    %[[N:.*]] = arith.mulf %[[R]], %[[COS]] : f32
// CHECK-NEXT:    memref.store %[[N]]
ew.kernel @normal(%seed: i8, %o: !ew.tensor<[n], ui16>) -> !ew.tensor<[n], f32> {
  %0 = ew.randn %seed, %o {rounds = 2} : i8, !ew.tensor<[n], ui16>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

// atan2: math.atan2, except where both operands are zero: copysign(x
// negative ? pi : 0, y), which folds right where MLIR's math.atan2 folder
// gives NaN for constant zeros.
// CHECK-LABEL: func.func @ew$atan2_zeros(
// CHECK:         %[[ATAN2:.*]] = math.atan2 %[[Y:.*]], %[[X:.*]] : f32
// CHECK-DAG:     %[[YZ:.*]] = arith.cmpf oeq, %[[Y]], %{{.*}} : f32
// CHECK-DAG:     %[[XZ:.*]] = arith.cmpf oeq, %[[X]], %{{.*}} : f32
// CHECK:         %[[BOTH:.*]] = arith.andi %[[YZ]], %[[XZ]] : i1
// CHECK:         %[[SIGN:.*]] = math.copysign %{{.*}}, %[[X]] : f32
// CHECK:         %[[NEG:.*]] = arith.cmpf olt, %[[SIGN]], %{{.*}} : f32
// CHECK:         %[[MAG:.*]] = arith.select %[[NEG]], %{{.*}}, %{{.*}} : f32
// CHECK:         %[[ZEROS:.*]] = math.copysign %[[MAG]], %[[Y]] : f32
// CHECK:         arith.select %[[BOTH]], %[[ZEROS]], %[[ATAN2]] : f32
ew.kernel @atan2_zeros(%y: !ew.tensor<[n], f32>, %x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.atan2 %y, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

// The batch position (index_flat()): row-major over the batch's dimensions
// as the variant has them, and a 32-bit value (its high word cleared, which
// LLVM then knows: a Philox keyed by it folds the word away) in every
// variant but ew.wide_batch, the runtime's for a batch of more than 2^32
// positions (LaunchPlan::wideBatch), where it is the whole index.

// CHECK-LABEL: func.func @ew$positions(
// CHECK-DAG:     %[[LOW:.*]] = arith.constant 4294967295 : index
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[P:.*]] = arith.andi %[[I]], %[[LOW]] : index
// CHECK-NEXT:      %[[V:.*]] = arith.index_castui %[[P]] : index to i64
// CHECK-NEXT:      memref.store %[[V]], %{{.*}}[%[[I]]]
// CHECK-LABEL: func.func @ew$positions_wide(
// CHECK-NOT:     arith.andi
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[E:.*]] step %{{.*}} {
// CHECK-NEXT:        %[[R:.*]] = arith.muli %[[B]], %[[E]] : index
// CHECK-NEXT:        %[[Q:.*]] = arith.addi %[[R]], %[[J]] : index
// CHECK-NEXT:        %[[W:.*]] = arith.index_castui %[[Q]] : index to i64
// CHECK-NEXT:        memref.store %[[W]]
// CHECK-NOT:     arith.andi
// CHECK:         return
ew.kernel @positions(%x: !ew.tensor<[...], f32>) -> !ew.tensor<[...], i64> {
  %0 = ew.index "..." : <[...], i64>
  ew.return %0 : !ew.tensor<[...], i64>
}
ew.kernel @positions_wide(%x: !ew.tensor<[...], f32>) -> !ew.tensor<[...], i64> attributes {ew.batch_rank = 2 : i64, ew.wide_batch} {
  %0 = ew.index "..." : <[...], i64>
  ew.return %0 : !ew.tensor<[...], i64>
}
