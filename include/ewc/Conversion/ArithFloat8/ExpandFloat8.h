//===- ExpandFloat8.h - f8 conversions as code targets have -----*- C++ -*-===//
//
// LLVM has no 8-bit float type: the LLVM type converter stores f8E4M3FN and
// f8E5M2 as i8, but arith.extf and arith.truncf to or from them have no
// lowering. ew-expand-float8 rewrites them into integer code (every target)
// or into the NVVM conversions of sm_89 and later, both with torch's
// semantics (docs/language.md, "8-bit floats").
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_ARITHFLOAT8_EXPANDFLOAT8_H
#define EWC_CONVERSION_ARITHFLOAT8_EXPANDFLOAT8_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace ew {

#define GEN_PASS_DECL_EWEXPANDFLOAT8
#include "ewc/Conversion/Passes.h.inc"

/// The patterns of ew-expand-float8: arith.extf from and arith.truncf to
/// f8E4M3FN or f8E5M2 (f32 on the other side), as integer code, or where
/// `hardware`, as NVVM's cvt for sm_89 and later with the selects that make
/// its saturating conversions torch's.
void populateExpandFloat8Patterns(RewritePatternSet &patterns, bool hardware);

/// True for f8E4M3FN and f8E5M2, the 8-bit floats of the language.
bool isFloat8(Type type);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_ARITHFLOAT8_EXPANDFLOAT8_H
