//===- EwToArith.cpp - ew ops to arith ops on elements --------------------===//
//
// The arithmetic, logic, comparison and selection ops, constants and the
// terminator: a templated pattern for the binary ops that are one arith op
// (float op or integer op by element type), and one each for the rest. The
// math functions (Math.cpp) and the cast (Cast.cpp) have files of their own;
// all of them share the base pattern and compute-type rule of
// ElementLowering.h.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToArith/EwToArith.h"

#include "ElementLowering.h"

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::ew;
using namespace mlir::ew::lowering;

ElementTypeConverter::ElementTypeConverter() {
  addConversion(
      [](Type type) { return getSignlessType(getElementType(type)); });
}

std::string mlir::ew::getElementFunctionName(KernelOp kernel) {
  // `$` is in no kernel name (ewc::getKernelSymbol), so no kernel's symbol
  // is another's element function.
  return (ewc::getKernelSymbol(kernel.getSymName()) + "$element");
}

//===----------------------------------------------------------------------===//
// Shared helpers (ElementLowering.h)
//===----------------------------------------------------------------------===//

bool lowering::computesInF32(Type type) {
  return type.isF16() || type.isBF16() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

Value lowering::extendToComputeType(OpBuilder &builder, Location loc,
                                    Value value) {
  if (!computesInF32(value.getType()))
    return value;
  Type f32 = builder.getF32Type();
  // f16, and the 8-bit floats, whose arith.extf ew-expand-float8 lowers.
  if (!value.getType().isBF16())
    return arith::ExtFOp::create(builder, loc, f32, value);
  // bf16 -> f32 as integer code (the bits, shifted into f32's top half:
  // exact), never `fpext bfloat`. LLVM 22's InstCombine takes a bfloat that
  // was extended for the f32 op as if half could hold it: it turns
  // fptrunc(fdiv(fpext bf16 x, fpext bf16 y)) to half into an fdiv in half,
  // and drops the half rounding of fpext(fptrunc(sitofp(fptosi(fpext bf16
  // x)))), so 2^-126 / 2^-126 in f16 gave NaN on the GPU (ewc-fuzz on the
  // H200, 2026-11-30; test/Conversion/EwToGPU/bf16-extension.mlir). The
  // CPU's bf16 expansion already hid the bfloat; now both paths do.
  Type i16 = builder.getI16Type(), i32 = builder.getI32Type();
  Value bits = arith::BitcastOp::create(builder, loc, i16, value);
  Value wide = arith::ExtUIOp::create(builder, loc, i32, bits);
  Value shifted = arith::ShLIOp::create(builder, loc, wide,
                                        createConstant(builder, loc, i32, 16));
  return arith::BitcastOp::create(builder, loc, f32, shifted);
}

bool lowering::isUnsignedValue(Type type) {
  return getElementType(type).isUnsignedInteger();
}

Value lowering::createConstant(OpBuilder &builder, Location loc, Type type,
                               double value) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(builder, loc,
                                     builder.getFloatAttr(type, value));
  return arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(type, static_cast<int64_t>(value)));
}

/// `attr` with a signless type in place of an unsigned one (arith's
/// constants are signless), the same bits.
static TypedAttr getSignlessAttr(TypedAttr attr) {
  auto integer = dyn_cast<IntegerAttr>(attr);
  if (!integer || !integer.getType().isUnsignedInteger())
    return attr;
  return IntegerAttr::get(getSignlessType(integer.getType()),
                          integer.getValue());
}

namespace {

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, getSignlessAttr(cast<TypedAttr>(op.getValue())));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Arithmetic and logic
//===----------------------------------------------------------------------===//

/// A binary op that is one arith op: FloatOp for float elements, IntOp for
/// integers (which wrap around, as ew integer arithmetic is defined to),
/// UIntOp for unsigned ones. `void` marks a form the op's type constraints
/// exclude.
template <typename EwOp, typename FloatOp, typename IntOp,
          typename UIntOp = IntOp>
struct BinaryLowering : ElementwiseLowering<EwOp> {
  using ElementwiseLowering<EwOp>::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, EwOp op,
                     ValueRange operands) const override {
    Value lhs = operands[0], rhs = operands[1];
    if constexpr (!std::is_void_v<FloatOp>)
      if (isa<FloatType>(lhs.getType()))
        return FloatOp::create(builder, loc, lhs, rhs);
    if constexpr (!std::is_void_v<IntOp>) {
      if (isUnsignedValue(op.getLhs().getType()))
        return UIntOp::create(builder, loc, lhs, rhs);
      return IntOp::create(builder, loc, lhs, rhs);
    }
    llvm_unreachable("element type excluded by the op's constraints");
  }
};

/// An integer divisor that cannot trap: `rhs`, or 1 where it is 0 or (for
/// a signed division) -1 (x / 0 and INT_MIN / -1 trap in LLVM's sdiv and
/// srem, x / 0 in udiv and urem), with the conditions for the caller's own
/// results there (isMinusOne is null for an unsigned one).
struct SafeDivisor {
  Value divisor, isZero, isMinusOne;
};
static SafeDivisor buildSafeDivisor(OpBuilder &builder, Location loc, Value rhs,
                                    bool isUnsigned) {
  Type type = rhs.getType();
  Value zero = createConstant(builder, loc, type, 0);
  Value one = createConstant(builder, loc, type, 1);
  Value isZero =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, rhs, zero);
  if (isUnsigned) {
    Value divisor = arith::SelectOp::create(builder, loc, isZero, one, rhs);
    return {divisor, isZero, Value()};
  }
  Value minusOne = createConstant(builder, loc, type, -1);
  Value isMinusOne = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  Value special = arith::OrIOp::create(builder, loc, isZero, isMinusOne);
  Value divisor = arith::SelectOp::create(builder, loc, special, one, rhs);
  return {divisor, isZero, isMinusOne};
}

/// Division: IEEE for floats. For integers, arith.divsi is undefined for a
/// zero divisor and for INT_MIN / -1, and both trap on x86, so the divisor is
/// replaced by 1 in those two cases before dividing and the ew results
/// (x / 0 = 0, x / -1 = -x, which wraps INT_MIN to INT_MIN) are selected
/// after: no input ever executes a trapping division.
struct DivLowering : ElementwiseLowering<DivOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, DivOp op,
                     ValueRange operands) const override {
    Value lhs = operands[0], rhs = operands[1];
    Type type = lhs.getType();
    if (isa<FloatType>(type))
      return arith::DivFOp::create(builder, loc, lhs, rhs);
    bool isUnsigned = isUnsignedValue(op.getLhs().getType());
    SafeDivisor safe = buildSafeDivisor(builder, loc, rhs, isUnsigned);
    Value zero = createConstant(builder, loc, type, 0);
    if (isUnsigned) {
      Value quotient = arith::DivUIOp::create(builder, loc, lhs, safe.divisor);
      return arith::SelectOp::create(builder, loc, safe.isZero, zero, quotient);
    }
    Value quotient = arith::DivSIOp::create(builder, loc, lhs, safe.divisor);
    Value negated = arith::SubIOp::create(builder, loc, zero, lhs);
    quotient = arith::SelectOp::create(builder, loc, safe.isMinusOne, negated,
                                       quotient);
    return arith::SelectOp::create(builder, loc, safe.isZero, zero, quotient);
  }
};

/// C's remainder with ew's definitions: floats arith.remf (fmod, exact:
/// libdevice's __nv_fmodf on the GPU, libm's fmodf on the CPU); integers
/// arith.remsi (remui) by a divisor that is 1 where it was 0 or -1, so that
/// `x % 0` and `INT_MIN % -1` (which traps in C) give 0 and nothing traps.
static Value buildFmod(OpBuilder &builder, Location loc, Value lhs, Value rhs,
                       bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return arith::RemFOp::create(builder, loc, lhs, rhs);
  // x rem 1 is 0, which is ew's x % 0 and INT_MIN % -1.
  SafeDivisor safe = buildSafeDivisor(builder, loc, rhs, isUnsigned);
  if (isUnsigned)
    return arith::RemUIOp::create(builder, loc, lhs, safe.divisor);
  return arith::RemSIOp::create(builder, loc, lhs, safe.divisor);
}

struct FmodLowering : ElementwiseLowering<FmodOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, FmodOp op,
                     ValueRange operands) const override {
    return buildFmod(builder, loc, operands[0], operands[1],
                     isUnsignedValue(op.getLhs().getType()));
  }
};

/// `%`, torch.remainder: r = fmod(x, y), then r + y where r is not zero and
/// its sign is not y's (ATen's formula for floats and integers alike).
struct RemainderLowering : ElementwiseLowering<RemainderOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, RemainderOp op,
                     ValueRange operands) const override {
    Value y = operands[1];
    bool isUnsigned = isUnsignedValue(op.getLhs().getType());
    Value r = buildFmod(builder, loc, operands[0], y, isUnsigned);
    // Unsigned: r and y are never negative, r is the remainder.
    if (isUnsigned)
      return r;
    Type type = r.getType();
    bool isFloat = isa<FloatType>(type);
    Value zero = createConstant(builder, loc, type, 0);
    // NaN: une is true and olt false, so a NaN r with y < 0 takes r + y, NaN
    // again.
    auto isNegative = [&](Value v) -> Value {
      if (isFloat)
        return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OLT, v,
                                     zero);
      return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, v,
                                   zero);
    };
    Value nonZero =
        isFloat ? arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE,
                                        r, zero)
                      .getResult()
                : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                        r, zero)
                      .getResult();
    Value rNegative = isNegative(r);
    Value yNegative = isNegative(y);
    Value differ = arith::XOrIOp::create(builder, loc, rNegative, yNegative);
    Value adjust = arith::AndIOp::create(builder, loc, nonZero, differ);
    Value sum = isFloat ? arith::AddFOp::create(builder, loc, r, y).getResult()
                        : arith::AddIOp::create(builder, loc, r, y).getResult();
    return arith::SelectOp::create(builder, loc, adjust, sum, r);
  }
};

/// Shifts with torch's rule for amounts outside [0, width): shl and an
/// unsigned (logical) shr give 0, a signed shr lhs >> (width - 1) (0 or -1),
/// where LLVM's shl, lshr and ashr give poison. The amount is clamped into
/// range first with an unsigned min (a negative amount is above every
/// in-range one), so the shift itself is always defined, then shl's and
/// lshr's out-of-range results are selected away. Not a select of the
/// amount: LLVM folds select(a < 64, shl(x, select(a < 64, a, 0)), 0) to
/// NVPTX's shl.b64 of a alone, whose amount is 32 bits, so k << (2^32 + 4)
/// gave k << 4 on the H200 (Integration/GPU/bitwise.test, 2026-12-05); the
/// min keeps every amount the shift sees below the width.
template <typename EwOp, typename ShiftOp>
struct ShiftLowering : ElementwiseLowering<EwOp> {
  using ElementwiseLowering<EwOp>::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, EwOp op,
                     ValueRange operands) const override {
    Value x = operands[0], amount = operands[1];
    Type type = x.getType();
    unsigned width = type.getIntOrFloatBitWidth();
    constexpr bool isLeft = std::is_same_v<ShiftOp, arith::ShLIOp>;
    bool toZero = isLeft || isUnsignedValue(op.getLhs().getType());
    Value most = createConstant(builder, loc, type, width - 1);
    Value clamped = arith::MinUIOp::create(builder, loc, amount, most);
    Value shifted;
    if (isLeft)
      shifted = arith::ShLIOp::create(builder, loc, x, clamped);
    else if (toZero)
      shifted = arith::ShRUIOp::create(builder, loc, x, clamped);
    else
      shifted = arith::ShRSIOp::create(builder, loc, x, clamped);
    if (!toZero)
      return shifted;
    Value widthValue = createConstant(builder, loc, type, width);
    Value inRange = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, amount, widthValue);
    Value zero = createConstant(builder, loc, type, 0);
    return arith::SelectOp::create(builder, loc, inRange, shifted, zero);
  }
};

/// ~x: x xor -1.
struct BitNotLowering : ElementwiseLowering<BitNotOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, BitNotOp op,
                     ValueRange operands) const override {
    Value x = operands[0];
    Value ones = createConstant(builder, loc, x.getType(), -1);
    return arith::XOrIOp::create(builder, loc, x, ones);
  }
};

/// sign: floats x > 0 ? 1 : (x < 0 ? -1 : x), which keeps a zero's sign and
/// NaN; integers (x > 0) - (x < 0), unsigned ones x != 0.
struct SignLowering : ElementwiseLowering<SignOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, SignOp op,
                     ValueRange operands) const override {
    Value x = operands[0];
    Type type = x.getType();
    Value zero = createConstant(builder, loc, type, 0);
    Value one = createConstant(builder, loc, type, 1);
    Value minusOne = createConstant(builder, loc, type, -1);
    Value positive, negative;
    if (isa<FloatType>(type)) {
      positive = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGT,
                                       x, zero);
      negative = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OLT,
                                       x, zero);
    } else if (isUnsignedValue(op.getOperand().getType())) {
      Value nonZero = arith::CmpIOp::create(builder, loc,
                                            arith::CmpIPredicate::ne, x, zero);
      return arith::SelectOp::create(builder, loc, nonZero, one, x);
    } else {
      positive = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                       x, zero);
      negative = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                       x, zero);
    }
    Value rest = arith::SelectOp::create(builder, loc, negative, minusOne, x);
    return arith::SelectOp::create(builder, loc, positive, one, rest);
  }
};

struct NegLowering : ElementwiseLowering<NegOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, NegOp op,
                     ValueRange operands) const override {
    Value operand = operands[0];
    Type type = operand.getType();
    // negf flips the sign bit: -(0.0) is -0.0 and -(NaN) stays NaN, unlike
    // 0.0 - x.
    if (isa<FloatType>(type))
      return arith::NegFOp::create(builder, loc, operand);
    return arith::SubIOp::create(
        builder, loc, createConstant(builder, loc, type, 0), operand);
  }
};

struct AbsLowering : ElementwiseLowering<AbsOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, AbsOp op,
                     ValueRange operands) const override {
    Value operand = operands[0];
    Type type = operand.getType();
    // absf clears the sign bit (abs(-0.0) = +0.0, NaN stays NaN).
    if (isa<FloatType>(type))
      return math::AbsFOp::create(builder, loc, operand);
    if (isUnsignedValue(op.getOperand().getType()))
      return operand;
    // x < 0 ? 0 - x : x, which wraps abs(INT_MIN) to INT_MIN. Not math.absi:
    // convert-gpu-to-nvvm lowers it for i32 only (libdevice's __nv_abs) and
    // leaves an i64 one unconverted.
    Value zero = createConstant(builder, loc, type, 0);
    Value negative = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, operand, zero);
    Value negated = arith::SubIOp::create(builder, loc, zero, operand);
    return arith::SelectOp::create(builder, loc, negative, negated, operand);
  }
};

struct NotLowering : ElementwiseLowering<NotOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, NotOp op,
                     ValueRange operands) const override {
    Value operand = operands[0];
    Value allOnes = arith::ConstantOp::create(
        builder, loc, builder.getIntegerAttr(operand.getType(), 1));
    return arith::XOrIOp::create(builder, loc, operand, allOnes);
  }
};

//===----------------------------------------------------------------------===//
// Comparison and selection
//===----------------------------------------------------------------------===//

static arith::CmpFPredicate getFloatPredicate(CmpPredicate predicate) {
  // Ordered comparisons are false on NaN; `ne` is unordered so that
  // x != x holds exactly for NaN, as in C and Python.
  switch (predicate) {
  case CmpPredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case CmpPredicate::ne:
    return arith::CmpFPredicate::UNE;
  case CmpPredicate::lt:
    return arith::CmpFPredicate::OLT;
  case CmpPredicate::le:
    return arith::CmpFPredicate::OLE;
  case CmpPredicate::gt:
    return arith::CmpFPredicate::OGT;
  case CmpPredicate::ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown ew.cmp predicate");
}

static arith::CmpIPredicate getIntPredicate(CmpPredicate predicate,
                                            bool isUnsigned) {
  switch (predicate) {
  case CmpPredicate::eq:
    return arith::CmpIPredicate::eq;
  case CmpPredicate::ne:
    return arith::CmpIPredicate::ne;
  case CmpPredicate::lt:
    return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case CmpPredicate::le:
    return isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case CmpPredicate::gt:
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case CmpPredicate::ge:
    return isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  }
  llvm_unreachable("unknown ew.cmp predicate");
}

struct CmpLowering : ElementwiseLowering<CmpOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, CmpOp op,
                     ValueRange operands) const override {
    Value lhs = operands[0], rhs = operands[1];
    Type type = lhs.getType();
    if (isa<FloatType>(type))
      return arith::CmpFOp::create(
          builder, loc, getFloatPredicate(op.getPredicate()), lhs, rhs);
    // i1 compares unsigned (false < true), as do the unsigned types.
    bool isUnsigned =
        type.isInteger(1) || isUnsignedValue(op.getLhs().getType());
    return arith::CmpIOp::create(
        builder, loc, getIntPredicate(op.getPredicate(), isUnsigned), lhs, rhs);
  }
};

/// isnan: x != x (unordered); isinf: |x| == inf; isfinite: |x| < inf, false
/// for NaN (ordered). An integer is a constant: never NaN or infinite.
template <typename EwOp> struct ClassifyLowering : ElementwiseLowering<EwOp> {
  using ElementwiseLowering<EwOp>::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, EwOp op,
                     ValueRange operands) const override {
    Value x = operands[0];
    constexpr bool isFinite = std::is_same_v<EwOp, IsFiniteOp>;
    auto floatType = dyn_cast<FloatType>(x.getType());
    if (!floatType)
      return createConstant(builder, loc, builder.getI1Type(), isFinite);
    if constexpr (std::is_same_v<EwOp, IsNanOp>)
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO, x,
                                   x);
    Value magnitude = math::AbsFOp::create(builder, loc, x);
    Value infinity = arith::ConstantOp::create(
        builder, loc,
        builder.getFloatAttr(floatType,
                             APFloat::getInf(floatType.getFloatSemantics())));
    return arith::CmpFOp::create(builder, loc,
                                 isFinite ? arith::CmpFPredicate::OLT
                                          : arith::CmpFPredicate::OEQ,
                                 magnitude, infinity);
  }
};

struct WhereLowering : OpConversionPattern<WhereOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhereOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 adaptor.getTrueValue(),
                                                 adaptor.getFalseValue());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The kernel, its terminator and the ops of named dimensions
//===----------------------------------------------------------------------===//

/// ew.kernel becomes its element function (EwToArith.h): the same body on
/// the elements, with the named dimensions' coordinates and extents as
/// arguments after the parameters.
struct KernelToElementFunction : OpConversionPattern<KernelOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(KernelOp kernel, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    Block &body = kernel.getBody().front();
    TypeConverter::SignatureConversion signature(body.getNumArguments());
    for (BlockArgument arg : body.getArguments())
      signature.addInputs(arg.getArgNumber(),
                          converter.convertType(arg.getType()));
    SmallVector<Attribute> dims;
    for (StringAttr dim : kernel.getDims())
      if (dim.getValue() != NamedTensorType::kBatchDim ||
          readsBatchPosition(kernel))
        dims.push_back(dim);
    Type index = rewriter.getIndexType();
    // Coordinates, then extents.
    signature.addInputs(SmallVector<Type>(2 * dims.size(), index));
    SmallVector<Type> results;
    for (Type type : kernel.getResultTypes())
      results.push_back(converter.convertType(type));

    rewriter.setInsertionPoint(kernel);
    auto element = func::FuncOp::create(
        rewriter, kernel.getLoc(), getElementFunctionName(kernel),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    element.setPrivate();
    element->setAttr(kElementDimsAttrName, rewriter.getArrayAttr(dims));
    rewriter.inlineRegionBefore(kernel.getBody(), element.getBody(),
                                element.getBody().end());
    if (failed(rewriter.convertRegionTypes(&element.getBody(), converter,
                                           &signature)))
      return failure();
    rewriter.eraseOp(kernel);
    return success();
  }
};

struct ReturnLowering : OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

/// At one element a broadcast is its operand's element there.
struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperand());
    return success();
  }
};

/// The element function's argument for dimension `dim`: its coordinate, or
/// with `extent` its extent, as i64.
static FailureOr<Value> getDimArgument(Operation *op, StringRef dim,
                                       bool extent,
                                       ConversionPatternRewriter &rewriter) {
  auto element = op->getParentOfType<func::FuncOp>();
  auto dims = element ? element->getAttrOfType<ArrayAttr>(kElementDimsAttrName)
                      : ArrayAttr();
  if (!dims)
    return rewriter.notifyMatchFailure(op, "not in an element function");
  auto it = llvm::find_if(
      dims, [&](Attribute a) { return cast<StringAttr>(a).getValue() == dim; });
  if (it == dims.end())
    return rewriter.notifyMatchFailure(op, "not a dimension of the kernel");
  unsigned position = element.getNumArguments() - 2 * dims.size() +
                      (it - dims.begin()) + (extent ? dims.size() : 0);
  return Value(arith::IndexCastUIOp::create(rewriter, op->getLoc(),
                                            rewriter.getI64Type(),
                                            element.getArgument(position)));
}

/// ew.index and ew.size: the element function's coordinate or extent
/// argument of the dimension, as i64.
template <typename OpTy, bool IsExtent>
struct DimLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> value =
        getDimArgument(op, op.getDim(), IsExtent, rewriter);
    if (failed(value))
      return failure();
    rewriter.replaceOp(op, *value);
    return success();
  }
};
using IndexLowering = DimLowering<IndexOp, /*IsExtent=*/false>;
using SizeLowering = DimLowering<SizeOp, /*IsExtent=*/true>;

/// A combiner's terminator, on the converted elements.
struct YieldLowering : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<YieldOp>(op, adaptor.getValue());
    return success();
  }
};

/// ew.reduce and ew.scan become their element form: the same op on the
/// operand's element, its combiner converted like any code (the access
/// layer expands it into loops: CombineLoops.cpp).
template <typename OpTy> struct CombineLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value operand = adaptor.getOperand();
    auto element =
        OpTy::create(rewriter, op.getLoc(), operand.getType(), operand,
                     op.getDims(), getSignlessAttr(op.getInit()));
    rewriter.inlineRegionBefore(op.getCombiner(), element.getCombiner(),
                                element.getCombiner().end());
    // The combiner's arguments are elements too (unsigned ones signless).
    if (failed(rewriter.convertRegionTypes(&element.getCombiner(),
                                           *this->getTypeConverter())))
      return failure();
    rewriter.replaceOp(op, element.getResult());
    return success();
  }
};

} // namespace

void mlir::ew::addElementFormLegality(ConversionTarget &target) {
  auto isElementForm = [](Operation *op) {
    return !isTensor(op->getOperand(0).getType());
  };
  target.addDynamicallyLegalOp<ReduceOp, ScanOp>(isElementForm);
  // A combiner's yield of unsigned elements takes their signless form.
  target.addDynamicallyLegalOp<YieldOp>([](YieldOp op) {
    return llvm::none_of(op->getOperandTypes(),
                         [](Type type) { return type.isUnsignedInteger(); });
  });
}

bool mlir::ew::hasCombines(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<ReduceOp, ScanOp>(nested) ? WalkResult::interrupt()
                                             : WalkResult::advance();
      })
      .wasInterrupted();
}

void mlir::ew::populateEwToArithPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<
      ConstantLowering, BinaryLowering<AddOp, arith::AddFOp, arith::AddIOp>,
      BinaryLowering<SubOp, arith::SubFOp, arith::SubIOp>,
      BinaryLowering<MulOp, arith::MulFOp, arith::MulIOp>,
      // IEEE 754-2019 maximum/minimum (NaN wins, -0.0 < +0.0).
      BinaryLowering<MaxOp, arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>,
      BinaryLowering<MinOp, arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>,
      BinaryLowering<AndOp, void, arith::AndIOp>,
      BinaryLowering<OrOp, void, arith::OrIOp>,
      BinaryLowering<BitAndOp, void, arith::AndIOp>,
      BinaryLowering<BitOrOp, void, arith::OrIOp>,
      BinaryLowering<BitXorOp, void, arith::XOrIOp>, BitNotLowering,
      ShiftLowering<ShlOp, arith::ShLIOp>, ShiftLowering<ShrOp, arith::ShRSIOp>,
      DivLowering, FmodLowering, RemainderLowering, SignLowering, NegLowering,
      AbsLowering, NotLowering, CmpLowering, ClassifyLowering<IsNanOp>,
      ClassifyLowering<IsInfOp>, ClassifyLowering<IsFiniteOp>, WhereLowering,
      KernelToElementFunction, ReturnLowering, BroadcastLowering, IndexLowering,
      SizeLowering, CombineLowering<ReduceOp>, CombineLowering<ScanOp>,
      YieldLowering>(converter, patterns.getContext());
  lowering::populateEwMathPatterns(converter, patterns);
  lowering::populateEwCastPatterns(converter, patterns);
  lowering::populateEwRandomPatterns(converter, patterns);
}
