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

/// Threads per block: 8 warps, so the 2048 resident threads of an SM (sm_80,
/// sm_90) are filled by 8 blocks, and a block needs no shared memory to tune.
/// Triton's elementwise kernels use 4 warps and torch's 128 threads; both
/// reach the copy rate on the H200 (docs/performance.md), so the block size
/// is not what limits an elementwise kernel there.
constexpr unsigned kElementwiseBlockSize = 256;

/// The grid's cap, in waves of resident blocks (SMs x blocks per SM); 0 means
/// no cap: one block per 256 x elementsPerThread elements, so that each
/// thread runs its loop once and the hardware's block scheduler, not a fixed
/// grid-stride share, balances the work across SMs. A fixed grid-stride share
/// loses when residency is not what the cap assumed (a kernel with more
/// registers fits fewer blocks per SM, and the last wave then runs alone).
/// Measured on the H200, 2026-11-30, f32 and bf16 LeakyReLU at n = 2^28: see
/// docs/performance.md ("grid cap"), which also records the alternatives.
constexpr unsigned kElementwiseWaves = 0;

/// A one-dimensional launch: `gridSize` blocks of `blockSize` threads.
struct ElementwiseLaunchShape {
  uint32_t gridSize;
  uint32_t blockSize;
};

/// Computes the launch of a grid-stride kernel over `numElements` elements of
/// which each thread handles `elementsPerThread` per loop iteration (the
/// kernel's vector group, EwToGPU.h), on a device with
/// `multiprocessorCount` SMs of `maxThreadsPerMultiprocessor` resident threads
/// each. The kernels loop with a grid stride, so every grid size is correct;
/// this one is
///   min(ceil(n / (256 * elementsPerThread)),
///       SMs * (maxThreadsPerSM / 256) * waves)       (no cap if waves is 0)
/// blocks of 256 threads, and at most 2^31 - 1. Returns a grid of 0 blocks
/// when `numElements` is 0: the caller launches nothing then.
/// `blockSize` replaces the 256 (for measuring it; the kernels read
/// blockDim, so any size is correct).
ElementwiseLaunchShape
computeElementwiseLaunchShape(uint64_t numElements, unsigned elementsPerThread,
                              unsigned multiprocessorCount,
                              unsigned maxThreadsPerMultiprocessor,
                              unsigned waves = kElementwiseWaves,
                              unsigned blockSize = kElementwiseBlockSize);

} // namespace ewc

#endif // EWC_RUNTIME_LAUNCHSHAPE_H
