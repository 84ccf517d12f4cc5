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
/// Measured on the H200, 2026-11-30 (docs/performance.md, "vectors per
/// thread"): see the sweep there for the reason of this value.
constexpr unsigned kDefaultVectorsPerThread = 2;

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
