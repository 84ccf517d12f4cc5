//===- ASTDump.h - Textual dump of the ew AST -------------------*- C++ -*-===//
//
// Prints the AST as an indented tree, one node a line with its kind, name,
// resolved type and <line:col>, for `ewc-run --emit ast` and its lit tests.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_ASTDUMP_H
#define EWC_FRONTEND_ASTDUMP_H

#include "ewc/Frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

namespace ewc {

/// Prints `module` to `os`. Types appear where sema has set them, so a module
/// that was only parsed can be dumped as well.
void dumpAST(const ModuleDecl &module, llvm::raw_ostream &os);

} // namespace ewc

#endif // EWC_FRONTEND_ASTDUMP_H
