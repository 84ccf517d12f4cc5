//===- Sema.h - Semantic checks of the ew language --------------*- C++ -*-===//
//
// Resolves names and builtin calls, gives every expression its type (giving
// weakly typed literals the element type of their context), and checks the
// kernel signatures. Unlike the parser it keeps going after an error, so one
// run reports every independent mistake; an expression built on a bad one is
// not reported again.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_SEMA_H
#define EWC_FRONTEND_SEMA_H

#include "ewc/Frontend/AST.h"
#include "ewc/Frontend/Diagnostics.h"

namespace ewc {

/// Checks and annotates `module`. Returns true if no error was reported;
/// only then may MLIRGen or the evaluator read the module.
bool checkModule(ModuleDecl &module, Diagnostics &diags);

} // namespace ewc

#endif // EWC_FRONTEND_SEMA_H
