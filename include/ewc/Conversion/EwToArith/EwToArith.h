//===- EwToArith.h - ew ops to arith ops on elements ------------*- C++ -*-===//
//
// The element-level half of every ew lowering. Inside the element loop that
// the GPU and CPU lowerings build, an ew tensor value stands for its element
// at the loop's index, so each ew op becomes the arith op on one element and
// ew.return becomes stores at that index. The structural half (function,
// ABI, loop) lives in EwToGPU and EwToLoops; KernelABI.h is shared by both.
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

/// Populates the patterns that lower ew.constant, the arithmetic ops, ew.cmp
/// and ew.where to arith, and ew.return to stores of each result element.
///
/// ew.return must sit in the element loop: an `scf.for` whose induction
/// variable is the element index, directly in a function with the kernel ABI
/// of KernelABI.h (the results' pointers precede the trailing n).
void populateEwToArithPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOARITH_EWTOARITH_H
