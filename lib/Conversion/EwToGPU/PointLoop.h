//===- PointLoop.h - The loops ew-vectorize-gpu-loops reads -----*- C++ -*-===//
//
// Private to lib/Conversion/EwToGPU: what ew-vectorize-gpu-loops needs to
// know about one scalar grid-stride loop of convert-ew-to-gpu (EwToGPU.cpp)
// before it rewrites it: the nest's coordinates and extents, and how each
// tensor access of the point code can move across an atom of the innermost
// dimension.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_CONVERSION_EWTOGPU_POINTLOOP_H
#define EWC_LIB_CONVERSION_EWTOGPU_POINTLOOP_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir {
namespace ew {

/// How an access of the point code is made across an atom.
enum class AccessKind {
  /// The tensor's innermost dimension is the nest's, with a static unit
  /// stride: vectors.
  Vector,
  /// The nest's innermost dimension at a runtime stride or not innermost in
  /// the tensor: one scalar access per point (a gather or scatter).
  Scalar,
  /// A load without the nest's innermost dimension: one per atom, whose
  /// points all lie in one row.
  Broadcast,
};

/// A memref.load or memref.store of the point code.
struct Access {
  Operation *op;
  Value memref;
  /// Per index of the access, the nest coordinate it is.
  SmallVector<unsigned> coords;
  AccessKind kind = AccessKind::Scalar;
  /// Bytes per element.
  unsigned bytes = 0;

  bool isStore() const { return isa<::mlir::memref::StoreOp>(op); }
};

/// A scalar grid-stride loop over the points of one nest, as analyzed.
struct PointLoop {
  scf::ForOp loop;
  /// The delinearization of the flat index into coordinates, or null for a
  /// 1-D nest, whose coordinate is the flat index.
  affine::AffineDelinearizeIndexOp delinearize;
  /// The extents of the nest, outermost first.
  SmallVector<OpFoldResult> extents;
  /// The coordinates as the point code has them.
  SmallVector<Value> coords;
  /// Every access, in the order of the point code.
  SmallVector<Access> accesses;

  unsigned getRank() const { return coords.size(); }
};

/// Analyzes `loop`, a loop with an `ew.layout` in a kernel whose entry block
/// is `entry`. On failure, `why` says what the pass does not understand (its
/// remark).
FailureOr<PointLoop> analyzePointLoop(scf::ForOp loop, Block *entry,
                                      std::string &why);

/// True for EwToArith's correctly rounded square root: a call of llvm.sqrt
/// by name (EwToArith/Math.cpp says why not math.sqrt), which declares no
/// memory effects but has none.
bool isSqrtCall(Operation *op);

/// True for the intrinsics EwToArith calls by name, which declare no memory
/// effects but have none: llvm.sqrt (above) and llvm.trunc (Math.cpp).
bool isPureIntrinsicCall(Operation *op);

/// The dimensions of the nest of `loop`: those of its results.
unsigned getNestRank(scf::ForOp loop);

} // namespace ew
} // namespace mlir

#endif // EWC_LIB_CONVERSION_EWTOGPU_POINTLOOP_H
