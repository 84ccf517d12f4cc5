//===- ewc-lsp-server.cpp - MLIR language server for the ew dialect -------===//
//
// mlir-lsp-server with ewc's dialects: editors get diagnostics, hovers and
// go-to-definition in .mlir files holding ew ops and every stage the
// pipelines produce (the same registry as ewc-opt and ewc-run).
//
//===----------------------------------------------------------------------===//

#include "ewc/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::ew::registerEwCompilerDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
