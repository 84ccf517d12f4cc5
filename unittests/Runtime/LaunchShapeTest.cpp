//===- LaunchShapeTest.cpp - Grid and block of elementwise kernels --------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// computeElementwiseLaunchShape on the H200's numbers (132 SMs, 2048 threads
// each) and at the edges: no elements, one more than a block covers, the cap
// in waves, and counts past gridDim.x's limit; the tiled, rows and columns
// rules.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/LaunchShape.h"

#include "ewc/ABI/ColumnAccess.h"
#include "ewc/ABI/RowAccess.h"
#include "ewc/ABI/ScanAccess.h"

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
  // --blocks-per-sm caps the grid instead of the waves, never under one.
  EXPECT_EQ(computeRowsLaunchShape(8192, 512, kSMs, kThreads, 1u).gridSize,
            132u);
  EXPECT_EQ(computeRowsLaunchShape(8192, 512, kSMs, kThreads, 0u).gridSize,
            132u);
  EXPECT_EQ(computeRowsLaunchShape(100, 512, kSMs, kThreads, 2u).gridSize,
            100u);
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

TEST(LaunchShape, ColumnSplitsFillTheDevice) {
  // The H200: 132 SMs of 2048 threads, 8 blocks of 256 each, two waves.
  const unsigned sms = 132, threads = 2048;
  // issue 16's column sums: 128 columns of 2^21 rows are 4 tiles, each
  // split 528 ways (2112 blocks); 32768 columns of 8192 rows 1024 tiles,
  // split 3 ways (rows enough for 64 a lane: 8192 / (8 x 64) = 16).
  EXPECT_EQ(getColumnTiles(128), 4u);
  EXPECT_EQ(chooseColumnSplits(128, 1ull << 21, sms, threads), 528u);
  EXPECT_EQ(chooseColumnSplits(32768, 8192, sms, threads), 3u);
  // Few rows: at most one split per 8 x 64 rows, at least one.
  EXPECT_EQ(chooseColumnSplits(33, 5000, sms, threads), 9u);
  EXPECT_EQ(chooseColumnSplits(33, 100, sms, threads), 1u);
  EXPECT_EQ(chooseColumnSplits(33, 0, sms, threads), 1u);
  // Many columns: one split; no column: one.
  EXPECT_EQ(chooseColumnSplits(1ull << 26, 1ull << 20, sms, threads), 1u);
  EXPECT_EQ(chooseColumnSplits(0, 1000, sms, threads), 1u);
  // The grid stays below 2^31 blocks (a device of 4e9 SMs wants more).
  EXPECT_EQ(chooseColumnSplits(32000, 1ull << 62, 4000000000u, threads),
            0x7fffffffull / 1000);
  EXPECT_EQ(chooseColumnSplits(1ull << 40, 1ull << 40, sms, threads), 1u);
}

TEST(LaunchShape, ColumnsGridAndWorkspace) {
  // tiles x splits blocks of 256; the kernel derives the splits back from
  // the grid (max(1, grid / tiles)).
  LaunchShape shape = computeColumnsLaunchShape(1000, 7, kColumnsBlockSize);
  EXPECT_EQ(shape.gridSize, 32u * 7);
  EXPECT_EQ(shape.blockSize, 256u);
  EXPECT_EQ(shape.gridSize / getColumnTiles(1000), 7u);
  EXPECT_EQ(computeColumnsLaunchShape(1000, 1, 256).gridSize, 32u);
  EXPECT_EQ(computeColumnsLaunchShape(0, 5, 256).gridSize, 0u);
  // More tiles than a grid holds: one split, a grid stride over the tiles.
  EXPECT_EQ(computeColumnsLaunchShape(1ull << 40, 1, 256).gridSize,
            0x7fffffffu);
  // A ticket per tile, then a partial per slot, split and key; none for one
  // split.
  EXPECT_EQ(getColumnWorkspaceWords(1000, 1, 3), 0u);
  EXPECT_EQ(getColumnWorkspaceWords(1000, 7, 1), 32u + 7 * 1000);
  EXPECT_EQ(getColumnWorkspaceWords(1000, 7, 2), 32u + 2 * 7 * 1000);
  EXPECT_EQ(getColumnPartialWord(1000, 7, 0, 0, 0), 32u);
  EXPECT_EQ(getColumnPartialWord(1000, 7, 1, 2, 5), 32u + (7 + 2) * 1000 + 5);
  EXPECT_EQ(getColumnPartialWord(1000, 7, 1, 6, 999) + 1,
            getColumnWorkspaceWords(1000, 7, 2));
}

TEST(LaunchShape, ScanSplitsOnlyForFewRows) {
  // The H200 (132 SMs): at most 264 rows are split, in tiles of the
  // block's 16 chunks of 32 a warp (2048 elements for blocks of 128, 8192
  // for 512); more keep a warp per row.
  const unsigned sms = 132, threads = 2048;
  EXPECT_EQ(getScanTileElements(128), 2048u);
  EXPECT_EQ(getScanTileElements(512), 8192u);
  EXPECT_EQ(chooseScanSplits(8448, 1ull << 20, 512, sms, threads), 1u);
  EXPECT_EQ(chooseScanSplits(8192, 32768, 512, sms, threads), 1u);
  EXPECT_EQ(chooseScanSplits(265, 32768, 512, sms, threads), 1u);
  EXPECT_EQ(chooseScanSplits(264, 32768, 512, sms, threads), 4u);
  EXPECT_EQ(chooseScanSplits(1, 1ull << 28, 512, sms, threads), 32768u);
  EXPECT_EQ(chooseScanSplits(256, 1ull << 20, 512, sms, threads), 128u);
  // A row of one tile or less: a warp per row.
  EXPECT_EQ(chooseScanSplits(3, 2048, 128, sms, threads), 1u);
  EXPECT_EQ(chooseScanSplits(3, 2049, 128, sms, threads), 2u);
  EXPECT_EQ(chooseScanSplits(3, 0, 128, sms, threads), 1u);
}

TEST(LaunchShape, ScanGridAndWorkspace) {
  // rows x splits blocks, the splits at least what a row needs; the kernel
  // derives them back from the grid (max(least, grid / rows)).
  LaunchShape shape = computeScanLaunchShape(5, 1000, 7, 128);
  EXPECT_EQ(shape.gridSize, 35u);
  EXPECT_EQ(shape.blockSize, 128u);
  EXPECT_EQ(getScanSplits(5, 1000, 128, shape.gridSize), 7u);
  EXPECT_EQ(computeScanLaunchShape(2, 100000, 2, 512).gridSize, 26u);
  EXPECT_EQ(getScanSplits(2, 100000, 512, 26), 13u);
  // A grid smaller than the tiles: the blocks draw them in turn.
  EXPECT_EQ(getScanSplits(2, 100000, 512, 3), 13u);
  EXPECT_EQ(computeScanLaunchShape(0, 1000, 3, 128).gridSize, 0u);
  EXPECT_EQ(computeScanLaunchShape(4, 0, 3, 128).gridSize, 0u);
  EXPECT_EQ(getScanSplits(4, 0, 128, 12), 0u);
  EXPECT_EQ(computeScanLaunchShape(1ull << 40, 1ull << 20, 2, 512).gridSize,
            0x7fffffffu);
  // The counter, a flag per tile (these zeroed), then an aggregate and a
  // prefix per tile and scan.
  EXPECT_EQ(getScanWorkspaceWords(10, 1), 31u);
  EXPECT_EQ(getScanFlagWord(0), 1u);
  EXPECT_EQ(getScanValueWord(10, 3, 0, 0, false), 11u);
  EXPECT_EQ(getScanValueWord(10, 3, 0, 0, true), 12u);
  EXPECT_EQ(getScanValueWord(10, 3, 1, 2, false), 11u + (3 + 2) * 2);
  EXPECT_EQ(getScanValueWord(10, 3, 9, 2, true) + 1,
            getScanWorkspaceWords(10, 3));
}

} // namespace
