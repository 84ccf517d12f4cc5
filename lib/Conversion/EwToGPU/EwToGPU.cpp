//===- EwToGPU.cpp - ew kernels to GPU kernels ----------------------------===//
//
// Each ew.kernel becomes a gpu.func kernel whose body is a grid-stride loop:
//
//   for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//        i += gridDim.x * blockDim.x)
//     out[i] = body(in[i], ...);
//
// so the runtime may pick any grid, and n = 0 or a ragged tail need no
// special case. The element code comes from EwToArith. The pass then
// vectorizes that loop (VectorizeElementLoop.h).
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToGPU/EwToGPU.h"

#include "VectorizeElementLoop.h"

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Conversion/EwToArith/EwToArith.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_CONVERTEWTOGPU
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

/// NVPTX's global address space: loads and stores through it become
/// ld.global/st.global instead of generic accesses.
static constexpr unsigned kGlobalAddressSpace = 1;

namespace {

struct KernelToGPUFunc : OpConversionPattern<KernelOp> {
  KernelToGPUFunc(const TypeConverter &converter, MLIRContext *context,
                  gpu::GPUModuleOp target)
      : OpConversionPattern(converter, context), target(target) {}

  LogicalResult
  matchAndRewrite(KernelOp kernel, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = kernel.getLoc();
    gpu::GPUModuleOp module = target;
    rewriter.setInsertionPointToEnd(module.getBody());
    auto func =
        gpu::GPUFuncOp::create(rewriter, loc,
                               ewc::getKernelSymbol(kernel.getSymName()),
                               getKernelABIType(kernel, kGlobalAddressSpace));
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  rewriter.getUnitAttr());
    Block &entry = func.getBody().front();
    for (BlockArgument arg : kernel.getBody().getArguments())
      entry.getArgument(arg.getArgNumber()).setLoc(arg.getLoc());

    // Global thread index and grid size, widened to i64 before multiplying
    // so that n may exceed 2^31.
    rewriter.setInsertionPointToStart(&entry);
    Type i64 = rewriter.getI64Type();
    auto toI64 = [&](Value v) -> Value {
      return arith::IndexCastUIOp::create(rewriter, loc, i64, v);
    };
    Value blockId =
        toI64(gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x));
    Value blockDim =
        toI64(gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x));
    Value threadId =
        toI64(gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x));
    Value gridDim =
        toI64(gpu::GridDimOp::create(rewriter, loc, gpu::Dimension::x));
    Value start = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, blockId, blockDim),
        threadId);
    Value step = arith::MulIOp::create(rewriter, loc, gridDim, blockDim);
    Value n = entry.getArguments().back();
    auto loop = scf::ForOp::create(rewriter, loc, start, n, step);
    gpu::ReturnOp::create(rewriter, loc);

    inlineKernelBody(rewriter, kernel, func, loop.getBody(),
                     loop.getInductionVar(), *getTypeConverter());
    rewriter.eraseOp(kernel);
    return success();
  }

  gpu::GPUModuleOp target;
};

struct ConvertEwToGPUPass
    : mlir::ew::impl::ConvertEwToGPUBase<ConvertEwToGPUPass> {
  using ConvertEwToGPUBase::ConvertEwToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.getOps<KernelOp>().empty())
      return;

    // All kernels of a file go into one gpu.module: one PTX module to load.
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(builder, module.getLoc(), gpuModuleName);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());

    ElementTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateEwToGPUPatterns(converter, patterns, gpuModule);

    ConversionTarget target(getContext());
    target.addIllegalDialect<EwDialect>();
    target.addLegalDialect<arith::ArithDialect, gpu::GPUDialect,
                           LLVM::LLVMDialect, math::MathDialect,
                           scf::SCFDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      signalPassFailure();
      return;
    }
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
      unsigned elementsPerThread =
          vectorize ? vectorizeElementLoop(func, vectorsPerThread) : 1;
      func->setAttr(kElementsPerThreadAttrName,
                    builder.getI64IntegerAttr(elementsPerThread));
    }
  }
};

} // namespace

void mlir::ew::populateEwToGPUPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       gpu::GPUModuleOp target) {
  patterns.add<KernelToGPUFunc>(converter, patterns.getContext(), target);
  populateEwToArithPatterns(converter, patterns);
}
