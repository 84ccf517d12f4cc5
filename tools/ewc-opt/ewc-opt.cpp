//===- ewc-opt.cpp - The ewc optimizer driver -----------------------------===//
//
// mlir-opt for ewc: the ew dialect, the dialects our lowerings produce, our
// passes and named pipelines, and the upstream passes those pipelines use,
// so that every stage can be run and checked on its own in lit tests.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/Passes.h"
#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "ewc/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::ew::EwDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::scf::SCFDialect>();
  mlir::ew::registerEwPipelineDependencies(registry);

  mlir::ew::registerEwConversionPasses();
  mlir::ew::registerEwPipelines();
  // The upstream passes inside our pipelines, to run stages piecewise.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSCFToControlFlowPass();
  mlir::registerArithToLLVMConversionPass();
  mlir::registerConvertControlFlowToLLVMPass();
  mlir::registerConvertFuncToLLVMPass();
  mlir::registerConvertGpuOpsToNVVMOps();
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::registerGpuNVVMAttachTarget();
  mlir::registerGpuModuleToBinaryPass();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ewc optimizer driver\n", registry));
}
