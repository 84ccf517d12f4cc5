// RUN: ewc-opt %s | ewc-opt | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s --mlir-print-op-generic | ewc-opt | FileCheck %s --enable-var-scope

// Round trip of every ew op in its custom assembly, with scalar broadcasting,
// each element type, and tensors over named dimensions with ew.broadcast,
// ew.index and ew.size.

// CHECK-LABEL: ew.kernel @leaky_relu(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[S:.*]]: f32 {ew.default = 0.00999999977 : f32}) -> !ew.tensor<[n], f32>
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  // CHECK-NEXT: %[[Z:.*]] = ew.constant 0.000000e+00 : f32
  // CHECK-NEXT: %[[K:.*]] = ew.cmp ge, %[[X]], %[[Z]] : !ew.tensor<[n], f32>, f32
  // CHECK-NEXT: %[[N:.*]] = ew.mul %[[S]], %[[X]] : f32, !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[R:.*]] = ew.where %[[K]], %[[X]], %[[N]] : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  // CHECK-NEXT: ew.return %[[R]] : !ew.tensor<[n], f32>
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// CHECK-LABEL: ew.kernel @arith(
// CHECK-SAME:    %[[A:.*]]: !ew.tensor<[n], f64>, %[[B:.*]]: !ew.tensor<[n], f64>, %[[C:.*]]: f64)
// CHECK-SAME:    -> (!ew.tensor<[n], f64>, !ew.tensor<[n], f64>)
ew.kernel @arith(%a: !ew.tensor<[n], f64>, %b: !ew.tensor<[n], f64>, %c: f64) -> (!ew.tensor<[n], f64>, !ew.tensor<[n], f64>) {
  // CHECK-NEXT: %[[ADD:.*]] = ew.add %[[A]], %[[B]] : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  // CHECK-NEXT: %[[SUB:.*]] = ew.sub %[[ADD]], %[[C]] : !ew.tensor<[n], f64>, f64
  // CHECK-NEXT: %[[DIV:.*]] = ew.div %[[C]], %[[SUB]] : f64, !ew.tensor<[n], f64>
  // CHECK-NEXT: %[[NEG:.*]] = ew.neg %[[DIV]] : !ew.tensor<[n], f64>
  // CHECK-NEXT: ew.return %[[NEG]], %[[ADD]] : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %0 = ew.add %a, %b : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %1 = ew.sub %0, %c : !ew.tensor<[n], f64>, f64
  %2 = ew.div %c, %1 : f64, !ew.tensor<[n], f64>
  %3 = ew.neg %2 : !ew.tensor<[n], f64>
  ew.return %3, %0 : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
}

// CHECK-LABEL: ew.kernel @types(
ew.kernel @types(%i: !ew.tensor<[n], i32>, %l: !ew.tensor<[n], i64>, %h: !ew.tensor<[n], f16>, %bf: !ew.tensor<[n], bf16>,
                 %flag: i1 {ew.default = true}, %k: i64 {ew.default = -3 : i64})
    -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i64>, !ew.tensor<[n], f16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>) {
  // CHECK: ew.mul %{{.*}}, %{{.*}} : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  // CHECK: ew.add %{{.*}}, %{{.*}} : !ew.tensor<[n], i64>, i64
  // CHECK: ew.neg %{{.*}} : !ew.tensor<[n], f16>
  // CHECK: ew.constant 1.500000e+00 : bf16
  // CHECK: ew.cmp ne, %{{.*}}, %{{.*}} : !ew.tensor<[n], i1>, i1
  %0 = ew.mul %i, %i : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %1 = ew.add %l, %k : !ew.tensor<[n], i64>, i64
  %2 = ew.neg %h : !ew.tensor<[n], f16>
  %c = ew.constant 1.5 : bf16
  %3 = ew.mul %bf, %c : !ew.tensor<[n], bf16>, bf16
  %4 = ew.cmp lt, %i, %i : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %5 = ew.cmp ne, %4, %flag : !ew.tensor<[n], i1>, i1
  ew.return %0, %1, %2, %3, %5 : !ew.tensor<[n], i32>, !ew.tensor<[n], i64>, !ew.tensor<[n], f16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>
}

// Every predicate prints as its keyword.
// CHECK-LABEL: ew.kernel @predicates(
// CHECK: ew.cmp eq,
// CHECK: ew.cmp ne,
// CHECK: ew.cmp lt,
// CHECK: ew.cmp le,
// CHECK: ew.cmp gt,
// CHECK: ew.cmp ge,
ew.kernel @predicates(%a: !ew.tensor<[n], i32>, %b: i32) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %0 = ew.cmp eq, %a, %b : !ew.tensor<[n], i32>, i32
  %1 = ew.cmp ne, %a, %b : !ew.tensor<[n], i32>, i32
  %2 = ew.cmp lt, %a, %b : !ew.tensor<[n], i32>, i32
  %3 = ew.cmp le, %a, %b : !ew.tensor<[n], i32>, i32
  %4 = ew.cmp gt, %a, %b : !ew.tensor<[n], i32>, i32
  %5 = ew.cmp ge, %a, %b : !ew.tensor<[n], i32>, i32
  ew.return %0, %1, %2, %3, %4, %5 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
}

// Scalar-only values broadcast into a tensor only at a tensor operand.
// CHECK-LABEL: ew.kernel @scalars(
// CHECK: %[[P:.*]] = ew.mul %{{.*}}, %{{.*}} : f32, f32
// CHECK: %[[W:.*]] = ew.where %{{.*}}, %[[P]], %{{.*}} : !ew.tensor<[n], i1>, f32, !ew.tensor<[n], f32>
ew.kernel @scalars(%x: !ew.tensor<[n], f32>, %a: f32, %b: f32) -> !ew.tensor<[n], f32> {
  %p = ew.mul %a, %b : f32, f32
  %c = ew.cmp gt, %x, %p : !ew.tensor<[n], f32>, f32
  %w = ew.where %c, %p, %x : !ew.tensor<[n], i1>, f32, !ew.tensor<[n], f32>
  ew.return %w : !ew.tensor<[n], f32>
}

// Integer division, max, min and abs on integers and floats.
// CHECK-LABEL: ew.kernel @int_and_float_ops(
// CHECK-SAME:    %[[I:.*]]: !ew.tensor<[n], i32>, %[[K:.*]]: i32, %[[F:.*]]: !ew.tensor<[n], f64>)
ew.kernel @int_and_float_ops(%i: !ew.tensor<[n], i32>, %k: i32, %f: !ew.tensor<[n], f64>)
    -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f64>, !ew.tensor<[n], f64>) {
  // CHECK-NEXT: %[[DIV:.*]] = ew.div %[[I]], %[[K]] : !ew.tensor<[n], i32>, i32
  // CHECK-NEXT: %[[MAX:.*]] = ew.max %[[DIV]], %[[I]] : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  // CHECK-NEXT: %[[ABS:.*]] = ew.abs %[[MAX]] : !ew.tensor<[n], i32>
  // CHECK-NEXT: %[[MIN:.*]] = ew.min %[[K]], %[[ABS]] : i32, !ew.tensor<[n], i32>
  // CHECK-NEXT: %[[FMAX:.*]] = ew.max %[[F]], %[[F]] : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  // CHECK-NEXT: %[[FABS:.*]] = ew.abs %[[FMAX]] : !ew.tensor<[n], f64>
  // CHECK-NEXT: %[[FMIN:.*]] = ew.min %[[FABS]], %[[F]] : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  // CHECK-NEXT: ew.return %[[ABS]], %[[MIN]], %[[FABS]], %[[FMIN]]
  %0 = ew.div %i, %k : !ew.tensor<[n], i32>, i32
  %1 = ew.max %0, %i : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %2 = ew.abs %1 : !ew.tensor<[n], i32>
  %3 = ew.min %k, %2 : i32, !ew.tensor<[n], i32>
  %4 = ew.max %f, %f : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %5 = ew.abs %4 : !ew.tensor<[n], f64>
  %6 = ew.min %5, %f : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  ew.return %2, %3, %5, %6 : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
}

// CHECK-LABEL: ew.kernel @logic(
// CHECK-SAME:    %[[P:.*]]: !ew.tensor<[n], i1>, %[[Q:.*]]: !ew.tensor<[n], i1>, %[[FLAG:.*]]: i1)
ew.kernel @logic(%p: !ew.tensor<[n], i1>, %q: !ew.tensor<[n], i1>, %flag: i1) -> !ew.tensor<[n], i1> {
  // CHECK-NEXT: %[[AND:.*]] = ew.and %[[P]], %[[Q]] : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  // CHECK-NEXT: %[[OR:.*]] = ew.or %[[AND]], %[[FLAG]] : !ew.tensor<[n], i1>, i1
  // CHECK-NEXT: %[[NOT:.*]] = ew.not %[[OR]] : !ew.tensor<[n], i1>
  // CHECK-NEXT: ew.return %[[NOT]] : !ew.tensor<[n], i1>
  %0 = ew.and %p, %q : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %1 = ew.or %0, %flag : !ew.tensor<[n], i1>, i1
  %2 = ew.not %1 : !ew.tensor<[n], i1>
  ew.return %2 : !ew.tensor<[n], i1>
}

// Every math function, on a tensor and on a scalar.
// CHECK-LABEL: ew.kernel @math(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[S:.*]]: f64)
ew.kernel @math(%x: !ew.tensor<[n], f32>, %s: f64) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f64>) {
  // CHECK-NEXT: %[[E:.*]] = ew.exp %[[X]] : !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[L:.*]] = ew.log %[[E]] : !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[Q:.*]] = ew.sqrt %[[L]] : !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[R:.*]] = ew.rsqrt %[[Q]] : !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[T:.*]] = ew.tanh %[[R]] : !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[G:.*]] = ew.sigmoid %[[T]] : !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[ERF:.*]] = ew.erf %[[G]] : !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[SE:.*]] = ew.exp %[[S]] : f64
  // CHECK-NEXT: ew.return %[[ERF]], %[[SE]] : !ew.tensor<[n], f32>, f64
  %0 = ew.exp %x : !ew.tensor<[n], f32>
  %1 = ew.log %0 : !ew.tensor<[n], f32>
  %2 = ew.sqrt %1 : !ew.tensor<[n], f32>
  %3 = ew.rsqrt %2 : !ew.tensor<[n], f32>
  %4 = ew.tanh %3 : !ew.tensor<[n], f32>
  %5 = ew.sigmoid %4 : !ew.tensor<[n], f32>
  %6 = ew.erf %5 : !ew.tensor<[n], f32>
  %7 = ew.exp %s : f64
  ew.return %6, %7 : !ew.tensor<[n], f32>, f64
}

// Casts keep the shape kind: tensor to tensor, scalar to scalar.
// Bitcasts between types of one width, unsigned and 8-bit floats too.
// CHECK-LABEL: ew.kernel @bitcasts(
// CHECK:       ew.bitcast %{{.*}} : !ew.tensor<[n], f32> to !ew.tensor<[n], ui32>
// CHECK:       ew.bitcast %{{.*}} : !ew.tensor<[n], f8E4M3FN> to !ew.tensor<[n], i8>
// CHECK:       ew.bitcast %{{.*}} : !ew.tensor<[n], bf16> to !ew.tensor<[n], f16>
ew.kernel @bitcasts(%x: !ew.tensor<[n], f32>, %q: !ew.tensor<[n], f8E4M3FN>, %b: !ew.tensor<[n], bf16>) -> (!ew.tensor<[n], ui32>, !ew.tensor<[n], i8>, !ew.tensor<[n], f16>) {
  %0 = ew.bitcast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], ui32>
  %1 = ew.bitcast %q : !ew.tensor<[n], f8E4M3FN> to !ew.tensor<[n], i8>
  %2 = ew.bitcast %b : !ew.tensor<[n], bf16> to !ew.tensor<[n], f16>
  ew.return %0, %1, %2 : !ew.tensor<[n], ui32>, !ew.tensor<[n], i8>, !ew.tensor<[n], f16>
}

// CHECK-LABEL: ew.kernel @casts(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], bf16>, %[[N:.*]]: i64)
ew.kernel @casts(%x: !ew.tensor<[n], bf16>, %n: i64) -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], i1>) {
  // CHECK-NEXT: %[[W:.*]] = ew.cast %[[X]] : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  // CHECK-NEXT: %[[NF:.*]] = ew.cast %[[N]] : i64 to f32
  // CHECK-NEXT: %[[M:.*]] = ew.mul %[[W]], %[[NF]] : !ew.tensor<[n], f32>, f32
  // CHECK-NEXT: %[[B:.*]] = ew.cast %[[M]] : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  // CHECK-NEXT: %[[I:.*]] = ew.cast %[[M]] : !ew.tensor<[n], f32> to !ew.tensor<[n], i1>
  // CHECK-NEXT: ew.return %[[B]], %[[I]] : !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>
  %0 = ew.cast %x : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %1 = ew.cast %n : i64 to f32
  %2 = ew.mul %0, %1 : !ew.tensor<[n], f32>, f32
  %3 = ew.cast %2 : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %4 = ew.cast %2 : !ew.tensor<[n], f32> to !ew.tensor<[n], i1>
  ew.return %3, %4 : !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>
}

// A scalar may be returned for a tensor result: it fills the result.
// CHECK-LABEL: ew.kernel @fill(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], i64>, %[[K:.*]]: i64)
// CHECK-NEXT:    ew.return %[[X]], %[[K]] : !ew.tensor<[n], i64>, i64
ew.kernel @fill(%x: !ew.tensor<[n], i64>, %k: i64) -> (!ew.tensor<[n], i64>, !ew.tensor<[n], i64>) {
  ew.return %x, %k : !ew.tensor<[n], i64>, i64
}

// Tensor types name their dimensions: several, the batch `...` first, and a
// name that is no keyword quoted. ew.broadcast adds dimensions and reorders
// them; the printer leaves out the `!ew.tensor` of its types and ew.index's
// (the op knows them), and parses both spellings.
// CHECK-LABEL: ew.kernel @dims(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[..., m, n], f32>, %[[B:.*]]: !ew.tensor<[n], f32>, %[[Q:.*]]: !ew.tensor<["m n"], i1>)
// CHECK-SAME:    -> (!ew.tensor<[..., m, n], f32>, !ew.tensor<[n, m], i64>, !ew.tensor<["m n"], i1>)
ew.kernel @dims(%x: !ew.tensor<[..., m, n], f32>, %b: !ew.tensor<[n], f32>, %q: !ew.tensor<["m n"], i1>)
    -> (!ew.tensor<[..., m, n], f32>, !ew.tensor<[n, m], i64>, !ew.tensor<["m n"], i1>) {
  // CHECK-NEXT: %[[BB:.*]] = ew.broadcast %[[B]] : <[n], f32> to <[..., m, n], f32>
  // CHECK-NEXT: %[[R:.*]] = ew.add %[[X]], %[[BB]] : !ew.tensor<[..., m, n], f32>, !ew.tensor<[..., m, n], f32>
  // CHECK-NEXT: %[[I:.*]] = ew.index "m" : <[m], i64>
  // CHECK-NEXT: %[[S:.*]] = ew.size "n" : i64
  // CHECK-NEXT: %[[IS:.*]] = ew.mul %[[I]], %[[S]] : !ew.tensor<[m], i64>, i64
  // CHECK-NEXT: %[[T:.*]] = ew.broadcast %[[IS]] : <[m], i64> to <[n, m], i64>
  // CHECK-NEXT: ew.return %[[R]], %[[T]], %[[Q]] : !ew.tensor<[..., m, n], f32>, !ew.tensor<[n, m], i64>, !ew.tensor<["m n"], i1>
  %bb = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[..., m, n], f32>
  %r = ew.add %x, %bb : !ew.tensor<[..., m, n], f32>, !ew.tensor<[..., m, n], f32>
  %i = ew.index "m" : !ew.tensor<[m], i64>
  %s = ew.size "n" : i64
  %is = ew.mul %i, %s : !ew.tensor<[m], i64>, i64
  %t = ew.broadcast %is : <[m], i64> to <[n, m], i64>
  ew.return %r, %t, %q : !ew.tensor<[..., m, n], f32>, !ew.tensor<[n, m], i64>, !ew.tensor<["m n"], i1>
}

// `...` alone is a tensor of any rank; a result may have dimensions that no
// parameter has, and ew.index and ew.size take those too.
// CHECK-LABEL: ew.kernel @batch_only(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[...], bf16>) -> (!ew.tensor<[...], bf16>, !ew.tensor<[k], i64>)
// CHECK-NEXT:    %[[K:.*]] = ew.index "k" : <[k], i64>
// CHECK-NEXT:    ew.return %[[X]], %[[K]] : !ew.tensor<[...], bf16>, !ew.tensor<[k], i64>
ew.kernel @batch_only(%x: !ew.tensor<[...], bf16>) -> (!ew.tensor<[...], bf16>, !ew.tensor<[k], i64>) {
  %k = ew.index "k" : !ew.tensor<[k], i64>
  ew.return %x, %k : !ew.tensor<[...], bf16>, !ew.tensor<[k], i64>
}

// Rounding to integral values, on floats and integers.
// CHECK-LABEL: ew.kernel @rounding(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], bf16>, %[[K:.*]]: !ew.tensor<[n], i64>)
// CHECK-NEXT: %[[F:.*]] = ew.floor %[[X]] : !ew.tensor<[n], bf16>
// CHECK-NEXT: %[[C:.*]] = ew.ceil %[[F]] : !ew.tensor<[n], bf16>
// CHECK-NEXT: %[[T:.*]] = ew.trunc %[[C]] : !ew.tensor<[n], bf16>
// CHECK-NEXT: %[[R:.*]] = ew.round %[[K]] : !ew.tensor<[n], i64>
// CHECK-NEXT: ew.return %[[T]], %[[R]]
ew.kernel @rounding(%x: !ew.tensor<[n], bf16>, %k: !ew.tensor<[n], i64>)
    -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], i64>) {
  %0 = ew.floor %x : !ew.tensor<[n], bf16>
  %1 = ew.ceil %0 : !ew.tensor<[n], bf16>
  %2 = ew.trunc %1 : !ew.tensor<[n], bf16>
  %3 = ew.round %k : !ew.tensor<[n], i64>
  ew.return %2, %3 : !ew.tensor<[n], bf16>, !ew.tensor<[n], i64>
}

// The math functions of libm's: one float operand, or two (atan2, pow)
// of which either may be a scalar.
// CHECK-LABEL: ew.kernel @libm_math(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[P:.*]]: f32)
// CHECK-NEXT: %[[A:.*]] = ew.sin %[[X]] : !ew.tensor<[n], f32>
// CHECK-NEXT: %[[B:.*]] = ew.acosh %[[A]] : !ew.tensor<[n], f32>
// CHECK-NEXT: %[[C:.*]] = ew.log1p %[[P]] : f32
// CHECK-NEXT: %[[D:.*]] = ew.atan2 %[[B]], %[[C]] : !ew.tensor<[n], f32>, f32
// CHECK-NEXT: %[[E:.*]] = ew.pow %[[P]], %[[D]] : f32, !ew.tensor<[n], f32>
// CHECK-NEXT: ew.return %[[E]]
ew.kernel @libm_math(%x: !ew.tensor<[n], f32>, %p: f32) -> !ew.tensor<[n], f32> {
  %0 = ew.sin %x : !ew.tensor<[n], f32>
  %1 = ew.acosh %0 : !ew.tensor<[n], f32>
  %2 = ew.log1p %p : f32
  %3 = ew.atan2 %1, %2 : !ew.tensor<[n], f32>, f32
  %4 = ew.pow %p, %3 : f32, !ew.tensor<[n], f32>
  ew.return %4 : !ew.tensor<[n], f32>
}

// Remainders and sign of floats and integers, fma of three floats (any of
// them a scalar).
// CHECK-LABEL: ew.kernel @remainders(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[K:.*]]: !ew.tensor<[n], i32>, %[[S:.*]]: f32)
// CHECK-NEXT: %[[R:.*]] = ew.remainder %[[X]], %[[S]] : !ew.tensor<[n], f32>, f32
// CHECK-NEXT: %[[F:.*]] = ew.fmod %[[K]], %[[K]] : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
// CHECK-NEXT: %[[G:.*]] = ew.sign %[[F]] : !ew.tensor<[n], i32>
// CHECK-NEXT: %[[M:.*]] = ew.fma %[[X]], %[[S]], %[[R]] : !ew.tensor<[n], f32>, f32, !ew.tensor<[n], f32>
// CHECK-NEXT: ew.return %[[M]], %[[G]]
ew.kernel @remainders(%x: !ew.tensor<[n], f32>, %k: !ew.tensor<[n], i32>, %s: f32)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i32>) {
  %0 = ew.remainder %x, %s : !ew.tensor<[n], f32>, f32
  %1 = ew.fmod %k, %k : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %2 = ew.sign %1 : !ew.tensor<[n], i32>
  %3 = ew.fma %x, %s, %0 : !ew.tensor<[n], f32>, f32, !ew.tensor<[n], f32>
  ew.return %3, %2 : !ew.tensor<[n], f32>, !ew.tensor<[n], i32>
}

// Bitwise operations of integers.
// CHECK-LABEL: ew.kernel @bits(
// CHECK-SAME:    %[[K:.*]]: !ew.tensor<[n], i32>, %[[S:.*]]: i32)
// CHECK-NEXT: %[[A:.*]] = ew.bitwise_and %[[K]], %[[S]] : !ew.tensor<[n], i32>, i32
// CHECK-NEXT: %[[B:.*]] = ew.shl %[[A]], %[[S]] : !ew.tensor<[n], i32>, i32
// CHECK-NEXT: %[[C:.*]] = ew.bitwise_not %[[B]] : !ew.tensor<[n], i32>
// CHECK-NEXT: ew.return %[[C]]
ew.kernel @bits(%k: !ew.tensor<[n], i32>, %s: i32) -> !ew.tensor<[n], i32> {
  %0 = ew.bitwise_and %k, %s : !ew.tensor<[n], i32>, i32
  %1 = ew.shl %0, %s : !ew.tensor<[n], i32>, i32
  %2 = ew.bitwise_not %1 : !ew.tensor<[n], i32>
  ew.return %2 : !ew.tensor<[n], i32>
}

// Classification: a number in, i1 out.
// CHECK-LABEL: ew.kernel @classify(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f16>, %[[K:.*]]: i32)
// CHECK-NEXT: %[[N:.*]] = ew.isnan %[[X]] : !ew.tensor<[n], f16>
// CHECK-NEXT: %[[I:.*]] = ew.isinf %[[X]] : !ew.tensor<[n], f16>
// CHECK-NEXT: %[[F:.*]] = ew.isfinite %[[K]] : i32
// CHECK-NEXT: ew.return %[[N]], %[[I]], %[[F]]
ew.kernel @classify(%x: !ew.tensor<[n], f16>, %k: i32)
    -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %0 = ew.isnan %x : !ew.tensor<[n], f16>
  %1 = ew.isinf %x : !ew.tensor<[n], f16>
  %2 = ew.isfinite %k : i32
  ew.return %0, %1, %2 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, i1
}

// Reductions and scans: the combiner region, the dimensions in the order
// written, a reduction to a scalar, and the element form (scalar operand and
// result) that convert-ew-to-arith makes.

// CHECK-LABEL: ew.kernel @reduce_scan(
ew.kernel @reduce_scan(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], i1>) -> (!ew.tensor<[m], f32>, !ew.tensor<[m, n], f32>) {
  // CHECK: %[[S:.*]] = ew.reduce %{{.*}} over ["n"] init 0.000000e+00 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
  // CHECK-NEXT:   %[[R:.*]] = ew.add %[[A]], %[[B]] : f32, f32
  // CHECK-NEXT:   ew.yield %[[R]] : f32
  // CHECK-NEXT: }
  %s = ew.reduce %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %v: f32):
    %r = ew.add %a, %v : f32, f32
    ew.yield %r : f32
  }
  // CHECK: ew.reduce %{{.*}} over ["n", "m"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to f32
  %all = ew.reduce %x over ["n", "m"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to f32 {
  ^bb0(%a: f32, %v: f32):
    %r = ew.max %a, %v : f32, f32
    ew.yield %r : f32
  }
  // CHECK: ew.reduce %{{.*}} over ["n"] init true : !ew.tensor<[n], i1> to i1
  %every = ew.reduce %b over ["n"] init true : !ew.tensor<[n], i1> to i1 {
  ^bb0(%a: i1, %v: i1):
    %r = ew.and %a, %v : i1, i1
    ew.yield %r : i1
  }
  // CHECK: ew.scan %{{.*}} over ["m"] init 0.000000e+00 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32>
  %c = ew.scan %x over ["m"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %v: f32):
    %r = ew.add %a, %v : f32, f32
    ew.yield %r : f32
  }
  %t = ew.add %s, %all : !ew.tensor<[m], f32>, f32
  ew.return %t, %c : !ew.tensor<[m], f32>, !ew.tensor<[m, n], f32>
}

// CHECK-LABEL: func.func @element_form(
// CHECK: ew.reduce %{{.*}} over ["n"] init 0 : i32 : i32 to i32
func.func @element_form(%x: i32) -> i32 {
  %s = ew.reduce %x over ["n"] init 0 : i32 : i32 to i32 {
  ^bb0(%a: i32, %v: i32):
    %r = ew.add %a, %v : i32, i32
    ew.yield %r : i32
  }
  return %s : i32
}

// The launch descriptor, with and without the rows' dimensions.
// CHECK-LABEL: func.func @launches()
// CHECK-SAME: ew.launch = #ew.launch<schedule = "rows", block_size = 256, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["n"], ["s", "d"]]>
// CHECK-SAME: ew.other = #ew.launch<schedule = "elementwise", block_size = 128, elements_per_thread = 4, shared_memory = 0>
// CHECK-SAME: ew.scan = #ew.launch<schedule = "rows", block_size = 512, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["n"]], workspace = 1>
// CHECK-SAME: ew.split = #ew.launch<schedule = "columns", block_size = 256, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["m", "k"]], workspace = 2>
func.func @launches() attributes {ew.scan = #ew.launch<schedule = "rows", block_size = 512, elements_per_thread = 1, shared_memory = 0, row_dims = [["n"]], workspace = 1>, ew.launch = #ew.launch<schedule = "rows", block_size = 256, elements_per_thread = 1, shared_memory = 0, row_dims = [["n"], ["s", "d"]]>, ew.other = #ew.launch<schedule = "elementwise", block_size = 128, elements_per_thread = 4, shared_memory = 0>, ew.split = #ew.launch<schedule = "columns", block_size = 256, elements_per_thread = 1, shared_memory = 0, row_dims = [["m", "k"]], workspace = 2>} {
  return
}

// The random numbers: a seed and an offset of any integer types, either a
// scalar; f32, f32 and i32 results.
// CHECK-LABEL: ew.kernel @random(
// CHECK: ew.rand %{{.*}}, %{{.*}} : i64, !ew.tensor<[n], i64>
// CHECK: ew.randn %{{.*}}, %{{.*}} : ui32, i16
// CHECK: ew.randint %{{.*}}, %{{.*}} : !ew.tensor<[n], i32>, !ew.tensor<[n], ui64>
ew.kernel @random(%seed: i64, %s: ui32, %o: !ew.tensor<[n], i64>, %h: i16, %t: !ew.tensor<[n], i32>, %u: !ew.tensor<[n], ui64>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i32>) {
  %0 = ew.rand %seed, %o : i64, !ew.tensor<[n], i64>
  %1 = ew.randn %s, %h : ui32, i16
  %2 = ew.randint %t, %u : !ew.tensor<[n], i32>, !ew.tensor<[n], ui64>
  ew.return %0, %1, %2 : !ew.tensor<[n], f32>, f32, !ew.tensor<[n], i32>
}
