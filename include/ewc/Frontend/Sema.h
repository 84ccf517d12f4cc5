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

/// Checks and annotates `module` under `binding`: each generic kernel's
/// type parameters take the binding's types (an error where its constraint
/// does not admit one); a parameter the binding leaves free takes the first
/// type it admits, and the kernel stays a template (KernelDecl::isBound).
/// Returns true if no error was reported; only then may MLIRGen or the
/// evaluator read the module.
bool checkModule(ModuleDecl &module, Diagnostics &diags,
                 const TypeBinding &binding = {});

/// Checks generic `kernel` (freshly parsed) under `binding`, as one more
/// specialization of a template that checkModule passed: its errors carry
/// a note naming the binding, its warnings are dropped.
bool checkSpecialization(KernelDecl &kernel, Diagnostics &diags,
                         const TypeBinding &binding);

} // namespace ewc

#endif // EWC_FRONTEND_SEMA_H
