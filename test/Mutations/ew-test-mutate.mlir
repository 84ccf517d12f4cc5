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
// RUN: ewc-opt %s --ew-to-gpu --ew-test-mutate=mutation=bool-as-2 | FileCheck %s --enable-var-scope --check-prefix=CHECK-GPUBOOL '--implicit-check-not=i1 to i8'
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=unwritten-output | FileCheck %s --enable-var-scope --check-prefix=CHECK-UNWRITTEN
// RUN: ewc-opt %s --ew-test-mutate=mutation=wrong-default | FileCheck %s --enable-var-scope --check-prefix=CHECK-DEFAULT
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=max-as-maxnum | FileCheck %s --enable-var-scope --check-prefix=CHECK-MAX
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=swap-where | FileCheck %s --enable-var-scope --check-prefix=CHECK-SWAP
// RUN: ewc-opt %s --ew-to-loops --ew-test-mutate=mutation=round-toward-zero | FileCheck %s --enable-var-scope --check-prefix=CHECK-RTZ

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
// CHECK-TAIL-SAME:    %[[N:[^:]*]]: i64)
// CHECK-TAIL:         %[[MASK:.*]] = arith.constant -8 : i64
// CHECK-TAIL:         %[[BOUND:.*]] = arith.andi %[[N]], %[[MASK]] : i64
// CHECK-TAIL:         scf.for %{{.*}} = %{{.*}} to %[[BOUND]] step

// The grid-stride loop that runs up to n (the scalar tail of a vectorized
// kernel, which starts after the whole chunks): only the bound changes, not
// the start or the step.
// CHECK-GPUTAIL-LABEL: gpu.func @ew$leaky(
// CHECK-GPUTAIL-SAME:    %[[N:[^:]*]]: i64) kernel
// CHECK-GPUTAIL:         %[[START:.*]] = arith.addi
// CHECK-GPUTAIL:         %[[STEP:.*]] = arith.muli
// CHECK-GPUTAIL:         %[[FIRST:.*]] = arith.addi %{{.*}}, %[[START]] : i64
// CHECK-GPUTAIL:         %[[MASK:.*]] = arith.constant -8 : i64
// CHECK-GPUTAIL:         %[[BOUND:.*]] = arith.andi %[[N]], %[[MASK]] : i64
// CHECK-GPUTAIL:         scf.for %{{.*}} = %[[FIRST]] to %[[BOUND]] step %[[STEP]]

// CHECK-OBO-LABEL: func.func @ew$leaky(
// CHECK-OBO-SAME:    %[[N:[^:]*]]: i64)
// CHECK-OBO:         %[[BOUND:.*]] = arith.subi %[[N]], %c1_i64{{.*}} : i64
// CHECK-OBO:         scf.for %{{.*}} = %{{.*}} to %[[BOUND]] step

// CHECK-F64-LABEL: func.func @ew$doubles(
// CHECK-F64:         %[[X:.*]] = llvm.load %{{.*}} -> f64
// CHECK-F64:         %[[X32:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK-F64-NEXT:    %[[NEG32:.*]] = arith.negf %[[X32]] : f32
// CHECK-F64-NEXT:    %[[NEG:.*]] = arith.extf %[[NEG32]] : f32 to f64
// CHECK-F64-NEXT:    %[[NEGT:.*]] = arith.truncf %[[NEG]] : f64 to f32
// CHECK-F64-NEXT:    %[[Y32:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK-F64-NEXT:    %[[Q32:.*]] = arith.divf %[[NEGT]], %[[Y32]] : f32
// CHECK-F64-NEXT:    %[[Q:.*]] = arith.extf %[[Q32]] : f32 to f64
// CHECK-F64:         arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-F64:         llvm.store %[[Q]], %{{.*}} : f64, !llvm.ptr

// CHECK-NEG-LABEL: func.func @ew$doubles(
// CHECK-NEG:         %[[X:.*]] = llvm.load %{{.*}} -> f64
// CHECK-NEG:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEG-NEXT:    %[[SUB:.*]] = arith.subf %[[ZERO]], %[[X]] : f64
// CHECK-NEG-NEXT:    arith.divf %[[SUB]],

// CHECK-BOOL-LABEL: func.func @ew$ints(
// CHECK-BOOL:         %[[GE:.*]] = arith.cmpi sge,
// CHECK-BOOL:         %[[TWO:.*]] = arith.constant 2 : i8
// CHECK-BOOL-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-BOOL-NEXT:    %[[BYTE:.*]] = arith.select %[[GE]], %[[TWO]], %[[ZERO]] : i8
// CHECK-BOOL:         llvm.store %[[BYTE]], %{{.*}} : i8, !llvm.ptr
// On the GPU also the bytes that the vectorized main loop gathers into a
// vector before it stores them (no widening of an i1 to a byte is left).
// CHECK-GPUBOOL-LABEL: gpu.func @ew$ints(
// CHECK-GPUBOOL:         arith.select %{{.*}}, %{{.*}}, %{{.*}} : i8
// CHECK-GPUBOOL:         llvm.insertelement
// CHECK-GPUBOOL:         llvm.store %{{.*}}, %{{.*}} {alignment = {{[0-9]+}} : i64} : vector<{{[0-9]+}}xi8>, !llvm.ptr<1>

// The first result (%arg3) is never stored; the second still is.
// CHECK-UNWRITTEN-LABEL: func.func @ew$leaky(
// CHECK-UNWRITTEN-SAME:    %[[OUT0:[^:]*]]: !llvm.ptr, %[[OUT1:[^:]*]]: !llvm.ptr, %{{.*}}: i64)
// CHECK-UNWRITTEN:         %[[P0:.*]] = llvm.getelementptr inbounds %[[OUT0]]
// CHECK-UNWRITTEN-NOT:     llvm.store %{{.*}}, %[[P0]]
// CHECK-UNWRITTEN:         %[[P1:.*]] = llvm.getelementptr inbounds %[[OUT1]]
// CHECK-UNWRITTEN-NEXT:    llvm.store %{{.*}}, %[[P1]] : i8
// CHECK-UNWRITTEN:         return

// Only the first parameter with a default changes: 0.01 doubled, 7 kept.
// CHECK-DEFAULT-LABEL: ew.kernel @leaky(
// CHECK-DEFAULT-SAME:    f32 {ew.default = 2.000000e-02 : f32}
// CHECK-DEFAULT-SAME:    i32 {ew.default = 7 : i32}

// CHECK-MAX-LABEL: func.func @hand_written(
// CHECK-MAX:         arith.maxnumf
// CHECK-MAX-NEXT:    arith.minnumf

// CHECK-SWAP-LABEL: func.func @ew$leaky(
// CHECK-SWAP:         %[[X:.*]] = llvm.load %{{.*}} -> f32
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

ew.kernel @leaky(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}, %k: i32 {ew.default = 7 : i32}) -> (tensor<?xf32>, tensor<?xi1>) {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  %less = ew.cmp lt, %x, %zero : tensor<?xf32>, f32
  ew.return %r, %less : tensor<?xf32>, tensor<?xi1>
}

ew.kernel @ints(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi1> {
  %ge = ew.cmp ge, %a, %b : tensor<?xi32>, tensor<?xi32>
  ew.return %ge : tensor<?xi1>
}

ew.kernel @doubles(%x: tensor<?xf64>, %y: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xi1>) {
  %n = ew.neg %x : tensor<?xf64>
  %q = ew.div %n, %y : tensor<?xf64>, tensor<?xf64>
  %lt = ew.cmp lt, %x, %y : tensor<?xf64>, tensor<?xf64>
  ew.return %q, %lt : tensor<?xf64>, tensor<?xi1>
}

// (No bf16 here: convert-ew-to-loops turns bf16 narrowing into integer code,
// which the mutation does not touch; f16 shows the rounding mistake.)
func.func @hand_written(%x: f32, %y: f32) -> (f32, f32, f16) {
  %max = arith.maximumf %x, %y : f32
  %min = arith.minimumf %x, %y : f32
  %h = arith.truncf %x : f32 to f16
  return %max, %min, %h : f32, f32, f16
}
