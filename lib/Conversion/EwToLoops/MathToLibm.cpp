//===- MathToLibm.cpp - libm calls for the math ops LLVM would approximate ===//
//
// ew-cpu-math-to-libm (Passes.td has the reasons and an example): math.expm1
// and math.log1p become libm calls before convert-math-to-llvm, which would
// expand them to exp(x) - 1 and log(1 + x). A partial conversion with only
// those two ops illegal applies MLIR's math-to-libm patterns to them alone
// (a conversion rewrites illegal ops only), so floor, fabs and the other ops
// with vector instructions still reach convert-math-to-llvm.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToLoops/EwToLoops.h"
#include "ewc/Conversion/StageCheck.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_EWCPUMATHTOLIBM
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;

namespace {
struct EwCPUMathToLibmPass
    : ew::impl::EwCPUMathToLibmBase<EwCPUMathToLibmPass> {
  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(getOperation(), getArgument(),
                                      "the math ops of convert-ew-to-loops",
                                      "--convert-ew-to-loops")))
      return signalPassFailure();
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<math::ExpM1Op, math::Log1pOp>();
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
