//===- ewc-opt.cpp - The ewc optimizer driver -----------------------------===//
//
// mlir-opt for ewc: the ew dialect, the dialects our lowerings produce, our
// passes and named pipelines, and the upstream passes those pipelines use,
// so that every stage can be run and checked on its own in lit tests.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/Passes.h"
#include "ewc/Driver/Version.h"
#include "ewc/Pipelines/Pipelines.h"

#include "Transforms/TestPasses.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  // --version: ewc's version and revision, then LLVM's.
  llvm::cl::SetVersionPrinter(ewc::driver::printVersion);
  mlir::DialectRegistry registry;
  mlir::ew::registerEwCompilerDialects(registry);

  mlir::ew::registerEwConversionPasses();
  mlir::ew::registerEwPipelines();
  mlir::ew::test::registerTestPasses();
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

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ewc optimizer driver\n", registry));
}
