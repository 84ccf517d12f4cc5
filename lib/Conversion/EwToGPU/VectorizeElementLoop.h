//===- VectorizeElementLoop.h - 16-byte accesses for GPU kernels -*- C++ -*-===//
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
/// E (elements per thread per iteration) gives every tensor whole vectors:
/// max(16 / narrowest element size, vectorsPerThread x 16 / widest).
/// Returns E, or 1 after leaving the loop alone when the loop accesses memory in any other way than
/// element i of a kernel argument.
unsigned vectorizeElementLoop(gpu::GPUFuncOp func, unsigned vectorsPerThread);

} // namespace ew
} // namespace mlir

#endif // EWC_LIB_CONVERSION_EWTOGPU_VECTORIZEELEMENTLOOP_H
