//===- Frontend.cpp - Entry point of the ew front end ---------------------===//
//
// parseAndCheck: the parser, then sema, sharing one Diagnostics so that the
// caller learns of an error from either by a null result.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Frontend.h"
#include "ewc/Frontend/Diagnostics.h"
#include "ewc/Frontend/Parser.h"
#include "ewc/Frontend/Sema.h"

using namespace ewc;

std::unique_ptr<ModuleDecl> ewc::parseAndCheck(llvm::SourceMgr &sourceMgr) {
  Diagnostics diags(sourceMgr);
  std::unique_ptr<ModuleDecl> module = parseModule(diags);
  if (!module || !checkModule(*module, diags))
    return nullptr;
  return module;
}
