//===- ReducerTest.cpp - ewc-fuzz's delta reduction -----------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// tools/ewc-fuzz/Reducer.h over a made-up failure (the text still names a
// call): the result is smaller and still fails, the `improved` hook sees each
// smaller program as it is found, in order, ending with the result, so that a
// reduction killed by a time limit leaves its best so far; and the attempts'
// limit holds.
//
//===----------------------------------------------------------------------===//

#include "Reducer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace ewc;

namespace {

const char *const kProgram = "kernel a(x: f32[n], y: f32[n]) -> f32[n] {\n"
                             "  let v0 = x + y;\n"
                             "  return exp(v0) * y;\n"
                             "}\n"
                             "\n"
                             "kernel b(x: f32[n], y: f32[n]) -> f32[n] {\n"
                             "  return sin(x) - cos(y);\n"
                             "}\n";

/// Fails while kernel b still calls sin.
bool stillFails(const std::string &text) {
  return text.find("kernel b(") != std::string::npos &&
         text.find("sin(") != std::string::npos;
}

TEST(Reducer, ShrinksToAFailingProgramAndReportsEachStep) {
  std::vector<std::string> steps;
  std::string reduced = fuzz::reduceProgram(
      kProgram, stillFails, 2000,
      [&](const std::string &smaller) { steps.push_back(smaller); });
  EXPECT_TRUE(stillFails(reduced));
  EXPECT_LT(reduced.size(), std::string(kProgram).size());
  // Kernel a goes, as nothing needs it.
  EXPECT_EQ(reduced.find("kernel a("), std::string::npos);
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps.back(), reduced);
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_TRUE(stillFails(steps[i]));
    EXPECT_LT(steps[i].size(),
              i ? steps[i - 1].size() : std::string(kProgram).size());
  }
}

TEST(Reducer, StopsAtTheAttemptsLimit) {
  unsigned calls = 0;
  auto counting = [&](const std::string &text) {
    ++calls;
    return stillFails(text);
  };
  std::string reduced = fuzz::reduceProgram(kProgram, counting, 3);
  EXPECT_LE(calls, 3u);
  EXPECT_TRUE(stillFails(reduced));
}

TEST(Reducer, KeepsTheProgramWhenNothingSmallerFails) {
  bool improved = false;
  std::string reduced = fuzz::reduceProgram(
      kProgram, [](const std::string &text) { return text == kProgram; }, 2000,
      [&](const std::string &) { improved = true; });
  EXPECT_EQ(reduced, kProgram);
  EXPECT_FALSE(improved);
}

} // namespace
