// Each mutation of ew-test-mutate on what convert-ew-to-loops produces (the
// IR ewc-run mutates on the CPU), one RUN line each; the @hand_written
// function holds the ops that only later ew ops lower to (maximumf, truncf).
// The *.test files beside this one check that ewc-run notices each.

// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=ge-to-gt | FileCheck %s --enable-var-scope --check-prefix=CHECK-GE
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=ordered-to-unordered | FileCheck %s --enable-var-scope --check-prefix=CHECK-UNORD
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=drop-tail | FileCheck %s --enable-var-scope --check-prefix=CHECK-TAIL
// RUN: ewc-opt %s --ew-to-gpu --ew-test-mutate=mutation=drop-tail | FileCheck %s --enable-var-scope --check-prefix=CHECK-GPUTAIL
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=off-by-one | FileCheck %s --enable-var-scope --check-prefix=CHECK-OBO
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=f64-as-f32 | FileCheck %s --enable-var-scope --check-prefix=CHECK-F64
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=neg-as-sub | FileCheck %s --enable-var-scope --check-prefix=CHECK-NEG
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=bool-as-2 | FileCheck %s --enable-var-scope --check-prefix=CHECK-BOOL
// RUN: ewc-opt %s --ew-to-gpu --ew-test-mutate=mutation=bool-as-2 | FileCheck %s --enable-var-scope --check-prefix=CHECK-GPUBOOL '--implicit-check-not=arith.extui'
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=unwritten-output | FileCheck %s --enable-var-scope --check-prefix=CHECK-UNWRITTEN
// RUN: ewc-opt %s --ew-test-mutate=mutation=wrong-default | FileCheck %s --enable-var-scope --check-prefix=CHECK-DEFAULT
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=max-as-maxnum | FileCheck %s --enable-var-scope --check-prefix=CHECK-MAX
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=swap-where | FileCheck %s --enable-var-scope --check-prefix=CHECK-SWAP
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=round-toward-zero | FileCheck %s --enable-var-scope --check-prefix=CHECK-RTZ
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=round-half-away | FileCheck %s --enable-var-scope --check-prefix=CHECK-HALF
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=swap-atan2 | FileCheck %s --enable-var-scope --check-prefix=CHECK-ATAN2
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=unsigned-as-signed | FileCheck %s --enable-var-scope --check-prefix=CHECK-UNSIGNED
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=float8-saturate | FileCheck %s --enable-var-scope --check-prefix=CHECK-F8SAT
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=stride-as-contiguous | FileCheck %s --enable-var-scope --check-prefix=CHECK-STRIDE
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=merge-noncontiguous | FileCheck %s --enable-var-scope --check-prefix=CHECK-MERGE
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=broadcast-wrong-dim | FileCheck %s --enable-var-scope --check-prefix=CHECK-BCAST
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=swap-dims | FileCheck %s --enable-var-scope --check-prefix=CHECK-SWAPDIMS
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=drop-outer | FileCheck %s --enable-var-scope --check-prefix=CHECK-OUTER
// RUN: ewc-opt %s --ew-to-gpu --ew-test-mutate=mutation=drop-outer | FileCheck %s --enable-var-scope --check-prefix=CHECK-GPUOUTER
// RUN: ewc-opt %s --ew-to-gpu --ew-test-mutate=mutation=swap-where | FileCheck %s --enable-var-scope --check-prefix=CHECK-GPUSWAP
// Reductions and scans (CPU only so far): Inputs/reduce.mlir.
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-to-loops --ew-test-mutate=mutation=drop-first-element | FileCheck %s --enable-var-scope --check-prefix=CHECK-DROPFIRST
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-to-loops --ew-test-mutate=mutation=exclusive-scan | FileCheck %s --enable-var-scope --check-prefix=CHECK-EXCL
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-to-gpu --ew-test-mutate=mutation=exclusive-scan | FileCheck %s --enable-var-scope --check-prefix=CHECK-GPUEXCL
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-test-mutate=mutation=amax-from-zero | FileCheck %s --enable-var-scope --check-prefix=CHECK-AMAX
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-to-gpu --ew-test-mutate=mutation=lane-tail-skipped | FileCheck %s --enable-var-scope --check-prefix=CHECK-LANETAIL
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-to-gpu --ew-test-mutate=mutation=half-butterfly | FileCheck %s --enable-var-scope --check-prefix=CHECK-HALFBF
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-to-gpu --ew-test-mutate=mutation=warp-share-dropped | FileCheck %s --enable-var-scope --check-prefix=CHECK-WARPDROP
// RUN: ewc-opt %S/Inputs/reduce.mlir --ew-to-gpu --ew-test-mutate=mutation=stale-prefix | FileCheck %s --enable-var-scope --check-prefix=CHECK-STALE
// RUN: ewc-opt %S/Inputs/columns.mlir --ew-to-gpu --ew-test-mutate=mutation=split-partial-dropped | FileCheck %s --enable-var-scope --check-prefix=CHECK-SPLITDROP
// RUN: ewc-opt %S/../Conversion/EwToGPU/Inputs/lanes.mlir --ew-to-gpu --ew-test-mutate=mutation=split-partial-dropped | FileCheck %s --enable-var-scope --check-prefix=CHECK-MEETDROP
// RUN: ewc-opt %S/Inputs/columns.mlir --ew-to-gpu --ew-test-mutate=mutation=early-fold | FileCheck %s --enable-var-scope --check-prefix=CHECK-EARLY
// RUN: sed '/@cumsum(/s/f32> {$/f32> attributes {ew.split_scans} {/' %S/../Conversion/EwToGPU/Inputs/reduce.mlir | ewc-opt --ew-to-gpu --ew-test-mutate=mutation=lookback-first-flag | FileCheck %s --enable-var-scope --check-prefix=CHECK-FIRSTFLAG
// RUN: ewc-opt %S/../Conversion/EwToGPU/Inputs/online.mlir --ew-to-gpu --ew-test-mutate=mutation=online-rescale-dropped | FileCheck %s --enable-var-scope --check-prefix=CHECK-RESCALE
// RUN: sed '/@rownorm(/s/f32> {$/f32> attributes {ew.rows_resident = 2 : i64, ew.rows_team = 32 : i64} {/' %S/../Conversion/EwToGPU/Inputs/reduce.mlir | ewc-opt --ew-to-gpu --ew-test-mutate=mutation=resident-mask-dropped | FileCheck %s --enable-var-scope --check-prefix=CHECK-MASK
// RUN: sed '/@rownorm(/s/f32> {$/f32> attributes {ew.rows_resident = 2 : i64, ew.rows_team = 32 : i64} {/' %S/../Conversion/EwToGPU/Inputs/reduce.mlir | ewc-opt --ew-to-gpu --ew-test-mutate=mutation=lane-tail-skipped | FileCheck %s --enable-var-scope --check-prefix=CHECK-RTAIL
// RUN: sed '/@rownorm(/s/f32> {$/f32> attributes {ew.rows_resident = 2 : i64, ew.rows_team = 32 : i64} {/' %S/../Conversion/EwToGPU/Inputs/reduce.mlir | ewc-opt --ew-to-gpu --ew-test-mutate=mutation=drop-first-element | FileCheck %s --enable-var-scope --check-prefix=CHECK-RFIRST
// RUN: ewc-opt %S/../Conversion/EwToGPU/Inputs/reduce-bf16.mlir --ew-to-gpu --ew-test-mutate=mutation=run-lane-repeated | FileCheck %s --enable-var-scope --check-prefix=CHECK-RUNLANE
// RUN: sed '/^ew.kernel/s/ {$/ attributes {ew.unaligned} {/' %S/../Conversion/EwToGPU/Inputs/reduce-bf16.mlir | not ewc-opt --ew-to-gpu --ew-test-mutate=mutation=run-lane-repeated 2>&1 | FileCheck %s --check-prefix=CHECK-NOVEC

// CHECK-GE-LABEL: func.func @ew$leaky(
// CHECK-GE:         arith.cmpf ogt,
// CHECK-GE:         arith.cmpf olt,
// CHECK-GE-LABEL: func.func @ew$ints(
// CHECK-GE:         arith.cmpi sgt,

// CHECK-UNORD-LABEL: func.func @ew$leaky(
// CHECK-UNORD:         arith.cmpf uge,
// CHECK-UNORD:         arith.cmpf ult,
// CHECK-UNORD-LABEL: func.func @ew$doubles(
// CHECK-UNORD:         arith.cmpf ult,

// CHECK-TAIL-LABEL: func.func @ew$leaky(
// CHECK-TAIL:         %[[N:.*]] = memref.dim
// CHECK-TAIL:         %[[MASK:.*]] = arith.constant -8 : index
// CHECK-TAIL-NEXT:    %[[BOUND:.*]] = arith.andi %[[N]], %[[MASK]] : index
// CHECK-TAIL-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[BOUND]] step

// The grid-stride loop that runs up to n (the scalar tail of a vectorized
// kernel, which starts after the whole chunks): only the bound changes, not
// the start or the step.
// On the GPU every grid-stride loop that stores (the scalar ones and the
// vectorized main loop): only the bound changes, not the start or the step.
// CHECK-GPUTAIL-LABEL: gpu.func @ew$leaky(
// CHECK-GPUTAIL:         %[[MASK:.*]] = arith.constant -8 : index
// CHECK-GPUTAIL-NEXT:    %[[BOUND:.*]] = arith.andi %{{.*}}, %[[MASK]] : index
// CHECK-GPUTAIL-NEXT:    scf.for %{{.*}} = %[[FIRST:.*]] to %[[BOUND]] step %[[STEP:.*]] {

// CHECK-OBO-LABEL: func.func @ew$leaky(
// CHECK-OBO:         %[[N:.*]] = memref.dim
// CHECK-OBO:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK-OBO-NEXT:    %[[BOUND:.*]] = arith.subi %[[N]], %[[ONE]] : index
// CHECK-OBO-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[BOUND]] step

// CHECK-F64-LABEL: func.func @ew$doubles(
// CHECK-F64:         %[[X:.*]] = memref.load %{{.*}} : memref<?xf64
// CHECK-F64:         %[[X32:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK-F64-NEXT:    %[[NEG32:.*]] = arith.negf %[[X32]] : f32
// CHECK-F64-NEXT:    %[[NEG:.*]] = arith.extf %[[NEG32]] : f32 to f64
// CHECK-F64-NEXT:    %[[NEGT:.*]] = arith.truncf %[[NEG]] : f64 to f32
// CHECK-F64-NEXT:    %[[Y32:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK-F64-NEXT:    %[[Q32:.*]] = arith.divf %[[NEGT]], %[[Y32]] : f32
// CHECK-F64-NEXT:    %[[Q:.*]] = arith.extf %[[Q32]] : f32 to f64
// CHECK-F64:         arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-F64:         memref.store %[[Q]], %{{.*}} : memref<?xf64

// CHECK-NEG-LABEL: func.func @ew$doubles(
// CHECK-NEG:         %[[X:.*]] = memref.load %{{.*}} : memref<?xf64
// CHECK-NEG:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEG-NEXT:    %[[SUB:.*]] = arith.subf %[[ZERO]], %[[X]] : f64
// CHECK-NEG-NEXT:    arith.divf %[[SUB]],

// CHECK-BOOL-LABEL: func.func @ew$ints(
// CHECK-BOOL:         %[[GE:.*]] = arith.cmpi sge,
// CHECK-BOOL:         %[[TWO:.*]] = arith.constant 2 : i8
// CHECK-BOOL-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-BOOL-NEXT:    %[[BYTE:.*]] = arith.select %[[GE]], %[[TWO]], %[[ZERO]] : i8
// CHECK-BOOL:         memref.store %[[BYTE]], %{{.*}} : memref<?xi8
// On the GPU also the bytes that the vectorized main loop gathers into a
// vector before it stores them (no widening of an i1 to a byte is left).
// On the GPU also the bytes that the vectorized main loop widens as a vector
// (no widening of an i1 to a byte is left).
// CHECK-GPUBOOL-LABEL: gpu.func @ew$ints(
// CHECK-GPUBOOL:         arith.select %{{.*}}, %{{.*}}, %{{.*}} : {{(vector<[0-9]+xi1>, vector<[0-9]+x)?}}i8

// The first result (%arg3) is never stored; the second still is.
// CHECK-UNWRITTEN-LABEL: func.func @ew$leaky(
// CHECK-UNWRITTEN-SAME:    %[[OUT0:[^:]*]]: memref<?xf32, strided<[1], offset: ?>>, %[[OUT1:[^:]*]]: memref<?xi8, strided<[1], offset: ?>>)
// CHECK-UNWRITTEN-NOT:     memref.store %{{.*}}, %[[OUT0]]
// CHECK-UNWRITTEN:         memref.store %{{.*}}, %[[OUT1]]
// CHECK-UNWRITTEN-NOT:     memref.store %{{.*}}, %[[OUT0]]
// CHECK-UNWRITTEN:         return

// Only the first parameter with a default changes: 0.01 doubled, 7 kept.
// CHECK-DEFAULT-LABEL: ew.kernel @leaky(
// CHECK-DEFAULT-SAME:    f32 {ew.default = 2.000000e-02 : f32}
// CHECK-DEFAULT-SAME:    i32 {ew.default = 7 : i32}

// CHECK-MAX-LABEL: func.func @hand_written(
// CHECK-MAX:         arith.maxnumf
// CHECK-MAX-NEXT:    arith.minnumf

// CHECK-SWAP-LABEL: func.func @ew$leaky(
// CHECK-SWAP:         %[[X:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK-SWAP:         %[[KEEP:.*]] = arith.cmpf oge, %[[X]]
// CHECK-SWAP-NEXT:    %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[X]]
// CHECK-SWAP-NEXT:    arith.select %[[KEEP]], %[[SCALED]], %[[X]] : f32

// Where rounding to nearest moved x away from zero, one step back in the bits.
// CHECK-RTZ-LABEL: func.func @hand_written(
// CHECK-RTZ-SAME:    %[[X:[^:]*]]: f32
// CHECK-RTZ:         %[[NEAR:.*]] = arith.truncf %[[X]] : f32 to f16
// CHECK-RTZ-NEXT:    %[[BACK:.*]] = arith.extf %[[NEAR]] : f16 to f32
// CHECK-RTZ-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-RTZ-NEXT:    %[[BELOW:.*]] = arith.cmpf olt, %[[BACK]], %[[X]] : f32
// CHECK-RTZ-NEXT:    %[[ABOVE:.*]] = arith.cmpf ogt, %[[BACK]], %[[X]] : f32
// CHECK-RTZ-NEXT:    %[[NONNEG:.*]] = arith.cmpf oge, %[[X]], %[[ZERO]] : f32
// CHECK-RTZ-NEXT:    %[[AWAY:.*]] = arith.select %[[NONNEG]], %[[ABOVE]], %[[BELOW]] : i1
// CHECK-RTZ-NEXT:    %[[ONE:.*]] = arith.constant 1 : i16
// CHECK-RTZ-NEXT:    %[[BITS:.*]] = arith.bitcast %[[NEAR]] : f16 to i16
// CHECK-RTZ-NEXT:    %[[STEP:.*]] = arith.subi %[[BITS]], %[[ONE]] : i16
// CHECK-RTZ-NEXT:    %[[TOWARD:.*]] = arith.bitcast %[[STEP]] : i16 to f16
// CHECK-RTZ-NEXT:    %[[H:.*]] = arith.select %[[AWAY]], %[[TOWARD]], %[[NEAR]] : f16
// CHECK-RTZ-NEXT:    return %{{.*}}, %{{.*}}, %[[H]]

// x's strides replaced by the row-major ones of its extents (the inner one
// static 1 as the type has it), the loads reading through the cast.
// CHECK-STRIDE-LABEL: func.func @ew$bias(
// CHECK-STRIDE-SAME:    %[[X:[^:]*]]: memref<?x?xf32
// CHECK-STRIDE:         %[[BASE:[^,]*]], %[[OFF:[^,]*]], %[[SIZES:[^:]*]]:2, %{{.*}} = memref.extract_strided_metadata %[[X]]
// CHECK-STRIDE:         %[[ROW:.*]] = arith.muli %{{.*}}, %[[SIZES]]#1 : index
// CHECK-STRIDE:         %[[CAST:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[SIZES]]#0, %[[SIZES]]#1], strides: [%[[ROW]], 1]
// CHECK-STRIDE:         memref.load %[[CAST]][

// x's row stride replaced by its inner stride times the row's extent (as
// if the launch had merged m and n), the 1-D b untouched.
// CHECK-MERGE-LABEL: func.func @ew$bias(
// CHECK-MERGE-SAME:    %[[X:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[B:[^:]*]]: memref<?xf32
// CHECK-MERGE:         %[[BASE:[^,]*]], %[[OFF:[^,]*]], %[[SIZES:[^:]*]]:2, %[[STRIDES:[^ ]*]]:2 = memref.extract_strided_metadata %[[X]]
// CHECK-MERGE:         %[[ROW:.*]] = arith.muli %[[STRIDES]]#1, %[[SIZES]]#1 : index
// CHECK-MERGE:         %[[CAST:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[SIZES]]#0, %[[SIZES]]#1], strides: [%[[ROW]], 1]
// CHECK-MERGE:         memref.load %[[CAST]][
// CHECK-MERGE:         memref.load %[[B]][

// b[n] read at the outer coordinate.
// CHECK-BCAST-LABEL: func.func @ew$bias(
// CHECK-BCAST-SAME:    %{{[^:]*}}: memref<?x?xf32, {{.*}}>, %[[B:[^:]*]]: memref<?xf32
// CHECK-BCAST:         scf.for %[[I:[^ ]*]] =
// CHECK-BCAST-NEXT:      scf.for %[[J:[^ ]*]] =
// CHECK-BCAST:             memref.load %[[B]][%[[I]]]

// x read transposed, the store unchanged.
// CHECK-SWAPDIMS-LABEL: func.func @ew$bias(
// CHECK-SWAPDIMS-SAME:    %[[X:[^:]*]]: memref<?x?xf32
// CHECK-SWAPDIMS:         scf.for %[[I:[^ ]*]] =
// CHECK-SWAPDIMS-NEXT:      scf.for %[[J:[^ ]*]] =
// CHECK-SWAPDIMS-NEXT:        memref.load %[[X]][%[[J]], %[[I]]]
// CHECK-SWAPDIMS:             memref.store %{{.*}}[%[[I]], %[[J]]]

// The outer loop stops after its first iteration; on the GPU the outer
// coordinate is always 0.
// CHECK-OUTER-LABEL: func.func @ew$bias(
// CHECK-OUTER:         %[[ONE:.*]] = arith.addi %[[LB:[^,]*]], %{{.*}} : index
// CHECK-OUTER-NEXT:    scf.for %{{.*}} = %[[LB]] to %[[ONE]] step
// CHECK-GPUOUTER-LABEL: gpu.func @ew$bias(
// CHECK-GPUOUTER:         %[[C:.*]]:2 = affine.delinearize_index
// CHECK-GPUOUTER:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-GPUOUTER:         memref.store %{{.*}}[%[[ZERO]], %[[C]]#1]
// On the GPU after the vectorizer, swap-where leaves the selects of index
// type alone: they are a coordinate's carry (bias's second atom), and
// swapped they would send accesses out of bounds instead of changing
// values.
// CHECK-GPUSWAP-LABEL: gpu.func @ew$bias(
// CHECK-GPUSWAP:         %[[WRAPS:.*]] = arith.cmpi uge, %[[SUM:.*]], %{{.*}} : index
// CHECK-GPUSWAP-NEXT:    %[[BACK:.*]] = arith.subi %[[SUM]], %{{.*}} : index
// CHECK-GPUSWAP-NEXT:    arith.select %[[WRAPS]], %[[BACK]], %[[SUM]] : index
// CHECK-GPUSWAP-LABEL: gpu.func @ew$leaky(
// CHECK-GPUSWAP:         %[[KEEP:.*]] = arith.cmpf oge, %[[X:[^,]*]],
// CHECK-GPUSWAP-NEXT:    %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[X]]
// CHECK-GPUSWAP-NEXT:    arith.select %[[KEEP]], %[[SCALED]], %[[X]] : f32
ew.kernel @bias(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}

ew.kernel @leaky(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}, %k: i32 {ew.default = 7 : i32}) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i1>) {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %less = ew.cmp lt, %x, %zero : !ew.tensor<[n], f32>, f32
  ew.return %r, %less : !ew.tensor<[n], f32>, !ew.tensor<[n], i1>
}

ew.kernel @ints(%a: !ew.tensor<[n], i32>, %b: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i1> {
  %ge = ew.cmp ge, %a, %b : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %ge : !ew.tensor<[n], i1>
}

ew.kernel @doubles(%x: !ew.tensor<[n], f64>, %y: !ew.tensor<[n], f64>) -> (!ew.tensor<[n], f64>, !ew.tensor<[n], i1>) {
  %n = ew.neg %x : !ew.tensor<[n], f64>
  %q = ew.div %n, %y : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %lt = ew.cmp lt, %x, %y : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  ew.return %q, %lt : !ew.tensor<[n], f64>, !ew.tensor<[n], i1>
}

// (No bf16 here: convert-ew-to-loops turns bf16 narrowing into integer code,
// which the mutation does not touch; f16 shows the rounding mistake.)
func.func @hand_written(%x: f32, %y: f32) -> (f32, f32, f16) {
  %max = arith.maximumf %x, %y : f32
  %min = arith.minimumf %x, %y : f32
  %h = arith.truncf %x : f32 to f16
  return %max, %min, %h : f32, f32, f16
}

// atan2's operands swap: the loads of y and x feed it the other way round.
// CHECK-ATAN2-LABEL: func.func @ew$angle(
// CHECK-ATAN2:         %[[Y:.*]] = memref.load %arg0
// CHECK-ATAN2:         %[[X:.*]] = memref.load %arg1
// CHECK-ATAN2:         math.atan2 %[[X]], %[[Y]] : f32
ew.kernel @angle(%y: !ew.tensor<[n], f32>, %x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %a = ew.atan2 %y, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %a : !ew.tensor<[n], f32>
}

// The unsigned division, maximum and compare of ui32 become signed ones.
// CHECK-UNSIGNED-LABEL: func.func @ew$unsigned_ops(
// CHECK-UNSIGNED:         arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK-UNSIGNED:         arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK-UNSIGNED:         arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-UNSIGNED-NOT:     arith.divui
ew.kernel @unsigned_ops(%a: !ew.tensor<[n], ui32>, %b: !ew.tensor<[n], ui32>) -> (!ew.tensor<[n], ui32>, !ew.tensor<[n], ui32>, !ew.tensor<[n], i1>) {
  %q = ew.div %a, %b : !ew.tensor<[n], ui32>, !ew.tensor<[n], ui32>
  %m = ew.max %a, %b : !ew.tensor<[n], ui32>, !ew.tensor<[n], ui32>
  %c = ew.cmp lt, %a, %b : !ew.tensor<[n], ui32>, !ew.tensor<[n], ui32>
  ew.return %q, %m, %c : !ew.tensor<[n], ui32>, !ew.tensor<[n], ui32>, !ew.tensor<[n], i1>
}

// A conversion to an 8-bit float clamps to its largest value first: 448
// for f8E4M3FN, 57344 for f8E5M2.
// CHECK-F8SAT-LABEL: func.func @ew$to_float8(
// CHECK-F8SAT-DAG:     %[[HI:.*]] = arith.constant 4.480000e+02 : f32
// CHECK-F8SAT-DAG:     %[[LO:.*]] = arith.constant -4.480000e+02 : f32
// CHECK-F8SAT:         %[[M:.*]] = arith.minimumf %{{.*}}, %[[HI]] : f32
// CHECK-F8SAT:         %[[C:.*]] = arith.maximumf %[[M]], %[[LO]] : f32
// CHECK-F8SAT:         arith.truncf %[[C]] : f32 to f8E4M3FN
// CHECK-F8SAT:         arith.constant 5.734400e+04 : f32
// CHECK-F8SAT:         arith.truncf %{{.*}} : f32 to f8E5M2
ew.kernel @to_float8(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f8E4M3FN>, !ew.tensor<[n], f8E5M2>) {
  %a = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], f8E4M3FN>
  %b = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], f8E5M2>
  ew.return %a, %b : !ew.tensor<[n], f8E4M3FN>, !ew.tensor<[n], f8E5M2>
}

// round's roundeven becomes round (ties away from zero); floor stays.
// CHECK-HALF-LABEL: func.func @ew$rounding(
// CHECK-HALF-NOT:     math.roundeven
// CHECK-HALF:         math.floor
// CHECK-HALF:         math.round %{{.*}} : f32
// CHECK-HALF-NOT:     math.roundeven
ew.kernel @rounding(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %f = ew.floor %x : !ew.tensor<[n], f32>
  %r = ew.round %x : !ew.tensor<[n], f32>
  ew.return %f, %r : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// Both combine loops (the maximum's and the scan's) start at a new 1.
// CHECK-DROPFIRST-LABEL: func.func @ew$reduce(
// CHECK-DROPFIRST-NOT:     = %c0 to %{{[^ ]*}} step %{{[^ ]*}} iter_args
// CHECK-DROPFIRST:         %[[ONE:c1_[0-9]+]] = arith.constant 1 : index
// CHECK-DROPFIRST-NEXT:    scf.for %{{.*}} = %[[ONE]] to %{{.*}} iter_args
// CHECK-DROPFIRST-NOT:     = %c0 to %{{[^ ]*}} step %{{[^ ]*}} iter_args
// CHECK-DROPFIRST:         %[[ONE2:c1_[0-9]+]] = arith.constant 1 : index
// CHECK-DROPFIRST-NEXT:    scf.for %{{.*}} = %[[ONE2]] to %{{.*}} iter_args

// The row's loop carries the scan: it stores the running value from before
// the point's element (the iter_arg) instead of the one after.
// exclusive-scan on a warp's scan along a row (the GPU's rows schedule):
// each chunk stores the prefix combined with the lane before's inclusive
// value (the prefix alone on lane 0); the carry to the next chunk stays the
// inclusive one.
// CHECK-GPUEXCL-LABEL: gpu.func @ew$reduce(
// CHECK-GPUEXCL:       scf.for %{{.*}} step %c256 iter_args(%[[PREFIX:.*]] = %{{.*}}) -> (f32) {
// CHECK-GPUEXCL:       %[[SCANNED:.*]] = arith.maximumf %[[PREFIX]], %[[INCL:.*]] : f32
// CHECK-GPUEXCL-NEXT:  %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-GPUEXCL-NEXT:  %[[BEFORE:.*]], %{{.*}} = gpu.shuffle  up %[[INCL]], %[[ONE]], %c32_i32 : f32
// CHECK-GPUEXCL-NEXT:  %[[SHIFTED:.*]] = arith.maximumf %[[PREFIX]], %[[BEFORE]] : f32
// CHECK-GPUEXCL:       %[[FIRST:.*]] = arith.cmpi eq
// CHECK-GPUEXCL-NEXT:  %[[EXCL:.*]] = arith.select %[[FIRST]], %[[PREFIX]], %[[SHIFTED]] : f32
// CHECK-GPUEXCL-NEXT:  gpu.shuffle  idx %[[SCANNED]], %c31_i32, %c32_i32 : f32
// CHECK-GPUEXCL:       memref.store %[[EXCL]], %arg2[

// CHECK-EXCL-LABEL: func.func @ew$reduce(
// CHECK-EXCL:         memref.store %{{.*}}, %arg1[
// CHECK-EXCL:         scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}) -> (f32) {
// CHECK-EXCL:           %[[NEXT:.*]] = arith.maximumf %[[ACC]], %{{.*}} : f32
// CHECK-EXCL-NEXT:      memref.store %[[ACC]], %arg2[
// CHECK-EXCL-NEXT:      scf.yield %[[NEXT]] : f32

// CHECK-AMAX-LABEL: ew.kernel @reduce(
// CHECK-AMAX:         ew.reduce %{{.*}} over ["n"] init 0.000000e+00 : f32
// CHECK-AMAX:         ew.scan %{{.*}} over ["n"] init 0.000000e+00 : f32

// lane-tail-skipped: the row maximum's lanes stop after their unrolled
// chunks; the butterfly starts from the chunks' value.
// CHECK-LANETAIL-LABEL: gpu.func @ew$reduce(
// CHECK-LANETAIL:       %[[CHUNKS:.*]] = scf.for %{{.*}} iter_args(
// CHECK-LANETAIL-COUNT-2: vector.load
// CHECK-LANETAIL:       scf.yield
// CHECK-LANETAIL-NOT:   scf.for
// CHECK-LANETAIL:       gpu.shuffle  xor %[[CHUNKS]], %c16_i32

// run-lane-repeated: a run's second element is its first again, in the
// reductions' runs and the points'; the unaligned variant has no runs.
// CHECK-RUNLANE-LABEL: gpu.func @ew$rowscale(
// CHECK-RUNLANE:       %[[RUNV:.*]] = vector.load %arg0
// CHECK-RUNLANE-NEXT:  vector.extract %[[RUNV]][0]
// CHECK-RUNLANE-NEXT:  vector.extract %[[RUNV]][0]
// CHECK-RUNLANE-NEXT:  vector.extract %[[RUNV]][2]
// CHECK-RUNLANE:       %[[POINTS:.*]] = vector.load %arg0
// CHECK-RUNLANE-NEXT:  vector.extract %[[POINTS]][0]
// CHECK-RUNLANE-NEXT:  vector.extract %[[POINTS]][0]
// CHECK-NOVEC: mutation 'run-lane-repeated' found nothing to change

// half-butterfly: the step of offset 1 combines a lane's value with itself.
// CHECK-HALFBF-LABEL: gpu.func @ew$reduce(
// CHECK-HALFBF:       gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK-HALFBF:       gpu.shuffle  xor %[[TWO:.*]], %c1_i32
// CHECK-HALFBF-NEXT:  %{{.*}} = arith.maximumf %[[TWO]], %[[TWO]] : f32

// warp-share-dropped: a team of several warps combines its warps' shared
// values up to the last but one.
// CHECK-WARPDROP-LABEL: gpu.func @ew$reduce(
// CHECK-WARPDROP:       gpu.barrier
// CHECK-WARPDROP-NEXT:  %[[WARPS:.*]] = arith.divui
// CHECK-WARPDROP:       %[[FIRST:.*]] = memref.load %arg{{[0-9]+}}[
// CHECK-WARPDROP:       %[[SHORT:.*]] = arith.subi %[[WARPS]], %c1
// CHECK-WARPDROP-NEXT:  scf.for %{{.*}} = %c1 to %[[SHORT]] step %c1 iter_args(%{{.*}} = %[[FIRST]]) -> (f32) {

// stale-prefix: the rows loop carries the scan's prefix into the next row's
// walk (and the maximum's lane accumulators likewise).
// CHECK-STALE-LABEL: gpu.func @ew$reduce(
// CHECK-STALE:       scf.for %{{.*}} iter_args(%[[PREV:.*]] = %{{.*}}) -> (f32) {
// CHECK-STALE:       arith.divui
// CHECK-STALE-NEXT:  scf.for %{{.*}} iter_args(%{{.*}} = %[[PREV]]) -> (f32) {
// The scan's walk along the row starts from the rows loop's running value,
// not the identity.
// CHECK-STALE:       scf.for %{{.*}} = %c0 to %{{.*}} step %c256 iter_args(%{{.*}} = %arg{{[0-9]+}}) -> (f32) {
// CHECK-STALE:       gpu.shuffle  up

// split-partial-dropped: the fold of a columns tile's partials stops one
// split short (each warp's loop of 8 loads one chunk short, its tail one
// split short).
// CHECK-SPLITDROP-LABEL: gpu.func @ew$colsum(
// CHECK-SPLITDROP:       llvm.fence syncscope("device") acquire
// CHECK-SPLITDROP:       %[[SHORT:.*]] = arith.subi %[[CHUNKS:.*]], %c1{{.*}} : index
// CHECK-SPLITDROP-NEXT:  %[[MAIN:.*]] = scf.for %{{.*}} = %c0 to %[[SHORT]] step %c1
// CHECK-SPLITDROP-COUNT-8: llvm.load volatile
// CHECK-SPLITDROP:       %[[SHORT2:.*]] = arith.subi %[[HI:.*]], %c1{{.*}} : index
// CHECK-SPLITDROP-NEXT:  scf.for %{{.*}} = %{{.*}} to %[[SHORT2]] step %c1 iter_args(%{{.*}} = %[[MAIN]])
// CHECK-SPLITDROP:       llvm.load volatile

// ... and the merge of a row's states across its splits (decode attention
// split across blocks) stops one split short: each warp's loop over the
// splits w, w + 4, ... ends one before the splits' count, in each of the
// three passes.
// CHECK-MEETDROP-LABEL: gpu.func @ew$attention(
// CHECK-MEETDROP:        llvm.fence syncscope("device") acquire
// CHECK-MEETDROP:        %[[SHORT:.*]] = arith.subi %[[SPLITS:.*]], %c1{{.*}} : index
// CHECK-MEETDROP-NEXT:   scf.for %{{.*}} = %{{.*}} to %[[SHORT]] step %c4
// CHECK-MEETDROP:        llvm.fence syncscope("device") acquire
// CHECK-MEETDROP:        %[[SHORT:.*]] = arith.subi %[[SPLITS:.*]], %c1{{.*}} : index
// CHECK-MEETDROP-NEXT:   scf.for %{{.*}} = %{{.*}} to %[[SHORT]] step %c4
// CHECK-MEETDROP:        llvm.fence syncscope("device") acquire
// CHECK-MEETDROP:        %[[SHORT:.*]] = arith.subi %[[SPLITS:.*]], %c1{{.*}} : index
// CHECK-MEETDROP-NEXT:   scf.for %{{.*}} = %{{.*}} to %[[SHORT]] step %c4
// CHECK-MEETDROP-LABEL: gpu.func @ew$unscored(

// early-fold: the block that draws the first ticket (0) folds.
// CHECK-EARLY-LABEL: gpu.func @ew$colsum(
// CHECK-EARLY:       %[[DRAWN:.*]] = llvm.atomicrmw add
// CHECK-EARLY:       arith.cmpi eq, %[[DRAWN]], %c0_i64 : i64

// lookback-first-flag: the window's bound is lane 0 whatever the flags say.
// CHECK-FIRSTFLAG-LABEL: gpu.func @ew$cumsum(
// CHECK-FIRSTFLAG:       %[[PREFIX:.*]] = arith.cmpi eq, %{{.*}}, %c2_i64 : i64
// CHECK-FIRSTFLAG:       %[[YES:.*]] = arith.constant true
// CHECK-FIRSTFLAG-NEXT:  %[[BOUND:.*]] = arith.select %[[YES]], %{{.*}}, %c32_i32 : i32
// CHECK-FIRSTFLAG-NEXT:  gpu.shuffle  xor %[[BOUND]], %c16_i32

// resident-mask-dropped: a resident row's slots are folded whether or not
// they lie in the row (the second slot's sum taken from the first's).
// CHECK-MASK-LABEL: gpu.func @ew$rownorm(
// CHECK-MASK-NOT:   ew.resident_mask
// CHECK-MASK:       %[[X0:.*]] = scf.if
// CHECK-MASK:       %[[X1:.*]] = scf.if
// CHECK-MASK:       %[[A0:.*]] = arith.addf %[[X0]], %cst : f32
// CHECK-MASK-NEXT:  %[[A1:.*]] = arith.addf %[[A0]], %[[X1]] : f32
// CHECK-MASK-NOT:   ew.resident_mask
// CHECK-MASK-LABEL: gpu.func @ew$colnorm(

// lane-tail-skipped in a resident row: the loop over the row past the
// slots is gone, the slots' fold goes straight to the butterfly.
// CHECK-RTAIL-LABEL: gpu.func @ew$rownorm(
// CHECK-RTAIL:       arith.select %{{.*}}, %{{.*}}, %{{.*}} {ew.resident_mask} : f32
// CHECK-RTAIL:       %[[LAST:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} {ew.resident_mask} : f32
// CHECK-RTAIL-NEXT:  %{{.*}}, %{{.*}} = gpu.shuffle xor %[[LAST]], %c16_i32
// CHECK-RTAIL-LABEL: gpu.func @ew$colnorm(

// drop-first-element in a resident row: the first slot's fold is gone (the
// second slot adds to the start), and the rest's loop starts at 1.
// CHECK-RFIRST-LABEL: gpu.func @ew$rownorm(
// CHECK-RFIRST:       scf.if
// CHECK-RFIRST:       %[[X1:.*]] = scf.if
// CHECK-RFIRST:       %[[A1:.*]] = arith.addf %cst, %[[X1]] : f32
// CHECK-RFIRST-NEXT:  %[[M1:.*]] = arith.select %{{.*}}, %[[A1]], %cst {ew.resident_mask} : f32
// CHECK-RFIRST:       scf.for %{{.*}} = %c1{{.*}} to %{{.*}} step %c32 iter_args(%{{.*}} = %[[M1]]) -> (f32) {
// CHECK-RFIRST-LABEL: gpu.func @ew$colnorm(

// online-rescale-dropped: the running sum goes on unscaled when the max
// grows (the lane's loop adds the first exponential to the sum itself).
// CHECK-RESCALE-LABEL: gpu.func @ew$lse(
// CHECK-RESCALE:       scf.for %{{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK-RESCALE-NOT:   ew.online_rescale
// CHECK-RESCALE:       arith.addf %[[S]], %{{.*}} : f32
