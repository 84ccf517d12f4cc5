//===- LaunchShape.cpp - Grid and block size of elementwise kernels -------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The grid of ewc's grid-stride kernels; the reasons for each number are on
// the constants in LaunchShape.h.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/LaunchShape.h"

#include "ewc/ABI/ColumnAccess.h"
#include "ewc/ABI/RowAccess.h"
#include "ewc/ABI/ScanAccess.h"

#include <algorithm>

using namespace ewc;

LaunchShape ewc::computeElementwiseLaunchShape(
    uint64_t numElements, unsigned elementsPerThread,
    unsigned multiprocessorCount, unsigned maxThreadsPerMultiprocessor,
    unsigned waves, unsigned blockSize) {
  blockSize = std::max(1u, blockSize);
  // Blocks that give every thread one loop iteration; fewer would also be
  // correct. Rounded up without the usual (n + b - 1) / b, which wraps near
  // 2^64.
  uint64_t perBlock =
      uint64_t(blockSize) * std::max<uint64_t>(1, elementsPerThread);
  uint64_t coveringBlocks =
      numElements / perBlock + (numElements % perBlock != 0);
  // gridDim.x's limit; past it each thread loops more than once.
  uint64_t maxBlocks = 0x7fffffff;
  if (waves != 0) {
    // At least one resident block per SM, even on a device that reports
    // fewer threads per SM than one block holds, and at least one SM.
    uint64_t residentBlocksPerSM =
        std::max<uint64_t>(1, maxThreadsPerMultiprocessor / blockSize);
    maxBlocks = std::min<uint64_t>(maxBlocks,
                                   std::max<uint64_t>(1, multiprocessorCount) *
                                       residentBlocksPerSM * waves);
  }
  return {static_cast<uint32_t>(std::min(coveringBlocks, maxBlocks)),
          blockSize};
}

LaunchShape ewc::computeTiledLaunchShape(uint64_t tiles, unsigned blockSize) {
  return {static_cast<uint32_t>(std::min<uint64_t>(tiles, 0x7fffffff)),
          blockSize};
}

LaunchShape ewc::computeRowsLaunchShape(uint64_t points, unsigned blockSize,
                                        unsigned multiprocessorCount,
                                        unsigned maxThreadsPerMultiprocessor,
                                        std::optional<unsigned> blocksPerSM) {
  blockSize = std::max(kRowWarpThreads, blockSize);
  // A block per point: a team may be the whole block (a row past 16384
  // elements), and logsumexp's largest nest is its rows. A block whose
  // first row is past the last exits at once.
  uint64_t coveringBlocks = points;
  uint64_t residentBlocksPerSM =
      std::max<uint64_t>(1, maxThreadsPerMultiprocessor / blockSize);
  uint64_t cap = std::max<uint64_t>(1, multiprocessorCount) *
                 (blocksPerSM ? std::max(1u, *blocksPerSM)
                              : residentBlocksPerSM * kRowsWaves);
  return {static_cast<uint32_t>(
              std::min({coveringBlocks, cap, uint64_t(0x7fffffff)})),
          blockSize};
}

LaunchShape ewc::computeColumnsLaunchShape(uint64_t keys, uint64_t splits,
                                           unsigned blockSize) {
  uint64_t tiles = getColumnTiles(keys);
  uint64_t most = uint64_t(0x7fffffff);
  uint64_t grid = splits > 1 && tiles <= most / splits ? tiles * splits
                                                       : std::min(tiles, most);
  return {static_cast<uint32_t>(grid), blockSize};
}

LaunchShape ewc::computeScanLaunchShape(uint64_t rows, uint64_t rowLength,
                                        uint64_t splits, unsigned blockSize) {
  uint64_t least = getScanMinSplits(rowLength, blockSize);
  splits = std::max(splits, least);
  uint64_t most = uint64_t(0x7fffffff);
  uint64_t grid =
      rows && rowLength ? (rows <= most / splits ? rows * splits : most) : 0;
  return {static_cast<uint32_t>(grid), blockSize};
}
