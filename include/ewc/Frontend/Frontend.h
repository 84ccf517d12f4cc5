//===- Frontend.h - Entry point of the ew front end -------------*- C++ -*-===//
//
// What a driver calls: parse and check the main buffer of a SourceMgr. The
// buffer's identifier is the file name in every message, so a driver should
// load it with MemoryBuffer::getFileOrSTDIN(path) using the path exactly as
// the user gave it.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_FRONTEND_H
#define EWC_FRONTEND_FRONTEND_H

#include "ewc/Frontend/AST.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace ewc {

/// Parses and checks the main buffer of `sourceMgr`. Errors and warnings are
/// printed through the SourceMgr (to llvm::errs() unless it has a handler);
/// returns null if there was an error. The SourceMgr must outlive the Module.
std::unique_ptr<ModuleDecl> parseAndCheck(llvm::SourceMgr &sourceMgr);

} // namespace ewc

#endif // EWC_FRONTEND_FRONTEND_H
