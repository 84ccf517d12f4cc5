//===- MLIRGen.h - Lowering of the ew AST to the ew dialect -----*- C++ -*-===//
//
// The one bridge between the front end and MLIR (as MLIRGen is in Toy): it
// turns a checked AST into an `ew.kernel` per kernel, with every op located
// by a FileLineColLoc into the source. Nothing else in the front end includes
// MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_MLIRGEN_MLIRGEN_H
#define EWC_MLIRGEN_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace ewc {

class ModuleDecl;

/// Emits `module`, which must have passed sema, as an MLIR module of
/// `ew.kernel`s. Locations use the name of the main buffer of `sourceMgr`.
/// Returns null after emitting a diagnostic if the module fails to verify
/// (which would be a front-end bug, as sema has checked the types).
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const ModuleDecl &module,
                                          const llvm::SourceMgr &sourceMgr);

} // namespace ewc

#endif // EWC_MLIRGEN_MLIRGEN_H
