//===- EwOps.cpp - ew dialect operations ----------------------------------===//
//
// Result type inference (which is also the operand check of every elementwise
// op), verifiers for what the types cannot say, scalar constant folding, and
// the custom assembly of ew.kernel.
//
//===----------------------------------------------------------------------===//

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::ew;

#include "ewc/Dialect/Ew/IR/EwEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

RankedTensorType mlir::ew::getTensorType(Type elementType) {
  return RankedTensorType::get({ShapedType::kDynamic}, elementType);
}

Type mlir::ew::getElementType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

bool mlir::ew::isTensor(Type type) { return isa<RankedTensorType>(type); }

bool mlir::ew::isElementType(Type type) {
  return type.isInteger(1) || type.isInteger(32) || type.isInteger(64) ||
         type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

bool mlir::ew::isValueType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return isElementType(type);
  // All tensors of a kernel have its one dynamic length n.
  return tensor.getRank() == 1 && tensor.isDynamicDim(0) &&
         isElementType(tensor.getElementType());
}

/// The broadcast result type of an elementwise op: a tensor of `elementType`
/// if any operand is a tensor, else the scalar `elementType`.
static Type getBroadcastType(TypeRange operands, Type elementType) {
  if (llvm::any_of(operands, isTensor))
    return getTensorType(elementType);
  return elementType;
}

/// Checks that two operands have the same element type; `what` names them.
static LogicalResult verifySameElementType(std::optional<Location> loc,
                                           Type lhs, Type rhs, StringRef what) {
  Type lhsElement = getElementType(lhs), rhsElement = getElementType(rhs);
  if (lhsElement == rhsElement)
    return success();
  return emitOptionalError(loc, what, " must have the same element type, got ",
                           lhsElement, " and ", rhsElement);
}

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

/// Shared inference for add, sub, mul, div: same element types, no i1, and
/// (for div) floating point only.
static LogicalResult inferBinaryArith(std::optional<Location> loc, Value lhs,
                                      Value rhs, bool floatOnly,
                                      SmallVectorImpl<Type> &results) {
  if (failed(
          verifySameElementType(loc, lhs.getType(), rhs.getType(), "operands")))
    return failure();
  Type element = getElementType(lhs.getType());
  if (element.isInteger(1))
    return emitOptionalError(loc, "arithmetic on i1 is not defined");
  if (floatOnly && !isa<FloatType>(element))
    return emitOptionalError(loc, "expects floating-point operands, got ",
                             element);
  results.push_back(getBroadcastType({lhs.getType(), rhs.getType()}, element));
  return success();
}

#define EW_INFER_BINARY(OP, FLOAT_ONLY)                                        \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, Adaptor adaptor,             \
      SmallVectorImpl<Type> &results) {                                        \
    return inferBinaryArith(loc, adaptor.getLhs(), adaptor.getRhs(),           \
                            FLOAT_ONLY, results);                              \
  }
EW_INFER_BINARY(AddOp, false)
EW_INFER_BINARY(SubOp, false)
EW_INFER_BINARY(MulOp, false)
EW_INFER_BINARY(DivOp, true)
#undef EW_INFER_BINARY

/// Folds a binary op whose operands are both scalar constants. Tensor results
/// are never folded: ew.constant holds scalars only.
static OpFoldResult foldScalarBinary(
    Type resultType, ArrayRef<Attribute> operands,
    function_ref<APFloat(const APFloat &, const APFloat &)> onFloat,
    function_ref<APInt(const APInt &, const APInt &)> onInt) {
  if (isTensor(resultType))
    return {};
  if (auto lhs = dyn_cast_or_null<FloatAttr>(operands[0]))
    if (auto rhs = dyn_cast_or_null<FloatAttr>(operands[1]))
      return FloatAttr::get(resultType,
                            onFloat(lhs.getValue(), rhs.getValue()));
  if (!onInt)
    return {};
  if (auto lhs = dyn_cast_or_null<IntegerAttr>(operands[0]))
    if (auto rhs = dyn_cast_or_null<IntegerAttr>(operands[1]))
      return IntegerAttr::get(resultType,
                              onInt(lhs.getValue(), rhs.getValue()));
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldScalarBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a + b; },
      [](const APInt &a, const APInt &b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldScalarBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a - b; },
      [](const APInt &a, const APInt &b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldScalarBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a * b; },
      [](const APInt &a, const APInt &b) { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  return foldScalarBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a / b; }, nullptr);
}

//===----------------------------------------------------------------------===//
// NegOp
//===----------------------------------------------------------------------===//

LogicalResult NegOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  Type type = adaptor.getOperand().getType();
  if (getElementType(type).isInteger(1))
    return emitOptionalError(loc, "arithmetic on i1 is not defined");
  results.push_back(type);
  return success();
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (isTensor(getType()))
    return {};
  if (auto value = dyn_cast_or_null<FloatAttr>(adaptor.getOperand()))
    return FloatAttr::get(getType(), -value.getValue());
  if (auto value = dyn_cast_or_null<IntegerAttr>(adaptor.getOperand()))
    return IntegerAttr::get(getType(), -value.getValue());
  return {};
}

//===----------------------------------------------------------------------===//
// CmpOp
//===----------------------------------------------------------------------===//

LogicalResult CmpOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  Type lhs = adaptor.getLhs().getType(), rhs = adaptor.getRhs().getType();
  if (failed(verifySameElementType(loc, lhs, rhs, "operands")))
    return failure();
  results.push_back(getBroadcastType({lhs, rhs}, IntegerType::get(context, 1)));
  return success();
}

/// Evaluates `predicate` on the result of a three-way comparison.
static bool evaluate(CmpPredicate predicate, bool less, bool equal,
                     bool unordered) {
  switch (predicate) {
  case CmpPredicate::eq:
    return !unordered && equal;
  case CmpPredicate::ne:
    return unordered || !equal;
  case CmpPredicate::lt:
    return !unordered && less;
  case CmpPredicate::le:
    return !unordered && (less || equal);
  case CmpPredicate::gt:
    return !unordered && !less && !equal;
  case CmpPredicate::ge:
    return !unordered && !less;
  }
  llvm_unreachable("unknown ew.cmp predicate");
}

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  if (isTensor(getType()))
    return {};
  Type i1 = getType();
  if (auto lhs = dyn_cast_or_null<FloatAttr>(adaptor.getLhs()))
    if (auto rhs = dyn_cast_or_null<FloatAttr>(adaptor.getRhs())) {
      APFloat::cmpResult r = lhs.getValue().compare(rhs.getValue());
      return IntegerAttr::get(
          i1, evaluate(getPredicate(), r == APFloat::cmpLessThan,
                       r == APFloat::cmpEqual, r == APFloat::cmpUnordered));
    }
  if (auto lhs = dyn_cast_or_null<IntegerAttr>(adaptor.getLhs()))
    if (auto rhs = dyn_cast_or_null<IntegerAttr>(adaptor.getRhs())) {
      const APInt &a = lhs.getValue(), &b = rhs.getValue();
      // i1 is unsigned (false < true); wider integers are signed.
      bool less = a.getBitWidth() == 1 ? a.ult(b) : a.slt(b);
      return IntegerAttr::get(i1,
                              evaluate(getPredicate(), less, a == b, false));
    }
  return {};
}

//===----------------------------------------------------------------------===//
// WhereOp
//===----------------------------------------------------------------------===//

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  Type cond = adaptor.getCondition().getType();
  Type lhs = adaptor.getTrueValue().getType();
  Type rhs = adaptor.getFalseValue().getType();
  if (!getElementType(cond).isInteger(1))
    return emitOptionalError(loc, "condition must have element type i1, got ",
                             getElementType(cond));
  if (failed(verifySameElementType(loc, lhs, rhs, "selected values")))
    return failure();
  results.push_back(getBroadcastType({cond, lhs, rhs}, getElementType(lhs)));
  return success();
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  // A constant condition picks one side; identical sides make the condition
  // irrelevant. Either way the picked value must already have the result
  // type: where(true, scalar, tensor) still broadcasts the scalar.
  Value picked;
  if (getTrueValue() == getFalseValue())
    picked = getTrueValue();
  else if (auto cond = dyn_cast_or_null<IntegerAttr>(adaptor.getCondition()))
    picked = cond.getValue().isOne() ? getTrueValue() : getFalseValue();
  if (picked && picked.getType() == getType())
    return picked;
  return {};
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  if (!isa<FloatAttr, IntegerAttr>(getValue()))
    return emitOpError("value must be a scalar integer or float attribute");
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

TypedAttr KernelOp::getArgDefault(unsigned index) {
  return getArgAttrOfType<TypedAttr>(index, getDefaultAttrName());
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> inputs,
                      ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(inputs, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  FunctionType type = getFunctionType();
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    if (!isValueType(input))
      return emitOpError("parameter ")
             << index << " must be an ew scalar or a tensor<?xT>, got "
             << input;
    Attribute defaultValue = getArgAttr(index, getDefaultAttrName());
    if (!defaultValue)
      continue;
    if (isTensor(input))
      return emitOpError("tensor parameter ")
             << index << " cannot have a default value";
    auto typed = dyn_cast<TypedAttr>(defaultValue);
    if (!typed || typed.getType() != input)
      return emitOpError("default value of parameter ")
             << index << " must be a " << input << " attribute, got "
             << defaultValue;
  }
  if (type.getNumResults() == 0)
    return emitOpError("must return at least one tensor");
  for (auto [index, result] : llvm::enumerate(type.getResults()))
    if (!isTensor(result) || !isValueType(result))
      return emitOpError("result ")
             << index << " must be a tensor<?xT>, got " << result;
  Block &entry = getBody().front();
  if (entry.getArgumentTypes() != type.getInputs())
    return emitOpError("entry block arguments must match the parameter types");
  return success();
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  ArrayRef<Type> expected = kernel.getFunctionType().getResults();
  if (getNumOperands() != expected.size())
    return emitOpError("returns ")
           << getNumOperands() << " values but the kernel has "
           << expected.size() << " results";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), expected)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("result ")
             << index << " has type " << std::get<0>(pair)
             << " but the kernel returns " << std::get<1>(pair);
  return success();
}

#define GET_OP_CLASSES
#include "ewc/Dialect/Ew/IR/EwOps.cpp.inc"
