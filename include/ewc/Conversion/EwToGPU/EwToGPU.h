//===- EwToGPU.h - ew kernels to GPU kernels --------------------*- C++ -*-===//
//
// Lowers ew.kernel to gpu.func kernels with the plain ABI (KernelABI.h) and a
// grid-stride loop over the elements.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOGPU_EWTOGPU_H
#define EWC_CONVERSION_EWTOGPU_EWTOGPU_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {

/// 16-byte vectors of the widest element type one thread moves per iteration
/// of the vectorized main loop (convert-ew-to-gpu's vectors-per-thread).
/// One: measured on the H200, 2026-11-30, LeakyReLU at n = 2^28 with blocks
/// of 128 (docs/performance.md, run 2), 1, 2 and 4 vectors reached 100.9%,
/// 99.7% and 96.8% of the copy in f32, and 100.9%, 100.2% and 99.4% in bf16:
/// more vectors per thread only cost registers (28, 30, 39 in f32), and with
/// one block per 128 x E elements the GPU keeps enough loads in flight.
constexpr unsigned kDefaultVectorsPerThread = 1;

#define GEN_PASS_DECL_CONVERTEWTOGPU
#include "ewc/Conversion/Passes.h.inc"

/// The attribute on each lowered gpu.func that tells the runtime how many
/// elements one thread handles per loop iteration (an i64), so that the grid
/// covers n with whole iterations (LaunchShape.h).
constexpr llvm::StringLiteral kElementsPerThreadAttrName =
    "ew.elements_per_thread";

/// Populates the patterns that turn each ew.kernel into a gpu.func kernel in
/// `target` and its body into element code (with populateEwToArithPatterns).
void populateEwToGPUPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns,
                             gpu::GPUModuleOp target);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOGPU_EWTOGPU_H
