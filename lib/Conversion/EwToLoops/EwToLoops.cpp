//===- EwToLoops.cpp - ew kernels to CPU loops ----------------------------===//
//
// Each ew.kernel becomes a func.func with the plain ABI whose body is
//
//   for (i = 0; i < n; ++i) out[i] = body(in[i], ...);
//
// The element code comes from EwToArith; LLVM vectorizes the loop.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToLoops/EwToLoops.h"

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Conversion/EwToArith/EwToArith.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_CONVERTEWTOLOOPS
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

namespace {

struct KernelToFunc : OpConversionPattern<KernelOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(KernelOp kernel, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = kernel.getLoc();
    rewriter.setInsertionPoint(kernel);
    auto func = func::FuncOp::create(
        rewriter, loc, ewc::getKernelSymbol(kernel.getSymName()),
        getKernelABIType(kernel, 0));
    Block *entry = func.addEntryBlock();
    for (BlockArgument arg : kernel.getBody().getArguments())
      entry->getArgument(arg.getArgNumber()).setLoc(arg.getLoc());

    rewriter.setInsertionPointToStart(entry);
    Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 64);
    Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 64);
    auto loop = scf::ForOp::create(rewriter, loc, zero,
                                   entry->getArguments().back(), one);
    func::ReturnOp::create(rewriter, loc);

    inlineKernelBody(rewriter, kernel, func, loop.getBody(),
                     loop.getInductionVar(), *getTypeConverter());
    rewriter.eraseOp(kernel);
    return success();
  }
};

struct ConvertEwToLoopsPass
    : mlir::ew::impl::ConvertEwToLoopsBase<ConvertEwToLoopsPass> {
  using ConvertEwToLoopsBase::ConvertEwToLoopsBase;

  void runOnOperation() override {
    ElementTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateEwToLoopsPatterns(converter, patterns);

    ConversionTarget target(getContext());
    target.addIllegalDialect<EwDialect>();
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           LLVM::LLVMDialect, math::MathDialect,
                           scf::SCFDialect>();
    // bf16 <-> f32 conversions become integer code: on an x86 CPU without
    // AVX512-BF16, LLVM calls __truncsfbf2 for them, which Debian 12's
    // libgcc does not have (docs/pipeline.md). The element patterns convert
    // every other bf16 conversion through f32.
    auto involvesBF16 = [](Operation *op) {
      return op->getOperand(0).getType().isBF16() ||
             op->getResult(0).getType().isBF16();
    };
    target.addDynamicallyLegalOp<arith::ExtFOp, arith::TruncFOp>(
        [&](Operation *op) { return !involvesBF16(op); });
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::ew::populateEwToLoopsPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<KernelToFunc>(converter, patterns.getContext());
  populateEwToArithPatterns(converter, patterns);
}
