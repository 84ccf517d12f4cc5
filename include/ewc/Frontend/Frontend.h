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

#include "llvm/Support/SMLoc.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace ewc {

/// Parses and checks the main buffer of `sourceMgr` under `binding` (the
/// types of generic kernels' parameters, by name: Sema.h). A generic kernel
/// that the binding leaves free is a template, checked under every binding
/// its constraints admit; the first that fails is reported, its types named.
/// Errors and warnings are printed through the SourceMgr (to llvm::errs()
/// unless it has a handler); returns null if there was an error. The
/// SourceMgr must outlive the Module.
std::unique_ptr<ModuleDecl> parseAndCheck(llvm::SourceMgr &sourceMgr,
                                          const TypeBinding &binding = {});

/// Every binding of `kernel`'s type parameters that `binding` leaves free
/// to types their constraints admit (one empty binding if none is free), in
/// the order the constraints list them, the first parameter slowest.
std::vector<TypeBinding> getAdmittedBindings(const KernelDecl &kernel,
                                             const TypeBinding &binding = {});

/// The comment that documents the declaration starting at `loc` (a kernel's
/// `kernel` keyword): the lines right above it that hold only a comment, up
/// to a blank line or code, with each line's `#` and the one space after it
/// removed; "" if there is none. A comment at the end of a line of code
/// documents nothing. Docstrings of the Python package and the exported
/// header's comments come from here.
std::string getDocComment(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc);

} // namespace ewc

#endif // EWC_FRONTEND_FRONTEND_H
