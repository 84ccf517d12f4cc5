//===- LaunchShape.h - Launch shape of elementwise kernels ------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The launch shape of ewc's GPU kernels, one rule per schedule of the launch
// descriptor (#ew.launch): for `elementwise`, from the element count and the
// device's size; for `tiled`, the tiles. It lives apart from the CUDA code so
// that it can be tested, and quoted in the docs, on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_LAUNCHSHAPE_H
#define EWC_RUNTIME_LAUNCHSHAPE_H

#include <cstdint>
#include <optional>

namespace ewc {

/// Threads per block: 4 warps. Measured on the H200, 2026-11-30, LeakyReLU at
/// n = 2^28 (docs/performance.md, run 2): 128-thread blocks reached 100.9% of
/// the copy (f32 and bf16, one vector per thread) against 99.6% / 99.5% with
/// 256, and 99.7% / 100.2% against 97.1% / 97.7% with two vectors per
/// thread. Smaller blocks finish and are replaced more evenly (16 resident
/// per SM instead of 8), which torch's (128) and Triton's (4 warps) elementwise
/// kernels also use. The kernels read blockDim, so any size is correct.
constexpr unsigned kElementwiseBlockSize = 128;

/// The grid's cap, in waves of resident blocks (SMs x blocks per SM); 0 means
/// no cap: one block per 256 x elementsPerThread elements, so that each
/// thread runs its loop once and the hardware's block scheduler, not a fixed
/// grid-stride share, balances the work across SMs. A fixed grid-stride share
/// loses when residency is not what the cap assumed (a kernel with more
/// registers fits fewer blocks per SM, and the last wave then runs alone).
/// Measured on the H200, 2026-11-30, f32 and bf16 LeakyReLU at n = 2^28 (4
/// vectors per thread, blocks of 256; docs/performance.md, run 1): caps of
/// 1, 2, 4 and 16 waves reached 88.9%, 91.1%, 91.7% and 94.1% of the copy in
/// f32 (86.4% ... 95.5% in bf16), no cap 96.4% (96.5%).
constexpr unsigned kElementwiseWaves = 0;

/// A one-dimensional launch: `gridSize` blocks of `blockSize` threads.
struct LaunchShape {
  uint32_t gridSize;
  uint32_t blockSize;
};

/// Computes the launch of a grid-stride kernel over `numElements` elements of
/// which each thread handles `elementsPerThread` per loop iteration (the
/// kernel's vector group, EwToGPU.h), on a device with
/// `multiprocessorCount` SMs of `maxThreadsPerMultiprocessor` resident threads
/// each. The kernels loop with a grid stride, so every grid size is correct;
/// this one is
///   min(ceil(n / (128 * elementsPerThread)),
///       SMs * (maxThreadsPerSM / 128) * waves)       (no cap if waves is 0)
/// blocks of 128 threads, and at most 2^31 - 1. Returns a grid of 0 blocks
/// when `numElements` is 0: the caller launches nothing then.
/// `blockSize` replaces the 256 (for measuring it; the kernels read
/// blockDim, so any size is correct).
LaunchShape
computeElementwiseLaunchShape(uint64_t numElements, unsigned elementsPerThread,
                              unsigned multiprocessorCount,
                              unsigned maxThreadsPerMultiprocessor,
                              unsigned waves = kElementwiseWaves,
                              unsigned blockSize = kElementwiseBlockSize);

/// The launch of a kernel of the tiled schedule (ewc/ABI/TiledAccess.h):
/// one block of `blockSize` threads (the kernel's, which it requires) per
/// tile, at most 2^31 - 1 (the loop over the tiles has a grid stride), none
/// for no tile.
LaunchShape computeTiledLaunchShape(uint64_t tiles, unsigned blockSize);

/// The launch of a kernel of the rows schedule (ewc/ABI/RowAccess.h): blocks
/// of `blockSize` threads (the kernel's, which it requires), a block per
/// point of its largest nest (`points`: at least its rows, which the runtime
/// does not know, nor the teams' size, which the kernel picks by the row's
/// length, up to the block), at most kRowsWaves waves of resident blocks:
/// the teams loop over the rows with a grid stride; `blocksPerSM`, when
/// given, caps the grid at that many blocks per multiprocessor instead (a
/// knob for measuring how many rows in flight the L2 holds). None for no
/// point.
LaunchShape
computeRowsLaunchShape(uint64_t points, unsigned blockSize,
                       unsigned multiprocessorCount,
                       unsigned maxThreadsPerMultiprocessor,
                       std::optional<unsigned> blocksPerSM = std::nullopt);

/// The launch of a kernel of the columns schedule (ewc/ABI/ColumnAccess.h):
/// blocks of `blockSize` threads (the kernel's, which it requires), `splits`
/// (chooseColumnSplits) per tile of the `keys` points of its nest, at most
/// 2^31 - 1 (the loop over the tiles has a grid stride, and the kernel
/// derives the splits from the grid). None for no key.
LaunchShape computeColumnsLaunchShape(uint64_t keys, uint64_t splits,
                                      unsigned blockSize);

/// The launch of a rows kernel whose scans are split into tiles
/// (ewc/ABI/ScanAccess.h): blocks of `blockSize` threads (the variant's),
/// `splits` tiles per row of `rowLength` elements (at least as many as a
/// row needs: getScanMinSplits) for `rows` rows, a block each, at most
/// 2^31 - 1 (the blocks draw the tiles until none is left, so any grid is
/// correct; the kernel derives the splits from it: getScanSplits). None
/// for no element.
LaunchShape computeScanLaunchShape(uint64_t rows, uint64_t rowLength,
                                   uint64_t splits, unsigned blockSize);

} // namespace ewc

#endif // EWC_RUNTIME_LAUNCHSHAPE_H
