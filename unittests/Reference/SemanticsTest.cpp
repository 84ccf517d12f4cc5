//===- SemanticsTest.cpp - Scalar semantics and the element verdict -------===//
//
// The pieces of the reference that decide True or False element by element:
// the casts, integer division, IEEE maximum/minimum and ulps of Semantics.h,
// and the comparison rules of Compare.h (sign of zero, NaN, infinities,
// slack, poison, bool bytes).
//
//===----------------------------------------------------------------------===//

#include "../../lib/Reference/Semantics.h"

#include "ewc/Reference/Compare.h"
#include "ewc/Reference/HostArray.h"

#include "gtest/gtest.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace ewc;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(SemanticsTest, FloatToIntTruncatesSaturatesAndZeroesNaN) {
  EXPECT_EQ(ref::convertFloatToInt(-2.7, DType::I32), -2);
  EXPECT_EQ(ref::convertFloatToInt(2.7, DType::I32), 2);
  EXPECT_EQ(ref::convertFloatToInt(1e10, DType::I32), 2147483647);
  EXPECT_EQ(ref::convertFloatToInt(-kInf, DType::I32), -2147483648ll);
  EXPECT_EQ(ref::convertFloatToInt(kNaN, DType::I64), 0);
  EXPECT_EQ(ref::convertFloatToInt(0x1p63, DType::I64),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ref::convertFloatToInt(-0x1p63, DType::I64),
            std::numeric_limits<int64_t>::min());
}

TEST(SemanticsTest, IntToFloatRoundsOnce) {
  // 2^24 + 1 is halfway between two f32s: ties to even gives 2^24.
  EXPECT_EQ(ref::convertIntToFloat(16777217, DType::I64, DType::F32),
            16777216.0);
  // 2^60 + 2^36 + 1 is just above a tie at f32 precision: rounding through
  // f64 first would land on the tie and round down; once, it rounds up.
  int64_t v = (int64_t(1) << 60) + (int64_t(1) << 36) + 1;
  EXPECT_EQ(ref::convertIntToFloat(v, DType::I64, DType::F32), 0x1p60 + 0x1p37);
  EXPECT_EQ(ref::convertIntToFloat(65520, DType::I64, DType::F16), kInf);
}

TEST(SemanticsTest, DecimalsRoundOnceNextToTies) {
  // The two f32 ties of issue 14, whose nearest doubles are the ties.
  EXPECT_EQ(*parseDecimal("18.671551704406738281250000000001", DType::F32),
            double(llvm::bit_cast<float>(0x41955f57u)));
  EXPECT_EQ(*parseDecimal("72.4893302917480468749999999999", DType::F32),
            double(llvm::bit_cast<float>(0x4290fa89u)));
  EXPECT_EQ(*parseDecimal("-18.671551704406738281250000000001", DType::F32),
            -double(llvm::bit_cast<float>(0x41955f57u)));
  // An integer spelling, and f16's and bf16's ties above 1.
  EXPECT_EQ(*parseDecimal("1152921573326323713", DType::F32), 0x1p60 + 0x1p37);
  EXPECT_EQ(*parseDecimal("1.00048828125000000000000000001", DType::F16),
            1 + 0x1p-10);
  EXPECT_EQ(*parseDecimal("1.00390625000000000000000000001", DType::BF16),
            1 + 0x1p-7);
  // Exact ties round to even; f64 is strtod's own rounding.
  EXPECT_EQ(*parseDecimal("1.00048828125", DType::F16), 1.0);
  EXPECT_EQ(*parseDecimal("0.1", DType::F64), 0.1);
  // Overflow, underflow, the specials, and what is no number.
  EXPECT_EQ(*parseDecimal("1e39", DType::F32), kInf);
  EXPECT_EQ(*parseDecimal("-65520", DType::F16), -kInf);
  EXPECT_EQ(*parseDecimal("1e-50", DType::F32), 0.0);
  EXPECT_TRUE(std::isnan(*parseDecimal("nan", DType::BF16)));
  EXPECT_EQ(*parseDecimal("-inf", DType::F32), -kInf);
  EXPECT_FALSE(parseDecimal("", DType::F32));
  EXPECT_FALSE(parseDecimal("1.5x", DType::F32));
  EXPECT_FALSE(parseDecimal(" 1.5", DType::F32));
}

TEST(SemanticsTest, DecimalsAgreeWithAPFloatAroundEveryKindOfTie) {
  // The decimal expansion of a tie between two neighbours of f32, f16 or
  // bf16 (160 significant digits, more than any of them has; glibc prints
  // doubles exactly), then the tie itself and
  // 10^-40 (relative) above it, in both signs: the reference's strtod and
  // the compiler's APFloat must round each to the same neighbour.
  std::mt19937_64 random(14);
  for (DType dtype : {DType::F32, DType::F16, DType::BF16}) {
    const llvm::fltSemantics &semantics = getFloatSemantics(dtype);
    unsigned bits = llvm::APFloat::getSizeInBits(semantics);
    for (int i = 0; i < 500; ++i) {
      uint64_t pattern = random() & ((uint64_t(1) << (bits - 1)) - 1);
      llvm::APFloat low(semantics, llvm::APInt(bits, pattern));
      llvm::APFloat high = low;
      high.next(/*nextDown=*/false);
      if (!low.isFinite() || !high.isFinite())
        continue;
      bool losesInfo;
      low.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      high.convert(llvm::APFloat::IEEEdouble(),
                   llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      double tie = (low.convertToDouble() + high.convertToDouble()) / 2;
      char text[256];
      std::snprintf(text, sizeof(text), "%.160e", tie);
      std::string exact(text);
      std::string mantissa = exact.substr(0, exact.find('e'));
      std::string exponent = exact.substr(exact.find('e'));
      for (std::string sign : {"", "-"})
        for (std::string decimal :
             {sign + exact, sign + mantissa +
                                "0000000000000000000000000000000"
                                "0000000001" +
                                exponent}) {
          llvm::APFloat expected(semantics);
          llvm::Expected<llvm::APFloat::opStatus> status =
              expected.convertFromString(decimal,
                                         llvm::APFloat::rmNearestTiesToEven);
          ASSERT_TRUE(bool(status)) << llvm::toString(status.takeError());
          expected.convert(llvm::APFloat::IEEEdouble(),
                           llvm::APFloat::rmNearestTiesToEven, &losesInfo);
          std::optional<double> got = parseDecimal(decimal, dtype);
          ASSERT_TRUE(got) << decimal;
          ASSERT_EQ(*got, expected.convertToDouble())
              << getDTypeName(dtype).str() << " " << decimal;
        }
    }
  }
}

TEST(SemanticsTest, IntegerDivisionNeverTraps) {
  EXPECT_EQ(ref::divideInt(7, -2, DType::I32), -3);
  EXPECT_EQ(ref::divideInt(-7, 2, DType::I32), -3);
  EXPECT_EQ(ref::divideInt(5, 0, DType::I32), 0);
  EXPECT_EQ(ref::divideInt(-2147483648ll, -1, DType::I32), -2147483648ll);
  EXPECT_EQ(ref::divideInt(std::numeric_limits<int64_t>::min(), -1, DType::I64),
            std::numeric_limits<int64_t>::min());
}

TEST(SemanticsTest, MaximumPropagatesNaNAndOrdersZeros) {
  EXPECT_TRUE(std::isnan(ref::maximum(kNaN, 1.0)));
  EXPECT_TRUE(std::isnan(ref::minimum(1.0, kNaN)));
  EXPECT_FALSE(std::signbit(ref::maximum(-0.0, 0.0)));
  EXPECT_FALSE(std::signbit(ref::maximum(0.0, -0.0)));
  EXPECT_TRUE(std::signbit(ref::minimum(0.0, -0.0)));
  EXPECT_TRUE(std::signbit(ref::minimum(-0.0, 0.0)));
}

TEST(SemanticsTest, RoundHalfEvenAgreesWithAPFloat) {
  // Ties, the values either side of them, signed zeros, the edge of the
  // integral doubles (2^52) and the specials, against APFloat's own
  // roundToIntegral(NearestTiesToEven), which shares no code with it.
  std::vector<double> values = {0.5,
                                1.5,
                                2.5,
                                -0.5,
                                -1.5,
                                -2.5,
                                0.0,
                                -0.0,
                                -0.25,
                                0.75,
                                3.0,
                                -3.0,
                                1e300,
                                0x1p52 - 0.5,
                                -(0x1p52 - 0.5),
                                0x1p52 + 1,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::denorm_min(),
                                -std::numeric_limits<double>::denorm_min()};
  for (double tie = 0.5; tie < 64; tie += 1) {
    values.push_back(std::nextafter(tie, 0.0));
    values.push_back(std::nextafter(tie, 64.0));
    values.push_back(-tie);
  }
  for (double x : values) {
    llvm::APFloat expected(x);
    expected.roundToIntegral(llvm::RoundingMode::NearestTiesToEven);
    double got = ref::roundHalfEven(x);
    EXPECT_EQ(llvm::bit_cast<uint64_t>(got),
              llvm::bit_cast<uint64_t>(expected.convertToDouble()))
        << "x = " << x;
  }
  EXPECT_TRUE(
      std::isnan(ref::roundHalfEven(std::numeric_limits<double>::quiet_NaN())));
}

TEST(SemanticsTest, UlpOfEachType) {
  EXPECT_EQ(ref::getUlp(1.0, DType::F32), 0x1p-23);
  EXPECT_EQ(ref::getUlp(1.0, DType::F64), 0x1p-52);
  EXPECT_EQ(ref::getUlp(1.0, DType::F16), 0x1p-10);
  EXPECT_EQ(ref::getUlp(1.0, DType::BF16), 0x1p-7);
  // Zero and subnormals get the subnormal spacing; infinity the largest.
  EXPECT_EQ(ref::getUlp(0.0, DType::F32), 0x1p-149);
  EXPECT_EQ(ref::getUlp(kInf, DType::F16), 32.0);
}

/// Checks one element of `got` against `expected`; true if it matched.
bool matches(const HostArray &got, ExpectedElement expected,
             Tolerance tolerance = {0, 0}) {
  ResultComparer comparer(got, tolerance, 1);
  comparer.check(0, 0, expected);
  return comparer.finish().ok();
}

ExpectedElement floatValue(double value, double slack = 0) {
  ExpectedElement e;
  e.value = value;
  e.slack = slack;
  return e;
}

TEST(CompareTest, SignOfAnExactZeroMatters) {
  HostArray got = HostArray::getScalar(DType::F32, -0.0);
  EXPECT_FALSE(matches(got, floatValue(0.0), {1.3e-6, 1e-5}));
  EXPECT_TRUE(matches(got, floatValue(-0.0), {1.3e-6, 1e-5}));
  // With a slack, either sign may be right.
  EXPECT_TRUE(matches(got, floatValue(0.0, 1e-30)));
}

TEST(CompareTest, NaNOnlyMatchesNaNAndInfinityOnlyItself) {
  HostArray nan = HostArray::getScalar(DType::F32, kNaN);
  EXPECT_TRUE(matches(nan, floatValue(kNaN)));
  EXPECT_FALSE(matches(nan, floatValue(1.0), {1, 1}));
  HostArray inf = HostArray::getScalar(DType::F32, kInf);
  EXPECT_FALSE(matches(inf, floatValue(3.4e38), {1.3e-6, 1e-5}));
  EXPECT_FALSE(matches(HostArray::getScalar(DType::F32, 3.4e38),
                       floatValue(kInf), {1.3e-6, 1e-5}));
  // A slack of two ulps at FLT_MAX allows an overflow to inf either way.
  double max = std::numeric_limits<float>::max();
  EXPECT_TRUE(matches(inf, floatValue(max, 2 * ref::getUlp(max, DType::F32))));
  // f64 infinities with a slack: equal ones match (the first value past
  // DBL_MAX is not a double), and DBL_MAX may stand for +inf within a slack.
  HostArray infD = HostArray::getScalar(DType::F64, -kInf);
  EXPECT_TRUE(matches(infD, floatValue(-kInf, 1e292), {1e-7, 1e-7}));
  EXPECT_FALSE(matches(infD, floatValue(kInf, 1e292), {1e-7, 1e-7}));
  double maxD = std::numeric_limits<double>::max();
  EXPECT_TRUE(matches(HostArray::getScalar(DType::F64, maxD),
                      floatValue(kInf, 2 * ref::getUlp(maxD, DType::F64))));
  // Infinite slack allows anything, NaN included.
  EXPECT_TRUE(matches(nan, floatValue(1.0, kInf)));
}

TEST(CompareTest, ToleranceAndSlackAddUp) {
  HostArray got = HostArray::getScalar(DType::F64, 1.0 + 3e-7);
  EXPECT_FALSE(matches(got, floatValue(1.0), {1e-7, 1e-7}));
  EXPECT_TRUE(matches(got, floatValue(1.0, 1e-7), {1e-7, 1e-7}));
}

TEST(CompareTest, PoisonIsNeverAValue) {
  HostArray got(DType::F32, 1);
  got.fillPoison();
  EXPECT_TRUE(got.isPoison(0));
  EXPECT_TRUE(std::isnan(got.getAsDouble(0)));
  // Even where a NaN is expected, an unwritten element is wrong.
  ResultComparer comparer(got, {0, 0}, 1);
  comparer.check(0, 0, floatValue(kNaN));
  CompareResult result = comparer.finish();
  EXPECT_EQ(result.numMismatches, 1);
  EXPECT_EQ(result.numUnwritten, 1);
}

TEST(CompareTest, BoolBytesMustBeZeroOrOne) {
  HostArray got(DType::Bool, 1);
  got.fillBytes(2);
  ExpectedElement expected;
  expected.intValue = 1;
  EXPECT_FALSE(matches(got, expected));
  // An unsure bool accepts true or false, but not a byte of 2.
  expected.unsure = true;
  EXPECT_FALSE(matches(got, expected));
  got.fillBytes(0);
  EXPECT_TRUE(matches(got, expected));
}

TEST(CompareTest, KeepsTheWorstMismatchesFirst) {
  HostArray got(DType::F32, 3);
  got.writeDoubles(0, {1.5, 10.0, 2.5});
  ResultComparer comparer(got, {0, 0}, 2);
  for (int64_t i = 0; i < 3; ++i)
    comparer.check(i, i, floatValue(1.0));
  CompareResult result = comparer.finish();
  EXPECT_EQ(result.numMismatches, 3);
  EXPECT_EQ(result.first.index, 0);
  ASSERT_EQ(result.worst.size(), 2u);
  EXPECT_EQ(result.worst[0].index, 1);
  EXPECT_EQ(result.worst[1].index, 2);
}

TEST(CompareTest, MergesRangesInIndexOrder) {
  // checkKernel checks ranges in parallel and merges them: the counts add
  // up, the first mismatch is the earliest, the worst are the worst overall.
  HostArray got(DType::F32, 4);
  got.writeDoubles(0, {1.0, 3.0, 9.0, 1.5});
  ResultComparer low(got, {0, 0}, 2), high(got, {0, 0}, 2);
  low.check(0, 0, floatValue(1.0));
  low.check(1, 1, floatValue(1.0));
  high.check(2, 2, floatValue(1.0));
  high.check(3, 3, floatValue(1.0));
  CompareResult result = low.finish();
  result.merge(high.finish(), 2);
  EXPECT_EQ(result.size, 4);
  EXPECT_EQ(result.numMismatches, 3);
  EXPECT_EQ(result.first.index, 1);
  ASSERT_EQ(result.worst.size(), 2u);
  EXPECT_EQ(result.worst[0].index, 2);
  EXPECT_EQ(result.worst[1].index, 1);
}

TEST(ToleranceTest, TorchTestingDefaults) {
  EXPECT_EQ(getDefaultTolerance(DType::F32).rtol, 1.3e-6);
  EXPECT_EQ(getDefaultTolerance(DType::F32).atol, 1e-5);
  EXPECT_EQ(getDefaultTolerance(DType::F64).rtol, 1e-7);
  EXPECT_EQ(getDefaultTolerance(DType::BF16).rtol, 1.6e-2);
  EXPECT_EQ(getDefaultTolerance(DType::I32).rtol, 0);
  EXPECT_EQ(getDefaultTolerance(DType::Bool).atol, 0);
  // The help text is the same table.
  EXPECT_EQ(describeDefaultTolerances(/*relative=*/true),
            "f32 1.3e-06, f64 1e-07, f16 0.001, bf16 0.016, f8e4m3 0.125, "
            "f8e5m2 0.25");
  EXPECT_EQ(describeDefaultTolerances(/*relative=*/false),
            "f32 1e-05, f64 1e-07, f16 1e-05, bf16 1e-05, f8e4m3 0.00195312, "
            "f8e5m2 1.52588e-05");
}

// The 8-bit floats: every pattern decodes to its value and encodes back to
// itself (NaNs to 0x7F with their sign), and the rounding of doubles agrees
// with APFloat's (ties to even; f8e4m3 overflows to NaN, f8e5m2 to
// infinity) on the values around every pattern and their midpoints.
TEST(HostArrayTest, Float8ConversionsMatchAPFloat) {
  for (DType dtype : {DType::F8E4M3, DType::F8E5M2}) {
    const llvm::fltSemantics &semantics = getFloatSemantics(dtype);
    std::vector<double> probes = {0x1p-30, 1e30,  464.0, 463.99,  464.01,
                                  480.0,   57344, 61440, 61439.9, 65536};
    for (unsigned bits = 0; bits < 256; ++bits) {
      double value = convertFloat8BitsToDouble(bits, dtype);
      uint8_t back = convertToFloat8Bits(value, dtype);
      if (std::isnan(value)) {
        EXPECT_EQ(back, (bits & 0x80) | 0x7F) << "pattern " << bits;
        continue;
      }
      EXPECT_EQ(back, bits) << "pattern " << bits;
      EXPECT_EQ(
          value,
          llvm::APFloat(semantics, llvm::APInt(8, bits)).convertToDouble());
      for (double scale : {1.0 - 0x1p-20, 1.0 + 0x1p-20, 1.0 + 0x1p-4,
                           1.0 + 0x1p-3, 1.0 + 0x1p-2, 1.0 + 0x3p-3})
        probes.push_back(value * scale);
    }
    for (double probe : probes) {
      for (double value : {probe, -probe}) {
        llvm::APFloat rounded(value);
        bool losesInfo;
        rounded.convert(semantics, llvm::APFloat::rmNearestTiesToEven,
                        &losesInfo);
        double got =
            convertFloat8BitsToDouble(convertToFloat8Bits(value, dtype), dtype);
        double want = rounded.convertToDouble();
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(got)) << value;
        else
          EXPECT_EQ(got, want) << getDTypeName(dtype).str() << " " << value;
      }
    }
  }
}

// Large arrays are filled and copied on all cores, a range of 2^18 elements
// at a time: every element of every range, the last partial one included,
// must come out right.
TEST(HostArrayTest, ParallelFillsReachEveryElement) {
  const int64_t n = (int64_t(1) << 20) + 7;
  for (DType dtype : {DType::Bool, DType::F16, DType::F32, DType::I64}) {
    HostArray poisoned = HostArray::getUninitialized(dtype, n);
    poisoned.fillPoison();
    HostArray zeros(dtype, n);
    HostArray copy = poisoned;
    for (int64_t i : {int64_t(0), int64_t(1) << 18, n / 2, n - 1}) {
      EXPECT_TRUE(poisoned.isPoison(i))
          << getDTypeName(dtype).str() << " " << i;
      EXPECT_TRUE(copy.isPoison(i)) << getDTypeName(dtype).str() << " " << i;
      EXPECT_EQ(zeros.getAsDouble(i), 0)
          << getDTypeName(dtype).str() << " " << i;
    }
    int64_t unpoisoned = 0;
    for (int64_t i = 0; i < n; ++i)
      unpoisoned += !copy.isPoison(i);
    EXPECT_EQ(unpoisoned, 0) << getDTypeName(dtype).str();
  }
}

} // namespace

// The math functions are correctly rounded in the reference (computed in long
// double), so that the documented ulps are the compiled code's alone. In
// double, glibc's tanh of this input is one ulp off (-0.497559987845008), and
// the H200's exact f64 tanh was rejected (ewc-fuzz seed 9400, program 3573).
// The expected values are mpmath's at 200 bits, rounded to double.
TEST(SemanticsTest, MathIsCorrectlyRounded) {
  EXPECT_EQ(ref::applyMath(OpKind::Tanh, -0.5460580669187028),
            -0.4975599878450081);
  EXPECT_EQ(ref::applyMath(OpKind::Tanh, -0.546058066918703),
            -0.49755998784500816);
}

// pow and atan2 keep C99's special cases (Annex F), which torch.pow and
// libdevice's powf and atan2f follow: pow(x, +-0) = 1 and pow(1, y) = 1 even
// for NaN, pow(-1, +-inf) = 1, a negative base to a finite non-integral
// power is NaN, pow(-0, -1) = -inf; atan2 of signed zeros is +-0 or +-pi.
TEST(SemanticsTest, PowAndAtan2SpecialCases) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ref::applyMath(OpKind::Pow, nan, 0.0), 1.0);
  EXPECT_EQ(ref::applyMath(OpKind::Pow, nan, -0.0), 1.0);
  EXPECT_EQ(ref::applyMath(OpKind::Pow, 1.0, nan), 1.0);
  EXPECT_EQ(ref::applyMath(OpKind::Pow, -1.0, inf), 1.0);
  EXPECT_TRUE(std::isnan(ref::applyMath(OpKind::Pow, -2.0, 0.5)));
  EXPECT_EQ(ref::applyMath(OpKind::Pow, -0.0, -1.0), -inf);
  EXPECT_EQ(ref::applyMath(OpKind::Pow, -2.0, 3.0), -8.0);
  EXPECT_EQ(ref::applyMath(OpKind::Pow, 2.0, -2.0), 0.25);
  double pi = 3.141592653589793;
  EXPECT_EQ(ref::applyMath(OpKind::Atan2, 0.0, -0.0), pi);
  EXPECT_EQ(ref::applyMath(OpKind::Atan2, -0.0, -0.0), -pi);
  EXPECT_TRUE(std::signbit(ref::applyMath(OpKind::Atan2, -0.0, 0.0)));
  EXPECT_EQ(ref::applyMath(OpKind::Atan2, 1.0, 0.0), pi / 2);
  // The operands are y, then x: atan2(1, -1) = 3pi/4, not -pi/4.
  EXPECT_EQ(ref::applyMath(OpKind::Atan2, 1.0, -1.0), 3 * pi / 4);
}

// Every math builtin has a reference function and a stated error bound, so a
// new one cannot reach the evaluator without both.
TEST(SemanticsTest, EveryMathBuiltinHasUlps) {
  for (llvm::StringRef name : getBuiltinNames()) {
    std::optional<OpKind> op = lookupBuiltin(name);
    ASSERT_TRUE(op.has_value()) << name.str();
    if (getOpClass(*op) != OpClass::Math || getNumValueOperands(*op) > 2)
      continue; // fma: fusedMultiplyAdd
    EXPECT_LE(ref::getMathUlps(*op), 5u) << name.str();
    // A point inside every domain: (-1, 1) for asin and atanh, [1, inf)
    // for acosh.
    double x = *op == OpKind::Acosh ? 1.5 : 0.5;
    EXPECT_FALSE(std::isnan(ref::applyMath(*op, x, 0.5))) << name.str();
  }
}

// fma rounds once: the double rounding of (a * b + c in double) then f32 is
// what round-to-odd avoids. a = b = 1 + 2^-12, c = -(1 + 2^-11): the exact
// result is 2^-24, and a * b + c with two roundings in f32 gives 0.
// 1 + 2^-23 times itself plus 2^-70 lies just above a tie between two f32
// values: round to nearest even in double loses the 2^-70 and the tie goes
// to even, one ulp below the correctly rounded result.
TEST(SemanticsTest, FusedMultiplyAddRoundsOnce) {
  double a = 1 + 0x1p-12, c = -(1 + 0x1p-11);
  EXPECT_EQ(ref::fusedMultiplyAdd(a, a, c, DType::F32), 0x1p-24);
  double x = 1 + 0x1p-23;
  // x * x = 1 + 2^-22 + 2^-46: between f32's 1 + 2^-22 and 1 + 2^-22 + 2^-23
  // far below the tie; with c = 2^-24 - 2^-46 + 2^-70 the exact sum is
  // 1 + 2^-22 + 2^-24 + 2^-70, just above the tie (1 + 2^-22 + 2^-24), so
  // it rounds up, though in double the 2^-70 is lost and the tie goes to
  // even (down).
  double c2 = 0x1p-24 - 0x1p-46 + 0x1p-70;
  EXPECT_EQ(ref::fusedMultiplyAdd(x, x, c2, DType::F32), 1 + 0x1p-22 + 0x1p-23);
  EXPECT_EQ(ref::fusedMultiplyAdd(2.0, 3.0, 1.0, DType::F64), 7.0);
  EXPECT_TRUE(std::isnan(ref::fusedMultiplyAdd(
      std::numeric_limits<double>::infinity(), 0.0, 1.0, DType::F32)));
}

// Shifts as torch's: << of an amount outside [0, width) is 0, >> of one
// outside [0, width - 1) copies the sign; in range, i32's own wrap.
TEST(SemanticsTest, Shifts) {
  EXPECT_EQ(ref::shiftLeft(1, 31, DType::I32), -2147483648LL);
  EXPECT_EQ(ref::shiftLeft(1, 32, DType::I32), 0);
  EXPECT_EQ(ref::shiftLeft(1, -1, DType::I32), 0);
  EXPECT_EQ(ref::shiftLeft(3, 63, DType::I64),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ref::shiftLeft(1, 64, DType::I64), 0);
  EXPECT_EQ(ref::shiftRight(-8, 2, DType::I32), -2);
  EXPECT_EQ(ref::shiftRight(-8, 100, DType::I32), -1);
  EXPECT_EQ(ref::shiftRight(8, -3, DType::I32), 0);
  EXPECT_EQ(
      ref::shiftRight(std::numeric_limits<int64_t>::min(), 63, DType::I64), -1);
}

// Philox4x32-10 against Random123's known answers (kat_vectors, the
// philox4x32 rows with 10 rounds): zeros, all ones, and pi's digits.
TEST(SemanticsTest, PhiloxKnownAnswers) {
  using Words = std::array<uint32_t, 4>;
  EXPECT_EQ(ref::philox4x32({0, 0, 0, 0}, {0, 0}),
            (Words{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(ref::philox4x32({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                            {0xffffffff, 0xffffffff}),
            (Words{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(ref::philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                            {0xa4093822, 0x299f31d0}),
            (Words{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  // One round fewer is another function.
  EXPECT_NE(ref::philox4x32({0, 0, 0, 0}, {0, 0}, 9)[0], 0x6627e8d5u);
}

// rand, randn and randint of a seed and an offset (Triton's definitions):
// an i32 offset has no high word, so -1 as i32 and as i64 differ, while a
// non-negative offset below 2^31 gives the same numbers in both types; an
// unsigned u32 seed of 2^32 - 1 is not the i64 seed -1.
TEST(SemanticsTest, RandomOfSeedAndOffset) {
  EXPECT_EQ(static_cast<uint32_t>(ref::randomBits(0, 0, DType::I32)),
            0x6627e8d5u);
  EXPECT_EQ(ref::randomBits(42, 12345, DType::I32),
            ref::randomBits(42, 12345, DType::I64));
  EXPECT_NE(ref::randomBits(42, -1, DType::I32),
            ref::randomBits(42, -1, DType::I64));
  EXPECT_NE(ref::randomBits(0xffffffffll, 7, DType::I64),
            ref::randomBits(-1, 7, DType::I64));
  // Triton's uint_to_uniform_float: 0x6627e8d5 is 1714940117, times the f32
  // 4.6566127342e-10: 0.798585474 (0x3f4c4fd1, what Triton returned).
  EXPECT_EQ(llvm::bit_cast<uint32_t>(ref::randomUniform(0, 0, DType::I32)),
            0x3f4c4fd1u);
  for (int64_t offset = 0; offset < 4096; ++offset) {
    float u = ref::randomUniform(-7, offset, DType::I64);
    EXPECT_GE(u, 0.0f);
    EXPECT_LT(u, 1.0f);
    EXPECT_TRUE(std::isfinite(ref::randomNormal(-7, offset, DType::I64)));
  }
}

// Remainders: fmod has the dividend's sign, remainder (%) the divisor's;
// integers by zero and INT_MIN by -1 give 0.
TEST(SemanticsTest, Remainders) {
  EXPECT_EQ(ref::remainder(-7.0, 3.0), 2.0);
  EXPECT_EQ(ref::remainder(7.0, -3.0), -2.0);
  EXPECT_EQ(std::fmod(-7.0, 3.0), -1.0);
  EXPECT_TRUE(std::signbit(ref::remainder(-6.0, 3.0))); // fmod's -0.0 kept
  EXPECT_EQ(ref::remainder(-1.0, std::numeric_limits<double>::infinity()),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(ref::remainderInt(-7, 3, DType::I64, true), 2);
  EXPECT_EQ(ref::remainderInt(-7, 3, DType::I64, false), -1);
  EXPECT_EQ(ref::remainderInt(7, 0, DType::I64, true), 0);
  EXPECT_EQ(ref::remainderInt(std::numeric_limits<int64_t>::min(), -1,
                              DType::I64, true),
            0);
}
