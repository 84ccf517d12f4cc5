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

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  // --version: ewc's version and revision, then LLVM's.
  llvm::cl::SetVersionPrinter(ewc::driver::printVersion);
  // --help: MLIR's options (MlirOptMain registers them below) and ewc's
  // passes and pipelines. The several hundred options that LLVM's libraries
  // register at load time (AMDGPU, AArch64, Polly, ...: 543 lines of help)
  // are hidden; --help-hidden still lists them, and they still work.
  llvm::cl::OptionCategory &generic = llvm::cl::getGeneralCategory();
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    // Keep LLVM's --help, --version and their kind ("Generic Options").
    if (llvm::any_of(option->Categories, [&](llvm::cl::OptionCategory *c) {
          return c != &generic && c->getName() == "Generic Options";
        }))
      continue;
    option->setHiddenFlag(llvm::cl::Hidden);
  }
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
