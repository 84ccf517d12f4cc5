//===- FrontendFuzzer.cpp - libFuzzer target: the front end on raw bytes --===//
//
// Feeds arbitrary bytes to the front end as a .ew file: the lexer, parser
// and sema (parseAndCheck), then, for a program sema accepts, MLIRGen and
// the MLIR verifier. The contract (docs/language.md): any input gives either
// located errors or a module that verifies. A crash, a sanitizer report, or
// an accepted program whose module fails to verify (a front-end bug, since
// sema has checked the types) stops the fuzzer.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Frontend.h"
#include "ewc/MLIRGen/MLIRGen.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.ew"),
      llvm::SMLoc());
  // Format every message (line, column, caret) as ewc-run would, so that a
  // location outside the buffer shows up, but print nothing: printing each
  // of millions of errors would be most of the run's time.
  sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &diag,
                              void *) { diag.print("ewc", llvm::nulls()); },
                           nullptr);
  std::unique_ptr<ewc::ModuleDecl> ast = ewc::parseAndCheck(sourceMgr);
  if (!ast)
    return 0;

  // A fresh context per input: one shared context would keep every type,
  // attribute and location it ever interned, and grow without bound.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    errorStream << diag << "\n";
    return mlir::success();
  });
  if (!ewc::mlirGen(context, *ast, sourceMgr)) {
    llvm::errs() << "fuzz-frontend: sema accepted a program whose MLIR does "
                    "not verify:\n"
                 << errors;
    std::abort();
  }
  return 0;
}
