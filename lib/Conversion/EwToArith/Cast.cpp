//===- Cast.cpp - ew.cast to arith conversions ----------------------------===//
//
// ew.cast with the semantics of the ew definition (EwOps.td) on every target:
//
//   float -> float   round to nearest even; f64 -> bf16 with one rounding
//   float -> int     truncate, saturate at the int range, NaN -> 0
//   int -> float     round to nearest even; into f16/bf16 through f64
//   int -> int       sign-extend (zero-extend from an unsigned type) or
//                    truncate (wrap)
//   i1 -> number     0 or 1
//   x -> i1          x != 0 (NaN -> true, -0.0 -> false)
//
// and ew.bitcast, an arith.bitcast of the stored bits.
//
// f16, bf16 and 8-bit float sources are extended to f32 first (exact), like
// every other op's operands, so every conversion that involves bf16 or an
// 8-bit float goes through f32: bf16 <-> f32 is the one pair that EwToLoops
// expands into integer code for the CPU, whose libgcc has no bf16
// conversion routines, f8 <-> f32 the pairs of ew-expand-float8.
//
//===----------------------------------------------------------------------===//

#include "ElementLowering.h"

#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/APInt.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::ew;
using namespace mlir::ew::lowering;

/// f64 -> bf16 or an 8-bit float, rounded once. Rounding f64 -> f32 -> bf16
/// with two round-to-nearest steps is wrong where the first lands on a bf16
/// tie, and LLVM's direct fptrunc double -> bfloat is a libcall
/// (__truncdfbf2) that the CPU lacks (LLVM has no 8-bit float at all). So
/// the first step rounds to odd instead (truncate toward zero, then set the
/// last bit if anything was lost): with f32's 16 bits more than bf16 (20 and
/// 21 more than the 8-bit floats), the second, nearest-even step then gives
/// the correctly rounded result, subnormals, overflow and NaN included.
/// (torch rounds f64 through f32 to nearest twice, for bf16 and the 8-bit
/// floats alike: docs/language.md.)
static Value truncF64ViaOddF32(OpBuilder &builder, Location loc, Value x,
                               FloatType to) {
  Type f32 = builder.getF32Type(), i32 = builder.getI32Type();
  Value nearest = arith::TruncFOp::create(builder, loc, f32, x);
  Value back = arith::ExtFOp::create(builder, loc, x.getType(), nearest);
  // Ordered: a NaN keeps its nearest-even f32, which is NaN.
  Value inexact =
      arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::ONE, back, x);
  // One op per statement: compilers evaluate a call's arguments in different
  // orders (g++ right to left, clang left to right), and the IR would follow.
  Value magnitude = math::AbsFOp::create(builder, loc, x);
  Value backMagnitude = math::AbsFOp::create(builder, loc, back);
  Value awayFromZero = arith::CmpFOp::create(
      builder, loc, arith::CmpFPredicate::OGT, backMagnitude, magnitude);
  // One step toward zero on the magnitude bits (the sign bit stays).
  Value bits = arith::BitcastOp::create(builder, loc, i32, nearest);
  Value one = createConstant(builder, loc, i32, 1);
  Value truncated = arith::SelectOp::create(
      builder, loc, awayFromZero,
      arith::SubIOp::create(builder, loc, bits, one), bits);
  Value odd = arith::SelectOp::create(
      builder, loc, inexact, arith::OrIOp::create(builder, loc, truncated, one),
      truncated);
  return arith::TruncFOp::create(
      builder, loc, to, arith::BitcastOp::create(builder, loc, f32, odd));
}

/// Float (f32 or f64) to float.
static Value convertFloat(OpBuilder &builder, Location loc, Value x,
                          FloatType to) {
  auto from = cast<FloatType>(x.getType());
  if (from == to)
    return x;
  if (to.getWidth() > from.getWidth())
    return arith::ExtFOp::create(builder, loc, to, x);
  if (from.isF64() && (to.isBF16() || to.getWidth() == 8))
    return truncF64ViaOddF32(builder, loc, x, to);
  return arith::TruncFOp::create(builder, loc, to, x);
}

/// Float (f32 or f64) to a wider-than-i1 integer (signless `to`, unsigned
/// where `toUnsigned`). arith.fptosi and fptoui are poison when the
/// truncated value does not fit, so selects put the ew results there: the
/// type's minimum below the range, its maximum above, 0 for NaN. (The LLVM
/// dialect has no op for llvm.fptosi.sat, which means the same; its generic
/// expansion in LLVM is these compares and selects too.) The bounds
/// -2^(w-1) and 2^(w-1) (0 and 2^w unsigned) are exact in f32 and f64, and
/// every x in (-2^(w-1) - 1, -2^(w-1)) truncates to INT_MIN (in (-1, 0) to
/// 0), so `x < low` is the exact underflow test.
static Value convertFloatToInt(OpBuilder &builder, Location loc, Value x,
                               IntegerType to, bool toUnsigned) {
  Type type = x.getType();
  unsigned width = to.getWidth();
  double bound = std::ldexp(1.0, toUnsigned ? width : width - 1);
  Value low = createConstant(builder, loc, type, toUnsigned ? 0.0 : -bound);
  Value high = createConstant(builder, loc, type, bound);
  auto intConstant = [&](const APInt &value) -> Value {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getIntegerAttr(to, value));
  };
  Value result = toUnsigned
                     ? Value(arith::FPToUIOp::create(builder, loc, to, x))
                     : Value(arith::FPToSIOp::create(builder, loc, to, x));
  Value below =
      arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OLT, x, low);
  Value min = intConstant(toUnsigned ? APInt::getMinValue(width)
                                     : APInt::getSignedMinValue(width));
  result = arith::SelectOp::create(builder, loc, below, min, result);
  Value above =
      arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGE, x, high);
  Value max = intConstant(toUnsigned ? APInt::getMaxValue(width)
                                     : APInt::getSignedMaxValue(width));
  result = arith::SelectOp::create(builder, loc, above, max, result);
  Value isNaN =
      arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(builder, loc, isNaN,
                                 intConstant(APInt::getZero(width)), result);
}

Value lowering::convertElement(OpBuilder &builder, Location loc, Value x,
                               bool fromUnsigned, Type to, bool toUnsigned) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    // != 0: unordered, so NaN is true; -0.0 == 0.0, so it is false.
    Value zero = createConstant(builder, loc, from, 0);
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE, x,
                                   zero);
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, x,
                                 zero);
  }
  if (from.isInteger(1)) {
    if (isa<IntegerType>(to))
      return arith::ExtUIOp::create(builder, loc, to, x);
    // Two statements, so that the order of the IR does not depend on the
    // compiler's order of evaluating arguments.
    Value zero = createConstant(builder, loc, to, 0);
    Value one = createConstant(builder, loc, to, 1);
    return arith::SelectOp::create(builder, loc, x, one, zero);
  }
  auto toInt = dyn_cast<IntegerType>(to);
  if (isa<IntegerType>(from)) {
    unsigned fromWidth = from.getIntOrFloatBitWidth();
    if (toInt) {
      if (toInt.getWidth() <= fromWidth)
        return arith::TruncIOp::create(builder, loc, to, x);
      if (fromUnsigned)
        return arith::ExtUIOp::create(builder, loc, to, x);
      return arith::ExtSIOp::create(builder, loc, to, x);
    }
    // Into f16/bf16 through f64, exact up to 32 bits: the ew definition.
    Type via = computesInF32(to) ? builder.getF64Type() : to;
    Value wide = fromUnsigned
                     ? Value(arith::UIToFPOp::create(builder, loc, via, x))
                     : Value(arith::SIToFPOp::create(builder, loc, via, x));
    Value narrow = convertFloat(builder, loc, wide, cast<FloatType>(to));
    // Only f16 overflows, from 65520 on: types whose values stay below
    // (i8, u8, i16) need no selects.
    if (!to.isF16() || fromWidth < 16 || (fromWidth == 16 && !fromUnsigned))
      return narrow;
    // Integers from 65520 on round to f16's infinities; say so explicitly.
    // LLVM 22's InstCombine takes fpext(fptrunc(sitofp x) to half) as
    // sitofp x when x has few significant bits, ignoring half's range:
    // f16(INT64_MIN) became -2^63 instead of -inf (ewc-fuzz, CPU, seed 600,
    // program 69945). With the selects, whatever that fold does to the
    // in-range values is exact, and the rest are right.
    Value limit = createConstant(builder, loc, from, 65520);
    Value above = arith::CmpIOp::create(
        builder, loc,
        fromUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge, x,
        limit);
    Value inf = createConstant(builder, loc, to,
                               std::numeric_limits<double>::infinity());
    if (fromUnsigned)
      return arith::SelectOp::create(builder, loc, above, inf, narrow);
    Value negativeLimit = createConstant(builder, loc, from, -65520);
    Value below = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle,
                                        x, negativeLimit);
    Value negativeInf = createConstant(
        builder, loc, to, -std::numeric_limits<double>::infinity());
    Value high = arith::SelectOp::create(builder, loc, above, inf, narrow);
    return arith::SelectOp::create(builder, loc, below, negativeInf, high);
  }
  if (toInt)
    return convertFloatToInt(builder, loc, x, toInt, toUnsigned);
  return convertFloat(builder, loc, x, cast<FloatType>(to));
}

namespace {

struct CastLowering : ElementwiseLowering<CastOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, CastOp op,
                     ValueRange operands) const override {
    Type to = getElementType(op.getType());
    return convertElement(builder, loc, operands[0],
                          isUnsignedValue(op.getOperand().getType()),
                          getSignlessType(to), to.isUnsignedInteger());
  }
};

/// ew.bitcast: arith.bitcast between the elements' storage types, which
/// are signless (ui32 and i32 are one type: no op at all). Not an
/// ElementwiseLowering: the bits are those of the stored type, never of an
/// f16's or an f8's f32 compute value.
/// Between the two 16-bit floats, a bitcast is computed as the value it
/// makes, in f32, then truncated (exactly: the value is one of the result
/// type's): LLVM 22's InstCombine rewrites `fcmp une (fpext (bitcast bfloat
/// %x to half)), 0.0` into an `and` of the bfloat itself, which is invalid
/// IR (x86 then fails with "Do not know how to soft promote this operator's
/// result!"; ewc-fuzz --seed 45, program 501, bool(bitcast(p0, f16)) of a
/// bf16 p0), and a bitcast through i16 folds back into that one. A NaN keeps
/// its sign and its payload's top bits (the verdict reads a NaN from a
/// bitcast as NaN, docs/language.md).
///
/// f16 bits as a bf16: bf16 is f32's top half.
static Value bitcastToBF16(OpBuilder &builder, Location loc, Value x) {
  Type i16 = builder.getI16Type(), i32 = builder.getI32Type();
  Value bits = arith::BitcastOp::create(builder, loc, i16, x);
  Value wide = arith::ExtUIOp::create(builder, loc, i32, bits);
  Value high = arith::ShLIOp::create(builder, loc, wide,
                                     createConstant(builder, loc, i32, 16));
  Value value =
      arith::BitcastOp::create(builder, loc, builder.getF32Type(), high);
  return arith::TruncFOp::create(builder, loc, builder.getBF16Type(), value);
}

/// bf16 bits as an f16: its magnitude placed at f32's mantissa top reads as
/// the value times 2^-112, subnormals too (the product is exact); the
/// exponent field's top value is infinity or NaN.
static Value bitcastToF16(OpBuilder &builder, Location loc, Value x) {
  Type i16 = builder.getI16Type(), i32 = builder.getI32Type();
  Type f32 = builder.getF32Type();
  auto constant = [&](int64_t value) {
    return createConstant(builder, loc, i32, value);
  };
  Value bits = arith::BitcastOp::create(builder, loc, i16, x);
  Value wide = arith::ExtUIOp::create(builder, loc, i32, bits);
  Value sign = arith::ShLIOp::create(
      builder, loc, arith::AndIOp::create(builder, loc, wide, constant(0x8000)),
      constant(16));
  Value magnitude = arith::AndIOp::create(builder, loc, wide, constant(0x7FFF));
  Value placed = arith::BitcastOp::create(
      builder, loc, f32,
      arith::ShLIOp::create(builder, loc, magnitude, constant(13)));
  Value scale = arith::ConstantOp::create(
      builder, loc, builder.getF32FloatAttr(std::ldexp(1.0f, 112)));
  Value scaled = arith::MulFOp::create(builder, loc, placed, scale);
  Value finite = arith::BitcastOp::create(builder, loc, i32, scaled);
  // Infinity (0x7C00) and NaN (above): f32's exponent field all ones, the
  // mantissa's top bits kept.
  Value special = arith::OrIOp::create(
      builder, loc,
      arith::ShLIOp::create(builder, loc, magnitude, constant(13)),
      constant(0x7F800000));
  Value isSpecial = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::uge, magnitude, constant(0x7C00));
  Value unsigned_ =
      arith::SelectOp::create(builder, loc, isSpecial, special, finite);
  Value result = arith::BitcastOp::create(
      builder, loc, f32, arith::OrIOp::create(builder, loc, unsigned_, sign));
  return arith::TruncFOp::create(builder, loc, builder.getF16Type(), result);
}

struct BitcastLowering : OpConversionPattern<BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type to = getTypeConverter()->convertType(op.getType());
    Value operand = adaptor.getOperand();
    Type from = operand.getType();
    if (from == to)
      rewriter.replaceOp(op, operand);
    else if (from.isBF16() && to.isF16())
      rewriter.replaceOp(op, bitcastToF16(rewriter, op.getLoc(), operand));
    else if (from.isF16() && to.isBF16())
      rewriter.replaceOp(op, bitcastToBF16(rewriter, op.getLoc(), operand));
    else
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, to, operand);
    return success();
  }
};

} // namespace

void lowering::populateEwCastPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<CastLowering, BitcastLowering>(converter, patterns.getContext());
}
