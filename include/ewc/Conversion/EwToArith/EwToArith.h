//===- EwToArith.h - ew ops to arith ops on elements ------------*- C++ -*-===//
//
// The element-level half of every ew lowering. Inside the element loop that
// the GPU and CPU lowerings build, an ew tensor value stands for its element
// at the loop's index, so each ew op becomes arith (or math) ops on one
// element and ew.return becomes stores at that index. The structural half
// (function, ABI, loop) lives in EwToGPU and EwToLoops; KernelABI.h is shared
// by both.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOARITH_EWTOARITH_H
#define EWC_CONVERSION_EWTOARITH_EWTOARITH_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {

/// Converts ew value types to the type of one element: `tensor<?xT>` to T,
/// scalars to themselves.
class ElementTypeConverter : public TypeConverter {
public:
  ElementTypeConverter();
};

/// Populates the patterns that lower ew.constant, the arithmetic, logic,
/// comparison and selection ops and ew.cast to arith, the math functions to
/// math ops (sqrt to llvm.sqrt), all on one element with f16/bf16 computed in
/// f32, and ew.return to stores of each result element.
///
/// ew.return must sit in the element loop: an `scf.for` whose induction
/// variable is the element index, directly in a function with the kernel ABI
/// of KernelABI.h (the results' pointers precede the trailing n).
void populateEwToArithPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOARITH_EWTOARITH_H
