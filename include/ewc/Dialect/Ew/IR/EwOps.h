//===- EwOps.h - ew dialect operations --------------------------*- C++ -*-===//
//
// Declares the ops of the ew dialect (generated from EwOps.td) and the small
// type helpers that the ops, the front end and the lowerings share.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DIALECT_EW_IR_EWOPS_H
#define EWC_DIALECT_EW_IR_EWOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "ewc/Dialect/Ew/IR/EwEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ewc/Dialect/Ew/IR/EwOpsTypes.h.inc"
#define GET_ATTRDEF_CLASSES
#include "ewc/Dialect/Ew/IR/EwAttrDefs.h.inc"

namespace mlir {
namespace ew {

/// The element type of an ew value type: T for both !ew.tensor<[...], T>
/// (NamedTensorType) and T.
Type getElementType(Type type);

/// True for an ew tensor type, false for a scalar.
bool isTensor(Type type);

/// The dimension names of an ew tensor type, none for a scalar.
ArrayRef<StringAttr> getDims(Type type);

/// True for the ew element types: i1, i32, i64, f16, bf16, f32, f64.
bool isElementType(Type type);

/// True for an ew value type: an element type T or !ew.tensor<[...], T>.
bool isValueType(Type type);

/// The result type of an elementwise op with operands of types `operands`:
/// a tensor of `elementType` over the first tensor operand's dimensions (all
/// of them have those, SameTensorDims), else the scalar `elementType`.
Type getBroadcastType(TypeRange operands, Type elementType);

/// Verifies that the tensor operands and results of `op` have one list of
/// dimensions (SameTensorDims).
LogicalResult verifySameTensorDims(Operation *op);

/// The trait of the elementwise ops: every tensor operand and result has the
/// same dimensions, in the same order; broadcasting is ew.broadcast's.
template <typename ConcreteType>
class SameTensorDims : public OpTrait::TraitBase<ConcreteType, SameTensorDims> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifySameTensorDims(op);
  }
};

/// True if converting every value of element type `from` to element type `to`
/// (as ew.cast does) loses nothing, so that a later conversion from `to`
/// gives what a direct conversion from `from` would: f32 -> f64, i32 -> f64,
/// i1 -> anything, but not f32 -> i32 or f16 -> bf16.
bool isExactConversion(Type from, Type to);

} // namespace ew
} // namespace mlir

#define GET_OP_CLASSES
#include "ewc/Dialect/Ew/IR/EwOps.h.inc"

#endif // EWC_DIALECT_EW_IR_EWOPS_H
