//===- ExpandFloat8.cpp - f8E4M3FN and f8E5M2 conversions -----------------===//
//
// ew-expand-float8 (Passes.td has the semantics and an example). The integer
// code is torch's (c10/util/Float8_e4m3fn.h and Float8_e5m2.h), step for
// step, so that the two agree on every f32 bit pattern, NaN payloads aside
// (docs/language.md, "8-bit floats"):
//
//   f32 -> f8   magnitude bits f; NaN, overflow: a constant; below the
//               smallest normal: the float sum f + 2^k, whose rounding is
//               the subnormal's (k puts the subnormal's last bit at f32's);
//               otherwise rebias the exponent and round the mantissa to
//               nearest even by adding 2^(s-1) - 1 plus the kept lsb, then
//               shift. The sign is or-ed in last.
//   f8 -> f32   the magnitude bits placed at f32's mantissa top, which reads
//               as the value times 2^-(127 - bias): a multiplication by the
//               power of two makes it exact, subnormals included; NaN (and
//               f8E5M2's infinities) by a select.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/ArithFloat8/ExpandFloat8.h"
#include "ewc/Conversion/StageCheck.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_EWEXPANDFLOAT8
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;

bool mlir::ew::isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

namespace {

/// The facts of one 8-bit format that the conversions need.
struct Format {
  /// Stored mantissa bits: 3 (e4m3) or 2 (e5m2).
  unsigned mantissaBits;
  /// The exponent bias: 7 or 15.
  int bias;
  /// f8E4M3FN has no infinity: its only special values are the NaNs.
  bool hasInfinity;

  static Format get(Type type) {
    if (isa<Float8E4M3FNType>(type))
      return {3, 7, false};
    return {2, 15, true};
  }
  /// Bits of f32's mantissa below the format's: 20 or 21.
  unsigned shift() const { return 23 - mantissaBits; }
};

/// Emits arith ops at one point: constants and the few ops the conversions
/// use, one op per statement so that the IR's order is the source's.
class Emitter {
public:
  Emitter(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc), i8(builder.getI8Type()),
        i16(builder.getI16Type()), i32(builder.getI32Type()),
        f32(builder.getF32Type()) {}

  Value constant(Type type, int64_t value) {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getIntegerAttr(type, value));
  }
  Value bits(Value f) { return arith::BitcastOp::create(builder, loc, i32, f); }
  Value floatOf(Value b) {
    return arith::BitcastOp::create(builder, loc, f32, b);
  }
  Value andI(Value a, int64_t b) {
    return arith::AndIOp::create(builder, loc, a, constant(a.getType(), b));
  }
  Value orI(Value a, Value b) {
    return arith::OrIOp::create(builder, loc, a, b);
  }
  Value addI(Value a, Value b) {
    return arith::AddIOp::create(builder, loc, a, b);
  }
  Value shl(Value a, int64_t b) {
    return arith::ShLIOp::create(builder, loc, a, constant(a.getType(), b));
  }
  Value shr(Value a, int64_t b) {
    return arith::ShRUIOp::create(builder, loc, a, constant(a.getType(), b));
  }
  /// a `pred` b, unsigned.
  Value cmp(arith::CmpIPredicate pred, Value a, int64_t b) {
    return arith::CmpIOp::create(builder, loc, pred, a,
                                 constant(a.getType(), b));
  }
  Value select(Value c, Value a, Value b) {
    return arith::SelectOp::create(builder, loc, c, a, b);
  }

  OpBuilder &builder;
  Location loc;
  Type i8, i16, i32, f32;
};

/// The 8-bit pattern `result` (an i32 whose low 8 bits are the magnitude)
/// with the sign of f32 bits `sign` (0 or 0x80000000), as `to`.
static Value finish(Emitter &e, Value result, Value sign, Type to) {
  Value signByte = e.shr(sign, 24);
  Value withSign = e.orI(result, signByte);
  Value byte = arith::TruncIOp::create(e.builder, e.loc, e.i8, withSign);
  return arith::BitcastOp::create(e.builder, e.loc, to, byte);
}

/// f32 -> f8 as integer code: fp8e4m3fn_from_fp32_value and
/// fp8e5m2_from_fp32_value of c10.
static Value truncateAsIntegers(Emitter &e, Value x, Type to) {
  Format format = Format::get(to);
  unsigned shift = format.shift();
  using P = arith::CmpIPredicate;
  Value all = e.bits(x);
  Value sign = e.andI(all, 0x80000000);
  Value magnitude = e.andI(all, 0x7FFFFFFF);

  // From 2^(emax + 1) up (480 for e4m3, whose 0x7F is NaN, 65536 for e5m2):
  // NaN, or e5m2's infinity.
  int64_t firstOut =
      format.hasInfinity ? int64_t(143) << 23 : int64_t(1087) << 20;
  Value out = e.cmp(P::uge, magnitude, firstOut);
  Value outValue = e.constant(e.i32, 0x7F);
  if (format.hasInfinity) {
    Value isNaN = e.cmp(P::ugt, magnitude, 0x7F800000);
    outValue = e.select(isNaN, outValue, e.constant(e.i32, 0x7C));
  }

  // Below the smallest normal, 2^(1 - bias): adding 2^k, with k such that
  // the subnormals' last bit is the sum's last mantissa bit, rounds (to
  // nearest even, in the float add) and leaves the subnormal's bits at the
  // bottom. k = (1 - bias) + (23 - mantissaBits) - 1 + 127 in f32's
  // exponent field: 141 for e4m3, 134 for e5m2.
  int64_t smallestNormal = int64_t(127 + 1 - format.bias) << 23;
  Value small = e.cmp(P::ult, magnitude, smallestNormal);
  int64_t denormMagic = int64_t(127 - format.bias + shift + 1) << 23;
  Value magic = e.constant(e.i32, denormMagic);
  Value sum = arith::AddFOp::create(e.builder, e.loc, e.floatOf(magnitude),
                                    e.floatOf(magic));
  Value subnormal = arith::SubIOp::create(e.builder, e.loc, e.bits(sum), magic);

  // Normal: rebias, add half an ulp less one plus the kept lsb (ties to
  // even), shift. A carry out of the mantissa bumps the exponent, into
  // e4m3's NaN or e5m2's infinity from the midpoint after the largest value.
  Value odd = e.andI(e.shr(magnitude, shift), 1);
  // (bias - 127) * 2^23 by a multiplication: a left shift of a negative
  // value is undefined in C++17 (UBSan in CI's sanitized build).
  int64_t rebias = int64_t(format.bias - 127) * (int64_t(1) << 23) +
                   ((1 << (shift - 1)) - 1);
  Value rounded = e.addI(e.addI(magnitude, e.constant(e.i32, rebias)), odd);
  Value normal = e.shr(rounded, shift);

  Value finite = e.select(small, subnormal, normal);
  Value result = e.select(out, outValue, finite);
  return finish(e, e.andI(result, 0xFF), sign, to);
}

/// f8 -> f32 as integer code (and one exact multiplication).
static Value extendAsIntegers(Emitter &e, Value x) {
  Format format = Format::get(x.getType());
  using P = arith::CmpIPredicate;
  Value byte = arith::BitcastOp::create(e.builder, e.loc, e.i8, x);
  Value wide = arith::ExtUIOp::create(e.builder, e.loc, e.i32, byte);
  Value sign = e.shl(e.andI(wide, 0x80), 24);
  Value magnitude = e.andI(wide, 0x7F);
  // The magnitude at f32's mantissa top reads as the value times
  // 2^(bias - 127), subnormals too (both formats' subnormals are f32
  // subnormals there, spaced as the f8's are): the product is exact.
  Value placed = e.floatOf(e.shl(magnitude, format.shift()));
  Value scale = arith::ConstantOp::create(
      e.builder, e.loc,
      e.builder.getF32FloatAttr(std::ldexp(1.0f, 127 - format.bias)));
  Value scaled = arith::MulFOp::create(e.builder, e.loc, placed, scale);
  Value finite = e.orI(e.bits(scaled), sign);

  // NaN: e4m3's 0x7F, e5m2's 0x7D ... 0x7F; e5m2's infinity 0x7C.
  Value quietNaN = e.orI(sign, e.constant(e.i32, 0x7FC00000));
  Value result;
  if (format.hasInfinity) {
    Value special = e.cmp(P::uge, magnitude, 0x7C);
    Value isInf = e.cmp(P::eq, magnitude, 0x7C);
    Value inf = e.orI(sign, e.constant(e.i32, 0x7F800000));
    result = e.select(special, e.select(isInf, inf, quietNaN), finite);
  } else {
    Value isNaN = e.cmp(P::eq, magnitude, 0x7F);
    result = e.select(isNaN, quietNaN, finite);
  }
  return e.floatOf(result);
}

/// f32 -> f8 with sm_89's cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32, then
/// selects for what torch does not saturate: e4m3 gives NaN above 464 (what
/// rounds past 448), e5m2 infinity from 61440 (what rounds past 57344), and
/// both NaN (0x7F) for NaN, with the sign.
static Value truncateWithHardware(Emitter &e, Value x, Type to) {
  Format format = Format::get(to);
  using P = arith::CmpIPredicate;
  Value zero = arith::ConstantOp::create(e.builder, e.loc,
                                         e.builder.getF32FloatAttr(0.0f));
  // `a` lands in the upper byte of the pair.
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      e.builder, e.loc, e.i16, x, zero, NVVM::FPRoundingMode::RN,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false, to);
  Value wide = arith::ExtUIOp::create(e.builder, e.loc, e.i32, pair);
  Value converted = e.andI(e.shr(wide, 8), 0x7F);

  Value all = e.bits(x);
  Value sign = e.andI(all, 0x80000000);
  Value magnitude = e.andI(all, 0x7FFFFFFF);
  Value result;
  if (format.hasInfinity) {
    // 61440 = 0x47700000; NaN above 0x7F800000.
    Value isNaN = e.cmp(P::ugt, magnitude, 0x7F800000);
    Value isInf = e.cmp(P::uge, magnitude, 0x47700000);
    result = e.select(isNaN, e.constant(e.i32, 0x7F),
                      e.select(isInf, e.constant(e.i32, 0x7C), converted));
  } else {
    // 464 = 0x43E80000: a tie, which rounds to 448 (even); above it NaN.
    Value isNaN = e.cmp(P::ugt, magnitude, 0x43E80000);
    result = e.select(isNaN, e.constant(e.i32, 0x7F), converted);
  }
  return finish(e, result, sign, to);
}

/// f8 -> f32 with sm_89's cvt.rn.f16x2.{e4m3x2,e5m2x2} (exact: f16 holds
/// every value of both), then f16 -> f32; NaN as the integer code has it.
static Value extendWithHardware(Emitter &e, Value x) {
  Format format = Format::get(x.getType());
  using P = arith::CmpIPredicate;
  Value byte = arith::BitcastOp::create(e.builder, e.loc, e.i8, x);
  Value zeroByte = e.constant(e.i8, 0);
  auto pairType = VectorType::get({2}, e.i8);
  Value pair = vector::FromElementsOp::create(e.builder, e.loc, pairType,
                                              ValueRange{byte, zeroByte});
  auto halvesType = VectorType::get({2}, e.builder.getF16Type());
  Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
      e.builder, e.loc, halvesType, pair, /*relu=*/false, x.getType());
  Value half =
      vector::ExtractOp::create(e.builder, e.loc, halves, ArrayRef<int64_t>{0});
  Value value = arith::ExtFOp::create(e.builder, e.loc, e.f32, half);

  Value wide = arith::ExtUIOp::create(e.builder, e.loc, e.i32, byte);
  Value magnitude = e.andI(wide, 0x7F);
  Value isNaN = format.hasInfinity ? e.cmp(P::ugt, magnitude, 0x7C)
                                   : e.cmp(P::eq, magnitude, 0x7F);
  Value sign = e.shl(e.andI(wide, 0x80), 24);
  Value quietNaN = e.orI(sign, e.constant(e.i32, 0x7FC00000));
  return e.floatOf(e.select(isNaN, quietNaN, e.bits(value)));
}

struct TruncFToFloat8 : OpRewritePattern<arith::TruncFOp> {
  TruncFToFloat8(MLIRContext *context, bool hardware)
      : OpRewritePattern(context), hardware(hardware) {}
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type to = op.getType();
    if (!ew::isFloat8(to))
      return failure();
    // f16 and bf16 extend to f32 exactly: arith's canonicalization folds
    // the ew lowering's extf to f32 into the truncf to f8 (truncf(extf x)
    // -> truncf x). f64 would round twice, and no lowering makes it.
    Value in = op.getIn();
    Type from = in.getType();
    if (!from.isF32() && !from.isF16() && !from.isBF16())
      return rewriter.notifyMatchFailure(op, "f64 does not round to f8 once");
    Emitter e(rewriter, op.getLoc());
    if (!from.isF32())
      in = arith::ExtFOp::create(rewriter, op.getLoc(), e.f32, in);
    rewriter.replaceOp(op, hardware ? truncateWithHardware(e, in, to)
                                    : truncateAsIntegers(e, in, to));
    return success();
  }
  bool hardware;
};

struct ExtFFromFloat8 : OpRewritePattern<arith::ExtFOp> {
  ExtFFromFloat8(MLIRContext *context, bool hardware)
      : OpRewritePattern(context), hardware(hardware) {}
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!ew::isFloat8(op.getIn().getType()))
      return failure();
    // Every 8-bit float is an f16, a bf16 and an f64 too: through f32,
    // exactly.
    Emitter e(rewriter, op.getLoc());
    Value wide = hardware ? extendWithHardware(e, op.getIn())
                          : extendAsIntegers(e, op.getIn());
    Type to = op.getType();
    if (to.isF64())
      wide = arith::ExtFOp::create(rewriter, op.getLoc(), to, wide);
    else if (!to.isF32())
      wide = arith::TruncFOp::create(rewriter, op.getLoc(), to, wide);
    rewriter.replaceOp(op, wide);
    return success();
  }
  bool hardware;
};

struct EwExpandFloat8Pass
    : mlir::ew::impl::EwExpandFloat8Base<EwExpandFloat8Pass> {
  using EwExpandFloat8Base::EwExpandFloat8Base;

  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(
            getOperation(), getArgument(), "the arith ops of lowered kernels",
            "--convert-ew-to-gpu or --convert-ew-to-loops")))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    ew::populateExpandFloat8Patterns(patterns, hardware);
    // Only the matched ops: folding the rest of the IR is not this pass's
    // business.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    // f64 -> f8 is not the ew lowering's (it rounds to odd in f32 first):
    // say so instead of leaving it to fail in LLVM.
    WalkResult result = getOperation()->walk([](Operation *op) {
      if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
        return WalkResult::advance();
      if (ew::isFloat8(op->getResult(0).getType())) {
        op->emitOpError("rounds f64 to an 8-bit float, which "
                        "ew-expand-float8 does not lower (the ew lowering "
                        "rounds f64 to odd in f32 first)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::ew::populateExpandFloat8Patterns(RewritePatternSet &patterns,
                                            bool hardware) {
  patterns.add<TruncFToFloat8, ExtFFromFloat8>(patterns.getContext(), hardware);
}
