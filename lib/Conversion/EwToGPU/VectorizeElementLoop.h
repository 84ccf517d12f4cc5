//===- VectorizeElementLoop.h - Vector accesses for GPU kernels -*- C++ -*-===//
//
// Private to lib/Conversion/EwToGPU: the second half of convert-ew-to-gpu,
// which turns the scalar grid-stride element loop of a lowered kernel into a
// loop of 16-byte vector loads and stores with a scalar prologue and tail.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_CONVERSION_EWTOGPU_VECTORIZEELEMENTLOOP_H
#define EWC_LIB_CONVERSION_EWTOGPU_VECTORIZEELEMENTLOOP_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace ew {

/// Bytes of one vector access: the widest global load and store a thread can
/// issue on NVIDIA GPUs (ld.global.v4.b32), and what the copy engine moves.
constexpr unsigned kVectorBytes = 16;

/// Rewrites the element loop of `func` (the scalar grid-stride scf.for that
/// KernelToGPUFunc built, already converted to arith and llvm ops):
///
///   prologue  elements [0, peel) one by one, where peel (< 16 bytes' worth
///             of the narrowest element) aligns every tensor to 16 bytes, or
///             0 when no common peel aligns them all (then everything runs in
///             the tail);
///   main      whole chunks of blockDim x E elements, one chunk per block and
///             iteration (a grid stride over chunks); each thread loads E
///             elements of every input with 16-byte loads, computes E copies
///             of the element code and stores E elements of every output with
///             16-byte stores, no masks;
///   tail      the original loop from the end of the last whole chunk to n.
///
/// E (elements per thread per iteration) is max(16 / widest output size,
/// V x 16 / widest element size): whole atoms of 16 bytes of the widest
/// output, and V vectors of 16 bytes of the widest tensor. V is
/// vectorsPerThread, or, when that is 0, chosen from the element code
/// (kVectorsPerThreadByCost). Returns E, or 1 after leaving the loop alone
/// when the loop accesses memory in any other way than element i of a
/// kernel argument.
unsigned vectorizeElementLoop(gpu::GPUFuncOp func, unsigned vectorsPerThread);

/// Vectors of the widest tensor per thread and main-loop iteration, by the
/// number of long-latency operations in one element's code (0, 1, 2 or
/// more): IEEE and integer division (a reciprocal, Newton steps and a range
/// check, with a slow path), square roots, and the math functions that
/// become libdevice code. Measured on the H200 (2026-11-30, n = 2^28, f32,
/// blocks of 128; docs/performance.md, "Vectors per thread"):
///
///   none     leaky_relu 100.8 / 99.8 / 97.0 % of the copy with 1 / 2 / 4
///            vectors (relu, clamp, affine chain, bf16, f16 alike): more
///            vectors only cost registers, one is enough in flight;
///   one      hardswish 84.1 / 97.5 / 97.3, hardsigmoid 84.7 / 97.9 / 97.3,
///            gelu (erf) 84.4 / 96.6 / 91.5, quantize 94.8 / 97.3 / 94.1:
///            one division or function per element needs a second vector to
///            hide its latency, and four cost registers again;
///   two+     sigmoid (exp and a division) 79.8 / 93.7 / 99.2, silu 77.8 /
///            93.1 / 99.1, softplus 86.6 / 89.4 / 90.1, mish (three) 66.4 /
///            79.4 / 81.1: four.
///
/// A kernel that reads no tensor (fill) stores at 80.7 / 111.1 / 110.8 %
/// with 1 / 2 / 4: with nothing to wait for, a thread is done at once and
/// the blocks turn over too fast, so it takes at least two.
constexpr unsigned kVectorsPerThreadByCost[] = {1, 2, 4};
constexpr unsigned kVectorsPerThreadStoreOnly = 2;

} // namespace ew
} // namespace mlir

#endif // EWC_LIB_CONVERSION_EWTOGPU_VECTORIZEELEMENTLOOP_H
