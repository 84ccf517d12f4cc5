//===- RowLoops.h - The GPU's rows schedule -------------------*- C++ -*-===//
//
// Private to lib/Conversion/EwToGPU: the loops of the rows schedule
// (ewc/ABI/RowAccess.h), which convert-ew-to-gpu builds for a nest whose
// reductions or scans run along a tensor's contiguous dimension (softmax,
// the norms, logsumexp, a row cumsum): a team of threads per row, combining
// with warp shuffles and, for a team of several warps, through shared
// memory (RowLoops.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_CONVERSION_EWTOGPU_ROWLOOPS_H
#define EWC_LIB_CONVERSION_EWTOGPU_ROWLOOPS_H

#include "ewc/Conversion/EwToArith/KernelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/SmallBitVector.h"

#include <optional>

namespace mlir {
namespace ew {

/// What the rows loops of one kernel build from: its access layer, its
/// element function, the gpu.func they go into, and its extents by name
/// (emitted at the function's entry).
struct RowKernel {
  const KernelAccess &access;
  func::FuncOp element;
  gpu::GPUFuncOp func;
  const llvm::StringMap<Value> &extents;
  /// The block's threads and the largest team (kRowsBlockSize unless
  /// convert-ew-to-gpu's rows-block-size says otherwise).
  unsigned blockSize;
  /// The bytes of its tensors' narrowest element (getNarrowestBytes), by
  /// which the teams and the loads in flight are sized.
  unsigned elementBytes;
  /// The elements of its row a lane keeps in registers (the resident
  /// variant: ewc/ABI/RowAccess.h, ResidentRow), or 0: none.
  unsigned resident = 0;
  /// The lanes of its teams, a constant (the resident variant's), or 0:
  /// chosen by the row in the kernel.
  unsigned team = 0;
  /// The one pass of a nest with its points on the lanes that the variant
  /// has (ewc/ABI/RowAccess.h, getLanePass), or 0: all three.
  unsigned lanePass = 0;
  /// Whether the variant has the tensors read along its rows aligned
  /// (not `.u`: ewc/ABI/VectorAccess.h, isRowVectorAligned), so that a
  /// lane takes a row of one dimension in runs of consecutive elements
  /// (RowAccess.h, kRowVectorBytes).
  bool rowVectors = false;
  /// The kernel's workspace argument where its nest with points on the
  /// lanes may split its rows across blocks (RowSplit::blocksMeet and the
  /// kernel's one nest: the runtime knows its rows), or null.
  Value workspace = nullptr;
};

/// Coordinates by name of `flat` in the row-major space of `dims`, added to
/// `coordOf`.
void delinearizeInto(OpBuilder &builder, Location loc, Value flat,
                     ArrayRef<std::string> dims,
                     const llvm::StringMap<Value> &extents,
                     llvm::StringMap<Value> &coordOf);

/// The parameters of `element` (an element function with `numParams`) whose
/// elements `roots` read: the arguments they depend on, through any values,
/// reductions' operands included.
llvm::SmallBitVector getParamsReadBy(func::FuncOp element,
                                     ArrayRef<Value> roots, unsigned numParams);

/// The points of the space of `dims`: the product of their extents.
Value getVolume(OpBuilder &builder, Location loc, ArrayRef<std::string> dims,
                const llvm::StringMap<Value> &extents);

/// Shared memory through which a gpu.func's threads combine values:
/// `count` slots per type, each array made on first use and reused by every
/// combine (an i1 stored as a byte).
class SharedSlots {
public:
  SharedSlots(gpu::GPUFuncOp func, unsigned count) : func(func), count(count) {}

  /// slot[index] = value, of value's type.
  void store(OpBuilder &builder, Location loc, Value value, Value index);
  /// slot[index], of `type`.
  Value load(OpBuilder &builder, Location loc, Type type, Value index);

private:
  Value getSlots(OpBuilder &builder, Location loc, Type type);

  gpu::GPUFuncOp func;
  unsigned count;
  llvm::DenseMap<Type, Value> slotsOf;
};

/// The bytes of the narrowest element of `access`'s tensors (8 without
/// one), by which the rows schedule sizes its teams and its loads in
/// flight (RowAccess.h).
unsigned getNarrowestBytes(const KernelAccess &access);

/// The loop of the rows schedule for `nest`, split by `split`
/// (getRowSplit), made at the builder's point: a team per row, sized by the
/// row's length, the row's reductions computed by the team together, then
/// its points shared by the lanes. Returns the words a lane's state takes
/// in `kernel.workspace` (#ew.launch's `workspace`), 0 for none, or failure
/// (reported on the kernel) for a split the blocks could not meet in.
FailureOr<unsigned> buildRowsLoop(OpBuilder &builder, Location loc,
                                  const RowKernel &kernel, const LoopNest &nest,
                                  const RowSplit &split);

/// The scans of `ordered` (a nest in getCombineLoopOrder's order) that a
/// warp per row carries along a tensor's last dimension, or none.
std::optional<CarriedScans> getRowScans(const KernelAccess &access,
                                        func::FuncOp element,
                                        const LoopNest &ordered);

/// The value of `value` at the lane of the warp that `mode` and `offset`
/// name (gpu.shuffle: xor, up, idx). PTX shuffles 32 bits: narrower
/// integers travel widened, 64-bit values as two halves.
Value shuffleLanes(OpBuilder &builder, Location loc, Value value,
                   unsigned offset, gpu::ShuffleMode mode);

/// One of the chunks of 32 elements that a warp scans per step along a row:
/// whether the lane's element is inside the row (or the tile), its
/// coordinates (the row's last element for a lane past it) and the values
/// emitted for it.
struct ScanChunk {
  Value inside;
  llvm::StringMap<Value> coords;
  KnownValues known;
};

/// The identities of `carried`'s scans, made at the builder's point; their
/// operands (values of the element function).
SmallVector<Value> getScanInits(OpBuilder &builder, Location loc,
                                const CarriedScans &carried);
SmallVector<Value> getScanOperands(const CarriedScans &carried);

/// The `count` chunks of a warp's step from `base` along `scanDim`, lane
/// l's elements base + 32 u + l, inside while below `end`, a lane past it
/// reading element `last` (one the row has): the scans' operands emitted
/// for each, every load before any scan.
SmallVector<ScanChunk>
loadScanChunks(OpBuilder &builder, Location loc, const RowKernel &kernel,
               const llvm::StringMap<Value> &coordOf, const KnownValues &known,
               StringRef scanDim, Value base, Value lane, Value end, Value last,
               ArrayRef<Value> operands, unsigned count);

/// The warp's inclusive scan of `chunk` for each scan of `carried` (five
/// shuffles up), after `carries` (the prefix before the chunk, the same on
/// every lane), which become the chunk's last value; the chunk's values go
/// to its known values. A lane outside scans the identity.
void scanChunk(OpBuilder &builder, Location loc, ScanChunk &chunk,
               const CarriedScans &carried, ArrayRef<Value> operands,
               ArrayRef<Value> inits, Value lane,
               MutableArrayRef<Value> carries);

/// The loop of the rows schedule for a nest of scans along its innermost
/// dimension (getRowScans): a warp per row, walking it 32 points at a time.
void buildScanRowsLoop(OpBuilder &builder, Location loc,
                       const RowKernel &kernel, const LoopNest &ordered,
                       CarriedScans &carried);

/// The loop of the rows schedule for a nest of scans along its innermost
/// dimension whose rows are split into tiles, a block each, that meet in
/// `workspace` (ewc/ABI/ScanAccess.h: the tiles drawn from a counter, the
/// prefix by decoupled look-back). For a nest with scans only (no
/// reduction), all carried (isSplitScanNest).
void buildSplitScanLoop(OpBuilder &builder, Location loc,
                        const RowKernel &kernel, const LoopNest &ordered,
                        const CarriedScans &carried, Value workspace);

/// Whether the rows of `carried`'s nest can be split into tiles: the
/// element function has no reduction (a row's reduction would need the
/// whole row before any point), every scan is carried and none is over
/// another's values (a tile's warps meet by their totals, which carry a
/// scan of elements, not a scan of a scan).
bool isSplitScanNest(func::FuncOp element, const CarriedScans &carried);

/// The loop of the columns schedule for `nest`, split by `split`
/// (getColumnSplit; ewc/ABI/ColumnAccess.h), made at the builder's point:
/// tiles of 32 of its points, each tile's reductions split across the
/// blocks that the grid gives it, meeting in `workspace` (the kernel's last
/// argument, a pointer in the global address space) when more than one.
/// The block is kColumnsBlockSize threads.
void buildColumnsLoop(OpBuilder &builder, Location loc, const RowKernel &kernel,
                      const LoopNest &nest, const ColumnSplit &split,
                      Value workspace);

} // namespace ew
} // namespace mlir

#endif // EWC_LIB_CONVERSION_EWTOGPU_ROWLOOPS_H
