//===- LaunchPlanTest.cpp - Binding, checking and merging a launch --------===//
//
// What planLaunch decides before every launch (LaunchPlan.h): the extents by
// name and the errors that name both tensors, the output checks, which
// dimensions merge (TensorIterator's coalescing), the batch's rank and the
// variant key the driver compiles for.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/LaunchPlan.h"
#include "ewc/ABI/RowAccess.h"

#include "Signatures.h"

#include "gtest/gtest.h"

#include <vector>

using namespace ewc;
using namespace ewc::test;

namespace {

/// The message of a failed plan (empty if it succeeded).
std::string planError(const KernelSignature &kernel,
                      std::vector<const TensorArg *> inputs,
                      std::vector<const TensorArg *> outputs,
                      const llvm::StringMap<int64_t> &dims = {}) {
  llvm::Expected<LaunchPlan> plan = planLaunch(kernel, inputs, outputs, dims);
  if (plan)
    return "";
  return llvm::toString(plan.takeError());
}

TEST(LaunchPlanTest, BindsByName) {
  KernelSignature kernel = makeBiasAdd();
  TensorArg x = tensor({4, 8}), b = tensor({8}, {}, 0x20000),
            out = tensor({4, 8}, {}, 0x30000);
  llvm::Expected<DimBindings> bound =
      bindDims(kernel, {&x, &b, nullptr}, {}, {});
  ASSERT_TRUE(static_cast<bool>(bound)) << llvm::toString(bound.takeError());
  EXPECT_EQ(bound->extents.lookup("m"), 4);
  EXPECT_EQ(bound->extents.lookup("n"), 8);
  EXPECT_EQ(getResultShape(kernel, *bound, 0), (std::vector<int64_t>{4, 8}));

  TensorArg shortB = tensor({7}, {}, 0x20000);
  EXPECT_EQ(planError(kernel, {&x, &shortB, nullptr}, {&out}),
            "'b' has n = 7 but 'x' has n = 8");
  TensorArg wide = tensor({4, 9}, {}, 0x30000);
  EXPECT_EQ(planError(kernel, {&x, &b, nullptr}, {&wide}),
            "the result has n = 9 but 'x' has n = 8");
  TensorArg rank3 = tensor({2, 4, 8});
  EXPECT_EQ(planError(kernel, {&rank3, &b, nullptr}, {&out}),
            "'x' has 3 dimensions, but its type f32[m, n] has 2; a kernel "
            "over any leading dimensions declares it as 'f32[..., m, n]'");
  TensorArg negative = tensor({4, 8}, {-8, 1});
  EXPECT_NE(planError(kernel, {&negative, &b, nullptr}, {&out})
                .find("only strides of 0 and up are supported"),
            std::string::npos);
  EXPECT_EQ(planError(kernel, {&x, nullptr, nullptr}, {&out}),
            "no tensor for parameter 'b'");
}

TEST(LaunchPlanTest, DimensionsOnlyResultsHave) {
  // fill(value: f32) -> f32[n]: n comes from the output, or from the caller.
  KernelSignature fill =
      makeSignature("fill", {scalarParam("value")}, {{DType::F32, {"n"}}});
  TensorArg out = tensor({6});
  llvm::Expected<DimBindings> fromOutput =
      bindDims(fill, {nullptr}, {&out}, {});
  ASSERT_TRUE(static_cast<bool>(fromOutput));
  EXPECT_EQ(fromOutput->extents.lookup("n"), 6);
  llvm::Expected<DimBindings> fromCaller =
      bindDims(fill, {nullptr}, {nullptr}, {{"n", 5}});
  ASSERT_TRUE(static_cast<bool>(fromCaller));
  EXPECT_EQ(fromCaller->extents.lookup("n"), 5);
  llvm::Expected<DimBindings> none = bindDims(fill, {nullptr}, {nullptr}, {});
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_NE(llvm::toString(none.takeError())
                .find("dimension 'n' of kernel 'fill' has no extent"),
            std::string::npos);
  EXPECT_EQ(planError(fill, {nullptr}, {&out}, {{"n", 7}}),
            "n = 7 was given, but the result has n = 6");
  EXPECT_EQ(planError(fill, {nullptr}, {&out}, {{"q", 7}}),
            "kernel 'fill' has no dimension 'q' (its dimensions are n)");
}

TEST(LaunchPlanTest, Batch) {
  KernelSignature kernel = makeBiasAdd(/*batch=*/true);
  TensorArg x = tensor({2, 3, 4, 8}), b = tensor({8}, {}, 0x90000),
            out = tensor({2, 3, 4, 8}, {}, 0xa0000);
  llvm::Expected<DimBindings> bound =
      bindDims(kernel, {&x, &b, nullptr}, {&out}, {});
  ASSERT_TRUE(static_cast<bool>(bound));
  EXPECT_EQ(bound->batchShape, (std::vector<int64_t>{2, 3}));
  TensorArg otherBatch = tensor({3, 2, 4, 8}, {}, 0xa0000);
  EXPECT_EQ(planError(kernel, {&x, &b, nullptr}, {&otherBatch}),
            "the result has the leading dimensions (...) [3, 2] but 'x' has "
            "[2, 3]; every tensor with '...' has the same ones");
  // Contiguous: the batch merges into m (b has neither), so one batch
  // dimension of extent 1 stays and the default variant runs.
  llvm::Expected<LaunchPlan> plan =
      planLaunch(kernel, {&x, &b, nullptr}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->variant.getKey(), "b1");
  EXPECT_EQ(plan->points, 2 * 3 * 4 * 8);
  EXPECT_EQ(plan->tensors[0].extents, (std::vector<int64_t>{1, 24, 8}));
}

TEST(LaunchPlanTest, MergesContiguousDimensions) {
  // rows(x: f32[..., n]) -> f32[..., n] on contiguous tensors: one row.
  std::vector<std::string> dims = {"...", "n"};
  KernelSignature rows =
      makeSignature("rows", {tensorParam("x", dims)}, {{DType::F32, dims}});
  TensorArg x = tensor({2, 3, 4}), out = tensor({2, 3, 4}, {}, 0x90000);
  llvm::Expected<LaunchPlan> plan = planLaunch(rows, {&x}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->merged, 2u);
  EXPECT_EQ(plan->variant.getKey(), "b1");
  EXPECT_EQ(plan->tensors[0].extents, (std::vector<int64_t>{1, 24}));
  EXPECT_EQ(plan->tensors[0].strides.back(), 1);
  EXPECT_TRUE(plan->variant.isDefault());
  // The bytes of the results, by which the CPU's runtime picks the variant
  // with streaming stores (".nt", not the default).
  EXPECT_EQ(plan->getResultBytes(rows), 24u * 4);
  plan->variant.streamingStores = true;
  EXPECT_FALSE(plan->variant.isDefault());
  EXPECT_EQ(plan->variant.getKey(), "b1.nt");
  plan->variant.streamingStores = false;
  // The rows schedule's block for a long row (".r<threads>", RowAccess.h).
  plan->variant.rowsBlockSize = 512;
  EXPECT_FALSE(plan->variant.isDefault());
  EXPECT_EQ(plan->variant.getKey(), "b1.r512");
  // A row kept in registers, its teams a constant (".team<lanes>.k<slots>").
  plan->variant.rowsTeam = 128;
  plan->variant.rowsResident = 32;
  EXPECT_EQ(plan->variant.getKey(), "b1.r512.team128.k32");
  plan->variant.rowsBlockSize = 0;
  EXPECT_FALSE(plan->variant.isDefault());
  plan->variant.rowsTeam = plan->variant.rowsResident = 0;
  EXPECT_TRUE(plan->variant.isDefault());
  // The longest row by the dimensions' names: n is 24 after the merge.
  EXPECT_EQ(plan->getExtent("n"), 24);
  EXPECT_EQ(plan->getExtent("k"), std::nullopt);
  EXPECT_EQ(plan->getLongestRow({}), 0u);
  EXPECT_EQ(plan->getLongestRow({{"n"}, {"k"}}), 24u);
  EXPECT_EQ(plan->getLongestRow({{"n", "n"}}), 24u * 24);

  // Batch dimensions that do not merge keep their rank: the variant b3.
  TensorArg scattered = tensor({2, 3, 5, 8}, {1000, 100, 10, 1});
  TensorArg out4 = tensor({2, 3, 5, 8}, {}, 0x90000);
  plan = planLaunch(rows, {&scattered}, {&out4});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->merged, 0u);
  EXPECT_EQ(plan->variant.getKey(), "b3");
  // Dimensions of extent 1 drop out of the batch.
  TensorArg ones = tensor({1, 3, 1, 8}, {1000, 100, 10, 1});
  TensorArg outOnes = tensor({1, 3, 1, 8}, {}, 0x90000);
  plan = planLaunch(rows, {&ones}, {&outOnes});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->variant.getKey(), "b1");
  EXPECT_EQ(plan->tensors[0].extents, (std::vector<int64_t>{3, 8}));

  // Pinned dimensions (read by index or size) never merge.
  KernelSignature pinned =
      makeSignature("pinned", {tensorParam("x", {"m", "n"})},
                    {{DType::F32, {"m", "n"}}}, {"m"});
  TensorArg x2 = tensor({4, 8}), out2 = tensor({4, 8}, {}, 0x90000);
  plan = planLaunch(pinned, {&x2}, {&out2});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->merged, 0u);
}

TEST(LaunchPlanTest, BroadcastAndStridedVariants) {
  KernelSignature kernel = makeBiasAdd();
  TensorArg x = tensor({4, 8}), b = tensor({8}, {}, 0x20000),
            out = tensor({4, 8}, {}, 0x30000);
  // b has n only: m and n cannot merge.
  llvm::Expected<LaunchPlan> plan =
      planLaunch(kernel, {&x, &b, nullptr}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->merged, 0u);
  EXPECT_EQ(plan->points, 32);
  EXPECT_EQ(plan->variant.getKey(), "b1");

  // A transposed x: its innermost stride is 4, the strided variant of
  // tensor 0.
  TensorArg transposed = tensor({4, 8}, {1, 4});
  plan = planLaunch(kernel, {&transposed, &b, nullptr}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->variant.getKey(), "b1.s0");
  EXPECT_EQ(plan->variant.stridedTensors, (std::vector<int64_t>{0}));
  // Every other element of b and of the output: tensors 1 and 2.
  TensorArg everyOther = tensor({8}, {2}, 0x20000);
  TensorArg outEveryOther = tensor({4, 8}, {16, 2}, 0x30000);
  plan = planLaunch(kernel, {&x, &everyOther, nullptr}, {&outEveryOther});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->variant.getKey(), "b1.s1.s2");
  // An innermost extent of 1 makes its stride irrelevant.
  TensorArg column = tensor({4, 1}, {7, 3}), b1 = tensor({1}, {5}, 0x20000),
            out1 = tensor({4, 1}, {}, 0x30000);
  plan = planLaunch(kernel, {&column, &b1, nullptr}, {&out1});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->variant.getKey(), "b1");
}

TEST(LaunchPlanTest, SplitsAlongAnOuterDimension) {
  KernelSignature kernel = makeBiasAdd();
  // 10 rows of 8 f32: x and the output cut into rows 0-3, 4-6, 7-9 (the
  // first part takes the extra row), b whole in every part.
  TensorArg x = tensor({10, 8}), b = tensor({8}, {}, 0x20000),
            out = tensor({10, 8}, {}, 0x30000);
  llvm::Expected<LaunchPlan> plan =
      planLaunch(kernel, {&x, &b, nullptr}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->tensors[0].dims, (std::vector<std::string>{"m", "n"}));
  EXPECT_EQ(plan->tensors[0].elementSize, 4u);
  std::vector<LaunchPlan> parts = splitLaunch(kernel, *plan, 3, 8);
  ASSERT_EQ(parts.size(), 3u);
  int64_t rows[] = {4, 3, 3}, first[] = {0, 4, 7};
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(parts[p].points, rows[p] * 8);
    for (unsigned t : {0u, 2u}) {
      EXPECT_EQ(parts[p].tensors[t].extents,
                (std::vector<int64_t>{rows[p], 8}));
      EXPECT_EQ(static_cast<char *>(parts[p].tensors[t].data) -
                    static_cast<char *>(plan->tensors[t].data),
                first[p] * 8 * 4);
    }
    EXPECT_EQ(parts[p].tensors[1].data, plan->tensors[1].data);
    EXPECT_EQ(parts[p].tensors[1].extents, (std::vector<int64_t>{8}));
  }
  // At most one part per row, and per minPoints points.
  EXPECT_EQ(splitLaunch(kernel, *plan, 64, 1).size(), 10u);
  EXPECT_EQ(splitLaunch(kernel, *plan, 64, 20).size(), 4u);
  // Too small, or one thread: no parts (the plan runs whole).
  EXPECT_TRUE(splitLaunch(kernel, *plan, 64, 41).empty());
  EXPECT_TRUE(splitLaunch(kernel, *plan, 1, 1).empty());

  // A transposed output: still its rows of m (stride 1 now).
  TensorArg outT = tensor({10, 8}, {1, 10}, 0x30000);
  plan = planLaunch(kernel, {&x, &b, nullptr}, {&outT});
  ASSERT_TRUE(static_cast<bool>(plan));
  parts = splitLaunch(kernel, *plan, 2, 8);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(static_cast<char *>(parts[1].tensors[2].data) -
                static_cast<char *>(plan->tensors[2].data),
            5 * 1 * 4);

  // The kernel reads index(m): split along n instead; with n pinned too,
  // never.
  KernelSignature pinned = kernel;
  pinned.pinnedDims = {"m"};
  plan = planLaunch(pinned, {&x, &b, nullptr}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  parts = splitLaunch(pinned, *plan, 2, 8);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1].tensors[1].extents, (std::vector<int64_t>{4}));
  EXPECT_EQ(static_cast<char *>(parts[1].tensors[1].data) -
                static_cast<char *>(plan->tensors[1].data),
            4 * 4);
  pinned.pinnedDims = {"m", "n"};
  EXPECT_TRUE(splitLaunch(pinned, *plan, 2, 8).empty());
}

// A kernel that reads its batch position (index_flat() pins `...`): the
// batch's dimensions merge among themselves, which keeps each point's
// row-major position, but not with n, and the CPU's parts cut n, never the
// batch (a part would restart the positions at 0); over the batch alone,
// there is no part.
TEST(LaunchPlanTest, BatchPositionKeepsTheBatchApart) {
  std::vector<std::string> dims = {"...", "n"};
  KernelSignature rows =
      makeSignature("rows", {tensorParam("x", dims)}, {{DType::F32, dims}},
                    /*pinned=*/{"..."});
  TensorArg x = tensor({2, 3, 4}), out = tensor({2, 3, 4}, {}, 0x90000);
  llvm::Expected<LaunchPlan> plan = planLaunch(rows, {&x}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->merged, 1u);
  EXPECT_EQ(plan->variant.getKey(), "b1");
  EXPECT_EQ(plan->tensors[0].dims, (std::vector<std::string>{"...1", "n"}));
  EXPECT_EQ(plan->tensors[0].extents, (std::vector<int64_t>{6, 4}));
  std::vector<LaunchPlan> parts = splitLaunch(rows, *plan, 4, 1);
  ASSERT_EQ(parts.size(), 4u);
  for (const LaunchPlan &part : parts)
    EXPECT_EQ(part.tensors[1].extents, (std::vector<int64_t>{6, 1}));
  std::vector<std::string> batchOnly = {"..."};
  KernelSignature flat = makeSignature("flat", {tensorParam("x", batchOnly)},
                                       {{DType::F32, batchOnly}},
                                       /*pinned=*/{"..."});
  plan = planLaunch(flat, {&x}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->tensors[0].extents, (std::vector<int64_t>{24}));
  EXPECT_TRUE(splitLaunch(flat, *plan, 4, 1).empty());
  // Unpinned, the same call is one row of 24 points, cut in parts.
  rows.pinnedDims.clear();
  plan = planLaunch(rows, {&x}, {&out});
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->tensors[0].extents, (std::vector<int64_t>{1, 24}));
  EXPECT_EQ(splitLaunch(rows, *plan, 4, 1).size(), 4u);
}

// A kernel that reads its batch position gets the wide variant (".w", the
// position a 64-bit value) only for a batch of more than 2^32 positions:
// every other takes it for a 32-bit one. 2^32 positions (0 .. 2^32 - 1)
// still fit; one more row does not; a kernel that reads no position never
// needs it, however large its batch.
TEST(LaunchPlanTest, WideBatchOnlyPast32Bits) {
  std::vector<std::string> dims = {"..."};
  KernelSignature flat =
      makeSignature("flat", {tensorParam("x", dims)}, {{DType::F32, dims}},
                    /*pinned=*/{"..."});
  auto plan = [&](const KernelSignature &kernel, std::vector<int64_t> shape) {
    // The output far past the input: no overlap at these sizes.
    TensorArg x = tensor(shape), out = tensor(shape, {}, uintptr_t(1) << 44);
    llvm::Expected<LaunchPlan> planned = planLaunch(kernel, {&x}, {&out});
    EXPECT_TRUE(static_cast<bool>(planned));
    return planned ? *planned : LaunchPlan();
  };
  EXPECT_FALSE(plan(flat, {1024}).variant.wideBatch);
  LaunchPlan fits = plan(flat, {int64_t(1) << 16, int64_t(1) << 16});
  EXPECT_FALSE(fits.variant.wideBatch);
  EXPECT_EQ(fits.variant.getKey(), "b1");
  EXPECT_TRUE(fits.variant.isDefault());
  LaunchPlan past = plan(flat, {(int64_t(1) << 16) + 1, int64_t(1) << 16});
  EXPECT_TRUE(past.variant.wideBatch);
  EXPECT_EQ(past.variant.getKey(), "b1.w");
  EXPECT_FALSE(past.variant.isDefault());
  EXPECT_TRUE(plan(flat, {int64_t(1) << 33}).variant.wideBatch);
  flat.pinnedDims.clear();
  EXPECT_FALSE(plan(flat, {int64_t(1) << 33}).variant.wideBatch);
}

/// The first point of each part of `parts` in the result (tensor 1 of a
/// 1-D kernel of f32), and each part's points.
std::vector<std::pair<int64_t, int64_t>>
describeParts(const std::vector<LaunchPlan> &parts, const LaunchPlan &plan) {
  std::vector<std::pair<int64_t, int64_t>> described;
  for (const LaunchPlan &part : parts) {
    EXPECT_EQ(part.tensors[1].extents, (std::vector<int64_t>{part.points}));
    EXPECT_EQ(static_cast<char *>(part.tensors[0].data) -
                  static_cast<char *>(plan.tensors[0].data),
              static_cast<char *>(part.tensors[1].data) -
                  static_cast<char *>(plan.tensors[1].data));
    described.emplace_back((static_cast<char *>(part.tensors[1].data) -
                            static_cast<char *>(plan.tensors[1].data)) /
                               4,
                           part.points);
  }
  return described;
}

TEST(LaunchPlanTest, SplitsAPointLaunchAtCacheLines) {
  // relu(x: f32[n]) -> f32[n]: a row is a point, so 16 rows share a 64-byte
  // line of the result and the parts start at lines.
  KernelSignature kernel =
      makeSignature("relu", {tensorParam("x", {"n"})}, {{DType::F32, {"n"}}});
  using Parts = std::vector<std::pair<int64_t, int64_t>>;
  auto split = [&](int64_t n, uintptr_t out, unsigned parts,
                   int64_t alignBytes) {
    TensorArg x = tensor({n}, {}, 0x10004), result = tensor({n}, {}, out);
    llvm::Expected<LaunchPlan> plan = planLaunch(kernel, {&x}, {&result});
    EXPECT_TRUE(static_cast<bool>(plan));
    return describeParts(splitLaunch(kernel, *plan, parts, 1, alignBytes),
                         *plan);
  };
  // Balanced at 334 and 667, moved to the nearest lines: 336 and 672.
  EXPECT_EQ(split(1000, 0x30000, 3, 64),
            (Parts{{0, 336}, {336, 336}, {672, 328}}));
  EXPECT_EQ(split(1000, 0x30000, 3, 1),
            (Parts{{0, 334}, {334, 333}, {667, 333}}));
  // A result one f32 past a line: its lines start at points 15, 31, ...
  EXPECT_EQ(split(1000, 0x30004, 3, 64),
            (Parts{{0, 335}, {335, 336}, {671, 329}}));
  // An address that no point starts a line at: balanced.
  EXPECT_EQ(split(1000, 0x30002, 3, 64),
            (Parts{{0, 334}, {334, 333}, {667, 333}}));
  // 40 points in 4 parts: 10, 20 and 30 round to 16, 16 and 32, and the
  // empty part goes.
  EXPECT_EQ(split(40, 0x30000, 4, 64), (Parts{{0, 16}, {16, 16}, {32, 8}}));
  // Everything rounds to one part: no parts (the plan runs whole).
  EXPECT_EQ(split(16, 0x30000, 2, 64), Parts{});
  // Extents 0 and 1: nothing to split.
  EXPECT_EQ(split(0, 0x30000, 4, 64), Parts{});
  EXPECT_EQ(split(1, 0x30000, 4, 64), Parts{});
}

TEST(LaunchPlanTest, ChecksOutputs) {
  std::vector<std::string> dims = {"m", "n"};
  KernelSignature kernel =
      makeSignature("k", {tensorParam("x", dims)}, {{DType::F32, dims}});
  TensorArg x = tensor({4, 8});
  // An expanded output repeats elements.
  TensorArg expanded = tensor({4, 8}, {0, 1}, 0x90000);
  EXPECT_NE(planError(kernel, {&x}, {&expanded})
                .find("has stride 0 along its "
                      "dimension 'm'"),
            std::string::npos);
  // Strides that let rows overlap.
  TensorArg overlapping = tensor({4, 8}, {4, 1}, 0x90000);
  EXPECT_NE(planError(kernel, {&x}, {&overlapping}).find("overlaps itself"),
            std::string::npos);
  // In place is fine; another view of the same memory is not.
  EXPECT_EQ(planError(kernel, {&x}, {&x}), "");
  TensorArg shifted = tensor({4, 8}, {}, 0x10000 + 4 * sizeof(float));
  EXPECT_EQ(planError(kernel, {&x}, {&shifted}),
            "the result overlaps 'x' in memory; an output may be an input "
            "itself (the same view, in place) but may not share memory with "
            "another tensor otherwise");
  // Empty tensors overlap nothing.
  TensorArg empty = tensor({0, 8}), emptyOut = tensor({0, 8});
  EXPECT_EQ(planError(kernel, {&empty}, {&emptyOut}), "");

  // Views that interleave in one storage of rows of 8: the left half of
  // each row and the right half share no element (rotary embedding's
  // halves), though their byte ranges overlap.
  TensorArg left = tensor({4, 4}, {8, 1}, 0x10000);
  TensorArg right = tensor({4, 4}, {8, 1}, 0x10000 + 4 * sizeof(float));
  EXPECT_EQ(planError(kernel, {&left}, {&right}), "");
  EXPECT_EQ(planError(kernel, {&right}, {&left}), "");
  // Three elements in: the last column of the left half is shared.
  TensorArg three = tensor({4, 4}, {8, 1}, 0x10000 + 3 * sizeof(float));
  EXPECT_NE(planError(kernel, {&left}, {&three}).find("overlaps 'x'"),
            std::string::npos);
  // Every other element against the ones between: disjoint; against the
  // ones two further on, shared.
  TensorArg even = tensor({4, 4}, {8, 2}, 0x10000);
  TensorArg odd = tensor({4, 4}, {8, 2}, 0x10000 + sizeof(float));
  TensorArg evenLater = tensor({4, 4}, {8, 2}, 0x10000 + 2 * sizeof(float));
  EXPECT_EQ(planError(kernel, {&even}, {&odd}), "");
  EXPECT_NE(planError(kernel, {&even}, {&evenLater}).find("overlaps"),
            std::string::npos);
  // The next row's start is the last row's end + 1 row: [4, 4] rows of 8
  // against the same shifted by 8 * 3 + 4 elements share nothing, by 8 * 3
  // they share the last row's left half.
  TensorArg below = tensor({4, 4}, {8, 1}, 0x10000 + 28 * sizeof(float));
  TensorArg under = tensor({4, 4}, {8, 1}, 0x10000 + 24 * sizeof(float));
  EXPECT_EQ(planError(kernel, {&left}, {&below}), "");
  EXPECT_NE(planError(kernel, {&left}, {&under}).find("overlaps"),
            std::string::npos);
  // The halves of 2^21 rows of 128 (bench/vocabulary.py's rotary at 2^28
  // elements): disjoint, found without a search over the rows (it ran out
  // of steps before the terms of one stride merged).
  TensorArg bigLeft = tensor({1 << 21, 64}, {128, 1}, 0x10000);
  TensorArg bigRight =
      tensor({1 << 21, 64}, {128, 1}, 0x10000 + 64 * sizeof(float));
  TensorArg bigShared =
      tensor({1 << 21, 64}, {128, 1}, 0x10000 + 63 * sizeof(float));
  EXPECT_EQ(planError(kernel, {&bigLeft}, {&bigRight}), "");
  EXPECT_NE(planError(kernel, {&bigLeft}, {&bigShared}).find("overlaps"),
            std::string::npos);
  // Not a whole number of elements apart: the bytes of two elements may
  // mix, which counts as an overlap.
  TensorArg halfway = tensor({4, 4}, {8, 1}, 0x10000 + 4 * sizeof(float) + 2);
  EXPECT_NE(planError(kernel, {&left}, {&halfway}).find("overlaps"),
            std::string::npos);
}

} // namespace

// The resident rows' team (RowAccess.h): the power of two at or above the
// row over its slots, up to the block.
TEST(LaunchPlanTest, ResidentRows) {
  using namespace ewc;
  EXPECT_EQ(getRowsResidentTeam(1, 128, 32), 1u);
  EXPECT_EQ(getRowsResidentTeam(32, 128, 32), 1u);
  EXPECT_EQ(getRowsResidentTeam(33, 128, 32), 2u);
  EXPECT_EQ(getRowsResidentTeam(128, 128, 32), 4u);
  EXPECT_EQ(getRowsResidentTeam(1000, 128, 32), 32u);
  EXPECT_EQ(getRowsResidentTeam(4096, 128, 32), 128u);
  EXPECT_EQ(getRowsResidentTeam(1 << 20, 128, 32), 128u);
  EXPECT_EQ(getRowsResidentTeam(32768, 512, 64), 512u);
}

// The pass of a row's points on the lanes (RowAccess.h): a head of 128 the
// full one, 1 to 127 the one that fits, anything else the kernel of three.
TEST(LaunchPlanTest, LanePasses) {
  using namespace ewc;
  EXPECT_EQ(getLanePass(128), unsigned(kLanePassFull));
  EXPECT_EQ(getLanePass(1), unsigned(kLanePassFits));
  EXPECT_EQ(getLanePass(64), unsigned(kLanePassFits));
  EXPECT_EQ(getLanePass(127), unsigned(kLanePassFits));
  EXPECT_EQ(getLanePass(0), unsigned(kLanePassAll));
  EXPECT_EQ(getLanePass(129), unsigned(kLanePassAll));
  EXPECT_EQ(getLanePass(256), unsigned(kLanePassAll));
  LaunchPlan plan;
  plan.variant.lanePass = kLanePassFull;
  EXPECT_FALSE(plan.variant.isDefault());
  EXPECT_EQ(plan.variant.getKey(), "b1.lp1");
}

// The splits of decode attention's rows across blocks (RowAccess.h): one
// wave of blocks of 512 threads an SM at most, rounded down; none for rows
// that fill it already; at most one per 16 elements of S a warp.
TEST(LaunchPlanTest, LaneSplits) {
  using namespace ewc;
  // 32 rows of s = 65536 in blocks of 512 (16 warps) on 132 SMs: 132 / 32.
  EXPECT_EQ(chooseLaneSplits(32, 65536, 512, 132), 4u);
  // 32 rows of s = 8192 in blocks of 256: 264 / 32 = 8.
  EXPECT_EQ(chooseLaneSplits(32, 8192, 256, 132), 8u);
  // s = 1024 in blocks of 128 (4 warps): 528 / 32 = 16, at most 1024 /
  // (4 x 16) = 16; s = 512: at most 8.
  EXPECT_EQ(chooseLaneSplits(32, 1024, 128, 132), 16u);
  EXPECT_EQ(chooseLaneSplits(32, 512, 128, 132), 8u);
  // 256 rows fill one wave of 128-thread blocks at 2 splits, not more.
  EXPECT_EQ(chooseLaneSplits(256, 1024, 128, 132), 2u);
  EXPECT_EQ(chooseLaneSplits(256, 65536, 512, 132), 1u);
  // Short rows, no rows, no SM count: one split.
  EXPECT_EQ(chooseLaneSplits(1, 100, 128, 132), 1u);
  EXPECT_EQ(chooseLaneSplits(0, 1 << 20, 128, 132), 1u);
  EXPECT_EQ(chooseLaneSplits(1, 1 << 20, 128, 0), 4u);
  // The grid stays below 2^31.
  EXPECT_LE(chooseLaneSplits(1, ~0ull, 32, 1u << 30), 0x7fffffffull);

  EXPECT_EQ(getLanePasses(0), 0u);
  EXPECT_EQ(getLanePasses(1), 1u);
  EXPECT_EQ(getLanePasses(128), 1u);
  EXPECT_EQ(getLanePasses(129), 2u);
  // A ticket per row and pass, then 6 words a lane per split (the max, the
  // sum, 4 points' sums); none for one split.
  EXPECT_EQ(getLaneWorkspaceWords(32, 1, 1, 6), 0u);
  EXPECT_EQ(getLaneWorkspaceWords(32, 1, 8, 6), 32u + 32u * 8 * 6 * 32);
  EXPECT_EQ(getLaneWorkspaceWords(3, 2, 4, 6), 6u + 6u * 4 * 6 * 32);
  // The states past the tickets, a warp's lanes on consecutive words; the
  // last word is the workspace's last.
  EXPECT_EQ(getLanePartialWord(3, 2, 4, 6, 0, 0, 0, 0, 0), 6u);
  EXPECT_EQ(getLanePartialWord(3, 2, 4, 6, 0, 0, 0, 0, 1), 7u);
  EXPECT_EQ(getLanePartialWord(3, 2, 4, 6, 0, 0, 0, 1, 0), 6u + 32);
  EXPECT_EQ(getLanePartialWord(3, 2, 4, 6, 0, 0, 1, 0, 0), 6u + 6 * 32);
  EXPECT_EQ(getLanePartialWord(3, 2, 4, 6, 2, 1, 3, 5, 31) + 1,
            getLaneWorkspaceWords(3, 2, 4, 6));
}
