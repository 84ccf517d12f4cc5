//===- RandomInputTest.cpp - The kinds of seeded inputs -------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// What each --inputs kind promises: the ranges of uniform and ints, every
// category of special for every dtype, exact ties across parameters, and
// reproducible bits (pinned by hashes, so that a change of any distribution
// shows).
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/RandomInput.h"

#include "ewc/Frontend/Frontend.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

using namespace ewc;

namespace {

const DType kFloatTypes[] = {DType::F16, DType::BF16, DType::F32, DType::F64};
const InputKind kKinds[] = {InputKind::Normal, InputKind::Uniform,
                            InputKind::Special, InputKind::Ints};

/// FNV-1a of an array's bytes.
uint64_t hashBytes(const HostArray &array) {
  uint64_t hash = 0xcbf29ce484222325ull;
  const auto *bytes = static_cast<const uint8_t *>(array.data());
  for (size_t i = 0; i < array.getSizeInBytes(); ++i)
    hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

/// The raw bits of element `i` of a float array.
uint64_t bitsAt(const HostArray &array, int64_t i) {
  uint64_t bits = 0;
  size_t size = getDTypeSize(array.getDType());
  std::memcpy(&bits, static_cast<const uint8_t *>(array.data()) + i * size,
              size);
  return bits;
}

TEST(RandomInput, KindNames) {
  for (InputKind kind : kKinds)
    EXPECT_EQ(parseInputKindName(getInputKindName(kind)), kind);
  EXPECT_EQ(getInputKindName(InputKind::Special), "special");
  EXPECT_EQ(parseInputKindName("Special"), std::nullopt);
  EXPECT_EQ(parseInputKindName("random"), std::nullopt);
}

TEST(RandomInput, Reproducible) {
  for (InputKind kind : kKinds)
    for (DType dtype : {DType::Bool, DType::I32, DType::I64, DType::F16,
                        DType::BF16, DType::F32, DType::F64}) {
      HostArray a = makeRandomInput(dtype, 1000, 42, kind);
      HostArray b = makeRandomInput(dtype, 1000, 42, kind);
      HostArray c = makeRandomInput(dtype, 1000, 43, kind);
      EXPECT_EQ(hashBytes(a), hashBytes(b));
      EXPECT_NE(hashBytes(a), hashBytes(c));
    }
}

// The exact bits of the libm-free kinds, the same on every platform: a
// change here changes every run's inputs, so it must be deliberate.
TEST(RandomInput, PinnedBits) {
  EXPECT_EQ(hashBytes(makeRandomInput(DType::F32, 4096, 7, InputKind::Special)),
            0x9542571a409966a3ull);
  EXPECT_EQ(
      hashBytes(makeRandomInput(DType::BF16, 4096, 7, InputKind::Uniform)),
      0xe4d6317f5d5e0643ull);
  EXPECT_EQ(hashBytes(makeRandomInput(DType::I64, 4096, 7, InputKind::Special)),
            0x2adfbeafcc4aafc4ull);
  EXPECT_EQ(hashBytes(makeRandomInput(DType::F64, 4096, 7, InputKind::Ints)),
            0x7a01c3958d1e7079ull);
  // The first ties of seed 7.
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t i : {0, 1, 3, 4, 5, 6, 9, 14})
    EXPECT_EQ(getSpecialTieValue(7, i), std::nullopt) << i;
  EXPECT_EQ(getSpecialTieValue(7, 2), -inf);
  EXPECT_EQ(getSpecialTieValue(7, 7), 0.0);
  EXPECT_EQ(getSpecialTieValue(7, 8), 2.0);
  EXPECT_EQ(getSpecialTieValue(7, 15), -1.0);
  EXPECT_TRUE(std::signbit(*getSpecialTieValue(7, 33)));
}

TEST(RandomInput, Uniform) {
  for (DType dtype : kFloatTypes) {
    std::vector<double> values =
        makeRandomInput(dtype, 100000, 1, InputKind::Uniform).toDoubles();
    double lo = *std::min_element(values.begin(), values.end());
    double hi = *std::max_element(values.begin(), values.end());
    EXPECT_GE(lo, -1.0) << getDTypeName(dtype).str();
    EXPECT_LT(hi, 1.0) << getDTypeName(dtype).str();
    EXPECT_LT(lo, -0.99);
    EXPECT_GT(hi, 0.99);
  }
  std::vector<int64_t> ints =
      makeRandomInput(DType::I32, 100000, 1, InputKind::Uniform).toInts();
  EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), -100);
  EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), 100);
}

TEST(RandomInput, Ints) {
  for (DType dtype : {DType::I32, DType::I64, DType::F16, DType::BF16,
                      DType::F32, DType::F64}) {
    std::set<double> seen;
    for (double value :
         makeRandomInput(dtype, 10000, 1, InputKind::Ints).toDoubles()) {
      EXPECT_EQ(value, std::trunc(value));
      seen.insert(value);
    }
    EXPECT_EQ(seen.size(), 17u) << getDTypeName(dtype).str();
    EXPECT_EQ(*seen.begin(), -8.0);
    EXPECT_EQ(*seen.rbegin(), 8.0);
  }
}

TEST(RandomInput, SpecialFloats) {
  for (DType dtype : kFloatTypes) {
    SCOPED_TRACE(getDTypeName(dtype).str());
    const llvm::fltSemantics &sem = getFloatSemantics(dtype);
    double maxFinite = llvm::APFloat::getLargest(sem).convertToDouble();
    double leastNormal =
        llvm::APFloat::getSmallestNormalized(sem).convertToDouble();
    double leastSubnormal = llvm::APFloat::getSmallest(sem).convertToDouble();
    unsigned mantBits = llvm::APFloat::semanticsPrecision(sem) - 1;
    double aboveOne = 1.0 + std::ldexp(1.0, -int(mantBits));

    HostArray array = makeRandomInput(dtype, 20000, 3, InputKind::Special);
    unsigned nan = 0, quietNaN = 0, negNaN = 0, posInf = 0, negInf = 0,
             posZero = 0, negZero = 0, subnormal = 0, max = 0, negMax = 0,
             least = 0, leastSub = 0, nearOne = 0, ordinary = 0;
    uint64_t quietBit = uint64_t(1) << (mantBits - 1);
    for (int64_t i = 0; i < array.size(); ++i) {
      double value = array.getAsDouble(i);
      if (std::isnan(value)) {
        ++nan;
        quietNaN += (bitsAt(array, i) & quietBit) != 0;
        negNaN += std::signbit(value);
      } else if (std::isinf(value)) {
        (value > 0 ? posInf : negInf)++;
      } else if (value == 0) {
        (std::signbit(value) ? negZero : posZero)++;
      } else {
        double magnitude = std::fabs(value);
        subnormal += magnitude < leastNormal;
        max += value == maxFinite;
        negMax += value == -maxFinite;
        least += magnitude == leastNormal;
        leastSub += magnitude == leastSubnormal;
        nearOne += magnitude == 1.0 || magnitude == aboveOne;
        ordinary += magnitude >= 0x1p-4 && magnitude < 0x1p5 &&
                    magnitude != 1.0 && magnitude != aboveOne;
      }
    }
    EXPECT_GT(nan, 0u);
    EXPECT_EQ(quietNaN, nan);
    EXPECT_GT(negNaN, 0u);
    EXPECT_LT(negNaN, nan);
    for (unsigned count : {posInf, negInf, posZero, negZero, subnormal, max,
                           negMax, least, leastSub, nearOne})
      EXPECT_GT(count, 20u);
    // Ordinary values are the largest group (28 of 64).
    EXPECT_GT(ordinary, array.size() / 4);
  }
}

TEST(RandomInput, SpecialIntegers) {
  for (DType dtype : {DType::I32, DType::I64}) {
    SCOPED_TRACE(getDTypeName(dtype).str());
    int64_t max = dtype == DType::I32 ? std::numeric_limits<int32_t>::max()
                                      : std::numeric_limits<int64_t>::max();
    int64_t min = -max - 1;
    std::vector<int64_t> values =
        makeRandomInput(dtype, 20000, 5, InputKind::Special).toInts();
    std::set<int64_t> seen(values.begin(), values.end());
    for (int64_t edge :
         {min, min + 1, int64_t(-1), int64_t(0), int64_t(1), max - 1, max})
      EXPECT_TRUE(seen.count(edge)) << edge;
    // Full-width values: most beyond 2^(bits - 2) in magnitude.
    unsigned wide = 0;
    for (int64_t value : values)
      wide += value != min && std::llabs(value) > (max >> 2);
    EXPECT_GT(wide, values.size() / 5);
  }
}

TEST(RandomInput, SpecialBools) {
  std::vector<int64_t> values =
      makeRandomInput(DType::Bool, 1000, 5, InputKind::Special).toInts();
  int64_t trues = std::count(values.begin(), values.end(), 1);
  EXPECT_GT(trues, 400);
  EXPECT_LT(trues, 600);
}

/// A checked kernel from `source`.
struct ParsedKernel {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<ModuleDecl> module;

  explicit ParsedKernel(llvm::StringRef source) {
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source),
                                 llvm::SMLoc());
    module = parseAndCheck(sourceMgr);
  }
  const KernelDecl &kernel() const { return *module->getKernels().front(); }
};

TEST(RandomInput, SpecialTies) {
  ParsedKernel parsed(
      "kernel k(x: f32[n], y: bf16[n], z: i32[n], w: f32[n], s: f32, "
      "d: f64 = 2.5) -> f32[n] { return x; }\n");
  ASSERT_TRUE(parsed.module);
  const int64_t n = 8000;
  const uint64_t seed = 11;
  std::vector<HostArray> inputs = makeRandomInputs(
      parsed.kernel(), {n, n, n, n, 1, 1}, seed, InputKind::Special);
  ASSERT_EQ(inputs.size(), 6u);
  const HostArray &x = inputs[0], &y = inputs[1], &z = inputs[2],
                  &w = inputs[3];

  unsigned ties = 0, zeroTies = 0, equalElsewhere = 0;
  std::set<std::string> kinds;
  for (int64_t i = 0; i < n; ++i) {
    std::optional<double> tie = getSpecialTieValue(seed, i);
    if (!tie) {
      equalElsewhere += bitsAt(x, i) == bitsAt(w, i);
      continue;
    }
    ++ties;
    zeroTies += *tie == 0;
    HostArray expectF32 = HostArray::getScalar(DType::F32, *tie);
    HostArray expectBF16 = HostArray::getScalar(DType::BF16, *tie);
    HostArray expectI32 = HostArray::getScalar(DType::I32, *tie);
    EXPECT_EQ(bitsAt(x, i), bitsAt(expectF32, 0)) << i;
    EXPECT_EQ(bitsAt(w, i), bitsAt(expectF32, 0)) << i;
    EXPECT_EQ(bitsAt(y, i), bitsAt(expectBF16, 0)) << i;
    EXPECT_EQ(bitsAt(z, i), bitsAt(expectI32, 0)) << i;
    kinds.insert(std::isnan(*tie)   ? "nan"
                 : std::isinf(*tie) ? "inf"
                 : *tie == 0        ? (std::signbit(*tie) ? "-0" : "+0")
                                    : "finite");
  }
  // About one in eight.
  EXPECT_GT(ties, n / 10);
  EXPECT_LT(ties, n / 6);
  EXPECT_GT(zeroTies, ties / 8);
  EXPECT_EQ(kinds.size(), 5u);
  // Elsewhere the parameters draw independently: equal only by chance
  // (both NaN of one sign, both the same zero, infinity or extreme).
  EXPECT_LT(equalElsewhere, (n - ties) / 8);

  // The scalar without a default draws from the kind; the other keeps its
  // default.
  HostArray scalar =
      makeRandomInput(DType::F32, 1, seed, 4, InputKind::Special);
  EXPECT_EQ(bitsAt(inputs[4], 0), bitsAt(scalar, 0));
  EXPECT_EQ(inputs[5].getAsDouble(0), 2.5);

  // No other kind adds ties: x and w are independent streams.
  for (InputKind kind : {InputKind::Normal, InputKind::Uniform}) {
    std::vector<HostArray> plain =
        makeRandomInputs(parsed.kernel(), {n, n, n, n, 1, 1}, seed, kind);
    unsigned equal = 0;
    for (int64_t i = 0; i < n; ++i)
      equal += bitsAt(plain[0], i) == bitsAt(plain[3], i);
    EXPECT_LT(equal, 10u) << getInputKindName(kind).str();
  }
}

} // namespace
