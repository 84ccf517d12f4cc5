//===- EwOptFuzzer.cpp - libFuzzer target: ew IR through ewc-opt's path ---===//
//
// Feeds arbitrary bytes to the MLIR parser as ewc-opt reads its input: a
// context with exactly ewc-opt's dialects (registerEwCompilerDialects), so
// the ew dialect's parsers, printers-to-be and verifiers see the bytes. A
// module that verifies and holds ew ops only then runs the two named
// pipelines ewc-opt registers, ew-to-ptx (to PTX text, sm_90) and ew-to-cpu,
// each on its own copy. A pipeline may reject the IR with a diagnostic;
// a crash or a sanitizer report stops the fuzzer.
//
// IR with ops of other dialects is parsed and verified but not lowered: our
// pipelines take ew kernels, and upstream passes fed arbitrary upstream IR
// would fuzz upstream MLIR rather than ewc.
//
//===----------------------------------------------------------------------===//

#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "ewc/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

static bool holdsOnlyEwOps(mlir::ModuleOp module) {
  bool onlyEw = true;
  module.getBody()->walk([&](mlir::Operation *op) {
    if (op->getDialect() == nullptr ||
        !llvm::isa<mlir::ew::EwDialect>(op->getDialect()))
      onlyEw = false;
  });
  return onlyEw;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    mlir::ew::registerEwCompilerDialects(*r);
    return r;
  }();
  // A fresh context per input: a shared one would keep everything it ever
  // interned.
  mlir::MLIRContext context(*registry, mlir::MLIRContext::Threading::DISABLED);
  // Format every diagnostic (as ewc-opt would print it) into nothing.
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &diag) {
    llvm::nulls() << diag;
    return mlir::success();
  });
  // MLIR's lexer reads up to a NUL after the text, as every buffer from a
  // file (ewc-opt's input) has; libFuzzer's bytes have none, and
  // parseSourceString does not add one (ASan caught the lexer reading past
  // them). getMemBufferCopy adds it.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module || !holdsOnlyEwOps(*module))
    return 0;

  mlir::ew::EwToPTXOptions ptxOptions; // sm_90, the chip's minimum PTX ISA
  for (bool gpu : {true, false}) {
    mlir::OwningOpRef<mlir::ModuleOp> copy = module->clone();
    mlir::PassManager pm(&context);
    if (gpu)
      mlir::ew::buildEwToPTXPipeline(pm, ptxOptions);
    else
      mlir::ew::buildEwToCPUPipeline(pm);
    (void)pm.run(*copy);
  }
  return 0;
}
