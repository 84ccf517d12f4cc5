//===- EwToArith.h - ew ops to arith ops on elements ------------*- C++ -*-===//
//
// The element-level half of every ew lowering: a kernel's body becomes its
// element function, in which an ew tensor value stands for its element at
// one point of the kernel's dimensions, so each ew op becomes arith (or
// math) ops on one element. The structural half (function, ABI, loops)
// lives in EwToGPU and EwToLoops; KernelABI.h, the ABI and the access layer
// that inlines the element function at the points of a loop nest, is shared
// by both.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOARITH_EWTOARITH_H
#define EWC_CONVERSION_EWTOARITH_EWTOARITH_H

#include "mlir/Transforms/DialectConversion.h"

#include <string>

namespace mlir {
namespace ew {

class KernelOp;

/// Converts ew value types to the type arith computes one element in:
/// !ew.tensor<[...], T> to T, scalars to themselves, unsigned integers to
/// the signless ones of their width (getSignlessType).
class ElementTypeConverter : public TypeConverter {
public:
  ElementTypeConverter();
};

/// The attribute of an element function: the kernel's named dimensions (an
/// array of strings, the batch excluded), whose coordinates and then extents
/// (index values) are its arguments after the parameters.
constexpr llvm::StringLiteral kElementDimsAttrName = "ew.element_dims";

/// The symbol of the element function of `kernel`: `ew$NAME$element`.
std::string getElementFunctionName(KernelOp kernel);

/// Populates the patterns that lower an ew.kernel to its element function, a
/// private func.func of one point of the kernel's dimensions:
///
///   func.func private @ew$k$element(param elements..., coordinates...,
///                                    extents...) -> (result elements...)
///
/// (tensors as their element types, scalars as themselves, each named
/// dimension's coordinate and extent an index) and every op of its body to
/// arith (or math) ops on one element, with f16/bf16 computed in f32 and
/// sqrt as llvm.sqrt: an ew.broadcast is its operand's element, ew.index its
/// dimension's coordinate, ew.size its extent, ew.return func.return. The
/// lowerings inline the element function at every point of their loop nests
/// (KernelABI.h, emitElement).
void populateEwToArithPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);

/// Marks the element forms of ew.reduce and ew.scan (an element operand, a
/// combiner of arith code, ew.yield) legal: they stay in the element
/// function for the access layer to expand (KernelABI.h, emitElement). Each
/// pass that uses the patterns above calls it on its target.
void addElementFormLegality(ConversionTarget &target);

/// True when `op` (a kernel or an element function) holds a reduction or a
/// scan.
bool hasCombines(Operation *op);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOARITH_EWTOARITH_H
