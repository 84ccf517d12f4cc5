//===- LaunchShape.h - Launch shape of elementwise kernels ------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The launch shape of ewc's GPU kernels, computed from the element count and
// the device's size. It lives apart from the CUDA code so that it can be
// tested, and quoted in the docs, on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_LAUNCHSHAPE_H
#define EWC_RUNTIME_LAUNCHSHAPE_H

#include <cstdint>

namespace ewc {

/// Threads per block: 8 warps, so 2048 resident threads per SM (sm_80/sm_90)
/// are filled by 8 blocks, and a block needs no shared memory to tune.
constexpr unsigned kElementwiseBlockSize = 256;

/// Waves of fully resident blocks the grid may hold: more than one so that a
/// kernel whose register use lowers residency still keeps every SM busy, and
/// few enough that each thread loops over several elements instead of the
/// hardware scheduling millions of short-lived blocks.
constexpr unsigned kElementwiseWaves = 4;

/// A one-dimensional launch: `gridSize` blocks of `blockSize` threads.
struct ElementwiseLaunchShape {
  uint32_t gridSize;
  uint32_t blockSize;
};

/// Computes the launch of a grid-stride kernel over `numElements` elements on
/// a device with `multiprocessorCount` SMs of `maxThreadsPerMultiprocessor`
/// resident threads each. The kernels loop with a grid stride, so every grid
/// size is correct; this one is
///   min(ceil(n / 256), SMs * (maxThreadsPerSM / 256) * 4 waves)
/// blocks of 256 threads. Returns a grid of 0 blocks when `numElements` is 0:
/// the caller launches nothing then.
ElementwiseLaunchShape
computeElementwiseLaunchShape(uint64_t numElements,
                              unsigned multiprocessorCount,
                              unsigned maxThreadsPerMultiprocessor);

} // namespace ewc

#endif // EWC_RUNTIME_LAUNCHSHAPE_H
