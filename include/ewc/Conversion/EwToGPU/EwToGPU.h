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

/// convert-ew-to-gpu's vectors-per-thread when not given: 0, which lets each
/// kernel's element code choose (vectorizeElementLoop,
/// kVectorsPerThreadByCost).
constexpr unsigned kDefaultVectorsPerThread = 0;

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
