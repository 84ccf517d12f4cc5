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

namespace mlir {
namespace ew {

/// The ew tensor type of length n with element type `elementType`.
RankedTensorType getTensorType(Type elementType);

/// The element type of an ew value type: T for both `tensor<?xT>` and T.
Type getElementType(Type type);

/// True for a ranked tensor type (an ew value type is then `tensor<?xT>`),
/// false for a scalar.
bool isTensor(Type type);

/// True for the ew element types: i1, i32, i64, f16, bf16, f32, f64.
bool isElementType(Type type);

/// True for an ew value type: an element type T or `tensor<?xT>`.
bool isValueType(Type type);

/// The result type of an elementwise op with operands of types `operands`:
/// `tensor<?xE>` if any operand is a tensor, else the scalar E, for
/// `elementType` E.
Type getBroadcastType(TypeRange operands, Type elementType);

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
