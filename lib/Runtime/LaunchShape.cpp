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

#include <algorithm>

using namespace ewc;

ElementwiseLaunchShape
ewc::computeElementwiseLaunchShape(uint64_t numElements,
                                   unsigned multiprocessorCount,
                                   unsigned maxThreadsPerMultiprocessor) {
  // Blocks that cover every element once; fewer would also be correct.
  // Rounded up without the usual (n + 255) / 256, which wraps near 2^64.
  uint64_t coveringBlocks = numElements / kElementwiseBlockSize +
                            (numElements % kElementwiseBlockSize != 0);
  // At least one resident block per SM, even on a device that reports fewer
  // threads per SM than one block holds.
  uint64_t residentBlocksPerSM = std::max<uint64_t>(
      1, maxThreadsPerMultiprocessor / kElementwiseBlockSize);
  // At least one SM, so that a device reporting 0 still gets a grid.
  uint64_t maxBlocks = std::max<uint64_t>(1, multiprocessorCount) *
                       residentBlocksPerSM * kElementwiseWaves;
  // An H200 (132 SMs) gets 132 * 8 * 4 = 4224 blocks; the clamp to gridDim.x's
  // limit of 2^31 - 1 only guards against absurd attribute values.
  maxBlocks = std::min<uint64_t>(maxBlocks, 0x7fffffff);
  return {static_cast<uint32_t>(std::min(coveringBlocks, maxBlocks)),
          kElementwiseBlockSize};
}
