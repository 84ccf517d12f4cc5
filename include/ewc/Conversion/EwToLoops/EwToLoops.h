//===- EwToLoops.h - ew kernels to CPU loops --------------------*- C++ -*-===//
//
// Lowers ew.kernel to a func.func with the kernel ABI (KernelABI.h) and
// scf.for loop nests over its dimensions, for the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOLOOPS_EWTOLOOPS_H
#define EWC_CONVERSION_EWTOLOOPS_EWTOLOOPS_H

#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {

#define GEN_PASS_DECL_CONVERTEWTOLOOPS
#define GEN_PASS_DECL_EWCPUBF16ASI16
#define GEN_PASS_DECL_EWCPUMATHTOLIBM
#define GEN_PASS_DECL_EWCPUEXPANDMINMAX
#include "ewc/Conversion/Passes.h.inc"

/// Populates the patterns of convert-ew-to-loops: those of EwToArith, which
/// turn each ew.kernel into its element function. The pass then builds the
/// ABI function's loop nests around the element code (KernelABI.h).
void populateEwToLoopsPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOLOOPS_EWTOLOOPS_H
