//===- embed-mlir.cpp - The ew dialect and pipelines in another MLIR tool -===//
//
// What a compiler engineer's tool does with the installed ew libraries
// (find_package(EWC CONFIG COMPONENTS Compiler)): registers the ew dialect,
// its conversion passes and the named pipelines, parses an ew module from a
// string, runs the pipeline named on the command line (ew-to-cpu, or
// ew-to-ptx for a GPU) by name as any MLIR tool would, and prints the
// resulting module, or its PTX. Exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/Passes.h"
#include "ewc/Pipelines/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

static const char *kEwModule = R"(
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}
)";

int main(int argc, char **argv) {
  std::string pipeline = argc > 1 ? argv[1] : "ew-to-cpu";
  mlir::DialectRegistry registry;
  mlir::ew::registerEwCompilerDialects(registry);
  mlir::ew::registerEwConversionPasses();
  mlir::ew::registerEwPipelines();

  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kEwModule, &context);
  if (!module)
    return 1;
  // The named pipelines run on the builtin.module that holds the kernels.
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, llvm::errs())) ||
      mlir::failed(pm.run(*module)))
    return 1;
  if (pipeline == "ew-to-ptx")
    llvm::outs() << mlir::ew::getPTX(*module);
  else
    module->print(llvm::outs());
  return 0;
}
