//===- TiledAccessTest.cpp - Which launches stage tensors in tiles --------===//
//
// chooseTiledTensors (TiledAccess.h) decides, on the host, whether a GPU
// launch takes the tiled variant and which inputs it stages: those read
// across their rows (unit stride along the nest's second innermost
// dimension, more along its innermost) beside results written along their
// rows, where both innermost extents are large enough; and the grid's tiles.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/TiledAccess.h"

#include "Signatures.h"

#include "gtest/gtest.h"

using namespace ewc;
using namespace ewc::test;

namespace {

/// A tensor of its own memory: 256 MiB apart from the previous one's.
TensorArg tensor(std::vector<int64_t> shape,
                 std::vector<int64_t> strides = {}) {
  static uintptr_t next = 0;
  next += uintptr_t(1) << 28;
  if (strides.empty())
    strides = getContiguousStrides(shape);
  return {reinterpret_cast<void *>(next), std::move(shape), std::move(strides)};
}

/// The transpose of a contiguous [rows, columns] tensor: [columns, rows].
TensorArg transposed(int64_t rows, int64_t columns) {
  return tensor({columns, rows}, {1, columns});
}

/// The staged tensors and the tiles of kTileSize for `kernel` on these
/// tensors, which must plan.
struct Choice {
  std::vector<int64_t> tensors;
  int64_t tiles = 0;
};
Choice choose(const KernelSignature &kernel,
              std::vector<const TensorArg *> inputs,
              std::vector<const TensorArg *> outputs) {
  llvm::Expected<LaunchPlan> plan = planLaunch(kernel, inputs, outputs);
  EXPECT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  if (!plan)
    return {};
  return {chooseTiledTensors(kernel, *plan),
          countTiles(kernel, *plan, kTileSize)};
}

KernelSignature makeUnary(std::vector<std::string> dims) {
  return makeSignature("unary", {tensorParam("x", dims)}, {{DType::F32, dims}});
}

TEST(TiledAccessTest, TransposedInputIntoContiguousResult) {
  KernelSignature kernel = makeUnary({kBatchDim.str()});
  TensorArg xT = transposed(1000, 768), out = tensor({768, 1000});
  Choice tiled = choose(kernel, {&xT}, {&out});
  EXPECT_EQ(tiled.tensors, std::vector<int64_t>{0});
  // ceil(768 / 64) x ceil(1000 / 64) tiles.
  EXPECT_EQ(tiled.tiles, 12 * 16);
}

TEST(TiledAccessTest, NotWhereRowsAreReadAlongAlready) {
  KernelSignature kernel = makeUnary({kBatchDim.str()});
  TensorArg x = tensor({768, 1000}), out = tensor({768, 1000});
  // Contiguous: one merged row.
  EXPECT_TRUE(choose(kernel, {&x}, {&out}).tensors.empty());
  // x[:, ::2]: a stride of 2 along the rows, not unit along the columns.
  TensorArg slice = tensor({768, 500}, {1000, 2}), out2 = tensor({768, 500});
  EXPECT_TRUE(choose(kernel, {&slice}, {&out2}).tensors.empty());
  // A transposed result: the points are not written along its rows either.
  TensorArg xT = transposed(1000, 768), outT = transposed(1000, 768);
  EXPECT_TRUE(choose(kernel, {&xT}, {&outT}).tensors.empty());
  // A broadcast along the columns (stride 0) reads one element per row.
  TensorArg expanded = tensor({768, 1000}, {1, 0});
  EXPECT_TRUE(choose(kernel, {&expanded}, {&out}).tensors.empty());
}

TEST(TiledAccessTest, SmallExtentsAreNotTiled) {
  KernelSignature kernel = makeUnary({kBatchDim.str()});
  TensorArg xT = transposed(1000, 15), out = tensor({15, 1000});
  EXPECT_TRUE(choose(kernel, {&xT}, {&out}).tensors.empty());
  TensorArg xT2 = transposed(16, 1000), out2 = tensor({1000, 16});
  EXPECT_EQ(choose(kernel, {&xT2}, {&out2}).tensors, std::vector<int64_t>{0});
}

TEST(TiledAccessTest, StaticTransposeAndBroadcasts) {
  // transpose_add(x: f32[m, n], y: f32[n, m]) -> f32[m, n]: y is read
  // across its rows in every layout where it is contiguous; x is not.
  KernelSignature kernel = makeSignature(
      "transpose_add",
      {tensorParam("x", {"m", "n"}), tensorParam("y", {"n", "m"})},
      {{DType::F32, {"m", "n"}}});
  TensorArg x = tensor({100, 77}), y = tensor({77, 100}),
            out = tensor({100, 77});
  Choice tiled = choose(kernel, {&x, &y}, {&out});
  EXPECT_EQ(tiled.tensors, std::vector<int64_t>{1});
  EXPECT_EQ(tiled.tiles, 2 * 2);
  // bias_add's b lacks m: nothing to stage, whatever x's layout.
  KernelSignature bias = makeBiasAdd();
  TensorArg b = tensor({77});
  EXPECT_TRUE(choose(bias, {&x, &b, nullptr}, {&out}).tensors.empty());
  TensorArg xT = transposed(77, 100);
  EXPECT_EQ(choose(bias, {&xT, &b, nullptr}, {&out}).tensors,
            std::vector<int64_t>{0});
}

TEST(TiledAccessTest, OnlyTensorsOfTheNest) {
  // y has a dimension k the nest [m, n] lacks: it is not the nest's to
  // stage (whatever its strides), z is.
  KernelSignature kernel = makeSignature(
      "extra",
      {tensorParam("y", {"k", "n", "m"}), tensorParam("z", {"n", "m"})},
      {{DType::F32, {"m", "n"}}});
  TensorArg y = tensor({3, 77, 100}), z = tensor({77, 100}),
            out = tensor({100, 77});
  EXPECT_EQ(choose(kernel, {&y, &z}, {&out}).tensors, std::vector<int64_t>{1});
}

TEST(TiledAccessTest, OuterDimensionsMultiplyTheTiles) {
  KernelSignature kernel = makeUnary({kBatchDim.str()});
  // x.transpose(1, 2) of a contiguous [4, 96, 130]: [4, 130, 96].
  TensorArg x = tensor({4, 130, 96}, {96 * 130, 1, 130}),
            out = tensor({4, 130, 96});
  Choice tiled = choose(kernel, {&x}, {&out});
  EXPECT_EQ(tiled.tensors, std::vector<int64_t>{0});
  EXPECT_EQ(tiled.tiles, 4 * 3 * 2);
}

TEST(TiledAccessTest, TileSizeOfTheDescriptor) {
  // A tile is the block's points: 256 threads x 4 = 32 x 32, x 16 = 64 x 64.
  EXPECT_EQ(getTileSize({"tiled", 256, 4, 0}), 32u);
  EXPECT_EQ(getTileSize({"tiled", 256, 16, 0}), 64u);
  EXPECT_EQ(getTileSize({"tiled", 256, 1, 0}), 16u);
  EXPECT_EQ(getTileSize({"tiled", 256, 64, 0}), 128u);
}

TEST(TiledAccessTest, OneNestOnly) {
  // Two results of different dimensions: two nests, whose innermost
  // dimensions may differ; the choice is made for one nest.
  KernelSignature kernel =
      makeSignature("two", {tensorParam("x", {"m", "n"})},
                    {{DType::F32, {"m", "n"}}, {DType::F32, {"n"}}});
  TensorArg xT = transposed(77, 100), out = tensor({100, 77}),
            row = tensor({77});
  EXPECT_TRUE(choose(kernel, {&xT}, {&out, &row}).tensors.empty());
}

} // namespace
