// RUN: ewc-opt %s -convert-ew-to-gpu=vectorize=false -split-input-file | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s -convert-ew-to-gpu="gpu-module-name=kernels vectorize=false" -split-input-file | FileCheck %s --check-prefix=NAME

// The ABI (tensors as global pointers, scalars by value, result pointers,
// i64 n), the 64-bit grid-stride loop, and the element code.

// NAME: gpu.module @kernels
// CHECK:       module attributes {gpu.container_module}
// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @ew$leaky_relu(
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
// CHECK-LABEL: gpu.func @ew$first(
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
// CHECK-LABEL: gpu.func @ew$second(
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
// CHECK-LABEL: gpu.func @ew$ints(
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
// CHECK-LABEL: gpu.func @ew$float_predicates(
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

// Integer division never divides by 0 or INT_MIN by -1 (both trap on x86 and
// are undefined in arith): the divisor becomes 1 there, and the ew results
// x / 0 = 0 and x / -1 = 0 - x (wrapping) are selected after.
// CHECK-LABEL: gpu.func @ew$int_div(
// CHECK:           %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// CHECK:           %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[ISZ:.*]] = arith.cmpi eq, %[[B]], %[[C0]] : i32
// CHECK-NEXT:      %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %[[CM1]] : i32
// CHECK-NEXT:      %[[SPECIAL:.*]] = arith.ori %[[ISZ]], %[[ISM1]] : i1
// CHECK-NEXT:      %[[DIVISOR:.*]] = arith.select %[[SPECIAL]], %[[C1]], %[[B]] : i32
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[A]], %[[DIVISOR]] : i32
// CHECK-NEXT:      %[[NEG:.*]] = arith.subi %[[C0]], %[[A]] : i32
// CHECK-NEXT:      %[[Q1:.*]] = arith.select %[[ISM1]], %[[NEG]], %[[Q]] : i32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[ISZ]], %[[C0]], %[[Q1]] : i32
// CHECK:           llvm.store %[[R]], %{{.*}} : i32, !llvm.ptr<1>
ew.kernel @int_div(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %0 = ew.div %a, %b : tensor<?xi32>, tensor<?xi32>
  ew.return %0 : tensor<?xi32>
}

// -----

// max/min are IEEE 754-2019 maximum/minimum on floats, signed on integers;
// abs is math.absf on floats, x < 0 ? 0 - x : x on integers (wrapping).
// CHECK-LABEL: gpu.func @ew$max_min_abs(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[K:.*]]: i64,
// CHECK:           %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:           %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:           %[[I:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i64
// CHECK-NEXT:      %[[MAX:.*]] = arith.maximumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[MIN:.*]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[ABS:.*]] = math.absf %[[MAX]] : f32
// CHECK-NEXT:      %[[IMAX:.*]] = arith.maxsi %[[I]], %[[K]] : i64
// CHECK-NEXT:      %[[IMIN:.*]] = arith.minsi %[[I]], %[[K]] : i64
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[ISNEG:.*]] = arith.cmpi slt, %[[IMAX]], %[[ZERO]] : i64
// CHECK-NEXT:      %[[INEG:.*]] = arith.subi %[[ZERO]], %[[IMAX]] : i64
// CHECK-NEXT:      %[[IABS:.*]] = arith.select %[[ISNEG]], %[[INEG]], %[[IMAX]] : i64
// CHECK:           llvm.store %[[ABS]]
// CHECK:           llvm.store %[[MIN]]
// CHECK:           llvm.store %[[IABS]]
// CHECK:           llvm.store %[[IMIN]]
ew.kernel @max_min_abs(%x: tensor<?xf32>, %y: tensor<?xf32>, %i: tensor<?xi64>, %k: i64)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xi64>, tensor<?xi64>) {
  %0 = ew.max %x, %y : tensor<?xf32>, tensor<?xf32>
  %1 = ew.min %x, %y : tensor<?xf32>, tensor<?xf32>
  %2 = ew.abs %0 : tensor<?xf32>
  %3 = ew.max %i, %k : tensor<?xi64>, i64
  %4 = ew.min %i, %k : tensor<?xi64>, i64
  %5 = ew.abs %3 : tensor<?xi64>
  ew.return %2, %1, %5, %4 : tensor<?xf32>, tensor<?xf32>, tensor<?xi64>, tensor<?xi64>
}

// -----

// CHECK-LABEL: gpu.func @ew$logic(
// CHECK:           %[[P:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK:           %[[Q:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK-NEXT:      %[[AND:.*]] = arith.andi %[[P]], %[[Q]] : i1
// CHECK-NEXT:      %[[OR:.*]] = arith.ori %[[P]], %[[Q]] : i1
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      %[[NOT:.*]] = arith.xori %[[AND]], %[[TRUE]] : i1
// CHECK-NEXT:      arith.extui %[[NOT]] : i1 to i8
// CHECK:           arith.extui %[[OR]] : i1 to i8
ew.kernel @logic(%p: tensor<?xi1>, %q: tensor<?xi1>) -> (tensor<?xi1>, tensor<?xi1>) {
  %0 = ew.and %p, %q : tensor<?xi1>, tensor<?xi1>
  %1 = ew.or %p, %q : tensor<?xi1>, tensor<?xi1>
  %2 = ew.not %0 : tensor<?xi1>
  ew.return %2, %1 : tensor<?xi1>, tensor<?xi1>
}

// -----

// exp, log, tanh, erf are math ops (libdevice calls after ew-gpu-to-nvvm).
// sqrt is llvm.sqrt called by name, which becomes sqrt.rn (math.sqrt would
// become libdevice's approximate sqrt); rsqrt is 1 / sqrt; sigmoid is
// (x >= 0 ? 1 : t) / (1 + t) with t = exp(-|x|), which cannot overflow.
// CHECK-LABEL: gpu.func @ew$math(
// CHECK:           %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:           %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f64
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      %[[LOG:.*]] = math.log %[[EXP]] : f32
// CHECK-NEXT:      %[[TANH:.*]] = math.tanh %[[LOG]] : f32
// CHECK-NEXT:      %[[ERF:.*]] = math.erf %[[TANH]] : f32
// CHECK-NEXT:      %[[SQRT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[ERF]]) : (f32) -> f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[ROOT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[SQRT]]) : (f32) -> f32
// CHECK-NEXT:      %[[RSQRT:.*]] = arith.divf %[[ONE]], %[[ROOT]] : f32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[ABS:.*]] = math.absf %[[RSQRT]] : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[ABS]] : f32
// CHECK-NEXT:      %[[T:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT:      %[[DEN:.*]] = arith.addf %[[ONE2]], %[[T]] : f32
// CHECK-NEXT:      %[[NONNEG:.*]] = arith.cmpf oge, %[[RSQRT]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[NUM:.*]] = arith.select %[[NONNEG]], %[[ONE2]], %[[T]] : f32
// CHECK-NEXT:      %[[SIG:.*]] = arith.divf %[[NUM]], %[[DEN]] : f32
// CHECK-NEXT:      %[[DSQRT:.*]] = llvm.call_intrinsic "llvm.sqrt.f64"(%[[D]]) : (f64) -> f64
// CHECK:           llvm.store %[[SIG]], %{{.*}} : f32, !llvm.ptr<1>
// CHECK:           llvm.store %[[DSQRT]], %{{.*}} : f64, !llvm.ptr<1>
ew.kernel @math(%x: tensor<?xf32>, %d: tensor<?xf64>) -> (tensor<?xf32>, tensor<?xf64>) {
  %0 = ew.exp %x : tensor<?xf32>
  %1 = ew.log %0 : tensor<?xf32>
  %2 = ew.tanh %1 : tensor<?xf32>
  %3 = ew.erf %2 : tensor<?xf32>
  %4 = ew.sqrt %3 : tensor<?xf32>
  %5 = ew.rsqrt %4 : tensor<?xf32>
  %6 = ew.sigmoid %5 : tensor<?xf32>
  %7 = ew.sqrt %d : tensor<?xf64>
  ew.return %6, %7 : tensor<?xf32>, tensor<?xf64>
}

// -----

// f16 and bf16 compute in f32: operands are extended, a float result is
// rounded back once; a comparison needs no rounding. A bf16 is extended as
// integer code (its bits in f32's top half), never `arith.extf`: LLVM 22's
// InstCombine narrows f32 ops on extended bfloats to half, whose range is
// smaller (EwToArith.cpp, extendToComputeType).
// CHECK-LABEL: gpu.func @ew$halves(
// CHECK:           %[[H:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK:           %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK-NEXT:      %[[H0:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[H1:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[H0]], %[[H1]] : f32
// CHECK-NEXT:      %[[SUM16:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:      %[[BBITS:.*]] = arith.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:      %[[BWIDE:.*]] = arith.extui %[[BBITS]] : i16 to i32
// CHECK-NEXT:      %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK-NEXT:      %[[BSHIFT:.*]] = arith.shli %[[BWIDE]], %[[SIXTEEN]] : i32
// CHECK-NEXT:      %[[BW:.*]] = arith.bitcast %[[BSHIFT]] : i32 to f32
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[BW]] : f32
// CHECK-NEXT:      %[[EXP16:.*]] = arith.truncf %[[EXP]] : f32 to bf16
// CHECK-NOT:       arith.extf %[[B]]
// CHECK:           %[[L:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:           %[[R:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[L]], %[[R]] : f32
// CHECK:           llvm.store %[[SUM16]], %{{.*}} : f16, !llvm.ptr<1>
// CHECK:           llvm.store %[[EXP16]], %{{.*}} : bf16, !llvm.ptr<1>
// CHECK:           arith.extui %[[LT]] : i1 to i8
ew.kernel @halves(%h: tensor<?xf16>, %b: tensor<?xbf16>) -> (tensor<?xf16>, tensor<?xbf16>, tensor<?xi1>) {
  %0 = ew.add %h, %h : tensor<?xf16>, tensor<?xf16>
  %1 = ew.exp %b : tensor<?xbf16>
  %2 = ew.cmp lt, %b, %b : tensor<?xbf16>, tensor<?xbf16>
  ew.return %0, %1, %2 : tensor<?xf16>, tensor<?xbf16>, tensor<?xi1>
}

// -----

// Float to int truncates and saturates, NaN gives 0: arith.fptosi is poison
// out of range, so selects put INT_MIN below -2^(w-1), INT_MAX from 2^(w-1)
// on and 0 for NaN. Anything to i1 is `!= 0`, unordered (NaN is true).
// CHECK-LABEL: gpu.func @ew$float_to_int(
// CHECK:           %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:           %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f64
// CHECK-NEXT:      %[[LO:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK-NEXT:      %[[HI:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK-NEXT:      %[[T:.*]] = arith.fptosi %[[X]] : f32 to i32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[LO]] : f32
// CHECK-NEXT:      %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:      %[[T1:.*]] = arith.select %[[BELOW]], %[[MIN]], %[[T]] : i32
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpf oge, %[[X]], %[[HI]] : f32
// CHECK-NEXT:      %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:      %[[T2:.*]] = arith.select %[[ABOVE]], %[[MAX]], %[[T1]] : i32
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[I32:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[T2]] : i32
// CHECK-NEXT:      arith.constant -9.2233720368547758E+18 : f64
// CHECK-NEXT:      arith.constant 9.2233720368547758E+18 : f64
// CHECK-NEXT:      arith.fptosi %[[D]] : f64 to i64
// CHECK:           %[[FZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[BOOL:.*]] = arith.cmpf une, %[[X]], %[[FZERO]] : f32
// CHECK:           llvm.store %[[I32]], %{{.*}} : i32, !llvm.ptr<1>
ew.kernel @float_to_int(%x: tensor<?xf32>, %d: tensor<?xf64>) -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi1>) {
  %0 = ew.cast %x : tensor<?xf32> to tensor<?xi32>
  %1 = ew.cast %d : tensor<?xf64> to tensor<?xi64>
  %2 = ew.cast %x : tensor<?xf32> to tensor<?xi1>
  ew.return %0, %1, %2 : tensor<?xi32>, tensor<?xi64>, tensor<?xi1>
}

// -----

// f64 -> bf16 rounds once: to f32 with round-to-odd (truncate toward zero,
// set the last bit if inexact), then to bf16. Every other bf16 conversion goes
// through f32: bf16 -> f64 by two exact extensions (the first as integer
// code), f16 -> bf16 by one extension and one rounding.
// CHECK-LABEL: gpu.func @ew$float_to_float(
// CHECK:           %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f64
// CHECK:           %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK:           %[[H:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-NEXT:      %[[NEAR:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK-NEXT:      %[[BACK:.*]] = arith.extf %[[NEAR]] : f32 to f64
// CHECK-NEXT:      %[[INEXACT:.*]] = arith.cmpf one, %[[BACK]], %[[D]] : f64
// CHECK-NEXT:      %[[ABSD:.*]] = math.absf %[[D]] : f64
// CHECK-NEXT:      %[[ABSB:.*]] = math.absf %[[BACK]] : f64
// CHECK-NEXT:      %[[AWAY:.*]] = arith.cmpf ogt, %[[ABSB]], %[[ABSD]] : f64
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[NEAR]] : f32 to i32
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[DOWN:.*]] = arith.subi %[[BITS]], %[[C1]] : i32
// CHECK-NEXT:      %[[TRUNC:.*]] = arith.select %[[AWAY]], %[[DOWN]], %[[BITS]] : i32
// CHECK-NEXT:      %[[SET:.*]] = arith.ori %[[TRUNC]], %[[C1]] : i32
// CHECK-NEXT:      %[[ODD:.*]] = arith.select %[[INEXACT]], %[[SET]], %[[TRUNC]] : i32
// CHECK-NEXT:      %[[F:.*]] = arith.bitcast %[[ODD]] : i32 to f32
// CHECK-NEXT:      %[[R0:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK-NEXT:      %[[BBITS:.*]] = arith.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:      %[[BWIDE:.*]] = arith.extui %[[BBITS]] : i16 to i32
// CHECK-NEXT:      %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK-NEXT:      %[[BSHIFT:.*]] = arith.shli %[[BWIDE]], %[[SIXTEEN]] : i32
// CHECK-NEXT:      %[[BW:.*]] = arith.bitcast %[[BSHIFT]] : i32 to f32
// CHECK-NEXT:      %[[R1:.*]] = arith.extf %[[BW]] : f32 to f64
// CHECK-NEXT:      %[[HW:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[R2:.*]] = arith.truncf %[[HW]] : f32 to bf16
// CHECK-NEXT:      %[[R3:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK:           llvm.store %[[R0]]
// CHECK:           llvm.store %[[R1]]
// CHECK:           llvm.store %[[R2]]
// CHECK:           llvm.store %[[R3]]
ew.kernel @float_to_float(%d: tensor<?xf64>, %b: tensor<?xbf16>, %h: tensor<?xf16>)
    -> (tensor<?xbf16>, tensor<?xf64>, tensor<?xbf16>, tensor<?xf32>) {
  %0 = ew.cast %d : tensor<?xf64> to tensor<?xbf16>
  %1 = ew.cast %b : tensor<?xbf16> to tensor<?xf64>
  %2 = ew.cast %h : tensor<?xf16> to tensor<?xbf16>
  %3 = ew.cast %d : tensor<?xf64> to tensor<?xf32>
  ew.return %0, %1, %2, %3 : tensor<?xbf16>, tensor<?xf64>, tensor<?xbf16>, tensor<?xf32>
}

// -----

// Integers into f16/bf16 go through f64, and into f16 those from 65520 on
// are set to the infinities they round to (Cast.cpp: LLVM 22's InstCombine
// would drop the overflow); integers sign-extend or truncate; i1 is 0 or 1;
// `!= 0` makes an i1.
// CHECK-LABEL: gpu.func @ew$int_casts(
// CHECK:           %[[I:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// CHECK:           %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i64
// CHECK:           %[[P:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK-NEXT:      %[[ID:.*]] = arith.sitofp %[[I]] : i32 to f64
// CHECK-NEXT:      %[[NEAR16:.*]] = arith.truncf %[[ID]] : f64 to f16
// CHECK-NEXT:      %[[LIMIT:.*]] = arith.constant 65520 : i32
// CHECK-NEXT:      %[[NLIMIT:.*]] = arith.constant -65520 : i32
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpi sge, %[[I]], %[[LIMIT]] : i32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpi sle, %[[I]], %[[NLIMIT]] : i32
// CHECK-NEXT:      %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-NEXT:      %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK-NEXT:      %[[HIGH:.*]] = arith.select %[[ABOVE]], %[[INF]], %[[NEAR16]] : f16
// CHECK-NEXT:      %[[R0:.*]] = arith.select %[[BELOW]], %[[NINF]], %[[HIGH]] : f16
// CHECK-NEXT:      %[[R1:.*]] = arith.sitofp %[[L]] : i64 to f32
// CHECK-NEXT:      %[[R2:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK-NEXT:      %[[R3:.*]] = arith.trunci %[[L]] : i64 to i32
// CHECK-NEXT:      %[[R4:.*]] = arith.extui %[[P]] : i1 to i32
// CHECK-NEXT:      %[[FZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      %[[FONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:      %[[R5:.*]] = arith.select %[[P]], %[[FONE]], %[[FZERO]] : f64
// CHECK-NEXT:      %[[IZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[R6:.*]] = arith.cmpi ne, %[[L]], %[[IZERO]] : i64
// CHECK:           llvm.store %[[R0]]
// CHECK:           llvm.store %[[R1]]
// CHECK:           llvm.store %[[R2]]
// CHECK:           llvm.store %[[R3]]
// CHECK:           llvm.store %[[R4]]
// CHECK:           llvm.store %[[R5]]
// CHECK:           arith.extui %[[R6]] : i1 to i8
ew.kernel @int_casts(%i: tensor<?xi32>, %l: tensor<?xi64>, %p: tensor<?xi1>)
    -> (tensor<?xf16>, tensor<?xf32>, tensor<?xi64>, tensor<?xi32>, tensor<?xi32>, tensor<?xf64>, tensor<?xi1>) {
  %0 = ew.cast %i : tensor<?xi32> to tensor<?xf16>
  %1 = ew.cast %l : tensor<?xi64> to tensor<?xf32>
  %2 = ew.cast %i : tensor<?xi32> to tensor<?xi64>
  %3 = ew.cast %l : tensor<?xi64> to tensor<?xi32>
  %4 = ew.cast %p : tensor<?xi1> to tensor<?xi32>
  %5 = ew.cast %p : tensor<?xi1> to tensor<?xf64>
  %6 = ew.cast %l : tensor<?xi64> to tensor<?xi1>
  ew.return %0, %1, %2, %3, %4, %5, %6 : tensor<?xf16>, tensor<?xf32>, tensor<?xi64>, tensor<?xi32>, tensor<?xi32>, tensor<?xf64>, tensor<?xi1>
}

// -----

// A scalar returned for a tensor result is stored at every index.
// CHECK-LABEL: gpu.func @ew$fill(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr<1>, %[[S:.*]]: f32, %[[OUT0:.*]]: !llvm.ptr<1>, %[[OUT1:.*]]: !llvm.ptr<1>, %{{.*}}: i64)
// CHECK:           scf.for %[[I:.*]] =
// CHECK:           %[[P:.*]] = llvm.getelementptr inbounds %[[OUT1]][%[[I]]]
// CHECK-NEXT:      llvm.store %[[S]], %[[P]] : f32, !llvm.ptr<1>
ew.kernel @fill(%x: tensor<?xf32>, %s: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  ew.return %x, %s : tensor<?xf32>, f32
}

// -----

// A module without kernels is left alone: no empty gpu.module.
// CHECK-LABEL: func.func @no_kernels
// CHECK-NOT:   gpu.module
func.func @no_kernels() {
  return
}
