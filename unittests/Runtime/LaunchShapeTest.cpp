//===- LaunchShapeTest.cpp - Grid and block of elementwise kernels --------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// computeElementwiseLaunchShape on the H200's numbers (132 SMs, 2048 threads
// each) and at the edges: no elements, one more than a block covers, the cap
// in waves, and counts past gridDim.x's limit.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/LaunchShape.h"

#include <gtest/gtest.h>

using namespace ewc;

namespace {

constexpr unsigned kSMs = 132, kThreads = 2048;

TEST(LaunchShape, NoElementsNoBlocks) {
  EXPECT_EQ(computeElementwiseLaunchShape(0, 16, kSMs, kThreads).gridSize, 0u);
}

TEST(LaunchShape, OneBlockPerIterationOfEveryThread) {
  // 256 threads x 16 elements per block.
  EXPECT_EQ(computeElementwiseLaunchShape(1, 16, kSMs, kThreads, 0).gridSize,
            1u);
  EXPECT_EQ(
      computeElementwiseLaunchShape(4096, 16, kSMs, kThreads, 0).gridSize, 1u);
  EXPECT_EQ(
      computeElementwiseLaunchShape(4097, 16, kSMs, kThreads, 0).gridSize, 2u);
  EXPECT_EQ(computeElementwiseLaunchShape(uint64_t(1) << 28, 16, kSMs,
                                          kThreads, 0)
                .gridSize,
            65536u);
  EXPECT_EQ(computeElementwiseLaunchShape(1000, 16, kSMs, kThreads).blockSize,
            kElementwiseBlockSize);
}

TEST(LaunchShape, ZeroElementsPerThreadCountsAsOne) {
  EXPECT_EQ(computeElementwiseLaunchShape(257, 0, kSMs, kThreads, 0).gridSize,
            2u);
}

TEST(LaunchShape, CapInWaves) {
  // 132 SMs x 8 resident blocks x 4 waves.
  EXPECT_EQ(computeElementwiseLaunchShape(uint64_t(1) << 28, 16, kSMs,
                                          kThreads, 4)
                .gridSize,
            132u * 8 * 4);
  // A device reporting nothing still gets one block.
  EXPECT_EQ(computeElementwiseLaunchShape(uint64_t(1) << 28, 16, 0, 0, 1)
                .gridSize,
            1u);
}

TEST(LaunchShape, BlockSize) {
  // 128 threads x 8 elements per block.
  ElementwiseLaunchShape shape =
      computeElementwiseLaunchShape(1025, 8, kSMs, kThreads, 0, 128);
  EXPECT_EQ(shape.blockSize, 128u);
  EXPECT_EQ(shape.gridSize, 2u);
  // The cap counts resident blocks of that size: 2048 / 128 = 16 per SM.
  EXPECT_EQ(computeElementwiseLaunchShape(uint64_t(1) << 28, 8, kSMs, kThreads,
                                          1, 128)
                .gridSize,
            132u * 16);
}

TEST(LaunchShape, GridDimLimit) {
  // Each thread then loops; the grid never exceeds gridDim.x's 2^31 - 1, and
  // n near 2^64 does not wrap.
  EXPECT_EQ(
      computeElementwiseLaunchShape(~uint64_t(0), 1, kSMs, kThreads, 0)
          .gridSize,
      0x7fffffffu);
}

} // namespace
