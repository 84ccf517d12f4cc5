//===- RandomInput.cpp - Seeded kernel inputs -----------------------------===//
//
// Box-Muller on std::mt19937_64 for normal floats, rejection sampling for
// integers: only the generator's output is fixed by the standard, so
// everything on top of it is written here. The kinds other than normal use
// no libm function (only ldexp, which is exact), so their bits are the same
// on every platform.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/RandomInput.h"

#include "Semantics.h"

#include "ewc/Frontend/AST.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <random>

using namespace ewc;

llvm::StringRef ewc::getInputKindName(InputKind kind) {
  switch (kind) {
  case InputKind::Normal:
    return "normal";
  case InputKind::Uniform:
    return "uniform";
  case InputKind::Special:
    return "special";
  case InputKind::Ints:
    return "ints";
  }
  llvm_unreachable("unknown InputKind");
}

std::optional<InputKind> ewc::parseInputKindName(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<InputKind>>(name)
      .Case("normal", InputKind::Normal)
      .Case("uniform", InputKind::Uniform)
      .Case("special", InputKind::Special)
      .Case("ints", InputKind::Ints)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Draws
//===----------------------------------------------------------------------===//

namespace {

/// A double uniform in [0, 1) from the top 53 bits of one draw.
double uniform01(std::mt19937_64 &rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// An integer uniform in [0, range), unbiased: draws in the top partial
/// block of 2^64 are rejected.
uint64_t uniformBelow(std::mt19937_64 &rng, uint64_t range) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t draw;
  do
    draw = rng();
  while (draw >= limit);
  return draw % range;
}

/// An integer uniform in [lo, hi].
int64_t uniformInt(std::mt19937_64 &rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(uniformBelow(rng, uint64_t(hi - lo) + 1));
}

/// A random sign, +1 or -1.
double randomSign(std::mt19937_64 &rng) { return (rng() >> 63) ? -1.0 : 1.0; }

/// The shape of a float type, from its APFloat semantics.
struct FloatShape {
  int mantBits; // Stored mantissa bits.
  int minExp;   // Exponent of the least normal.
  int maxExp;   // Exponent of the greatest finite.
  double maxFinite;

  explicit FloatShape(DType dtype) {
    const llvm::fltSemantics &sem = getFloatSemantics(dtype);
    mantBits = static_cast<int>(llvm::APFloat::semanticsPrecision(sem)) - 1;
    minExp = llvm::APFloat::semanticsMinExponent(sem);
    maxExp = llvm::APFloat::semanticsMaxExponent(sem);
    // Not (2 - 2^-mantBits) * 2^maxExp: f8e4m3's largest is 448, its 480
    // being NaN.
    maxFinite = llvm::APFloat::getLargest(sem).convertToDouble();
  }
  double leastNormal() const { return std::ldexp(1.0, minExp); }
  double leastSubnormal() const { return std::ldexp(1.0, minExp - mantBits); }
  /// The subnormal whose mantissa field is `mant` (1 to 2^mantBits - 1).
  double subnormal(uint64_t mant) const {
    return std::ldexp(static_cast<double>(mant), minExp - mantBits);
  }
};

/// An ordinary value: random sign and 52-bit mantissa, exponent in [-4, 4].
double ordinaryValue(std::mt19937_64 &rng) {
  double mantissa = 1.0 + static_cast<double>(rng() >> 12) * 0x1.0p-52;
  return randomSign(rng) * std::ldexp(mantissa, int(uniformInt(rng, -4, 4)));
}

/// One element of InputKind::Special for a float type, as a double that the
/// type represents exactly (except ordinary values, which it rounds).
double specialFloat(std::mt19937_64 &rng, const FloatShape &shape) {
  // Out of 64: NaN 4, +inf 2, -inf 2, +0 3, -0 3, subnormal 6, extreme 8,
  // near +-1 8, ordinary 28.
  uint64_t pick = rng() % 64;
  const double inf = std::numeric_limits<double>::infinity();
  if (pick < 4)
    return std::copysign(std::numeric_limits<double>::quiet_NaN(),
                         randomSign(rng));
  if (pick < 6)
    return inf;
  if (pick < 8)
    return -inf;
  if (pick < 11)
    return 0.0;
  if (pick < 14)
    return -0.0;
  uint64_t mantCount = uint64_t(1) << shape.mantBits;
  if (pick < 20)
    return randomSign(rng) *
           shape.subnormal(1 + uniformBelow(rng, mantCount - 1));
  if (pick < 28) {
    double extremes[] = {shape.maxFinite, shape.leastNormal(),
                         shape.leastSubnormal(),
                         shape.subnormal(mantCount - 1)};
    return randomSign(rng) * extremes[uniformBelow(rng, 4)];
  }
  if (pick < 36) {
    // 1 and its two neighbours on either side; the ulp below 1 is half the
    // ulp above.
    int64_t steps = uniformInt(rng, -2, 2);
    int ulpExp = steps < 0 ? -shape.mantBits - 1 : -shape.mantBits;
    return randomSign(rng) * (1.0 + std::ldexp(double(steps), ulpExp));
  }
  return ordinaryValue(rng);
}

/// One element of InputKind::Special for the integer type `dtype` (wider
/// than 8 bits: fillRange gives those every bit pattern).
int64_t specialInt(std::mt19937_64 &rng, DType dtype) {
  // The extremes, where +-inf saturate (u64's maximum as its bits).
  int64_t max =
      ref::convertFloatToInt(std::numeric_limits<double>::infinity(), dtype);
  int64_t min =
      ref::convertFloatToInt(-std::numeric_limits<double>::infinity(), dtype);
  // Out of 16: 7 edge values, 3 small, 6 full width.
  switch (uint64_t pick = rng() % 16) {
  case 0:
    return min;
  case 1:
    return max;
  case 2:
    return 0;
  case 3:
    return 1;
  case 4:
    return -1; // an unsigned type's maximum
  case 5:
    return min + 1;
  case 6:
    return max - 1;
  default:
    if (pick < 10)
      return uniformInt(rng, isUnsignedInteger(dtype) ? 0 : -8, 8);
    return static_cast<int64_t>(rng()); // Wrapped to the type by the store.
  }
}

/// splitmix64's finalizer: a bijection that scatters nearby inputs.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

} // namespace

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

/// Fills elements [begin, end) of `result` from `rng`.
static void fillRange(HostArray &result, InputKind kind, std::mt19937_64 &rng,
                      int64_t begin, int64_t end) {
  DType dtype = result.getDType();
  if (dtype == DType::Bool) {
    for (int64_t i = begin; i < end; ++i)
      result.setFromInt(i, static_cast<int64_t>(rng() >> 63));
    return;
  }

  if (isInteger(dtype)) {
    // Unsigned types draw from as many values, none negative.
    int64_t shift = isUnsignedInteger(dtype) ? 1 : 0;
    if (kind == InputKind::Special && getIntegerBitWidth(dtype) == 8) {
      // Every bit pattern in each 256 consecutive elements: k * step +
      // first for an odd step (a bijection mod 256), drawn per range so that
      // two arrays pair their patterns differently.
      uint64_t first = rng() & 255, step = (rng() & 254) | 1;
      for (int64_t i = begin; i < end; ++i)
        result.setFromInt(i,
                          static_cast<int64_t>(
                              (first + static_cast<uint64_t>(i) * step) & 255));
      return;
    }
    for (int64_t i = begin; i < end; ++i) {
      switch (kind) {
      case InputKind::Normal:
      case InputKind::Uniform:
        result.setFromInt(
            i, uniformInt(rng, -100 + 100 * shift, 100 + 100 * shift));
        break;
      case InputKind::Ints:
        result.setFromInt(i, uniformInt(rng, -8 + 8 * shift, 8 + 8 * shift));
        break;
      case InputKind::Special:
        result.setFromInt(i, specialInt(rng, dtype));
        break;
      }
    }
    return;
  }

  if (kind == InputKind::Special && getDTypeSize(dtype) == 1) {
    // The 8-bit floats: every bit pattern in each 256 elements, as for the
    // 8-bit integers, written as bits (f8e5m2's NaNs are several).
    uint64_t first = rng() & 255, step = (rng() & 254) | 1;
    auto *data = static_cast<uint8_t *>(result.data());
    for (int64_t i = begin; i < end; ++i)
      data[i] =
          static_cast<uint8_t>((first + static_cast<uint64_t>(i) * step) & 255);
    return;
  }

  int64_t size = end - begin;
  std::vector<double> values(size);
  FloatShape shape(dtype);
  switch (kind) {
  case InputKind::Normal: {
    // Box-Muller gives two independent normals per pair of uniforms. u1 is
    // taken from (0, 1] so that log(u1) is finite.
    const double twoPi = 6.283185307179586476925286766559;
    for (int64_t i = 0; i < size; i += 2) {
      double u1 = 1.0 - uniform01(rng);
      double u2 = uniform01(rng);
      double radius = std::sqrt(-2.0 * std::log(u1));
      values[i] = radius * std::cos(twoPi * u2);
      if (i + 1 < size)
        values[i + 1] = radius * std::sin(twoPi * u2);
    }
    break;
  }
  case InputKind::Uniform:
    // k * 2^-mantBits - 1 for k in [0, 2^(mantBits + 1)): exact in the type.
    for (int64_t i = 0; i < size; ++i)
      values[i] =
          std::ldexp(double(rng() >> (63 - shape.mantBits)), -shape.mantBits) -
          1.0;
    break;
  case InputKind::Ints:
    for (int64_t i = 0; i < size; ++i)
      values[i] = double(uniformInt(rng, -8, 8));
    break;
  case InputKind::Special:
    for (int64_t i = 0; i < size; ++i)
      values[i] = specialFloat(rng, shape);
    break;
  }
  result.writeDoubles(begin, values);
}

HostArray ewc::makeRandomInput(DType dtype, int64_t n, uint64_t seed,
                               InputKind kind) {
  // Chunks of 2^20 elements (even, so Box-Muller's pairs never straddle
  // two) are drawn from streams of their own, so that large inputs are made
  // on all cores: at n = 2^28 one stream would take seconds. The first chunk
  // uses the seed's own stream, so every n up to 2^20 gives the values it
  // always did.
  constexpr int64_t kChunk = int64_t(1) << 20;
  // Every element is drawn below, on all cores, which also first-touch the
  // pages.
  HostArray result = HostArray::getUninitialized(dtype, n);
  auto fillChunk = [&](int64_t chunk) {
    std::mt19937_64 rng(chunk == 0 ? seed : mix(seed + uint64_t(chunk)));
    int64_t begin = chunk * kChunk;
    fillRange(result, kind, rng, begin, std::min(n, begin + kChunk));
  };
  int64_t numChunks = (n + kChunk - 1) / kChunk;
  if (numChunks <= 1) {
    fillChunk(0);
    return result;
  }
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
  for (int64_t chunk = 0; chunk < numChunks; ++chunk)
    pool.async([&, chunk] { fillChunk(chunk); });
  pool.wait();
  return result;
}

HostArray ewc::makeRandomInput(DType dtype, int64_t n, uint64_t seed,
                               unsigned paramIndex, InputKind kind) {
  return makeRandomInput(dtype, n, deriveParamSeed(seed, paramIndex), kind);
}

uint64_t ewc::deriveParamSeed(uint64_t seed, unsigned paramIndex) {
  // splitmix64 of a combination that differs for every (seed, index) pair.
  return mix(seed + 0x9e3779b97f4a7c15ull * (uint64_t(paramIndex) + 1));
}

std::optional<double> ewc::getSpecialTieValue(uint64_t seed, int64_t index) {
  // A stream of its own: parameter streams use multiples of the golden
  // ratio constant, ties this odd salt.
  uint64_t hash = mix(mix(seed ^ 0x5bd1e9955bd1e995ull) + uint64_t(index));
  if ((hash & 7) != 0)
    return std::nullopt;
  hash >>= 3;
  const double inf = std::numeric_limits<double>::infinity();
  // Zero twice as often as the rest: ties at zero are where signs of zero
  // and orderedness differ.
  const double values[] = {0.0,
                           0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           2.0,
                           0.5,
                           -3.0,
                           inf,
                           -inf,
                           std::numeric_limits<double>::quiet_NaN()};
  const uint64_t numValues = std::size(values) + 1;
  uint64_t pick = hash % numValues;
  if (pick < std::size(values))
    return values[pick];
  // An ordinary value: a multiple of 1/64 in [-15.625, 15.625].
  hash /= numValues;
  return (static_cast<double>(hash % 2001) - 1000.0) / 64.0;
}

std::vector<HostArray> ewc::makeRandomInputs(const KernelDecl &kernel,
                                             llvm::ArrayRef<int64_t> sizes,
                                             uint64_t seed, InputKind kind) {
  assert(sizes.size() == kernel.getParams().size() && "one size per parameter");
  std::vector<HostArray> inputs;
  int64_t largest = 0;
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams()) {
    if (!param->isTensor() && param->hasDefault()) {
      inputs.push_back(getDefaultValue(*param));
      continue;
    }
    int64_t size = param->isTensor() ? sizes[param->getIndex()] : 1;
    if (param->isTensor())
      largest = std::max(largest, size);
    inputs.push_back(makeRandomInput(param->getDType(), size, seed,
                                     param->getIndex(), kind));
  }
  if (kind != InputKind::Special)
    return inputs;
  for (int64_t i = 0; i < largest; ++i) {
    std::optional<double> tie = getSpecialTieValue(seed, i);
    if (!tie)
      continue;
    for (const std::unique_ptr<ParamDecl> &param : kernel.getParams())
      if (param->isTensor() && i < inputs[param->getIndex()].size())
        inputs[param->getIndex()].setFromDouble(i, *tie);
  }
  return inputs;
}

HostArray ewc::getDefaultValue(const ParamDecl &param) {
  assert(param.hasDefault() && "parameter has no default");
  HostArray value(param.getDType(), 1);
  // The source's literal, read by the reference itself and rounded once to
  // the parameter's own type (docs/language.md, "Kernel signature").
  auto *number = llvm::dyn_cast<NumberExpr>(param.getDefault());
  if (isFloat(param.getDType()) && number)
    value.setFromDouble(0,
                        *parseDecimal(number->getSpelling(), param.getDType()));
  else
    value.setFromInt(0, *param.getDefaultAsInt());
  return value;
}
