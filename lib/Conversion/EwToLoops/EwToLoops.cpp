//===- EwToLoops.cpp - ew kernels to CPU loops ----------------------------===//
//
// Each ew.kernel becomes a func.func with the kernel ABI (KernelABI.h: its
// tensors as strided memrefs) whose body is one loop nest per set of result
// dimensions,
//
//   for (i0 = 0; i0 < extent0; ++i0) ... for (ik ...)
//     out[i0, ..., ik] = element(in[its coordinates], ...);
//
// outermost first in the first result's declared order. The element code
// comes from EwToArith; LLVM vectorizes the innermost loop, along which a
// tensor of the default variant is contiguous.
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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_CONVERTEWTOLOOPS
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

namespace {

/// A kernel on its way to a loop nest: its ABI function, made before the
/// conversion turns the kernel into its element function, and what the
/// nests need to know of it.
struct PendingKernel {
  func::FuncOp func;
  std::string elementName;
  KernelAccess access;
};

/// One loop nest over `nest`'s dimensions, outermost first, every loop from
/// 0 to the extent with step 1; the element code at the innermost point.
void buildLoopNest(OpBuilder &builder, Location loc,
                   const PendingKernel &kernel, func::FuncOp element,
                   const LoopNest &nest,
                   const llvm::StringMap<Value> &extents) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> coords;
  OpBuilder::InsertionGuard guard(builder);
  for (const std::string &dim : nest.dims) {
    auto loop =
        scf::ForOp::create(builder, loc, zero, extents.lookup(dim), one);
    coords.push_back(loop.getInductionVar());
    builder.setInsertionPoint(loop.getBody()->getTerminator());
  }
  emitElement(builder, loc, kernel.access, element, kernel.func, nest, coords,
              extents);
}

struct ConvertEwToLoopsPass
    : mlir::ew::impl::ConvertEwToLoopsBase<ConvertEwToLoopsPass> {
  using ConvertEwToLoopsBase::ConvertEwToLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<PendingKernel> kernels;
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      OpBuilder builder(kernel);
      auto func = func::FuncOp::create(
          builder, kernel.getLoc(), ewc::getKernelSymbol(kernel.getSymName()),
          getKernelABIType(kernel, /*memorySpace=*/nullptr));
      Block *entry = func.addEntryBlock();
      for (BlockArgument arg : kernel.getBody().getArguments())
        entry->getArgument(arg.getArgNumber()).setLoc(arg.getLoc());
      kernels.push_back(
          {func, getElementFunctionName(kernel), KernelAccess::get(kernel)});
    }

    ElementTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateEwToLoopsPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<EwDialect>();
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           LLVM::LLVMDialect, math::MathDialect,
                           memref::MemRefDialect, scf::SCFDialect,
                           ub::UBDialect>();
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
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      signalPassFailure();
      return;
    }

    for (PendingKernel &kernel : kernels) {
      auto element = module.lookupSymbol<func::FuncOp>(kernel.elementName);
      Location loc = kernel.func.getLoc();
      OpBuilder builder =
          OpBuilder::atBlockBegin(&kernel.func.getBody().front());
      llvm::StringMap<Value> extents =
          getExtents(builder, loc, kernel.access, kernel.func);
      for (const LoopNest &nest : kernel.access.nests)
        buildLoopNest(builder, loc, kernel, element, nest, extents);
      func::ReturnOp::create(builder, loc);
      element.erase();
      // The loads and placeholders that no result of a nest needs.
      if (failed(applyPatternsGreedily(kernel.func,
                                       RewritePatternSet(&getContext()))))
        return signalPassFailure();
    }
  }
};

} // namespace

void mlir::ew::populateEwToLoopsPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  populateEwToArithPatterns(converter, patterns);
}
