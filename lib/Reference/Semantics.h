//===- Semantics.h - Scalar semantics of the ew language --------*- C++ -*-===//
//
// What one element of each operation is, written with plain C++ on doubles
// and int64s, independently of MLIR: rounding to a float type, the casts,
// integer division, IEEE maximum/minimum, the math functions, and the unit in
// the last place that bounds their error. Private to lib/Reference; the
// evaluator applies these element by element.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_REFERENCE_SEMANTICS_H
#define EWC_LIB_REFERENCE_SEMANTICS_H

#include "ewc/Frontend/AST.h"

#include <array>
#include <cstdint>

namespace ewc {
namespace ref {

/// The largest finite value of the float type `dtype`.
double getMaxFinite(DType dtype);

/// The spacing of the float type `dtype` at |value| (the ulp): for an
/// infinity, the ulp of the largest finite value; for zero and subnormals,
/// the smallest subnormal.
double getUlp(double value, DType dtype);

/// Rounds to the float type `dtype`, to nearest, ties to even.
double roundTo(double value, DType dtype);

// Integers of every type are held in an int64 (wrapToIntegerType's form):
// u64's values from 2^63 on as their bits, so the operations below that
// order or divide read them as unsigned.

/// float -> integer: truncates toward zero, saturates at the range of `to`,
/// NaN gives 0.
int64_t convertFloatToInt(double value, DType to);

/// integer (of type `from`) -> float: rounds to nearest even. i64 and u64 to
/// f16 or bf16 go through f64, as the compiled code does
/// (docs/language.md).
double convertIntToFloat(int64_t value, DType from, DType to);

/// a < b for integers of type `dtype` (unsigned for u8 ... u64).
bool lessInt(int64_t a, int64_t b, DType dtype);

/// Integer division: truncates toward zero; a zero divisor gives 0 and
/// INT_MIN / -1 wraps to INT_MIN, so no input traps.
int64_t divideInt(int64_t a, int64_t b, DType dtype);

/// Integer remainder: C's truncated `%` (the sign of the dividend: fmod), or
/// with `signOfDivisor` torch.remainder's (the fmod, plus b where it is not
/// zero and its sign is not b's); a zero divisor gives 0 and INT_MIN % -1 is
/// 0, so no input traps. Unsigned types: the remainder (both are the same).
int64_t remainderInt(int64_t a, int64_t b, DType dtype, bool signOfDivisor);

/// Shifts of an integer of type `dtype` with torch's rule for amounts outside
/// the type: `x << b` is 0 for b < 0 or b >= the width; `x >> b` of a signed
/// type is arithmetic, and x >> (width - 1) (0 or -1) for b < 0 or b >=
/// width - 1; of an unsigned type logical, and 0 for b >= the width.
int64_t shiftLeft(int64_t x, int64_t b, DType dtype);
int64_t shiftRight(int64_t x, int64_t b, DType dtype);

/// torch.remainder of floats: r = fmod(a, b) (exact), then r + b where r is
/// not zero and its sign is not b's, that sum rounded once (here in double;
/// the caller rounds to the compute type, which gives the same value: f32's
/// sum of two f32 values is the double sum rounded).
double remainder(double a, double b);

/// a * b + c with one rounding to the float compute type `dtype` (f32 or
/// f64): f64 by the C library's fma; f32 by the exact product (two f32 fit
/// a double) and a sum rounded to odd in double, which then rounds to f32
/// correctly (53 >= 2 * 24 + 2 bits: round-to-odd's double rounding is
/// innocuous).
double fusedMultiplyAdd(double a, double b, double c, DType dtype);

/// IEEE 754-2019 maximum and minimum: NaN if either operand is NaN, and
/// -0.0 < +0.0.
double maximum(double a, double b);
double minimum(double a, double b);

/// `x` rounded to the nearest integral value, ties to even (torch.round), by
/// its own arithmetic rather than the FPU's rounding mode: -0.5 gives -0.0,
/// 2.5 gives 2.0, NaN and infinities pass through.
double roundHalfEven(double x);

/// The math builtin `op` of `x` (and `y` for atan2 and pow, whose first
/// operand is `x`) in double precision (whose error is far below an f32
/// ulp): exp, log, sqrt, rsqrt, tanh, sigmoid, erf, erfc, exp2, expm1, log2,
/// log10, log1p, the trigonometric and hyperbolic functions and their
/// inverses, atan2 and pow.
double applyMath(OpKind op, double x, double y = 0);

/// The error, in ulps of the compute type, that the compiled code of math
/// builtin `op` may have beyond correct rounding (docs/language.md states
/// these; the GPU's libdevice is the least accurate implementation).
unsigned getMathUlps(OpKind op);

/// Philox4x32 (Salmon et al., SC'11) with `rounds` rounds of the 128-bit
/// counter `counter` under the 64-bit key `key`, written from the paper's
/// definition: each round multiplies words 0 and 2 by the round constants as
/// 64-bit products and bumps the key by the Weyl constants before every round
/// after the first. Random123's known answers are in SemanticsTest.cpp.
std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> counter,
                                   std::array<uint32_t, 2> key,
                                   unsigned rounds = 10);

/// What rand, randn and randint give for a seed and an offset as they come
/// (integer values held as the evaluator holds them: signed ones
/// sign-extended, unsigned ones zero-extended; the offset of type
/// `offsetType`), per docs/language.md ("Random numbers"):
/// Triton 3.6's tl.randint, tl.rand and tl.randn. randn's value is Box-Muller
/// in double from the f32 uniforms and the f32 angle; the compiled code's
/// log, sqrt and cos are within getRandnUlps of it.
int32_t randomBits(int64_t seed, int64_t offset, DType offsetType);
float randomUniform(int64_t seed, int64_t offset, DType offsetType);
double randomNormal(int64_t seed, int64_t offset, DType offsetType);

/// The ulps of randn's f32 result that its three math functions and four
/// roundings may cost: log (1 ulp on the GPU), sqrt (sqrt.approx, 1), cos (2)
/// and the product; rounded up.
constexpr unsigned kRandnUlps = 8;

} // namespace ref
} // namespace ewc

#endif // EWC_LIB_REFERENCE_SEMANTICS_H
