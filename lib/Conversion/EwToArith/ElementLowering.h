//===- ElementLowering.h - Shared parts of the element patterns -*- C++ -*-===//
//
// Private to EwToArith: the base pattern of every elementwise op and the
// compute-type rule, shared by the files that lower one op family each
// (EwToArith.cpp: arithmetic, logic, comparison; Math.cpp; Cast.cpp;
// Random.cpp).
//
// The compute-type rule: f16 and bf16 values are computed in f32. The lowering
// extends them (exactly) before the op and rounds a float result back once,
// so f16/bf16 arithmetic in hand-written IR gives the correctly rounded result
// (f32 has more than twice their precision, so + - * / sqrt round the same as
// a native op would), and no target needs native f16/bf16 arithmetic: on the
// CPU only the conversions remain, which EwToLoops expands for bf16.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_CONVERSION_EWTOARITH_ELEMENTLOWERING_H
#define EWC_LIB_CONVERSION_EWTOARITH_ELEMENTLOWERING_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {
namespace lowering {

/// True for f16, bf16, f8E4M3FN and f8E5M2, which compute in f32.
bool computesInF32(Type type);

/// `value` in its compute type: f16, bf16 and the 8-bit floats extended to
/// f32, others as is.
Value extendToComputeType(OpBuilder &builder, Location loc, Value value);

/// True if the ew value type `type` (a tensor or a scalar) has unsigned
/// integer elements: the ops on it are the unsigned ones once its elements
/// are signless.
bool isUnsignedValue(Type type);

/// Converts element `x` (i1, a signless integer, f32 or f64: f16/bf16 are
/// extended to f32 by ElementwiseLowering; unsigned where `fromUnsigned`) to
/// `to` (signless; unsigned where `toUnsigned`), with ew.cast's semantics
/// (Cast.cpp): integers truncate or extend by their signedness.
Value convertElement(OpBuilder &builder, Location loc, Value x,
                     bool fromUnsigned, Type to, bool toUnsigned);

/// A constant of scalar `type` with value `value` (float or integer).
Value createConstant(OpBuilder &builder, Location loc, Type type, double value);

/// Lowers an elementwise ew op on element values. `buildElement` gets the
/// converted operands in their compute type; a float result computed in f32
/// for an f16/bf16/f8 result type is rounded to that type once.
template <typename EwOp>
struct ElementwiseLowering : OpConversionPattern<EwOp> {
  using OpConversionPattern<EwOp>::OpConversionPattern;
  using OpAdaptor = typename EwOp::Adaptor;

  /// Builds the element result from `operands` (in compute types).
  virtual Value buildElement(OpBuilder &builder, Location loc, EwOp op,
                             ValueRange operands) const = 0;

  LogicalResult
  matchAndRewrite(EwOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    Location loc = op.getLoc();
    SmallVector<Value> operands;
    for (Value operand : adaptor.getOperands())
      operands.push_back(extendToComputeType(rewriter, loc, operand));
    Value result = buildElement(rewriter, loc, op, operands);
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    if (result.getType() != resultType)
      result = arith::TruncFOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The patterns of the math functions (Math.cpp).
void populateEwMathPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns);

/// The patterns of ew.rand, ew.randn and ew.randint (Random.cpp).
void populateEwRandomPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns);

/// The patterns of ew.cast and ew.bitcast (Cast.cpp).
void populateEwCastPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns);

} // namespace lowering
} // namespace ew
} // namespace mlir

#endif // EWC_LIB_CONVERSION_EWTOARITH_ELEMENTLOWERING_H
