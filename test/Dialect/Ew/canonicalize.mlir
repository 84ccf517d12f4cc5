// RUN: ewc-opt %s -canonicalize -split-input-file | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s -cse -split-input-file | FileCheck %s --check-prefix=CSE --enable-var-scope

// Scalar constant folding and the algebraic folds (where, neg, not, and, or,
// cast, broadcast); tensor values are never folded into constants (ew.constant is
// scalar). Folded scalars are returned as they are: a scalar fills a tensor
// result.

// CHECK-LABEL: ew.kernel @fold_scalars(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>)
// CHECK-NEXT:    %[[C:.*]] = ew.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[R:.*]] = ew.mul %[[X]], %[[C]] : !ew.tensor<[n], f32>, f32
// CHECK-NEXT:    ew.return %[[R]]
ew.kernel @fold_scalars(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %a = ew.constant 3.0 : f32
  %b = ew.constant 2.0 : f32
  %s = ew.sub %a, %b : f32, f32
  %p = ew.mul %s, %b : f32, f32
  %q = ew.div %p, %b : f32, f32
  %r = ew.mul %x, %q : !ew.tensor<[n], f32>, f32
  ew.return %r : !ew.tensor<[n], f32>
}

// -----

// CHECK-LABEL: ew.kernel @fold_int_and_neg(
// CHECK-NEXT:    %[[C:.*]] = ew.constant -7 : i32
// CHECK-NEXT:    %[[R:.*]] = ew.add %{{.*}}, %[[C]] : !ew.tensor<[n], i32>, i32
ew.kernel @fold_int_and_neg(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  %a = ew.constant 3 : i32
  %b = ew.constant 4 : i32
  %s = ew.add %a, %b : i32, i32
  %n = ew.neg %s : i32
  %r = ew.add %x, %n : !ew.tensor<[n], i32>, i32
  ew.return %r : !ew.tensor<[n], i32>
}

// -----

// Comparisons fold with IEEE semantics: NaN is unordered, so `eq` is false
// and `ne` is true; the where ops on the folded conditions then fold away.
// CHECK-LABEL: ew.kernel @fold_cmp(
// CHECK:         %[[A:.*]] = ew.cmp lt,
// CHECK-NEXT:    %[[B:.*]] = ew.cmp gt,
// CHECK-NEXT:    ew.return %[[B]], %[[A]] : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
ew.kernel @fold_cmp(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %nan = ew.constant 0x7FC00000 : f32
  %one = ew.constant 1.0 : f32
  %eq = ew.cmp eq, %nan, %nan : f32, f32
  %ne = ew.cmp ne, %nan, %one : f32, f32
  %a = ew.cmp lt, %x, %one : !ew.tensor<[n], f32>, f32
  %b = ew.cmp gt, %x, %one : !ew.tensor<[n], f32>, f32
  %r0 = ew.where %eq, %a, %b : i1, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %r1 = ew.where %ne, %a, %b : i1, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  ew.return %r0, %r1 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
}

// -----

// A constant condition picks its side when that side already has the result
// type; a scalar picked into a tensor result must stay a where (broadcast).
// CHECK-LABEL: ew.kernel @fold_where(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[Y:.*]]: !ew.tensor<[n], f32>, %[[S:.*]]: f32)
// CHECK:         %[[W:.*]] = ew.where %{{.*}}, %[[S]], %[[X]] : i1, f32, !ew.tensor<[n], f32>
// CHECK-NEXT:    ew.return %[[Y]], %[[X]], %[[W]]
ew.kernel @fold_where(%x: !ew.tensor<[n], f32>, %y: !ew.tensor<[n], f32>, %s: f32) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %t = ew.constant true
  %f = ew.constant false
  %c = ew.cmp lt, %x, %y : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %0 = ew.where %f, %x, %y : i1, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %1 = ew.where %c, %x, %x : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %2 = ew.where %t, %s, %x : i1, f32, !ew.tensor<[n], f32>
  ew.return %0, %1, %2 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// -----

// Unused pure ops are erased.
// CHECK-LABEL: ew.kernel @dead_code(
// CHECK-NEXT:    ew.return %{{.*}} : !ew.tensor<[n], f32>
ew.kernel @dead_code(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %unused = ew.mul %x, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// Integer division follows the ew definition, not C's undefined behaviour:
// truncation toward zero, x / 0 = 0 and INT_MIN / -1 = INT_MIN.
// CHECK-LABEL: ew.kernel @fold_int_div(
// CHECK-DAG:     %[[Q:.*]] = ew.constant -3 : i32
// CHECK-DAG:     %[[Z:.*]] = ew.constant 0 : i32
// CHECK-DAG:     %[[M:.*]] = ew.constant -2147483648 : i32
// CHECK:         ew.return %[[Q]], %[[Z]], %[[M]], %[[Z]] : i32, i32, i32, i32
ew.kernel @fold_int_div() -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>) {
  %m7 = ew.constant -7 : i32
  %two = ew.constant 2 : i32
  %zero = ew.constant 0 : i32
  %min = ew.constant -2147483648 : i32
  %m1 = ew.constant -1 : i32
  %0 = ew.div %m7, %two : i32, i32
  %1 = ew.div %m7, %zero : i32, i32
  %2 = ew.div %min, %m1 : i32, i32
  %3 = ew.div %zero, %zero : i32, i32
  ew.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// max and min are IEEE 754-2019 maximum/minimum on floats (-0.0 < +0.0,
// NaN wins), signed on integers; abs clears the sign bit of floats and wraps
// on INT_MIN.
// CHECK-LABEL: ew.kernel @fold_max_min_abs(
// CHECK-DAG:     %[[PZ:.*]] = ew.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[NZ:.*]] = ew.constant -0.000000e+00 : f32
// CHECK-DAG:     %[[NAN:.*]] = ew.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[M1:.*]] = ew.constant -1 : i64
// CHECK-DAG:     %[[MIN:.*]] = ew.constant -9223372036854775808 : i64
// CHECK:         ew.return %[[PZ]], %[[NZ]], %[[NAN]], %[[PZ]], %[[M1]], %[[MIN]], %[[MIN]]
ew.kernel @fold_max_min_abs() -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>) {
  %pz = ew.constant 0.0 : f32
  %nz = ew.constant -0.0 : f32
  %nan = ew.constant 0x7FC00000 : f32
  %one = ew.constant 1.0 : f32
  %m1 = ew.constant -1 : i64
  %min = ew.constant -9223372036854775808 : i64
  %0 = ew.max %nz, %pz : f32, f32
  %1 = ew.min %pz, %nz : f32, f32
  %2 = ew.max %one, %nan : f32, f32
  %3 = ew.abs %nz : f32
  %4 = ew.max %m1, %min : i64, i64
  %5 = ew.min %m1, %min : i64, i64
  %6 = ew.abs %min : i64
  ew.return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, i64, i64, i64
}

// -----

// neg and not are involutions; and/or with a constant operand give the other
// operand or (for scalars) the constant.
// CHECK-LABEL: ew.kernel @fold_involutions_and_logic(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[P:.*]]: !ew.tensor<[n], i1>, %[[S:.*]]: i1)
// CHECK-DAG:     %[[T:.*]] = ew.constant true
// CHECK-DAG:     %[[F:.*]] = ew.constant false
// CHECK-DAG:     %[[AND:.*]] = ew.and %[[P]], %[[F]] : !ew.tensor<[n], i1>, i1
// CHECK:         ew.return %[[X]], %[[P]], %[[P]], %[[P]], %[[F]], %[[T]], %[[AND]], %[[T]]
ew.kernel @fold_involutions_and_logic(%x: !ew.tensor<[n], f32>, %p: !ew.tensor<[n], i1>, %s: i1)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %t = ew.constant true
  %f = ew.constant false
  %n0 = ew.neg %x : !ew.tensor<[n], f32>
  %n1 = ew.neg %n0 : !ew.tensor<[n], f32>
  %b0 = ew.not %p : !ew.tensor<[n], i1>
  %b1 = ew.not %b0 : !ew.tensor<[n], i1>
  %a0 = ew.and %t, %p : i1, !ew.tensor<[n], i1>
  %o0 = ew.or %p, %f : !ew.tensor<[n], i1>, i1
  %a1 = ew.and %s, %f : i1, i1
  %o1 = ew.or %t, %s : i1, i1
  %a2 = ew.and %p, %f : !ew.tensor<[n], i1>, i1
  %nt = ew.not %f : i1
  ew.return %n1, %b1, %a0, %o0, %a1, %o1, %a2, %nt : !ew.tensor<[n], f32>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, i1, i1, !ew.tensor<[n], i1>, i1
}

// -----

// Math functions of scalar constants fold; bf16 computes in f32 and rounds
// (e = 2.718... is 2.71875 in bf16).
// CHECK-LABEL: ew.kernel @fold_math(
// CHECK-DAG:     %[[ONE:.*]] = ew.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[ZERO:.*]] = ew.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[TWO:.*]] = ew.constant 2.000000e+00 : f64
// CHECK-DAG:     %[[HALF:.*]] = ew.constant 5.000000e-01 : f32
// CHECK-DAG:     %[[E:.*]] = ew.constant 2.718750e+00 : bf16
// CHECK:         ew.return %[[ONE]], %[[ZERO]], %[[TWO]], %[[HALF]], %[[ZERO]], %[[HALF]], %[[ZERO]], %[[E]]
ew.kernel @fold_math() -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f64>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], bf16>) {
  %zero = ew.constant 0.0 : f32
  %one = ew.constant 1.0 : f32
  %four = ew.constant 4.0 : f32
  %four64 = ew.constant 4.0 : f64
  %one16 = ew.constant 1.0 : bf16
  %0 = ew.exp %zero : f32
  %1 = ew.log %one : f32
  %2 = ew.sqrt %four64 : f64
  %3 = ew.rsqrt %four : f32
  %4 = ew.tanh %zero : f32
  %5 = ew.sigmoid %zero : f32
  %6 = ew.erf %zero : f32
  %7 = ew.exp %one16 : bf16
  ew.return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f64, f32, f32, f32, f32, bf16
}

// -----

// The functions of libm's fold with the host's libm in the compute type:
// sin(0) = 0, cos(0) = 1, atan2(-0, -1) = -pi, pow(2, 10) = 1024,
// pow(NaN, 0) = 1, log1p(-1) = -inf, exp2 of bf16 3 is 8; a tensor operand
// does not fold.
// CHECK-LABEL: ew.kernel @fold_libm(
// CHECK-DAG:     %[[ZERO:.*]] = ew.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = ew.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[MPI:.*]] = ew.constant -3.14159274 : f32
// CHECK-DAG:     %[[K:.*]] = ew.constant 1.024000e+03 : f64
// CHECK-DAG:     %[[NINF:.*]] = ew.constant 0xFF800000 : f32
// CHECK-DAG:     %[[EIGHT:.*]] = ew.constant 8.000000e+00 : bf16
// CHECK-DAG:     %[[T:.*]] = ew.pow %{{.*}}, %[[ONE]] : !ew.tensor<[n], f32>, f32
// CHECK:         ew.return %[[ZERO]], %[[ONE]], %[[MPI]], %[[K]], %[[ONE]], %[[NINF]], %[[EIGHT]], %[[T]]
ew.kernel @fold_libm(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f64>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], bf16>, !ew.tensor<[n], f32>) {
  %zero = ew.constant 0.0 : f32
  %mzero = ew.constant -0.0 : f32
  %one = ew.constant 1.0 : f32
  %mone = ew.constant -1.0 : f32
  %nan = ew.constant 0x7FC00000 : f32
  %two = ew.constant 2.0 : f64
  %ten = ew.constant 10.0 : f64
  %three = ew.constant 3.0 : bf16
  %0 = ew.sin %zero : f32
  %1 = ew.cos %zero : f32
  %2 = ew.atan2 %mzero, %mone : f32, f32
  %3 = ew.pow %two, %ten : f64, f64
  %4 = ew.pow %nan, %zero : f32, f32
  %5 = ew.log1p %mone : f32
  %6 = ew.exp2 %three : bf16
  %7 = ew.pow %x, %one : !ew.tensor<[n], f32>, f32
  ew.return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f64, f32, f32, bf16, !ew.tensor<[n], f32>
}

// -----

// Remainders, sign and fma of constants, exactly as the lowering computes:
// -7 % 3 = 2, fmod(-7, 3) = -1, 7 % -3 = -2, x % 0 = 0 and INT_MIN % -1 = 0
// for integers, -6.0 % 3.0 = -0.0 (fmod's zero kept), sign(-0.0) = -0.0,
// sign(-5) = -1, fma(1 + 2^-12, 1 + 2^-12, -(1 + 2^-11)) = 2^-24 (one
// rounding; two give 0).
// CHECK-LABEL: ew.kernel @fold_remainders(
// CHECK-DAG:     %[[TWO:.*]] = ew.constant 2 : i32
// CHECK-DAG:     %[[MONE:.*]] = ew.constant -1 : i32
// CHECK-DAG:     %[[MTWO:.*]] = ew.constant -2.000000e+00 : f32
// CHECK-DAG:     %[[ZERO:.*]] = ew.constant 0 : i32
// CHECK-DAG:     %[[MZERO:.*]] = ew.constant -0.000000e+00 : f32
// CHECK-DAG:     %[[TINY:.*]] = ew.constant 5.96046448E-8 : f32
// CHECK:         ew.return %[[TWO]], %[[MONE]], %[[MTWO]], %[[ZERO]], %[[ZERO]], %[[MZERO]], %[[MZERO]], %[[MONE]], %[[TINY]]
ew.kernel @fold_remainders() -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f32>) {
  %m7 = ew.constant -7 : i32
  %three = ew.constant 3 : i32
  %zero = ew.constant 0 : i32
  %min = ew.constant -2147483648 : i32
  %mone = ew.constant -1 : i32
  %m5 = ew.constant -5 : i32
  %f7 = ew.constant 7.0 : f32
  %fm3 = ew.constant -3.0 : f32
  %fm6 = ew.constant -6.0 : f32
  %f3 = ew.constant 3.0 : f32
  %fm0 = ew.constant -0.0 : f32
  %a = ew.constant 1.000244140625 : f32
  %c = ew.constant -1.00048828125 : f32
  %0 = ew.remainder %m7, %three : i32, i32
  %1 = ew.fmod %m7, %three : i32, i32
  %2 = ew.remainder %f7, %fm3 : f32, f32
  %3 = ew.remainder %m7, %zero : i32, i32
  %4 = ew.fmod %min, %mone : i32, i32
  %5 = ew.remainder %fm6, %f3 : f32, f32
  %6 = ew.sign %fm0 : f32
  %7 = ew.sign %m5 : i32
  %8 = ew.fma %a, %a, %c : f32, f32, f32
  ew.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, f32, i32, i32, f32, f32, i32, f32
}

// -----

// Bitwise operations of constants; shifts by amounts outside the type as
// torch's (1 << 32 is 0 and -8 >> 40 is -1 in i32), ~~x is x.
// CHECK-LABEL: ew.kernel @fold_bits(
// CHECK-DAG:     %[[EIGHT:.*]] = ew.constant 8 : i32
// CHECK-DAG:     %[[ZERO:.*]] = ew.constant 0 : i32
// CHECK-DAG:     %[[MONE:.*]] = ew.constant -1 : i32
// CHECK-DAG:     %[[MIN:.*]] = ew.constant -2147483648 : i32
// CHECK:         ew.return %[[EIGHT]], %[[ZERO]], %[[MONE]], %[[MIN]], %[[X:.*]] :
ew.kernel @fold_bits(%x: !ew.tensor<[n], i32>) -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>) {
  %twelve = ew.constant 12 : i32
  %ten = ew.constant 10 : i32
  %one = ew.constant 1 : i32
  %m8 = ew.constant -8 : i32
  %thirtytwo = ew.constant 32 : i32
  %thirtyone = ew.constant 31 : i32
  %forty = ew.constant 40 : i32
  %0 = ew.bitwise_and %twelve, %ten : i32, i32
  %1 = ew.shl %one, %thirtytwo : i32, i32
  %2 = ew.shr %m8, %forty : i32, i32
  %3 = ew.shl %one, %thirtyone : i32, i32
  %4 = ew.bitwise_not %x : !ew.tensor<[n], i32>
  %5 = ew.bitwise_not %4 : !ew.tensor<[n], i32>
  ew.return %0, %1, %2, %3, %5 : i32, i32, i32, i32, !ew.tensor<[n], i32>
}

// -----

// Casts of constants: float to int truncates and saturates, NaN gives 0;
// anything to i1 is `!= 0` (NaN true, -0.0 false); i1 is 0 or 1; integers
// wrap or sign-extend; float to float rounds to nearest even (1 + 2^-8 is a
// tie between bf16 neighbours 1.0 and 1.0078125).
// CHECK-LABEL: ew.kernel @fold_cast_constants(
// CHECK-DAG:     %[[MAX:.*]] = ew.constant 2147483647 : i32
// CHECK-DAG:     %[[MIN:.*]] = ew.constant -2147483648 : i32
// CHECK-DAG:     %[[ZERO:.*]] = ew.constant 0 : i32
// CHECK-DAG:     %[[TRUNC:.*]] = ew.constant -2 : i32
// CHECK-DAG:     %[[T:.*]] = ew.constant true
// CHECK-DAG:     %[[F:.*]] = ew.constant false
// CHECK-DAG:     %[[ONE:.*]] = ew.constant 1 : i64
// CHECK-DAG:     %[[M1:.*]] = ew.constant -1 : i64
// CHECK-DAG:     %[[WRAP:.*]] = ew.constant 1 : i32
// CHECK-DAG:     %[[B:.*]] = ew.constant 1.000000e+00 : bf16
// CHECK-DAG:     %[[BIG:.*]] = ew.constant 1.677720e+07 : bf16
// CHECK:         ew.return %[[MAX]], %[[MIN]], %[[ZERO]], %[[TRUNC]], %[[T]], %[[F]], %[[ONE]], %[[M1]], %[[WRAP]], %[[B]], %[[BIG]]
ew.kernel @fold_cast_constants() -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, !ew.tensor<[n], i32>, !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>) {
  %big = ew.constant 1.0e10 : f32
  %small = ew.constant -1.0e10 : f32
  %nan = ew.constant 0x7FC00000 : f32
  %x = ew.constant -2.9 : f64
  %nz = ew.constant -0.0 : f32
  %t = ew.constant true
  %m1 = ew.constant -1 : i32
  %wide = ew.constant 4294967297 : i64
  %tie = ew.constant 1.00390625 : f32
  %int = ew.constant 16777217 : i32
  %0 = ew.cast %big : f32 to i32
  %1 = ew.cast %small : f32 to i32
  %2 = ew.cast %nan : f32 to i32
  %3 = ew.cast %x : f64 to i32
  %4 = ew.cast %nan : f32 to i1
  %5 = ew.cast %nz : f32 to i1
  %6 = ew.cast %t : i1 to i64
  %7 = ew.cast %m1 : i32 to i64
  %8 = ew.cast %wide : i64 to i32
  %9 = ew.cast %tie : f32 to bf16
  %10 = ew.cast %int : i32 to bf16
  ew.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, i32, i32, i32, i1, i1, i64, i64, i32, bf16, bf16
}

// -----

// cast(cast(x)) folds only when the inner cast is exact: bf16 -> f32 -> bf16
// is x, f16 -> f32 -> f64 is one cast; f32 -> bf16 -> f32 rounds and
// f32 -> i32 -> f32 truncates, so they stay.
// CHECK-LABEL: ew.kernel @fold_cast_chains(
// CHECK-SAME:    %[[B:.*]]: !ew.tensor<[n], bf16>, %[[H:.*]]: !ew.tensor<[n], f16>, %[[X:.*]]: !ew.tensor<[n], f32>)
// CHECK-NEXT:    %[[D:.*]] = ew.cast %[[H]] : !ew.tensor<[n], f16> to !ew.tensor<[n], f64>
// CHECK-NEXT:    %[[R0:.*]] = ew.cast %[[X]] : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
// CHECK-NEXT:    %[[R1:.*]] = ew.cast %[[R0]] : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
// CHECK-NEXT:    %[[T0:.*]] = ew.cast %[[X]] : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
// CHECK-NEXT:    %[[T1:.*]] = ew.cast %[[T0]] : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
// CHECK-NEXT:    ew.return %[[B]], %[[D]], %[[R1]], %[[T1]], %[[X]]
ew.kernel @fold_cast_chains(%b: !ew.tensor<[n], bf16>, %h: !ew.tensor<[n], f16>, %x: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], f64>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.cast %b : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %1 = ew.cast %0 : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %2 = ew.cast %h : !ew.tensor<[n], f16> to !ew.tensor<[n], f32>
  %3 = ew.cast %2 : !ew.tensor<[n], f32> to !ew.tensor<[n], f64>
  %4 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %5 = ew.cast %4 : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %6 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
  %7 = ew.cast %6 : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
  %8 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], f32>
  ew.return %1, %3, %5, %7, %8 : !ew.tensor<[n], bf16>, !ew.tensor<[n], f64>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// -----

// IEEE forbids the identity folds: x + 0.0 is +0.0 for x = -0.0, and x * 0 is
// NaN for x = NaN or infinity; integers keep the same rule.
// CHECK-LABEL: ew.kernel @no_identity_folds(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[S:.*]]: f32, %[[I:.*]]: !ew.tensor<[n], i32>)
// CHECK-DAG:     %[[Z:.*]] = ew.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[IZ:.*]] = ew.constant 0 : i32
// CHECK-DAG:     %[[A:.*]] = ew.add %[[X]], %[[Z]] : !ew.tensor<[n], f32>, f32
// CHECK-DAG:     %[[B:.*]] = ew.add %[[S]], %[[Z]] : f32, f32
// CHECK-DAG:     %[[M:.*]] = ew.mul %[[X]], %[[Z]] : !ew.tensor<[n], f32>, f32
// CHECK-DAG:     %[[N:.*]] = ew.mul %[[S]], %[[Z]] : f32, f32
// CHECK-DAG:     %[[K:.*]] = ew.mul %[[I]], %[[IZ]] : !ew.tensor<[n], i32>, i32
// CHECK:         ew.return %[[A]], %[[B]], %[[M]], %[[N]], %[[K]]
ew.kernel @no_identity_folds(%x: !ew.tensor<[n], f32>, %s: f32, %i: !ew.tensor<[n], i32>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i32>) {
  %zero = ew.constant 0.0 : f32
  %izero = ew.constant 0 : i32
  %0 = ew.add %x, %zero : !ew.tensor<[n], f32>, f32
  %1 = ew.add %s, %zero : f32, f32
  %2 = ew.mul %x, %zero : !ew.tensor<[n], f32>, f32
  %3 = ew.mul %s, %zero : f32, f32
  %4 = ew.mul %i, %izero : !ew.tensor<[n], i32>, i32
  ew.return %0, %1, %2, %3, %4 : !ew.tensor<[n], f32>, f32, !ew.tensor<[n], f32>, f32, !ew.tensor<[n], i32>
}

// -----

// Bitcasts of constants fold to the other type's value of the same bits
// (f32 1.0 is 0x3F800000, -1 read as ui8 is 255, f8E4M3FN's 0x7E is 448);
// bitcast(bitcast(x)) is x, or one bitcast from x.
// CHECK-LABEL: ew.kernel @fold_bitcasts(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>)
// CHECK-DAG:     %[[ONE:.*]] = ew.constant 1065353216 : ui32
// CHECK-DAG:     %[[U8:.*]] = ew.constant 255 : ui8
// CHECK-DAG:     %[[F8:.*]] = ew.constant 4.480000e+02 : f8E4M3FN
// CHECK:         %[[I:.*]] = ew.bitcast %[[X]] : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
// CHECK:         ew.return %[[X]], %[[I]], %{{.*}}, %{{.*}}, %{{.*}}
ew.kernel @fold_bitcasts(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i32>, !ew.tensor<[n], ui32>, !ew.tensor<[n], ui8>, !ew.tensor<[n], f8E4M3FN>) {
  %u = ew.bitcast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], ui32>
  %back = ew.bitcast %u : !ew.tensor<[n], ui32> to !ew.tensor<[n], f32>
  %i = ew.bitcast %u : !ew.tensor<[n], ui32> to !ew.tensor<[n], i32>
  %c1 = ew.constant 1.0 : f32
  %b1 = ew.bitcast %c1 : f32 to ui32
  %m1 = ew.constant -1 : i8
  %b2 = ew.bitcast %m1 : i8 to ui8
  %c3 = ew.constant 126 : ui8
  %b3 = ew.bitcast %c3 : ui8 to f8E4M3FN
  ew.return %back, %i, %b1, %b2, %b3 : !ew.tensor<[n], f32>, !ew.tensor<[n], i32>, ui32, ui8, f8E4M3FN
}

// -----

// A broadcast to its operand's own type is the operand, and a broadcast of a
// broadcast is one broadcast of the first operand: a round trip through
// another order is the operand again. Dead broadcasts go.
// CHECK-LABEL: ew.kernel @fold_broadcast(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[m, n], f32>, %[[B:.*]]: !ew.tensor<[n], f32>)
// CHECK-NEXT:    %[[BK:.*]] = ew.broadcast %[[B]] : <[n], f32> to <[k, m, n], f32>
// CHECK-NEXT:    ew.return %[[X]], %[[X]], %[[BK]] : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[k, m, n], f32>
ew.kernel @fold_broadcast(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[k, m, n], f32>) {
  %same = ew.broadcast %x : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32>
  %t = ew.broadcast %x : !ew.tensor<[m, n], f32> to !ew.tensor<[n, m], f32>
  %tt = ew.broadcast %t : !ew.tensor<[n, m], f32> to !ew.tensor<[m, n], f32>
  %bm = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
  %bk = ew.broadcast %bm : !ew.tensor<[m, n], f32> to !ew.tensor<[k, m, n], f32>
  %dead = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[n, m], f32>
  ew.return %same, %tt, %bk : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[k, m, n], f32>
}

// -----

// The ops are Pure, so cse merges equal ones; both results are returned, so
// the merge is visible.
// CSE-LABEL: ew.kernel @cse(
// CSE-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[C:.*]]: !ew.tensor<[n], i32>)
// CSE-NEXT:    %[[E:.*]] = ew.exp %[[X]] : !ew.tensor<[n], f32>
// CSE-NEXT:    %[[F:.*]] = ew.cast %[[C]] : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
// CSE-NEXT:    ew.return %[[E]], %[[E]], %[[F]], %[[F]]
ew.kernel @cse(%x: !ew.tensor<[n], f32>, %c: !ew.tensor<[n], i32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.exp %x : !ew.tensor<[n], f32>
  %1 = ew.exp %x : !ew.tensor<[n], f32>
  %2 = ew.cast %c : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
  %3 = ew.cast %c : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}

// -----

// MLIRGen emits a broadcast of a value at each use and ew.index at each
// `index(n)`; they are Pure, so cse merges the copies.
// CSE-LABEL: ew.kernel @cse_dims(
// CSE-SAME:    %[[B:.*]]: !ew.tensor<[n], f32>)
// CSE-NEXT:    %[[BB:.*]] = ew.broadcast %[[B]] : <[n], f32> to <[m, n], f32>
// CSE-NEXT:    %[[I:.*]] = ew.index "n" : <[n], i64>
// CSE-NEXT:    %[[S:.*]] = ew.size "m" : i64
// CSE-NEXT:    ew.return %[[BB]], %[[BB]], %[[I]], %[[I]], %[[S]], %[[S]]
ew.kernel @cse_dims(%b: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, !ew.tensor<[m], i64>, !ew.tensor<[m], i64>) {
  %0 = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
  %1 = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
  %2 = ew.index "n" : !ew.tensor<[n], i64>
  %3 = ew.index "n" : !ew.tensor<[n], i64>
  %4 = ew.size "m" : i64
  %5 = ew.size "m" : i64
  ew.return %0, %1, %2, %3, %4, %5 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, i64, i64
}

// -----

// floor, ceil, trunc and round: scalar constants round in their own type
// (round is ties to even, ceil of -0.5 is -0.0); an integer operand, or one
// that is already the result of a rounding, is returned as it is; a float
// tensor stays.
// CHECK-LABEL: ew.kernel @fold_rounding(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>, %[[K:.*]]: !ew.tensor<[n], i32>)
// CHECK-DAG:     %[[TWO:.*]] = ew.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[NZ:.*]] = ew.constant -0.000000e+00 : f32
// CHECK-DAG:     %[[M3:.*]] = ew.constant -3.000000e+00 : bf16
// CHECK-DAG:     %[[THREE:.*]] = ew.constant 3.000000e+00 : f64
// CHECK:         %[[FLOOR:.*]] = ew.floor %[[X]] : !ew.tensor<[n], f32>
// CHECK-NOT:     ew.round
// CHECK-NOT:     ew.ceil
// CHECK:         ew.return %[[TWO]], %[[NZ]], %[[M3]], %[[THREE]], %[[K]], %[[FLOOR]]
ew.kernel @fold_rounding(%x: !ew.tensor<[n], f32>, %k: !ew.tensor<[n], i32>)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], bf16>, !ew.tensor<[n], f64>, !ew.tensor<[n], i32>, !ew.tensor<[n], f32>) {
  %a = ew.constant 2.5 : f32
  %b = ew.constant -0.5 : f32
  %c = ew.constant -2.5 : bf16
  %d = ew.constant 2.5 : f64
  %0 = ew.round %a : f32
  %1 = ew.ceil %b : f32
  %2 = ew.floor %c : bf16
  %3 = ew.ceil %d : f64
  %4 = ew.round %k : !ew.tensor<[n], i32>
  %5 = ew.floor %x : !ew.tensor<[n], f32>
  %6 = ew.round %5 : !ew.tensor<[n], f32>
  %7 = ew.ceil %6 : !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3, %4, %7 : f32, f32, bf16, f64, !ew.tensor<[n], i32>, !ew.tensor<[n], f32>
}

// -----

// isnan, isinf and isfinite of scalar constants fold to i1 constants; of an
// integer, to the answer for every integer; tensors stay.
// CHECK-LABEL: ew.kernel @fold_classify(
// CHECK-SAME:    %[[X:.*]]: !ew.tensor<[n], f32>
// CHECK-DAG:     %[[T:.*]] = ew.constant true
// CHECK-DAG:     %[[F:.*]] = ew.constant false
// CHECK:         %[[NAN:.*]] = ew.isnan %[[X]] : !ew.tensor<[n], f32>
// CHECK:         ew.return %[[T]], %[[F]], %[[F]], %[[T]], %[[T]], %[[NAN]]
ew.kernel @fold_classify(%x: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %nan = ew.constant 0x7FC00000 : f32
  %inf = ew.constant 0xFF800000 : f32
  %k = ew.constant 7 : i64
  %0 = ew.isnan %nan : f32
  %1 = ew.isfinite %inf : f32
  %2 = ew.isinf %k : i64
  %3 = ew.isfinite %k : i64
  %4 = ew.isinf %inf : f32
  %5 = ew.isnan %x : !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, !ew.tensor<[n], i1>
}

// -----

// Integer chains through a float: i8 -> f32 -> i32 is one cast (every i8 is
// an i32), but u32 -> f64 -> ui16 saturates where u32 -> ui16 would wrap, and
// i8 -> f32 -> ui8 saturates negatives to 0, so they stay two casts;
// u8 -> i16 -> i32 is one zero-extending cast, i8 -> ui16 -> i32 stays (the
// negative i8s are no ui16s).
// CHECK-LABEL: ew.kernel @fold_integer_cast_chains(
// CHECK-SAME:    %[[S:.*]]: !ew.tensor<[n], i8>, %[[U:.*]]: !ew.tensor<[n], ui32>, %[[B:.*]]: !ew.tensor<[n], ui8>)
// CHECK-NEXT:    %[[F:.*]] = ew.cast %[[S]] : !ew.tensor<[n], i8> to !ew.tensor<[n], f32>
// CHECK-NEXT:    %[[W:.*]] = ew.cast %[[S]] : !ew.tensor<[n], i8> to !ew.tensor<[n], i32>
// CHECK-NEXT:    %[[D:.*]] = ew.cast %[[U]] : !ew.tensor<[n], ui32> to !ew.tensor<[n], f64>
// CHECK-NEXT:    %[[N:.*]] = ew.cast %[[D]] : !ew.tensor<[n], f64> to !ew.tensor<[n], ui16>
// CHECK-NEXT:    %[[Z:.*]] = ew.cast %[[F]] : !ew.tensor<[n], f32> to !ew.tensor<[n], ui8>
// CHECK-NEXT:    %[[E:.*]] = ew.cast %[[B]] : !ew.tensor<[n], ui8> to !ew.tensor<[n], i32>
// CHECK-NEXT:    %[[H:.*]] = ew.cast %[[S]] : !ew.tensor<[n], i8> to !ew.tensor<[n], ui16>
// CHECK-NEXT:    %[[HW:.*]] = ew.cast %[[H]] : !ew.tensor<[n], ui16> to !ew.tensor<[n], i32>
// CHECK-NEXT:    ew.return %[[W]], %[[N]], %[[Z]], %[[E]], %[[HW]]
ew.kernel @fold_integer_cast_chains(%s: !ew.tensor<[n], i8>, %u: !ew.tensor<[n], ui32>, %b: !ew.tensor<[n], ui8>)
    -> (!ew.tensor<[n], i32>, !ew.tensor<[n], ui16>, !ew.tensor<[n], ui8>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>) {
  %0 = ew.cast %s : !ew.tensor<[n], i8> to !ew.tensor<[n], f32>
  %1 = ew.cast %0 : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
  %2 = ew.cast %u : !ew.tensor<[n], ui32> to !ew.tensor<[n], f64>
  %3 = ew.cast %2 : !ew.tensor<[n], f64> to !ew.tensor<[n], ui16>
  %4 = ew.cast %0 : !ew.tensor<[n], f32> to !ew.tensor<[n], ui8>
  %5 = ew.cast %b : !ew.tensor<[n], ui8> to !ew.tensor<[n], i16>
  %6 = ew.cast %5 : !ew.tensor<[n], i16> to !ew.tensor<[n], i32>
  %7 = ew.cast %s : !ew.tensor<[n], i8> to !ew.tensor<[n], ui16>
  %8 = ew.cast %7 : !ew.tensor<[n], ui16> to !ew.tensor<[n], i32>
  ew.return %1, %3, %4, %6, %8 : !ew.tensor<[n], i32>, !ew.tensor<[n], ui16>, !ew.tensor<[n], ui8>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
}

// -----

// Unsigned folds: division, remainder, >>, max and comparison of ui8 read
// the bits as unsigned (200 / 3 = 66, 200 % 7 = 4, 200 >> 3 = 25 with zeros
// in, max(200, 3) = 200, 3 < 200); ~0 is 255; sign(200) is 1; u8(-1.5) and
// u8(300.0) saturate to 0 and 255; u8 -> f32 of 200 is 200.0.
// CHECK-LABEL: ew.kernel @fold_unsigned(
// CHECK-DAG:     %[[Q:.*]] = ew.constant 66 : ui8
// CHECK-DAG:     %[[R:.*]] = ew.constant 4 : ui8
// CHECK-DAG:     %[[SH:.*]] = ew.constant 25 : ui8
// CHECK-DAG:     %[[M:.*]] = ew.constant 200 : ui8
// CHECK-DAG:     %[[T:.*]] = ew.constant true
// CHECK-DAG:     %[[N:.*]] = ew.constant 255 : ui8
// CHECK-DAG:     %[[ONE:.*]] = ew.constant 1 : ui8
// CHECK-DAG:     %[[LO:.*]] = ew.constant 0 : ui8
// CHECK-DAG:     %[[F:.*]] = ew.constant 2.000000e+02 : f32
// CHECK:         ew.return %[[Q]], %[[R]], %[[SH]], %[[M]], %[[T]], %[[N]], %[[ONE]], %[[LO]], %[[N]], %[[F]]
ew.kernel @fold_unsigned() -> (!ew.tensor<[n], ui8>, !ew.tensor<[n], ui8>, !ew.tensor<[n], ui8>, !ew.tensor<[n], ui8>, !ew.tensor<[n], i1>, !ew.tensor<[n], ui8>, !ew.tensor<[n], ui8>, !ew.tensor<[n], ui8>, !ew.tensor<[n], ui8>, !ew.tensor<[n], f32>) {
  %a = ew.constant 200 : ui8
  %b = ew.constant 3 : ui8
  %c = ew.constant 7 : ui8
  %z = ew.constant 0 : ui8
  %neg = ew.constant -1.5 : f32
  %big = ew.constant 300.0 : f32
  %0 = ew.div %a, %b : ui8, ui8
  %1 = ew.fmod %a, %c : ui8, ui8
  %2 = ew.shr %a, %b : ui8, ui8
  %3 = ew.max %a, %b : ui8, ui8
  %4 = ew.cmp lt, %b, %a : ui8, ui8
  %5 = ew.bitwise_not %z : ui8
  %6 = ew.sign %a : ui8
  %7 = ew.cast %neg : f32 to ui8
  %8 = ew.cast %big : f32 to ui8
  %9 = ew.cast %a : ui8 to f32
  ew.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : ui8, ui8, ui8, ui8, i1, ui8, ui8, ui8, ui8, f32
}
