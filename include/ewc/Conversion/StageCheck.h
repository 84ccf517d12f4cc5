//===- StageCheck.h - Later-stage passes refuse ew input --------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The passes that work on a later stage of the pipelines (the GPU loops, the
// LLVM dialect, PTX) would do nothing to an ew kernel and succeed: `ewc-opt
// --ptxas-workarounds kernel.mlir` printed the input back unchanged. Each
// checks its input first, so a pass run too early says so.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_STAGECHECK_H
#define EWC_CONVERSION_STAGECHECK_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace ew {

/// Fails with an error at the first op of the ew dialect under `root`: the
/// pass `pass` works on `stage`, which the pipelines (`first`) make.
inline LogicalResult checkLoweredFromEw(Operation *root, StringRef pass,
                                        StringRef stage, StringRef first) {
  Operation *found = nullptr;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (dialect && dialect->getNamespace() == "ew") {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    return success();
  return found->emitError()
         << "'" << pass << "' works on " << stage
         << ", not on the ew dialect: run " << first << " first";
}

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_STAGECHECK_H
