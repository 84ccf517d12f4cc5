//===- VectorizeGPULoops.h - The layouts of GPU loop nests ------*- C++ -*-===//
//
// ew-vectorize-gpu-loops: realizes the #ew.blocked layout of the grid-stride
// loops that convert-ew-to-gpu builds, with 16-byte vector accesses along the
// innermost dimension (Passes.td describes the result). This header holds
// the pass's declaration and the measured numbers its choices rest on.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOGPU_VECTORIZEGPULOOPS_H
#define EWC_CONVERSION_EWTOGPU_VECTORIZEGPULOOPS_H

#include "ewc/ABI/VectorAccess.h"
#include "ewc/Conversion/EwToGPU/EwToGPU.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace ew {

/// ew-vectorize-gpu-loops's vectors-per-thread when not given: 0, which lets
/// each loop's element code choose (kVectorsPerThreadByCost).
constexpr unsigned kDefaultVectorsPerThread = 0;

#define GEN_PASS_DECL_EWVECTORIZEGPULOOPS
#include "ewc/Conversion/Passes.h.inc"

/// Vectors of the widest vectorized tensor per thread and main-loop step, by
/// the number of long-latency operations in one point's code (0, 1, 2 or
/// more): IEEE and integer division (a reciprocal, Newton steps and a range
/// check, with a slow path), square roots, and the math functions that
/// become libdevice code. Measured on the H200 (2026-11-30, n = 2^28, f32,
/// blocks of 128, 1-D contiguous tensors; docs/performance.md, "Vectors per
/// thread"):
///
///   none     leaky_relu 100.8 / 99.8 / 97.0 % of the copy with 1 / 2 / 4
///            vectors (relu, clamp, affine chain, bf16, f16 alike): more
///            vectors only cost registers, one is enough in flight;
///   one      hardswish 84.1 / 97.5 / 97.3, hardsigmoid 84.7 / 97.9 / 97.3,
///            gelu (erf) 84.4 / 96.6 / 91.5, quantize 94.8 / 97.3 / 94.1:
///            one division or function per point needs a second vector to
///            hide its latency, and four cost registers again;
///   two+     sigmoid (exp and a division) 79.8 / 93.7 / 99.2, silu 77.8 /
///            93.1 / 99.1, softplus 86.6 / 89.4 / 90.1, mish (three) 66.4 /
///            79.4 / 81.1: four.
///
/// The same counts serve the unrolled scalar loop of misaligned tensors
/// (atom 1, atoms E, with the same E), which has more accesses in flight per
/// thread, not fewer; it has not been measured on its own.
constexpr unsigned kVectorsPerThreadByCost[] = {1, 2, 4};

/// Points a thread computes in a nest with random numbers (rand, randn,
/// randint), in whole vectors of its widest tensor and at most the table's
/// last count: Philox's rounds make such a nest compute-bound. Measured on an
/// H100 (kernels/dropout.ew over 2^28 points, 2026-12-05): f32 at 1 / 2 / 4 /
/// 8 vectors (4 / 8 / 16 / 32 points) 65.6 / 73.1 / 77.7 / 77.2% of the copy;
/// bf16 at 2 vectors (16 points) 0.97x Triton's tutorial kernel, at 4 (32
/// points) 0.90x.
constexpr unsigned kPointsPerThreadRandom = 16;

/// A nest of several dimensions counts as one more long-latency operation
/// (two with 2-byte or narrower vectorized tensors): its rows version finds
/// each thread's coordinates by a division and reads the tensors without
/// the innermost dimension beside the vectors, which lengthens every
/// thread's chain before its stores. Measured on the H200 (2026-12-02,
/// ewc-run --bench, 2^18 x 1024, contiguous; docs/performance.md), with 1 /
/// 2 / 4 vectors per thread: bias_add f32 90.9 / 100.4 / 100.1 % of the
/// copy, bf16 87.8 / 90.2 / 98.4, bias_gelu (tanh) 73.5 / 82.1 / 85.7;
/// one-dimensional LeakyReLU 100.5 / 99.6 / 96.7 (bf16 99.9 / 99.8 / 97.5).

/// A kernel that reads nothing from DRAM in proportion to its points is
/// bound by its stores: it reads no tensor (a fill), or only tensors that
/// lack some dimension of the nest, which are read again along it from L1
/// or L2 (an outer sum `a[m] + b[n]`). Its threads have little to wait for
/// and the blocks turn over too fast: it takes at least four vectors.
/// Measured on the H200 with ewc-run --bench, 2^28 points, 1 / 2 / 4 / 8
/// vectors per thread (2026-12-02, bench/probes/sweep.sh, docs/gpu-runs.md):
/// the outer sum f32 at n = 768 60.7 / 85.0 / 107.6 / 107.0 % of the copy,
/// at n = 65536 61.2 / 84.0 / 103.1 / 103.7; bf16 56.6 / 77.6 / 99.7 /
/// 102.0 and 56.8 / 77.4 / 101.7 / 104.8; and earlier (2026-11-30) a fill
/// at 80.7 / 111.1 / 110.8 % with 1 / 2 / 4.
constexpr unsigned kVectorsPerThreadStoreOnly = 4;

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOGPU_VECTORIZEGPULOOPS_H
