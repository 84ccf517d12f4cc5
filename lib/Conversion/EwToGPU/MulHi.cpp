//===- MulHi.cpp - i32 extended products as mul.lo and mul.hi -------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// ew-gpu-mul-hi (Passes.td has the example and the measurement): each
// arith.mului_extended of two i32 scalars becomes arith.muli and a call of
// llvm.nvvm.mulhi.ui, so that the product stays two 32-bit instructions in
// PTX instead of a 64-bit multiply that LLVM widens the code around it to.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Conversion/StageCheck.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_EWGPUMULHI
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;

namespace {

struct EwGPUMulHiPass : mlir::ew::impl::EwGPUMulHiBase<EwGPUMulHiPass> {
  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(getOperation(), getArgument(),
                                      "the gpu.module of convert-ew-to-gpu",
                                      "--convert-ew-to-gpu")))
      return signalPassFailure();
    SmallVector<arith::MulUIExtendedOp> ops;
    getOperation()->walk([&](arith::MulUIExtendedOp op) {
      if (op.getLhs().getType().isInteger(32))
        ops.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (arith::MulUIExtendedOp op : ops) {
      builder.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value low = arith::MulIOp::create(builder, loc, op.getLhs(), op.getRhs());
      Value high = LLVM::CallIntrinsicOp::create(
                       builder, loc, builder.getI32Type(),
                       builder.getStringAttr("llvm.nvvm.mulhi.ui"),
                       ValueRange{op.getLhs(), op.getRhs()})
                       .getResult(0);
      op.getLow().replaceAllUsesWith(low);
      op.getHigh().replaceAllUsesWith(high);
      op.erase();
    }
  }
};

} // namespace
