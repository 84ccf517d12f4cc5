//===- LaunchShapeTest.cpp - Grid and block of elementwise kernels --------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// computeElementwiseLaunchShape on the H200's numbers (132 SMs, 2048 threads
// each) and at the edges: no elements, one more than a block covers, the cap
// in waves, and counts past gridDim.x's limit; the tiled and rows rules.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/LaunchShape.h"
#include "ewc/ABI/RowAccess.h"

#include <gtest/gtest.h>

using namespace ewc;

namespace {

constexpr unsigned kSMs = 132, kThreads = 2048;

TEST(LaunchShape, NoElementsNoBlocks) {
  EXPECT_EQ(computeElementwiseLaunchShape(0, 16, kSMs, kThreads).gridSize, 0u);
}

TEST(LaunchShape, OneBlockPerIterationOfEveryThread) {
  // 128 threads x 16 elements per block.
  EXPECT_EQ(computeElementwiseLaunchShape(1, 16, kSMs, kThreads, 0).gridSize,
            1u);
  EXPECT_EQ(computeElementwiseLaunchShape(2048, 16, kSMs, kThreads, 0).gridSize,
            1u);
  EXPECT_EQ(computeElementwiseLaunchShape(2049, 16, kSMs, kThreads, 0).gridSize,
            2u);
  // f32 LeakyReLU at 2^28: 4 elements per thread.
  EXPECT_EQ(
      computeElementwiseLaunchShape(uint64_t(1) << 28, 4, kSMs, kThreads, 0)
          .gridSize,
      524288u);
  EXPECT_EQ(computeElementwiseLaunchShape(1000, 16, kSMs, kThreads).blockSize,
            kElementwiseBlockSize);
}

TEST(LaunchShape, ZeroElementsPerThreadCountsAsOne) {
  EXPECT_EQ(computeElementwiseLaunchShape(129, 0, kSMs, kThreads, 0).gridSize,
            2u);
}

TEST(LaunchShape, CapInWaves) {
  // 132 SMs x 16 resident blocks of 128 x 4 waves.
  EXPECT_EQ(
      computeElementwiseLaunchShape(uint64_t(1) << 28, 16, kSMs, kThreads, 4)
          .gridSize,
      132u * 16 * 4);
  // A device reporting nothing still gets one block.
  EXPECT_EQ(
      computeElementwiseLaunchShape(uint64_t(1) << 28, 16, 0, 0, 1).gridSize,
      1u);
}

TEST(LaunchShape, BlockSize) {
  // 256 threads x 8 elements per block.
  LaunchShape shape =
      computeElementwiseLaunchShape(2049, 8, kSMs, kThreads, 0, 256);
  EXPECT_EQ(shape.blockSize, 256u);
  EXPECT_EQ(shape.gridSize, 2u);
  // The cap counts resident blocks of that size: 2048 / 256 = 8 per SM.
  EXPECT_EQ(computeElementwiseLaunchShape(uint64_t(1) << 28, 8, kSMs, kThreads,
                                          1, 256)
                .gridSize,
            132u * 8);
}

TEST(LaunchShape, GridDimLimit) {
  // Each thread then loops; the grid never exceeds gridDim.x's 2^31 - 1, and
  // n near 2^64 does not wrap.
  EXPECT_EQ(computeElementwiseLaunchShape(~uint64_t(0), 1, kSMs, kThreads, 0)
                .gridSize,
            0x7fffffffu);
}

TEST(LaunchShape, TiledIsOneBlockPerTile) {
  // The tiled schedule: one block of the kernel's threads per tile, no cap
  // but gridDim.x's (its loop over the tiles has a grid stride), none for
  // no tile.
  LaunchShape shape = computeTiledLaunchShape(24 * 32, 256);
  EXPECT_EQ(shape.gridSize, 768u);
  EXPECT_EQ(shape.blockSize, 256u);
  EXPECT_EQ(computeTiledLaunchShape(0, 256).gridSize, 0u);
  EXPECT_EQ(computeTiledLaunchShape(uint64_t(1) << 40, 256).gridSize,
            0x7fffffffu);
}

TEST(LaunchShape, RowsIsABlockPerPointUpToFourWaves) {
  // The rows schedule (RowAccess.h): a block per point of the largest nest
  // (a team may be the whole block), at most 4 waves of resident blocks
  // (2048 / 512 = 4 per SM), none for no point.
  EXPECT_EQ(computeRowsLaunchShape(0, 512, kSMs, kThreads).gridSize, 0u);
  EXPECT_EQ(computeRowsLaunchShape(1, 512, kSMs, kThreads).gridSize, 1u);
  LaunchShape shape = computeRowsLaunchShape(256, 512, kSMs, kThreads);
  EXPECT_EQ(shape.gridSize, 256u);
  EXPECT_EQ(shape.blockSize, 512u);
  EXPECT_EQ(computeRowsLaunchShape(5000, 512, kSMs, kThreads).gridSize,
            132u * 4 * 4);
  EXPECT_EQ(
      computeRowsLaunchShape(uint64_t(1) << 28, 512, kSMs, kThreads).gridSize,
      132u * 4 * 4);
  // Blocks of 128 (another kernel's): 16 blocks an SM.
  EXPECT_EQ(
      computeRowsLaunchShape(uint64_t(1) << 28, 128, kSMs, kThreads).gridSize,
      132u * 16 * 4);
  // A block smaller than a warp is one warp: a team needs all its lanes.
  EXPECT_EQ(computeRowsLaunchShape(8, 1, kSMs, kThreads).blockSize, 32u);
}

TEST(LaunchShape, RowsBlockByTheLongestRow) {
  // RowAccess.h's rule, measured on the H200: 128 up to rows of 4096, 256
  // up to 16384, 512 beyond.
  EXPECT_EQ(getRowsBlockSize(0), 128u);
  EXPECT_EQ(getRowsBlockSize(1000), 128u);
  EXPECT_EQ(getRowsBlockSize(4096), 128u);
  EXPECT_EQ(getRowsBlockSize(4097), 256u);
  EXPECT_EQ(getRowsBlockSize(16384), 256u);
  EXPECT_EQ(getRowsBlockSize(16385), 512u);
  EXPECT_EQ(getRowsBlockSize(~0ull), 512u);
  static_assert(getRowsBlockSize(1) == kRowsBlockSize);
  static_assert(getRowsBlockSize(1ull << 20) == kRowsMaxBlockSize);
}

} // namespace
