//===- CombineTest.cpp - The reference's reductions and scans -------------===//
//
// The folds of Combine.h: that the slack of a sum holds for the orders a
// compiler may use (in sequence, pairwise) and is tight enough that one
// element dropped from a row falls outside it, and the special values,
// identities, wrapping and unsure bools exactly.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Reference/Combine.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace ewc;
using namespace ewc::ref;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Folded sumOf(const std::vector<float> &values, DType dtype = DType::F32) {
  Folder folder(OpKind::Sum, dtype);
  for (float value : values)
    folder.addFloat(value, 0);
  return folder.finish();
}

float sequentialSum(const std::vector<float> &values, size_t begin,
                    size_t end) {
  float sum = 0;
  for (size_t i = begin; i < end; ++i)
    sum += values[i];
  return sum;
}

float pairwiseSum(const std::vector<float> &values, size_t begin, size_t end) {
  if (end - begin <= 8)
    return sequentialSum(values, begin, end);
  size_t middle = begin + (end - begin) / 2;
  return pairwiseSum(values, begin, middle) + pairwiseSum(values, middle, end);
}

TEST(CombineTest, SumSlackHoldsForSequentialAndPairwiseOrders) {
  std::mt19937_64 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (size_t n : {1, 2, 3, 17, 1000, 4097, 100000}) {
    std::vector<float> values(n);
    for (float &value : values)
      value = normal(rng) * (rng() % 2 ? 1e3f : 1e-3f);
    Folded folded = sumOf(values);
    ASSERT_TRUE(std::isfinite(folded.slack)) << n;
    for (float sum : {sequentialSum(values, 0, n), pairwiseSum(values, 0, n)})
      EXPECT_LE(std::fabs(double(sum) - folded.value), folded.slack)
          << "n = " << n;
  }
}

TEST(CombineTest, SumSlackCatchesADroppedElement) {
  // Positive values of one size: a dropped element moves the sum by about
  // 1/n of it, the slack is about n u of it.
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<float> uniform(1.0f, 2.0f);
  for (size_t n : {2, 65, 1000}) {
    std::vector<float> values(n);
    for (float &value : values)
      value = uniform(rng);
    Folded folded = sumOf(values);
    float dropped = sequentialSum(values, 1, n);
    EXPECT_GT(std::fabs(double(dropped) - folded.value), folded.slack)
        << "n = " << n;
  }
}

TEST(CombineTest, SumSpecialValuesAreExact) {
  Folded zeros = sumOf({-0.0f, -0.0f});
  EXPECT_EQ(zeros.value, 0.0);
  EXPECT_FALSE(std::signbit(zeros.value)); // from +0.0
  EXPECT_EQ(zeros.slack, 0.0);
  Folded nan = sumOf({1.0f, float(kNaN), 2.0f});
  EXPECT_TRUE(std::isnan(nan.value));
  EXPECT_EQ(nan.slack, 0.0);
  EXPECT_TRUE(std::isnan(sumOf({float(kInf), -float(kInf)}).value));
  Folded inf = sumOf({1.0f, -float(kInf), 1e38f});
  EXPECT_EQ(inf.value, -kInf);
  EXPECT_EQ(inf.slack, 0.0);
  Folded empty = sumOf({});
  EXPECT_EQ(empty.value, 0.0);
  EXPECT_EQ(empty.slack, 0.0);
}

TEST(CombineTest, SumThatMayOverflowAllowsAnything) {
  // 3e38 + 3e38 - 3e38 overflows in this order and not in another.
  EXPECT_TRUE(std::isinf(sumOf({3e38f, 3e38f, -3e38f}).slack));
  // The same magnitudes in f64 are far from its range.
  EXPECT_FALSE(std::isinf(sumOf({3e38f, 3e38f, -3e38f}, DType::F64).slack));
  // FLT_MAX + FLT_MAX is +inf, and then + -inf NaN: an infinity does not
  // decide a sum whose finite part may overflow.
  Folded withInf = sumOf({3.4e38f, 3.4e38f, -float(kInf)});
  EXPECT_EQ(withInf.value, -kInf);
  EXPECT_TRUE(std::isinf(withInf.slack));
  Folder folder(OpKind::Sum, DType::F32);
  folder.addFloat(1.0, kInf);
  EXPECT_TRUE(std::isinf(folder.finish().slack));
}

TEST(CombineTest, MaximumPropagatesNaNAndOrdersZeros) {
  Folder max(OpKind::Amax, DType::F32);
  EXPECT_EQ(max.finish().value, -kInf); // the identity
  max.addFloat(-0.0, 0);
  EXPECT_TRUE(std::signbit(max.finish().value));
  max.addFloat(0.0, 0);
  EXPECT_FALSE(std::signbit(max.finish().value));
  max.addFloat(-5.0, 0.5);
  EXPECT_EQ(max.finish().value, 0.0);
  EXPECT_EQ(max.finish().slack, 0.5);
  max.addFloat(kNaN, 0);
  EXPECT_TRUE(std::isnan(max.finish().value));
  Folder min(OpKind::Cummin, DType::F64);
  EXPECT_EQ(min.finish().value, kInf);
}

TEST(CombineTest, IntegerSumsWrapInTheirType) {
  Folder sum(OpKind::Sum, DType::I32);
  sum.addInt(2147483647, false);
  sum.addInt(1, false);
  EXPECT_EQ(sum.finish().intValue, -2147483648ll);
  Folder wide(OpKind::Cumsum, DType::I64);
  wide.addInt(std::numeric_limits<int64_t>::max(), false);
  wide.addInt(2, false);
  EXPECT_EQ(wide.finish().intValue, std::numeric_limits<int64_t>::min() + 1);
  Folder max(OpKind::Amax, DType::I32);
  EXPECT_EQ(max.finish().intValue, -2147483648ll);
}

TEST(CombineTest, UnsureBoolsOnlyWhereTheyDecide) {
  Folder any(OpKind::Any, DType::Bool);
  EXPECT_EQ(any.finish().intValue, 0);
  any.addInt(0, true);
  EXPECT_TRUE(any.finish().unsure);
  any.addInt(1, false); // a sure true decides it
  EXPECT_EQ(any.finish().intValue, 1);
  EXPECT_FALSE(any.finish().unsure);
  Folder all(OpKind::All, DType::Bool);
  EXPECT_EQ(all.finish().intValue, 1);
  all.addInt(1, true);
  EXPECT_TRUE(all.finish().unsure);
  all.addInt(0, false); // a sure false decides it
  EXPECT_EQ(all.finish().intValue, 0);
  EXPECT_FALSE(all.finish().unsure);
}

} // namespace
