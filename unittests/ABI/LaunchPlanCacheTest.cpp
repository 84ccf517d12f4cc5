//===- LaunchPlanCacheTest.cpp - Plans reused by shape, never stale -------===//
//
// LaunchPlanCache (LaunchPlanCache.h) must give, for any launch, exactly
// planLaunch's plan or planLaunch's error: the cases below change one thing
// the key holds (a stride, an extent, a rank, an output's strides, a given
// extent) after a launch that filled the cache, and would get the earlier
// plan back if the key missed it; the addresses, which the key leaves out,
// must still reach the plan and its output checks.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/LaunchPlanCache.h"

#include "Signatures.h"

#include "gtest/gtest.h"

#include <vector>

using namespace ewc;
using namespace ewc::test;

namespace {

/// Every field of two plans, equal.
void expectSamePlan(const LaunchPlan &got, const LaunchPlan &expected) {
  EXPECT_EQ(got.variant.getKey(), expected.variant.getKey());
  EXPECT_EQ(got.points, expected.points);
  EXPECT_EQ(got.merged, expected.merged);
  EXPECT_EQ(got.sameViews, expected.sameViews);
  ASSERT_EQ(got.tensors.size(), expected.tensors.size());
  for (auto [a, b] : llvm::zip(got.tensors, expected.tensors)) {
    EXPECT_EQ(a.data, b.data);
    EXPECT_EQ(a.extents, b.extents);
    EXPECT_EQ(a.strides, b.strides);
    EXPECT_EQ(a.dims, b.dims);
    EXPECT_EQ(a.elementSize, b.elementSize);
    EXPECT_EQ(a.lastByte, b.lastByte);
  }
}

/// The cache's answer for a launch, checked against planLaunch's: the same
/// plan, or the same error (returned; empty if both planned).
std::string getChecked(LaunchPlanCache &cache, const KernelSignature &kernel,
                       std::vector<const TensorArg *> inputs,
                       std::vector<const TensorArg *> outputs,
                       const llvm::StringMap<int64_t> &dims = {}) {
  LaunchPlan plan;
  llvm::Error error = cache.get(kernel, inputs, outputs, dims, plan);
  llvm::Expected<LaunchPlan> expected =
      planLaunch(kernel, inputs, outputs, dims);
  if (!expected) {
    std::string message = llvm::toString(expected.takeError());
    if (!error) {
      ADD_FAILURE() << "the cache planned: " << message;
      return message;
    }
    EXPECT_EQ(llvm::toString(std::move(error)), message);
    return message;
  }
  if (error) {
    ADD_FAILURE() << "the cache refused: " << llvm::toString(std::move(error));
    return "";
  }
  expectSamePlan(plan, *expected);
  return "";
}

std::vector<std::string> dimsN = {"n"};
KernelSignature leakyRelu =
    makeSignature("leaky_relu", {tensorParam("x", dimsN), scalarParam("slope")},
                  {{DType::F32, dimsN}});

TEST(LaunchPlanCacheTest, HitsAtOtherAddresses) {
  LaunchPlanCache cache;
  TensorArg x = tensor({1024}), out = tensor({1024}, {}, 0x20000);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x, nullptr}, {&out}), "");
  EXPECT_EQ(cache.getMisses(), 1u);
  // Other addresses, the same shapes: the kept plan, with these addresses.
  TensorArg x2 = tensor({1024}, {}, 0x40004),
            out2 = tensor({1024}, {}, 0x50008);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x2, nullptr}, {&out2}), "");
  EXPECT_EQ(cache.getHits(), 1u);
  EXPECT_EQ(cache.getMisses(), 1u);
}

TEST(LaunchPlanCacheTest, ChecksTheOutputsAtEachLaunchsAddresses) {
  LaunchPlanCache cache;
  TensorArg x = tensor({1024}), out = tensor({1024}, {}, 0x20000);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x, nullptr}, {&out}), "");
  // In place is the same view: fine.
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x, nullptr}, {&x}), "");
  // Four floats past x: the kept plan's shapes, overlapping addresses.
  TensorArg shifted = tensor({1024}, {}, 0x10000 + 4 * sizeof(float));
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x, nullptr}, {&shifted}),
            "the result overlaps 'x' in memory; an output may be an input "
            "itself (the same view, in place) but may not share memory with "
            "another tensor otherwise");
  EXPECT_EQ(cache.getMisses(), 1u);
  EXPECT_EQ(cache.getHits(), 2u);
  // x[::2] into itself: not the same view as a contiguous one at its
  // address, whatever an earlier launch at that address was.
  TensorArg everyOther = tensor({512}, {2}), out512 = tensor({512});
  EXPECT_EQ(getChecked(cache, leakyRelu, {&out512, nullptr}, {&out512}), "");
  EXPECT_NE(getChecked(cache, leakyRelu, {&everyOther, nullptr}, {&out512}),
            "");
}

TEST(LaunchPlanCacheTest, NeverReusesAPlanOfOtherShapes) {
  LaunchPlanCache cache;
  TensorArg x = tensor({1024}), out = tensor({1024}, {}, 0x20000);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x, nullptr}, {&out}), "");
  // The input's stride, the output's, the extent: each its own plan.
  TensorArg strided = tensor({1024}, {2}, 0x40000);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&strided, nullptr}, {&out}), "");
  TensorArg stridedOut = tensor({1024}, {3}, 0x60000);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x, nullptr}, {&stridedOut}), "");
  TensorArg x5 = tensor({5}), out5 = tensor({5}, {}, 0x20000);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x5, nullptr}, {&out5}), "");
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x5, nullptr}, {&out}),
            "the result has n = 1024 but 'x' has n = 5");
  // A rank the kernel refuses, after the cache holds that extent.
  TensorArg matrix = tensor({1, 1024});
  EXPECT_NE(getChecked(cache, leakyRelu, {&matrix, nullptr}, {&out}), "");
  // The same extents and strides as other arrays: [2, 3] with no strides is
  // not [2] with the strides [3].
  TensorArg noStrides{reinterpret_cast<void *>(0x10000), {2, 3}, {}};
  TensorArg oneStride{reinterpret_cast<void *>(0x10000), {2}, {3}};
  EXPECT_NE(getChecked(cache, leakyRelu, {&noStrides, nullptr}, {&out}), "");
  EXPECT_EQ(getChecked(cache, leakyRelu, {&oneStride, nullptr}, {&out5}),
            "the result has n = 5 but 'x' has n = 2");
  EXPECT_EQ(cache.getHits(), 0u);

  // Both lengths are in the key: without either, these malformed arrays
  // would spell the key of one element at stride 1 in and out (1 1 1, 1 1
  // 1) and get its plan instead of planLaunch's error.
  TensorArg x1 = tensor({1}), out1 = tensor({1}, {}, 0x20000);
  EXPECT_EQ(getChecked(cache, leakyRelu, {&x1, nullptr}, {&out1}), "");
  void *at = reinterpret_cast<void *>(0x10000);
  TensorArg twoExtents{at, {1, 1}, {1}}, noExtent{at, {}, {1}};
  EXPECT_NE(getChecked(cache, leakyRelu, {&twoExtents, nullptr}, {&noExtent}),
            "");
  TensorArg twoStrides{at, {1}, {1, 1}}, noStride{at, {1}, {}};
  EXPECT_NE(getChecked(cache, leakyRelu, {&twoStrides, nullptr}, {&noStride}),
            "");
}

TEST(LaunchPlanCacheTest, KeysTheBatchRankAndTheGivenExtents) {
  // rows(x: f32[..., n]) -> f32[..., n]: the batch's rank and its merging
  // come from the shapes and strides alone.
  std::vector<std::string> dims = {"...", "n"};
  KernelSignature rows =
      makeSignature("rows", {tensorParam("x", dims)}, {{DType::F32, dims}});
  LaunchPlanCache cache;
  TensorArg x = tensor({2, 3, 4}), out = tensor({2, 3, 4}, {}, 0x90000);
  EXPECT_EQ(getChecked(cache, rows, {&x}, {&out}), "");
  TensorArg scattered = tensor({2, 3, 4}, {100, 10, 1});
  EXPECT_EQ(getChecked(cache, rows, {&scattered}, {&out}), "");
  TensorArg flat = tensor({24}), flatOut = tensor({24}, {}, 0x90000);
  EXPECT_EQ(getChecked(cache, rows, {&flat}, {&flatOut}), "");

  // fill(value: f32) -> f32[n]: the extent given by name is in the key.
  KernelSignature fill =
      makeSignature("fill", {scalarParam("value")}, {{DType::F32, dimsN}});
  LaunchPlanCache fills;
  TensorArg out8 = tensor({8}, {}, 0x90000);
  EXPECT_EQ(getChecked(fills, fill, {nullptr}, {&out8}, {{"n", 8}}), "");
  EXPECT_EQ(getChecked(fills, fill, {nullptr}, {&out8}, {{"n", 9}}),
            "n = 9 was given, but the result has n = 8");
  EXPECT_EQ(getChecked(fills, fill, {nullptr}, {&out8}, {{"q", 8}}),
            "kernel 'fill' has no dimension 'q' (its dimensions are n)");
  EXPECT_EQ(getChecked(fills, fill, {nullptr}, {&out8}), "");
  EXPECT_EQ(fills.getHits(), 0u);
  EXPECT_EQ(getChecked(fills, fill, {nullptr}, {&out8}, {{"n", 8}}), "");
  EXPECT_EQ(fills.getHits(), 1u);
  // Which dimension an extent is given for.
  std::vector<std::string> mn = {"m", "n"};
  KernelSignature fill2 =
      makeSignature("fill2", {scalarParam("value")}, {{DType::F32, mn}});
  LaunchPlanCache fills2;
  TensorArg out23 = tensor({2, 3}, {}, 0x90000);
  EXPECT_EQ(getChecked(fills2, fill2, {nullptr}, {&out23}, {{"m", 2}}), "");
  EXPECT_EQ(getChecked(fills2, fill2, {nullptr}, {&out23}, {{"n", 2}}),
            "n = 2 was given, but the result has n = 3");
}

TEST(LaunchPlanCacheTest, CompletesNewPlansOnlyAndKeepsTheOldest) {
  LaunchPlanCache cache;
  int completed = 0;
  auto complete = [&](LaunchPlan &plan) {
    ++completed;
    plan.variant.tiledTensors = {0};
  };
  std::vector<TensorArg> inputs, outputs;
  for (unsigned n = 1; n <= LaunchPlanCache::kCapacity + 1; ++n) {
    inputs.push_back(tensor({n}));
    outputs.push_back(tensor({n}, {}, 0x20000));
  }
  LaunchPlan plan;
  llvm::StringMap<int64_t> none;
  for (size_t i = 0; i < inputs.size(); ++i)
    ASSERT_FALSE(
        static_cast<bool>(cache.get(leakyRelu, {&inputs[i], nullptr},
                                    {&outputs[i]}, none, plan, complete)));
  EXPECT_EQ(completed, int(inputs.size()));
  // A hit keeps what `complete` added; the first shape went to make room.
  ASSERT_FALSE(
      static_cast<bool>(cache.get(leakyRelu, {&inputs.back(), nullptr},
                                  {&outputs.back()}, none, plan, complete)));
  EXPECT_EQ(plan.variant.tiledTensors, (std::vector<int64_t>{0}));
  EXPECT_EQ(cache.getHits(), 1u);
  ASSERT_FALSE(static_cast<bool>(cache.get(
      leakyRelu, {&inputs[0], nullptr}, {&outputs[0]}, none, plan, complete)));
  EXPECT_EQ(cache.getHits(), 1u);
  EXPECT_EQ(completed, int(inputs.size()) + 1);
}

} // namespace
