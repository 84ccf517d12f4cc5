//===- Semantics.cpp - Scalar semantics of the ew language ----------------===//
//
// Plain C++ on purpose: these functions define what the compiled code must
// compute, so they share nothing with the MLIR lowering.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include "ewc/Reference/HostArray.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace ewc;

namespace {
/// The shape of a float type: explicit mantissa bits and the smallest normal
/// exponent.
struct FloatShape {
  int mantissaBits;
  int minExponent;
};
} // namespace

static FloatShape getShape(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return {10, -14};
  case DType::BF16:
    return {7, -126};
  case DType::F8E4M3:
    return {3, -6};
  case DType::F8E5M2:
    return {2, -14};
  case DType::F32:
    return {23, -126};
  case DType::F64:
    return {52, -1022};
  default:
    llvm_unreachable("not a floating-point type");
  }
}

double ref::getMaxFinite(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 65504.0;
  case DType::BF16:
    return 0x1.fep127;
  case DType::F8E4M3:
    return 448.0;
  case DType::F8E5M2:
    return 57344.0;
  case DType::F32:
    return std::numeric_limits<float>::max();
  case DType::F64:
    return std::numeric_limits<double>::max();
  default:
    llvm_unreachable("not a floating-point type");
  }
}

double ref::getUlp(double value, DType dtype) {
  FloatShape shape = getShape(dtype);
  double magnitude = std::fabs(value);
  if (std::isinf(magnitude))
    magnitude = getMaxFinite(dtype);
  // ilogb(0) is FP_ILOGB0, far below minExponent: zero gets the subnormal
  // spacing like every other value below the normal range.
  int exponent = magnitude == 0
                     ? shape.minExponent
                     : std::max(std::ilogb(magnitude), shape.minExponent);
  return std::ldexp(1.0, exponent - shape.mantissaBits);
}

double ref::roundTo(double value, DType dtype) {
  return roundToFloatType(value, dtype);
}

int64_t ref::convertFloatToInt(double value, DType to) {
  if (std::isnan(value))
    return 0;
  double truncated = std::trunc(value);
  unsigned width = getIntegerBitWidth(to);
  // The bounds are powers of two, exact in double: the type's range is
  // [low, high), and a value at or past high saturates to the maximum.
  bool isUnsigned = isUnsignedInteger(to);
  double low = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double high = std::ldexp(1.0, isUnsigned ? width : width - 1);
  if (truncated < low)
    truncated = low;
  if (truncated >= high) {
    // The maximum, 2^w - 1 or 2^(w-1) - 1 (u64's as its bits, -1).
    uint64_t max = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    return wrapToIntegerType(static_cast<int64_t>(isUnsigned ? max : max >> 1),
                             to);
  }
  if (truncated >= 9223372036854775808.0) // u64 from 2^63: its bits
    return static_cast<int64_t>(static_cast<uint64_t>(truncated));
  return static_cast<int64_t>(truncated);
}

double ref::convertIntToFloat(int64_t value, DType from, DType to) {
  // The conversion to double rounds once (exact up to 53 bits); f32 must be
  // rounded from the integer directly, since i64 -> f64 -> f32 could round
  // twice.
  bool isUnsigned = isUnsignedInteger(from);
  if (to == DType::F32) {
    llvm::APFloat result(llvm::APFloat::IEEEsingle());
    result.convertFromAPInt(llvm::APInt(64, static_cast<uint64_t>(value)),
                            /*IsSigned=*/!isUnsigned,
                            llvm::APFloat::rmNearestTiesToEven);
    return result.convertToFloat();
  }
  double wide = isUnsigned ? static_cast<double>(static_cast<uint64_t>(value))
                           : static_cast<double>(value);
  return roundTo(wide, to);
}

bool ref::lessInt(int64_t a, int64_t b, DType dtype) {
  // Only u64 holds values whose int64 form is out of order.
  if (dtype == DType::U64)
    return static_cast<uint64_t>(a) < static_cast<uint64_t>(b);
  return a < b;
}

int64_t ref::divideInt(int64_t a, int64_t b, DType dtype) {
  if (b == 0)
    return 0;
  if (dtype == DType::U64)
    return static_cast<int64_t>(static_cast<uint64_t>(a) /
                                static_cast<uint64_t>(b));
  if (isUnsignedInteger(dtype)) // values below 2^32: int64's division
    return a / b;
  if (b == -1) // a / -1 is -a, which wraps for INT_MIN.
    return wrapToIntegerType(static_cast<int64_t>(0 - static_cast<uint64_t>(a)),
                             dtype);
  return a / b;
}

double ref::maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b) // +0.0 and -0.0: the one without the sign bit is larger.
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double ref::minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

int64_t ref::remainderInt(int64_t a, int64_t b, DType dtype,
                          bool signOfDivisor) {
  if (b == 0)
    return 0;
  if (isUnsignedInteger(dtype))
    return static_cast<int64_t>(static_cast<uint64_t>(a) %
                                static_cast<uint64_t>(b));
  if (b == -1)
    return 0;
  int64_t r = a % b;
  if (signOfDivisor && r != 0 && (r < 0) != (b < 0))
    r += b; // |r| < |b| with opposite signs: no overflow
  return r;
}

int64_t ref::shiftLeft(int64_t x, int64_t b, DType dtype) {
  unsigned width = getIntegerBitWidth(dtype);
  if (b < 0 || b >= static_cast<int64_t>(width))
    return 0;
  // In uint64_t, where a shift below 64 is defined; then wrapped to the
  // type's width and sign.
  uint64_t shifted = static_cast<uint64_t>(x) << b;
  return wrapToIntegerType(static_cast<int64_t>(shifted), dtype);
}

int64_t ref::shiftRight(int64_t x, int64_t b, DType dtype) {
  int64_t width = getIntegerBitWidth(dtype);
  if (isUnsignedInteger(dtype)) {
    // Logical: zeros in from the top. An amount of u64 from 2^63 on is
    // negative in its int64 form, and as far out of range.
    if (b < 0 || b >= width)
      return 0;
    return static_cast<int64_t>(static_cast<uint64_t>(x) >> b);
  }
  int64_t most = width - 1;
  if (b < 0 || b > most)
    b = most;
  // x is sign-extended to 64 bits, so its 64-bit arithmetic shift is the
  // type's (>> of a negative value: implementation-defined in C++17,
  // arithmetic in GCC and Clang, and defined so in C++20).
  return x >> b;
}

double ref::remainder(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && (r < 0) != (b < 0))
    r += b;
  return r;
}

double ref::fusedMultiplyAdd(double a, double b, double c, DType dtype) {
  if (dtype == DType::F64)
    return std::fma(a, b, c);
  double product = a * b; // exact: 24 + 24 bits
  double sum = product + c;
  if (!std::isfinite(sum) || !std::isfinite(product) || !std::isfinite(c))
    return roundTo(sum, dtype);
  // Two-sum: sum + error is product + c exactly.
  double bv = sum - product;
  double error = (product - (sum - bv)) + (c - bv);
  if (error != 0) {
    // Round to odd: where the sum was rounded, take the neighbour toward the
    // exact value if the sum's last bit is even.
    uint64_t bits;
    std::memcpy(&bits, &sum, sizeof bits);
    if ((bits & 1) == 0)
      sum = std::nextafter(sum, error > 0
                                    ? std::numeric_limits<double>::infinity()
                                    : -std::numeric_limits<double>::infinity());
  }
  return roundTo(sum, dtype);
}

double ref::roundHalfEven(double x) {
  // Past 2^52 every double is integral (and NaN, inf pass).
  if (!(std::fabs(x) < 0x1p52))
    return x;
  double below = std::floor(x), fraction = x - below; // both exact
  double r = below;
  if (fraction > 0.5 || (fraction == 0.5 && std::fmod(below, 2.0) != 0))
    r = below + 1;
  // A negative x that rounds to zero keeps its sign, as rint's does.
  return std::copysign(r, x);
}

double ref::applyMath(OpKind op, double x, double y) {
  // In long double (x87's 64-bit significand here), then rounded once: the
  // result is the correctly rounded function but for ties closer than 2^-11
  // of a double ulp, so the slack of getMathUlps is the compiled code's alone.
  // In double, glibc's own error (up to 2 ulp for tanh) added to libdevice's:
  // ewc-fuzz on the H200 (seed 9400, program 3573) had f64 tanh of
  // -0.5460580669187028 right to the bit on the GPU, -0.4975599878450081,
  // and rejected against glibc's -0.497559987845008.
  long double v = x;
  switch (op) {
  case OpKind::Exp:
    return static_cast<double>(std::exp(v));
  case OpKind::Log:
    return static_cast<double>(std::log(v));
  case OpKind::Sqrt:
    return std::sqrt(x); // correctly rounded in double already
  case OpKind::Rsqrt:
    return static_cast<double>(1.0L / std::sqrt(v));
  case OpKind::Tanh:
    return static_cast<double>(std::tanh(v));
  case OpKind::Sigmoid: {
    // exp of a non-positive argument only: below x = -709.78, exp(-x) is inf
    // in double and 1 / (1 + exp(-x)) would be 0 where sigmoid(x) is e^x, a
    // subnormal down to -745 (ewc-fuzz on the H200, seed 9, program 6171:
    // ewc's kernels on the GPU and the CPU were right, the reference not).
    if (x >= 0)
      return static_cast<double>(1.0L / (1.0L + std::exp(-v)));
    long double e = std::exp(v);
    return static_cast<double>(e / (1.0L + e));
  }
  case OpKind::Erf:
    return static_cast<double>(std::erf(v));
  case OpKind::Erfc:
    return static_cast<double>(std::erfc(v));
  case OpKind::Exp2:
    return static_cast<double>(std::exp2(v));
  case OpKind::Expm1:
    return static_cast<double>(std::expm1(v));
  case OpKind::Log2:
    return static_cast<double>(std::log2(v));
  case OpKind::Log10:
    return static_cast<double>(std::log10(v));
  case OpKind::Log1p:
    return static_cast<double>(std::log1p(v));
  case OpKind::Sin:
    return static_cast<double>(std::sin(v));
  case OpKind::Cos:
    return static_cast<double>(std::cos(v));
  case OpKind::Tan:
    return static_cast<double>(std::tan(v));
  case OpKind::Asin:
    return static_cast<double>(std::asin(v));
  case OpKind::Acos:
    return static_cast<double>(std::acos(v));
  case OpKind::Atan:
    return static_cast<double>(std::atan(v));
  case OpKind::Sinh:
    return static_cast<double>(std::sinh(v));
  case OpKind::Cosh:
    return static_cast<double>(std::cosh(v));
  case OpKind::Asinh:
    return static_cast<double>(std::asinh(v));
  case OpKind::Acosh:
    return static_cast<double>(std::acosh(v));
  case OpKind::Atanh:
    return static_cast<double>(std::atanh(v));
  case OpKind::Atan2:
    return static_cast<double>(std::atan2(v, static_cast<long double>(y)));
  case OpKind::Pow:
    // C's special cases, as torch.pow's and libdevice's: pow(x, +-0) = 1
    // and pow(1, y) = 1 even for NaN, pow(-1, +-inf) = 1.
    return static_cast<double>(std::pow(v, static_cast<long double>(y)));
  default:
    llvm_unreachable("not a math builtin");
  }
}

unsigned ref::getMathUlps(OpKind op) {
  // The maximum errors the CUDA math library documents for libdevice's f32
  // and f64 functions, the larger of the two (glibc's are smaller: within
  // 1 ulp for the f32 functions, 1-2 for f64 but erfc's 5); sigmoid is
  // 1 / (1 + exp(-x)) or e^x / (1 + e^x), whose division and addition add
  // up to two more. log1p, expm1 and log2 (1 ulp documented) get one more
  // for glibc's f64 functions, which list up to 2.
  switch (op) {
  case OpKind::Sqrt:
  case OpKind::Fma:
    return 0;
  case OpKind::Log:
    return 1;
  case OpKind::Exp:
  case OpKind::Rsqrt:
  case OpKind::Tanh:
  case OpKind::Erf:
  case OpKind::Exp2:
  case OpKind::Expm1:
  case OpKind::Log2:
  case OpKind::Log10:
  case OpKind::Log1p:
  case OpKind::Sin:
  case OpKind::Cos:
  case OpKind::Asin:
  case OpKind::Acos:
  case OpKind::Atan:
  case OpKind::Cosh:
    return 2;
  case OpKind::Atan2:
  case OpKind::Sinh:
  case OpKind::Asinh:
  case OpKind::Atanh:
    return 3;
  case OpKind::Tan:
  case OpKind::Acosh:
  case OpKind::Pow:
  case OpKind::Sigmoid:
    return 4;
  case OpKind::Erfc:
    return 5;
  default:
    llvm_unreachable("not a math builtin");
  }
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

std::array<uint32_t, 4> ref::philox4x32(std::array<uint32_t, 4> counter,
                                        std::array<uint32_t, 2> key,
                                        unsigned rounds) {
  // The paper's constants: the multipliers M0 and M1, and the Weyl sequence
  // increments W0 = golden ratio and W1 = sqrt(3) - 1, as 32-bit fractions.
  const uint64_t multiplier[2] = {0xD2511F53u, 0xCD9E8D57u};
  const uint32_t weyl[2] = {0x9E3779B9u, 0xBB67AE85u};
  for (unsigned r = 0; r < rounds; ++r) {
    if (r != 0) {
      key[0] += weyl[0];
      key[1] += weyl[1];
    }
    uint64_t p0 = multiplier[0] * counter[0];
    uint64_t p1 = multiplier[1] * counter[2];
    counter = {static_cast<uint32_t>(p1 >> 32) ^ counter[1] ^ key[0],
               static_cast<uint32_t>(p1),
               static_cast<uint32_t>(p0 >> 32) ^ counter[3] ^ key[1],
               static_cast<uint32_t>(p0)};
  }
  return counter;
}

/// The first two output words for a seed and an offset: the key is the seed
/// as 64 bits (the evaluator's int64 holds signed values sign-extended and
/// unsigned ones zero-extended already), the counter the offset's two words
/// (the high one only for a 64-bit offset type), then zeros.
static std::array<uint32_t, 4> philoxOf(int64_t seed, int64_t offset,
                                        DType offsetType) {
  auto seedBits = static_cast<uint64_t>(seed);
  auto offsetBits = static_cast<uint64_t>(offset);
  bool wide = getDTypeSize(offsetType) == 8;
  return ref::philox4x32(
      {static_cast<uint32_t>(offsetBits),
       wide ? static_cast<uint32_t>(offsetBits >> 32) : 0u, 0u, 0u},
      {static_cast<uint32_t>(seedBits), static_cast<uint32_t>(seedBits >> 32)});
}

/// Triton's uint_to_uniform_float: the word as a signed 32-bit x, the
/// non-negative of x and -x - 1, times the f32 4.6566127342e-10, in f32.
static float uniformOf(uint32_t word) {
  int64_t x = static_cast<int32_t>(word);
  int64_t magnitude = x < 0 ? -x - 1 : x;
  const float scale = 4.6566127342e-10f;
  return static_cast<float>(magnitude) * scale;
}

int32_t ref::randomBits(int64_t seed, int64_t offset, DType offsetType) {
  return static_cast<int32_t>(philoxOf(seed, offset, offsetType)[0]);
}

float ref::randomUniform(int64_t seed, int64_t offset, DType offsetType) {
  return uniformOf(philoxOf(seed, offset, offsetType)[0]);
}

double ref::randomNormal(int64_t seed, int64_t offset, DType offsetType) {
  std::array<uint32_t, 4> words = philoxOf(seed, offset, offsetType);
  float u1 = std::max(uniformOf(words[0]), 1e-7f);
  // The angle is an f32 product in the definition (Triton's f32 code).
  float angle = 6.283185307179586f * uniformOf(words[1]);
  return std::sqrt(-2.0 * std::log(static_cast<double>(u1))) *
         std::cos(static_cast<double>(angle));
}
