//===- EwToArith.cpp - ew ops to arith ops on elements --------------------===//
//
// One pattern per op family: a templated pattern for the binary arithmetic
// ops (float op or integer op by element type), and one each for constants,
// negation, comparison, selection and the terminator.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToArith/EwToArith.h"

#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ew;

ElementTypeConverter::ElementTypeConverter() {
  addConversion([](Type type) { return getElementType(type); });
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
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getValue());
    return success();
  }
};

/// add, sub, mul, div: the float op for float elements, else the integer op
/// (which wraps around, as ew integer arithmetic is defined to).
template <typename EwOp, typename FloatOp, typename IntOp>
struct BinaryArithLowering : OpConversionPattern<EwOp> {
  using OpConversionPattern<EwOp>::OpConversionPattern;
  using OpAdaptor = typename EwOp::Adaptor;
  LogicalResult
  matchAndRewrite(EwOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    if (isa<FloatType>(lhs.getType())) {
      rewriter.replaceOpWithNewOp<FloatOp>(op, lhs, rhs);
      return success();
    }
    if constexpr (std::is_void_v<IntOp>) {
      return rewriter.notifyMatchFailure(op, "no integer form");
    } else {
      rewriter.replaceOpWithNewOp<IntOp>(op, lhs, rhs);
      return success();
    }
  }
};

struct NegLowering : OpConversionPattern<NegOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NegOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value operand = adaptor.getOperand();
    Type type = operand.getType();
    if (isa<FloatType>(type)) {
      // negf flips the sign bit: -(0.0) is -0.0 and -(NaN) stays NaN, unlike
      // 0.0 - x.
      rewriter.replaceOpWithNewOp<arith::NegFOp>(op, operand);
      return success();
    }
    Value zero = arith::ConstantOp::create(rewriter, op.getLoc(),
                                           rewriter.getIntegerAttr(type, 0));
    rewriter.replaceOpWithNewOp<arith::SubIOp>(op, zero, operand);
    return success();
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

struct CmpLowering : OpConversionPattern<CmpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CmpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    Type type = lhs.getType();
    if (isa<FloatType>(type)) {
      rewriter.replaceOpWithNewOp<arith::CmpFOp>(
          op, getFloatPredicate(op.getPredicate()), lhs, rhs);
      return success();
    }
    // i1 compares unsigned (false < true); wider integers are signed.
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(
        op, getIntPredicate(op.getPredicate(), type.isInteger(1)), lhs, rhs);
    return success();
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
// Terminator
//===----------------------------------------------------------------------===//

/// ew.return in the element loop stores each result element at the loop's
/// index through the result pointers of the ABI.
struct ReturnLowering : OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    auto func = loop ? dyn_cast<FunctionOpInterface>(loop->getParentOp())
                     : FunctionOpInterface();
    if (!func)
      return rewriter.notifyMatchFailure(op, "not in an element loop");
    ValueRange results = adaptor.getOperands();
    // ABI: ..., out_0, ..., out_{r-1}, n.
    unsigned firstOutput = func.getNumArguments() - 1 - results.size();
    for (auto [index, value] : llvm::enumerate(results))
      storeElement(rewriter, op.getLoc(), value,
                   func.getArgument(firstOutput + index),
                   loop.getInductionVar());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::ew::populateEwToArithPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ConstantLowering,
               BinaryArithLowering<AddOp, arith::AddFOp, arith::AddIOp>,
               BinaryArithLowering<SubOp, arith::SubFOp, arith::SubIOp>,
               BinaryArithLowering<MulOp, arith::MulFOp, arith::MulIOp>,
               BinaryArithLowering<DivOp, arith::DivFOp, void>, NegLowering,
               CmpLowering, WhereLowering, ReturnLowering>(
      converter, patterns.getContext());
}
