//===- EwOps.cpp - ew dialect operations ----------------------------------===//
//
// The folders (scalar constants through CommonFolders.h,
// and the algebraic folds that hold under IEEE rules), the verifiers for what
// the ODS constraints cannot say, and the custom assembly of ew.kernel. The
// operand checks are ODS constraints and traits (EwOps.td); result types are
// inferred by the code that EwOps.td generates. The types and attributes
// are EwTypes.cpp's.
//
//===----------------------------------------------------------------------===//

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "llvm/ADT/StringSet.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ew;

#include "ewc/Dialect/Ew/IR/EwEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

Type mlir::ew::getElementType(Type type) {
  if (auto tensor = dyn_cast<NamedTensorType>(type))
    return tensor.getElementType();
  return type;
}

bool mlir::ew::isTensor(Type type) { return isa<NamedTensorType>(type); }

ArrayRef<StringAttr> mlir::ew::getDims(Type type) {
  if (auto tensor = dyn_cast<NamedTensorType>(type))
    return tensor.getDims();
  return {};
}

bool mlir::ew::isElementType(Type type) {
  // Integers: i1 (bool); signless (signed) and unsigned ones of 8 to 64 bits.
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (integer.isSigned())
      return false;
    unsigned width = integer.getWidth();
    if (width == 1)
      return integer.isSignless();
    return width == 8 || width == 16 || width == 32 || width == 64;
  }
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool mlir::ew::isValueType(Type type) {
  // NamedTensorType's verifier checks its element type.
  return isa<NamedTensorType>(type) || isElementType(type);
}

Type mlir::ew::getBroadcastType(TypeRange operands, Type elementType) {
  for (Type type : operands)
    if (auto tensor = dyn_cast<NamedTensorType>(type))
      return tensor.withElementType(elementType);
  return elementType;
}

LogicalResult mlir::ew::verifySameTensorDims(Operation *op) {
  // ElementwiseMappable's own check of this only sees builtin tensors and
  // vectors, so for ew tensors it is made here.
  bool tensorOperand = llvm::any_of(op->getOperandTypes(), isTensor);
  bool tensorResult = llvm::any_of(op->getResultTypes(), isTensor);
  if (tensorOperand && !tensorResult)
    return op->emitOpError("has a tensor operand, so its result must be a "
                           "tensor over the same dimensions");
  if (tensorResult && !tensorOperand)
    return op->emitOpError("has a tensor result but only scalar operands; "
                           "a scalar result fills a tensor at ew.return");
  std::optional<ArrayRef<StringAttr>> dims;
  for (Type type : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                      llvm::to_vector(op->getResultTypes()))) {
    auto tensor = dyn_cast<NamedTensorType>(type);
    if (!tensor)
      continue;
    if (!dims) {
      dims = tensor.getDims();
      continue;
    }
    if (tensor.getDims() != *dims)
      return op->emitOpError("tensor operands and results must have the same "
                             "dimensions; broadcast with ew.broadcast, got ")
             << type << " beside dimensions [" << *dims << "]";
  }
  return success();
}

bool mlir::ew::isExactConversion(Type from, Type to) {
  if (from == to || from.isInteger(1))
    return true;
  if (to.isInteger(1))
    return false;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return APFloat::isRepresentableBy(fromFloat.getFloatSemantics(),
                                      toFloat.getFloatSemantics());
  if (fromFloat)
    return false; // float -> integer truncates
  unsigned width = from.getIntOrFloatBitWidth();
  if (toFloat) // integer -> float: exact while the mantissa holds the width
    return width <= APFloat::semanticsPrecision(toFloat.getFloatSemantics());
  // Integers: every value of `from` is one of `to` (a signed type holds an
  // unsigned one of fewer bits; no unsigned type holds a negative value).
  unsigned toWidth = to.getIntOrFloatBitWidth();
  bool fromUnsigned = from.isUnsignedInteger();
  if (fromUnsigned == to.isUnsignedInteger())
    return width <= toWidth;
  return fromUnsigned && width < toWidth;
}

//===----------------------------------------------------------------------===//
// Constant folding helpers
//===----------------------------------------------------------------------===//
//
// Only scalar results fold: ew.constant holds scalars, and a tensor result
// depends on a tensor operand, which is never constant. The folds go through
// CommonFolders.h without poison (`void`): ew has no poison values.

/// Folds a binary op on two scalar constants: `onFloat` for floats, `onInt`
/// for integers (either may be null where the op has no such form).
template <typename FloatFn, typename IntFn>
static OpFoldResult foldBinary(Type resultType, ArrayRef<Attribute> operands,
                               FloatFn onFloat, IntFn onInt) {
  if (isTensor(resultType))
    return {};
  if constexpr (!std::is_same_v<FloatFn, std::nullptr_t>)
    if (Attribute folded = constFoldBinaryOp<FloatAttr, APFloat, void>(
            operands, resultType, onFloat))
      return folded;
  if constexpr (!std::is_same_v<IntFn, std::nullptr_t>)
    return constFoldBinaryOp<IntegerAttr, APInt, void>(operands, resultType,
                                                       onInt);
  return {};
}

/// Folds a unary op on a scalar constant, as foldBinary.
template <typename FloatFn, typename IntFn>
static OpFoldResult foldUnary(Type resultType, ArrayRef<Attribute> operands,
                              FloatFn onFloat, IntFn onInt) {
  if (isTensor(resultType))
    return {};
  if constexpr (!std::is_same_v<FloatFn, std::nullptr_t>)
    if (Attribute folded = constFoldUnaryOp<FloatAttr, APFloat, void>(
            operands, resultType, onFloat))
      return folded;
  if constexpr (!std::is_same_v<IntFn, std::nullptr_t>)
    return constFoldUnaryOp<IntegerAttr, APInt, void>(operands, resultType,
                                                      onInt);
  return {};
}

/// The float's value in its compute type, for the host's functions: f64 as
/// a double, f32, f16 and bf16 as a float (exactly).
static double toHost(const APFloat &value, double) {
  return value.convertToDouble();
}
static float toHost(const APFloat &value, float) {
  bool losesInfo;
  APFloat wide = value;
  wide.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  return wide.convertToFloat();
}

/// `fn` (generic over float and double) of the floats in their compute
/// type, as the lowering computes them: in f64 for f64, in f32 for f32, f16
/// and bf16; the result rounded back to the operands' type. The host's libm
/// may differ from the device's by the ulps that the accuracy table allows.
template <typename Fn, typename... Rest>
static APFloat applyInComputeType(Fn fn, const APFloat &first,
                                  const Rest &...rest) {
  const llvm::fltSemantics &semantics = first.getSemantics();
  if (&semantics == &APFloat::IEEEdouble())
    return APFloat(fn(toHost(first, 0.0), toHost(rest, 0.0)...));
  APFloat result(fn(toHost(first, 0.0f), toHost(rest, 0.0f)...));
  bool losesInfo;
  result.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return result;
}

/// Folds a math function of one scalar float constant (applyInComputeType).
template <typename Fn>
static OpFoldResult foldMath(Type resultType, ArrayRef<Attribute> operands,
                             Fn fn) {
  return foldUnary(
      resultType, operands,
      [&](const APFloat &a) { return applyInComputeType(fn, a); }, nullptr);
}

/// Folds a math function of two scalar float constants, as foldMath.
template <typename Fn>
static OpFoldResult foldMath2(Type resultType, ArrayRef<Attribute> operands,
                              Fn fn) {
  return foldBinary(
      resultType, operands,
      [&](const APFloat &a, const APFloat &b) {
        return applyInComputeType(fn, a, b);
      },
      nullptr);
}

/// The value of `operand` if it is `op(x)` for an op of type OpTy, for the
/// involutions neg(neg x) and not(not x).
template <typename OpTy> static Value getInvolutionOperand(Value operand) {
  if (auto inner = operand.getDefiningOp<OpTy>())
    return inner.getOperand();
  return {};
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

// No identity folds: x + 0.0 is not x for x = -0.0, and x * 0 is not 0 for
// NaN or infinities (and ew keeps integer and float rules alike).

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a + b; },
      [](const APInt &a, const APInt &b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a - b; },
      [](const APInt &a, const APInt &b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a * b; },
      [](const APInt &a, const APInt &b) { return a * b; });
}

/// True if `type` (an ew value type) has unsigned integer elements: its
/// folds use APInt's unsigned operations.
static bool isUnsignedValue(Type type) {
  return getElementType(type).isUnsignedInteger();
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = isUnsignedValue(getType());
  return foldBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a / b; },
      // The ew definition: x / 0 = 0; APInt's sdiv wraps INT_MIN / -1 to
      // INT_MIN, as ew does.
      [&](const APInt &a, const APInt &b) {
        if (b.isZero())
          return APInt::getZero(a.getBitWidth());
        return isUnsigned ? a.udiv(b) : a.sdiv(b);
      });
}

/// `a` rem `b` for integers as ew defines it: C's truncated remainder, 0 for
/// a zero divisor and for -1 (INT_MIN % -1 overflows in C); unsigned ones
/// are urem (0 for a zero divisor).
static APInt remainderInt(const APInt &a, const APInt &b, bool isUnsigned) {
  if (b.isZero() || (!isUnsigned && b.isAllOnes()))
    return APInt::getZero(a.getBitWidth());
  return isUnsigned ? a.urem(b) : a.srem(b);
}

OpFoldResult FmodOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = isUnsignedValue(getType());
  return foldBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) {
        APFloat r = a; // APFloat::mod is C's fmod, exact
        r.mod(b);
        return r;
      },
      [&](const APInt &a, const APInt &b) {
        return remainderInt(a, b, isUnsigned);
      });
}

OpFoldResult RemainderOp::fold(FoldAdaptor adaptor) {
  // The sign of the divisor: fmod (exact), then + b where the signs differ,
  // rounded in the compute type as the lowering does (foldMath2).
  if (OpFoldResult folded =
          foldMath2(getType(), adaptor.getOperands(), [](auto a, auto b) {
            auto r = std::fmod(a, b);
            if (r != 0 && (r < 0) != (b < 0))
              r += b;
            return r;
          }))
    return folded;
  bool isUnsigned = isUnsignedValue(getType());
  return foldBinary(getType(), adaptor.getOperands(), nullptr,
                    [&](const APInt &a, const APInt &b) {
                      APInt r = remainderInt(a, b, isUnsigned);
                      if (!isUnsigned && !r.isZero() &&
                          r.isNegative() != b.isNegative())
                        r += b;
                      return r;
                    });
}

OpFoldResult BitAndOp::fold(FoldAdaptor adaptor) {
  return foldBinary(getType(), adaptor.getOperands(), nullptr,
                    [](const APInt &a, const APInt &b) { return a & b; });
}

OpFoldResult BitOrOp::fold(FoldAdaptor adaptor) {
  return foldBinary(getType(), adaptor.getOperands(), nullptr,
                    [](const APInt &a, const APInt &b) { return a | b; });
}

OpFoldResult BitXorOp::fold(FoldAdaptor adaptor) {
  return foldBinary(getType(), adaptor.getOperands(), nullptr,
                    [](const APInt &a, const APInt &b) { return a ^ b; });
}

OpFoldResult BitNotOp::fold(FoldAdaptor adaptor) {
  if (Value x = getInvolutionOperand<BitNotOp>(getOperand()))
    return x;
  return foldUnary(getType(), adaptor.getOperands(), nullptr,
                   [](const APInt &a) { return ~a; });
}

OpFoldResult ShlOp::fold(FoldAdaptor adaptor) {
  // A shift below 0 or by the width or more gives 0 (torch's rule). (An
  // unsigned amount is never below 0: b's top bit is a large amount.)
  return foldBinary(getType(), adaptor.getOperands(), nullptr,
                    [](const APInt &a, const APInt &b) {
                      if (b.isNegative() || b.uge(a.getBitWidth()))
                        return APInt::getZero(a.getBitWidth());
                      return a.shl(b);
                    });
}

OpFoldResult ShrOp::fold(FoldAdaptor adaptor) {
  // Signed: a shift below 0 or by width - 1 or more copies the sign
  // everywhere. Unsigned (logical): by the width or more gives 0.
  bool isUnsigned = isUnsignedValue(getType());
  return foldBinary(getType(), adaptor.getOperands(), nullptr,
                    [&](const APInt &a, const APInt &b) {
                      if (isUnsigned)
                        return b.uge(a.getBitWidth())
                                   ? APInt::getZero(a.getBitWidth())
                                   : a.lshr(b);
                      unsigned most = a.getBitWidth() - 1;
                      if (b.isNegative() || b.uge(most))
                        return a.ashr(most);
                      return a.ashr(b);
                    });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = isUnsignedValue(getType());
  // llvm::maximum is IEEE 754-2019 maximum: NaN-propagating, -0.0 < +0.0.
  return foldBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return llvm::maximum(a, b); },
      [&](const APInt &a, const APInt &b) {
        return isUnsigned ? llvm::APIntOps::umax(a, b)
                          : llvm::APIntOps::smax(a, b);
      });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = isUnsignedValue(getType());
  return foldBinary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return llvm::minimum(a, b); },
      [&](const APInt &a, const APInt &b) {
        return isUnsigned ? llvm::APIntOps::umin(a, b)
                          : llvm::APIntOps::smin(a, b);
      });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (Value x = getInvolutionOperand<NegOp>(getOperand()))
    return x;
  return foldUnary(
      getType(), adaptor.getOperands(), [](const APFloat &a) { return -a; },
      [](const APInt &a) { return -a; });
}

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  // A float zero keeps its sign and NaN stays NaN.
  bool isUnsigned = isUnsignedValue(getType());
  return foldUnary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a) {
        if (a.isZero() || a.isNaN())
          return a;
        return APFloat::getOne(a.getSemantics(), a.isNegative());
      },
      [&](const APInt &a) {
        unsigned width = a.getBitWidth();
        if (a.isZero())
          return APInt::getZero(width);
        return a.isNegative() && !isUnsigned ? APInt::getAllOnes(width)
                                             : APInt(width, 1);
      });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  // APInt::abs wraps abs(INT_MIN) to INT_MIN, as ew does; an unsigned
  // value is its own magnitude.
  bool isUnsigned = isUnsignedValue(getType());
  return foldUnary(
      getType(), adaptor.getOperands(),
      [](const APFloat &a) { return llvm::abs(a); },
      [&](const APInt &a) { return isUnsigned ? a : a.abs(); });
}

/// isnan, isinf and isfinite of a scalar constant: `onFloat` of a float,
/// `ofInteger` for any integer.
static OpFoldResult foldClassify(Operation *op, Attribute operand,
                                 function_ref<bool(const APFloat &)> onFloat,
                                 bool ofInteger) {
  Type type = op->getResult(0).getType();
  if (isTensor(type))
    return {};
  if (auto value = dyn_cast_or_null<FloatAttr>(operand))
    return IntegerAttr::get(type, onFloat(value.getValue()));
  if (isa_and_nonnull<IntegerAttr>(operand))
    return IntegerAttr::get(type, ofInteger);
  return {};
}

OpFoldResult IsNanOp::fold(FoldAdaptor adaptor) {
  return foldClassify(
      *this, adaptor.getOperand(), [](const APFloat &x) { return x.isNaN(); },
      false);
}

OpFoldResult IsInfOp::fold(FoldAdaptor adaptor) {
  return foldClassify(
      *this, adaptor.getOperand(),
      [](const APFloat &x) { return x.isInfinity(); }, false);
}

OpFoldResult IsFiniteOp::fold(FoldAdaptor adaptor) {
  return foldClassify(
      *this, adaptor.getOperand(),
      [](const APFloat &x) { return x.isFinite(); }, true);
}

/// floor, ceil, trunc and round: an integer operand is already integral, and
/// so is the result of any of the four (floor(round(x)) is round(x)); a
/// scalar float constant rounds with `mode`, exactly, in its own type.
static OpFoldResult foldRounding(Operation *op, Value operand,
                                 ArrayRef<Attribute> operands,
                                 llvm::RoundingMode mode) {
  if (!isa<FloatType>(mlir::ew::getElementType(operand.getType())))
    return operand;
  if (isa_and_nonnull<FloorOp, CeilOp, TruncOp, RoundOp>(
          operand.getDefiningOp()))
    return operand;
  return foldUnary(
      op->getResult(0).getType(), operands,
      [mode](const APFloat &a) {
        APFloat rounded = a;
        rounded.roundToIntegral(mode);
        return rounded;
      },
      nullptr);
}

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return foldRounding(*this, getOperand(), adaptor.getOperands(),
                      llvm::RoundingMode::TowardNegative);
}

OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  return foldRounding(*this, getOperand(), adaptor.getOperands(),
                      llvm::RoundingMode::TowardPositive);
}

OpFoldResult TruncOp::fold(FoldAdaptor adaptor) {
  return foldRounding(*this, getOperand(), adaptor.getOperands(),
                      llvm::RoundingMode::TowardZero);
}

OpFoldResult RoundOp::fold(FoldAdaptor adaptor) {
  return foldRounding(*this, getOperand(), adaptor.getOperands(),
                      llvm::RoundingMode::NearestTiesToEven);
}

//===----------------------------------------------------------------------===//
// Logic
//===----------------------------------------------------------------------===//

/// Folds and/or: two constants, equal operands, or one constant operand,
/// which either gives the other operand (`identity`: true for and, false for
/// or) or absorbs the result (a scalar constant; tensors do not fold).
static OpFoldResult foldLogic(Operation *op, ArrayRef<Attribute> operands,
                              bool identity) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (lhs == rhs)
    return lhs;
  Type type = op->getResult(0).getType();
  for (auto [constant, other] :
       {std::pair(operands[0], rhs), std::pair(operands[1], lhs)}) {
    auto value = dyn_cast_or_null<IntegerAttr>(constant);
    if (!value)
      continue;
    if (value.getValue().isOne() == identity)
      return other;
    if (!isTensor(type))
      return value;
  }
  return {};
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  return foldLogic(*this, adaptor.getOperands(), /*identity=*/true);
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  return foldLogic(*this, adaptor.getOperands(), /*identity=*/false);
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (Value x = getInvolutionOperand<NotOp>(getOperand()))
    return x;
  return foldUnary(getType(), adaptor.getOperands(), nullptr,
                   [](const APInt &a) { return ~a; });
}

//===----------------------------------------------------------------------===//
// Math functions
//===----------------------------------------------------------------------===//

OpFoldResult ExpOp::fold(FoldAdaptor adaptor) {
  return foldMath(getType(), adaptor.getOperands(),
                  [](auto x) { return std::exp(x); });
}

OpFoldResult LogOp::fold(FoldAdaptor adaptor) {
  return foldMath(getType(), adaptor.getOperands(),
                  [](auto x) { return std::log(x); });
}

OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  return foldMath(getType(), adaptor.getOperands(),
                  [](auto x) { return std::sqrt(x); });
}

OpFoldResult RsqrtOp::fold(FoldAdaptor adaptor) {
  // As lowered: a correctly rounded square root, then a division.
  return foldMath(getType(), adaptor.getOperands(),
                  [](auto x) { return decltype(x)(1) / std::sqrt(x); });
}

OpFoldResult TanhOp::fold(FoldAdaptor adaptor) {
  return foldMath(getType(), adaptor.getOperands(),
                  [](auto x) { return std::tanh(x); });
}

OpFoldResult SigmoidOp::fold(FoldAdaptor adaptor) {
  // As lowered: exp(-|x|) never overflows (see EwToArith/Math.cpp).
  return foldMath(getType(), adaptor.getOperands(), [](auto x) {
    using T = decltype(x);
    T t = std::exp(-std::abs(x));
    return (x >= T(0) ? T(1) : t) / (T(1) + t);
  });
}

OpFoldResult ErfOp::fold(FoldAdaptor adaptor) {
  return foldMath(getType(), adaptor.getOperands(),
                  [](auto x) { return std::erf(x); });
}

// The rest of the functions of one float are libm's of the same name.
#define EW_FOLD_LIBM(Op, function)                                             \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldMath(getType(), adaptor.getOperands(),                          \
                    [](auto x) { return std::function(x); });                  \
  }
EW_FOLD_LIBM(ErfcOp, erfc)
EW_FOLD_LIBM(Exp2Op, exp2)
EW_FOLD_LIBM(Expm1Op, expm1)
EW_FOLD_LIBM(Log2Op, log2)
EW_FOLD_LIBM(Log10Op, log10)
EW_FOLD_LIBM(Log1pOp, log1p)
EW_FOLD_LIBM(SinOp, sin)
EW_FOLD_LIBM(CosOp, cos)
EW_FOLD_LIBM(TanOp, tan)
EW_FOLD_LIBM(AsinOp, asin)
EW_FOLD_LIBM(AcosOp, acos)
EW_FOLD_LIBM(AtanOp, atan)
EW_FOLD_LIBM(SinhOp, sinh)
EW_FOLD_LIBM(CoshOp, cosh)
EW_FOLD_LIBM(AsinhOp, asinh)
EW_FOLD_LIBM(AcoshOp, acosh)
EW_FOLD_LIBM(AtanhOp, atanh)
#undef EW_FOLD_LIBM

OpFoldResult FmaOp::fold(FoldAdaptor adaptor) {
  // One rounding in the compute type (the host's fma is IEEE's).
  if (isTensor(getType()))
    return {};
  auto a = dyn_cast_or_null<FloatAttr>(adaptor.getA());
  auto b = dyn_cast_or_null<FloatAttr>(adaptor.getB());
  auto c = dyn_cast_or_null<FloatAttr>(adaptor.getC());
  if (!a || !b || !c)
    return {};
  return FloatAttr::get(
      getType(), applyInComputeType(
                     [](auto x, auto y, auto z) { return std::fma(x, y, z); },
                     a.getValue(), b.getValue(), c.getValue()));
}

OpFoldResult Atan2Op::fold(FoldAdaptor adaptor) {
  return foldMath2(getType(), adaptor.getOperands(),
                   [](auto y, auto x) { return std::atan2(y, x); });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  return foldMath2(getType(), adaptor.getOperands(),
                   [](auto x, auto y) { return std::pow(x, y); });
}

//===----------------------------------------------------------------------===//
// CmpOp
//===----------------------------------------------------------------------===//

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
  CmpPredicate predicate = getPredicate();
  auto toI1 = [](bool value) { return APInt(1, value); };
  if (Attribute folded =
          constFoldBinaryOp<FloatAttr, APFloat, void, IntegerAttr>(
              adaptor.getOperands(), getType(),
              [&](const APFloat &a, const APFloat &b) {
                APFloat::cmpResult r = a.compare(b);
                return toI1(evaluate(predicate, r == APFloat::cmpLessThan,
                                     r == APFloat::cmpEqual,
                                     r == APFloat::cmpUnordered));
              }))
    return folded;
  bool isUnsigned = isUnsignedValue(getLhs().getType());
  return constFoldBinaryOp<IntegerAttr, APInt, void>(
      adaptor.getOperands(), getType(), [&](const APInt &a, const APInt &b) {
        // i1 is unsigned (false < true), as are u8 ... u64; the other
        // integers are signed.
        bool less = a.getBitWidth() == 1 || isUnsigned ? a.ult(b) : a.slt(b);
        return toI1(evaluate(predicate, less, a == b, false));
      });
}

//===----------------------------------------------------------------------===//
// WhereOp
//===----------------------------------------------------------------------===//

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
// CastOp
//===----------------------------------------------------------------------===//

/// Rounds `value` to nearest even in the semantics of `type`.
static APFloat convertFloat(APFloat value, Type type) {
  bool losesInfo;
  value.convert(cast<FloatType>(type).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &losesInfo);
  return value;
}

/// Folds ew.cast of a scalar constant with the semantics of the lowering.
static OpFoldResult foldCastConstant(Attribute operand, Type to) {
  ArrayRef<Attribute> operands(operand);
  bool fromUnsigned = cast<TypedAttr>(operand).getType().isUnsignedInteger();
  bool toUnsigned = to.isUnsignedInteger();
  if (isa<FloatType>(to)) {
    if (Attribute folded =
            constFoldCastOp<FloatAttr, FloatAttr, APFloat, APFloat, void>(
                operands, to,
                [&](const APFloat &a, bool &) { return convertFloat(a, to); }))
      return folded;
    return constFoldCastOp<IntegerAttr, FloatAttr, APInt, APFloat, void>(
        operands, to, [&](const APInt &a, bool &) {
          // i1 is 0 or 1; u8 ... u64 are unsigned, the other integers
          // signed. Into f16, bf16 and the 8-bit floats the value rounds
          // through f64, as the lowering does.
          auto &semantics = to.getIntOrFloatBitWidth() <= 16
                                ? APFloat::IEEEdouble()
                                : cast<FloatType>(to).getFloatSemantics();
          APFloat result(semantics);
          result.convertFromAPInt(a,
                                  /*IsSigned=*/a.getBitWidth() != 1 &&
                                      !fromUnsigned,
                                  APFloat::rmNearestTiesToEven);
          return convertFloat(result, to);
        });
  }
  unsigned width = to.getIntOrFloatBitWidth();
  if (Attribute folded =
          constFoldCastOp<FloatAttr, IntegerAttr, APFloat, APInt, void>(
              operands, to, [&](const APFloat &a, bool &) {
                if (width == 1)
                  return APInt(1, !a.isZero()); // NaN is true
                // convertToInteger saturates out-of-range values and gives
                // 0 for NaN, the ew definition.
                APSInt result(width, toUnsigned);
                bool isExact;
                a.convertToInteger(result, APFloat::rmTowardZero, &isExact);
                return APInt(result);
              }))
    return folded;
  return constFoldCastOp<IntegerAttr, IntegerAttr, APInt, APInt, void>(
      operands, to, [&](const APInt &a, bool &) {
        if (width == 1)
          return APInt(1, !a.isZero());
        return a.getBitWidth() == 1 || fromUnsigned ? a.zextOrTrunc(width)
                                                    : a.sextOrTrunc(width);
      });
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Value operand = getOperand();
  if (operand.getType() == getType())
    return operand;
  // cast(cast(x)) is one cast from x when the inner one loses nothing, e.g.
  // bf16 -> f32 -> bf16 is x itself.
  if (auto inner = operand.getDefiningOp<CastOp>()) {
    Value source = inner.getOperand();
    Type from = getElementType(source.getType());
    Type via = getElementType(inner.getType());
    Type to = getElementType(getType());
    // Through a float, an integer saturates into an integer type where a
    // direct cast wraps: u8(f32(x)) of an i32 x is not u8(x) unless every x
    // fits (ewc-fuzz, seed 33, program 89).
    bool saturates = isa<IntegerType>(from) && isa<FloatType>(via) &&
                     isa<IntegerType>(to) && !to.isInteger(1) &&
                     !isExactConversion(from, to);
    if (!saturates && isExactConversion(from, via)) {
      if (source.getType() == getType())
        return source;
      getOperandMutable().assign(source);
      return getResult();
    }
  }
  if (isTensor(getType()) || !adaptor.getOperand())
    return {};
  return foldCastConstant(adaptor.getOperand(), getType());
}

//===----------------------------------------------------------------------===//
// BitcastOp
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  Type from = getElementType(getOperand().getType());
  Type to = getElementType(getType());
  if (from.isInteger(1) || to.isInteger(1))
    return emitOpError("cannot reinterpret i1, which has no bit pattern");
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    return emitOpError("reinterprets ")
           << from << " as " << to << ", which have different widths";
  return success();
}

OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  Value operand = getOperand();
  if (operand.getType() == getType())
    return operand;
  // bitcast(bitcast(x)) is one bitcast from x (or x itself).
  if (auto inner = operand.getDefiningOp<BitcastOp>()) {
    if (inner.getOperand().getType() == getType())
      return inner.getOperand();
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  auto constant = dyn_cast_or_null<TypedAttr>(adaptor.getOperand());
  if (isTensor(getType()) || !constant)
    return {};
  APInt bits;
  if (auto f = dyn_cast<FloatAttr>(constant))
    bits = f.getValue().bitcastToAPInt();
  else
    bits = cast<IntegerAttr>(constant).getValue();
  Type to = getType();
  if (auto toFloat = dyn_cast<FloatType>(to))
    return FloatAttr::get(to, APFloat(toFloat.getFloatSemantics(), bits));
  return IntegerAttr::get(to, bits);
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

SmallVector<StringAttr> KernelOp::getDims() {
  SmallVector<StringAttr> dims;
  bool batch = false;
  FunctionType type = getFunctionType();
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    for (StringAttr dim : ew::getDims(t)) {
      if (dim.getValue() == NamedTensorType::kBatchDim)
        batch = true;
      else if (!llvm::is_contained(dims, dim))
        dims.push_back(dim);
    }
  if (batch)
    dims.insert(dims.begin(),
                StringAttr::get(getContext(), NamedTensorType::kBatchDim));
  return dims;
}

bool KernelOp::hasDim(StringRef name) {
  FunctionType type = getFunctionType();
  return llvm::any_of(
      llvm::concat<const Type>(type.getInputs(), type.getResults()),
      [&](Type t) {
        auto tensor = dyn_cast<NamedTensorType>(t);
        return tensor && tensor.hasDim(name);
      });
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
             << index << " must be an ew scalar or tensor, got " << input;
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
    if (!isTensor(result))
      return emitOpError("result ")
             << index << " must be an ew tensor, got " << result;
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
       llvm::enumerate(llvm::zip(getOperandTypes(), expected))) {
    auto [type, result] = pair;
    // A scalar of the result's element type fills the result.
    if (type == result || type == getElementType(result))
      continue;
    return emitOpError("result ")
           << index << " has type " << type << " but the kernel returns "
           << result << " (or a scalar " << getElementType(result)
           << " to fill it)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastOp, IndexOp, SizeOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  NamedTensorType from = getOperand().getType(), to = getType();
  if (from.getElementType() != to.getElementType())
    return emitOpError("the element types must match, got ")
           << from.getElementType() << " and " << to.getElementType();
  for (StringAttr dim : from.getDims())
    if (!to.hasDim(dim.getValue()))
      return emitOpError("the result must have every dimension of the "
                         "operand; it lacks '")
             << dim.getValue() << "'";
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // A broadcast of a broadcast is one broadcast of the first operand.
  if (auto inner = getOperand().getDefiningOp<BroadcastOp>()) {
    if (inner.getOperand().getType() == getType())
      return inner.getOperand();
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  return {};
}

/// Checks that `dim` names a dimension of the enclosing kernel other than
/// the batch.
static LogicalResult verifyKernelDim(Operation *op, StringRef dim) {
  if (dim == NamedTensorType::kBatchDim)
    return op->emitOpError("takes a named dimension, not the batch '...'");
  auto kernel = op->getParentOfType<KernelOp>();
  if (kernel && !kernel.hasDim(dim))
    return op->emitOpError("dimension '")
           << dim << "' is not a dimension of kernel '" << kernel.getSymName()
           << "'";
  return success();
}

LogicalResult IndexOp::verify() {
  NamedTensorType type = getType();
  if (type.getRank() != 1 || type.getDims()[0].getValue() != getDim() ||
      !type.getElementType().isInteger(64))
    return emitOpError("result must be !ew.tensor<[")
           << getDim() << "], i64>, got " << type;
  if (getDim() != NamedTensorType::kBatchDim)
    return verifyKernelDim(*this, getDim());
  // The batch's row-major position (the language's index_flat()).
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return success();
  if (!kernel.hasDim(NamedTensorType::kBatchDim))
    return emitOpError("takes the batch '...', which kernel '")
           << kernel.getSymName() << "' does not have";
  bool combines = kernel
                      .walk([](Operation *op) {
                        return isa<ReduceOp, ScanOp>(op)
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
  if (combines)
    return emitOpError("of the batch '...' is not supported in a kernel "
                       "with reductions or scans");
  return success();
}

LogicalResult SizeOp::verify() { return verifyKernelDim(*this, getDim()); }

//===----------------------------------------------------------------------===//
// ReduceOp and ScanOp
//===----------------------------------------------------------------------===//

/// The checks a reduction and a scan share: the dimensions (named ones of the
/// kernel, each once, all of the operand's), the element types and `init`.
/// Returns the operand's dimensions without `dims`, in the operand's order.
static FailureOr<SmallVector<StringAttr>>
verifyCombine(Operation *op, Value operand, Type result, ArrayAttr dims,
              TypedAttr init) {
  Type element = getElementType(operand.getType());
  if (getElementType(result) != element)
    return op->emitOpError("the element types must match, got ")
           << element << " and " << getElementType(result);
  if (init.getType() != element)
    return op->emitOpError("init must be a ")
           << element << ", got " << init.getType();
  if (dims.empty())
    return op->emitOpError("needs a dimension");
  SmallVector<StringAttr> remaining(getDims(operand.getType()));
  llvm::StringSet<> seen;
  for (Attribute attr : dims) {
    StringRef dim = cast<StringAttr>(attr).getValue();
    if (failed(verifyKernelDim(op, dim)))
      return failure();
    if (!seen.insert(dim).second)
      return op->emitOpError("names dimension '") << dim << "' twice";
    // The element form (a scalar operand) has no dimensions to check.
    if (!isTensor(operand.getType()))
      continue;
    auto *it = llvm::find_if(
        remaining, [&](StringAttr other) { return other.getValue() == dim; });
    if (it == remaining.end())
      return op->emitOpError("the operand has no dimension '") << dim << "'";
    remaining.erase(it);
  }
  return remaining;
}

/// The region: one block (running value, next element) of the element type,
/// yielding the element type.
static LogicalResult verifyCombiner(Operation *op, Region &region,
                                    Type element) {
  Block &block = region.front();
  if (block.getNumArguments() != 2 ||
      block.getArgument(0).getType() != element ||
      block.getArgument(1).getType() != element)
    return op->emitOpError("the combiner must take two ")
           << element << " arguments";
  auto yield = cast<YieldOp>(block.getTerminator());
  if (yield.getValue().getType() != element)
    return op->emitOpError("the combiner must yield a ")
           << element << ", got " << yield.getValue().getType();
  return success();
}

LogicalResult ReduceOp::verify() {
  FailureOr<SmallVector<StringAttr>> remaining =
      verifyCombine(*this, getOperand(), getType(), getDims(), getInit());
  if (failed(remaining))
    return failure();
  Type operandType = getOperand().getType();
  if (!isTensor(operandType)) {
    if (getType() != operandType)
      return emitOpError("an element's reduction has the element's type");
    return success();
  }
  Type expected = mlir::ew::getElementType(operandType);
  if (!remaining->empty())
    expected = NamedTensorType::get(getContext(), *remaining, expected);
  if (getType() != expected)
    return emitOpError("result must be ") << expected << ", got " << getType();
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner(*this, getCombiner(), getCombinedType());
}

LogicalResult ScanOp::verify() {
  if (failed(
          verifyCombine(*this, getOperand(), getType(), getDims(), getInit())))
    return failure();
  if (getDims().size() != 1)
    return emitOpError("runs along one dimension, got ") << getDims().size();
  if (getType() != getOperand().getType())
    return emitOpError("result must have the operand's type ")
           << getOperand().getType() << ", got " << getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombiner(*this, getCombiner(), getCombinedType());
}

#define GET_OP_CLASSES
#include "ewc/Dialect/Ew/IR/EwOps.cpp.inc"
