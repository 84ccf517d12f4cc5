//===- EwToGPU.cpp - ew kernels to GPU kernels ----------------------------===//
//
// Each ew.kernel becomes a gpu.func kernel with the kernel ABI (KernelABI.h)
// whose body is one grid-stride loop per loop nest, over the nest's points in
// row-major order (the flat index):
//
//   for (f = blockIdx.x * blockDim.x + threadIdx.x; f < points;
//        f += gridDim.x * blockDim.x) {
//     (i0, ..., ik) = delinearize(f, extents);
//     out[i0, ..., ik] = element(in[its coordinates], ...);
//   }
//
// so the runtime may pick any grid, and empty or ragged extents need no
// special case. The element code comes from EwToArith. Each loop carries the
// thread-to-element layout it is to have (#ew.blocked; ew-vectorize-gpu-loops
// realizes it) and the kernel its launch descriptor (#ew.launch).
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToGPU/EwToGPU.h"

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Conversion/EwToArith/EwToArith.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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

/// A kernel on its way to a gpu.func, as in EwToLoops.
struct PendingKernel {
  gpu::GPUFuncOp func;
  std::string elementName;
  KernelAccess access;
};

/// The grid-stride loop of one nest, with the element code at its point.
scf::ForOp buildLoop(OpBuilder &builder, Location loc,
                     const PendingKernel &kernel, func::FuncOp element,
                     const LoopNest &nest,
                     const llvm::StringMap<Value> &extents) {
  SmallVector<Value> basis;
  Value points = arith::ConstantIndexOp::create(builder, loc, 1);
  for (const std::string &dim : nest.dims) {
    basis.push_back(extents.lookup(dim));
    points = arith::MulIOp::create(builder, loc, points, basis.back());
  }
  // index is 64-bit (convert-gpu-to-nvvm's index-bitwidth): the points may
  // exceed 2^31.
  Value blockId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value blockDim = gpu::BlockDimOp::create(builder, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
  Value start = arith::AddIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, blockId, blockDim),
      threadId);
  Value step = arith::MulIOp::create(builder, loc, gridDim, blockDim);
  auto loop = scf::ForOp::create(builder, loc, start, points, step);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  SmallVector<Value> coords;
  if (basis.size() == 1)
    coords.push_back(loop.getInductionVar());
  else
    coords = affine::AffineDelinearizeIndexOp::create(
                 builder, loc, loop.getInductionVar(), basis,
                 /*hasOuterBound=*/true)
                 .getResults();
  emitElement(builder, loc, kernel.access, element, kernel.func, nest, coords,
              extents);
  return loop;
}

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
    Attribute global = builder.getI64IntegerAttr(kGlobalAddressSpace);
    std::vector<PendingKernel> kernels;
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      builder.setInsertionPointToEnd(gpuModule.getBody());
      auto func = gpu::GPUFuncOp::create(
          builder, kernel.getLoc(), ewc::getKernelSymbol(kernel.getSymName()),
          getKernelABIType(kernel, global));
      func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                    builder.getUnitAttr());
      if (KernelVariant::get(kernel).unaligned)
        func->setAttr(kUnalignedAttrName, builder.getUnitAttr());
      Block &entry = func.getBody().front();
      for (BlockArgument arg : kernel.getBody().getArguments())
        entry.getArgument(arg.getArgNumber()).setLoc(arg.getLoc());
      kernels.push_back(
          {func, getElementFunctionName(kernel), KernelAccess::get(kernel)});
    }

    ElementTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateEwToGPUPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<EwDialect>();
    target.addLegalDialect<
        affine::AffineDialect, arith::ArithDialect, func::FuncDialect,
        gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
        memref::MemRefDialect, scf::SCFDialect, ub::UBDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      signalPassFailure();
      return;
    }

    for (PendingKernel &kernel : kernels) {
      auto element = module.lookupSymbol<func::FuncOp>(kernel.elementName);
      Location loc = kernel.func.getLoc();
      OpBuilder body = OpBuilder::atBlockBegin(&kernel.func.getBody().front());
      llvm::StringMap<Value> extents =
          getExtents(body, loc, kernel.access, kernel.func);
      // One point per thread and step: the scalar loop, which
      // ew-vectorize-gpu-loops widens into the layout that pays
      // (VectorizeGPULoops.h).
      auto layout = BlockedLayoutAttr::get(&getContext(), kBlockSize, 1, 1);
      for (const LoopNest &nest : kernel.access.nests) {
        scf::ForOp loop = buildLoop(body, loc, kernel, element, nest, extents);
        loop->setAttr(kLayoutAttrName, layout);
      }
      gpu::ReturnOp::create(body, loc);
      kernel.func->setAttr(
          kLaunchAttrName,
          LaunchAttr::get(&getContext(),
                          StringAttr::get(&getContext(), kElementwiseSchedule),
                          kBlockSize, layout.getElementsPerThread(), 0));
      element.erase();
      // The loads and placeholders that no result of a nest needs.
      if (failed(applyPatternsGreedily(kernel.func,
                                       RewritePatternSet(&getContext()))))
        return signalPassFailure();
    }
  }
};

} // namespace

void mlir::ew::populateEwToGPUPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  populateEwToArithPatterns(converter, patterns);
}
