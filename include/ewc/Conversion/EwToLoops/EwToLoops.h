//===- EwToLoops.h - ew kernels to CPU loops --------------------*- C++ -*-===//
//
// Lowers ew.kernel to a func.func with the plain ABI (KernelABI.h) and an
// scf.for loop over the elements, for the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOLOOPS_EWTOLOOPS_H
#define EWC_CONVERSION_EWTOLOOPS_EWTOLOOPS_H

#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {

#define GEN_PASS_DECL_CONVERTEWTOLOOPS
#include "ewc/Conversion/Passes.h.inc"

/// Populates the patterns that turn each ew.kernel into a func.func looping
/// over the elements and its body into element code.
void populateEwToLoopsPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOLOOPS_EWTOLOOPS_H
