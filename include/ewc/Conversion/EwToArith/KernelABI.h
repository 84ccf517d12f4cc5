//===- KernelABI.h - The kernel ABI and the access layer --------*- C++ -*-===//
//
// The calling convention of every lowered ew kernel, on the GPU and the CPU
// alike (docs/abi.md), and the access layer that reads and writes tensors
// through it:
//
//   k(param_0, ..., param_{p-1}, result_0, ..., result_{r-1})
//
// A tensor (parameter or result) is a strided memref: one dimension per
// dimension of its type in the declared order, the batch `...` expanded into
// the variant's batch rank, every extent and stride and the offset runtime
// values, except that the innermost stride is 1 unless the variant says
// otherwise (KernelVariant). A scalar is passed by value; bool elements are
// stored as one byte (0 or 1). The lowerings expand each memref into MLIR's
// descriptor (allocated and aligned pointer, offset, extents, strides), which
// is what the runtime passes (ewc/ABI/KernelSignature.h describes the same
// order for the driver).
//
// A kernel's body is lowered once into an element function (its results at
// one point, from the parameters' elements there and the point's coordinates
// along its named dimensions, EwToArith.h), which each loop nest of a
// lowering inlines at its points: the tensors a result needs are loaded at
// the point's coordinates of their own dimensions, which is broadcasting by
// name.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOARITH_KERNELABI_H
#define EWC_CONVERSION_EWTOARITH_KERNELABI_H

#include "ewc/ABI/KernelVariant.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir {
namespace ew {
class KernelOp;
class NamedTensorType;

/// The attribute with a kernel's batch rank: how many memref dimensions the
/// batch `...` of its tensors has in this compilation (an i64; default 1).
constexpr llvm::StringLiteral kBatchRankAttrName = "ew.batch_rank";
/// The attribute with the tensors whose innermost stride is a runtime value
/// in this compilation (a DenseI64ArrayAttr of ABI tensor positions: the
/// parameters' tensors, then the results; default none, every innermost
/// stride 1).
constexpr llvm::StringLiteral kStridedTensorsAttrName = "ew.strided_tensors";

/// The attribute (a unit attribute) of the GPU variant for tensors whose
/// addresses keep the loop from vector accesses (ewc/ABI/VectorAccess.h):
/// its loops are the coalesced unrolled scalar loop only. convert-ew-to-gpu
/// puts it on the gpu.func too, for ew-vectorize-gpu-loops.
constexpr llvm::StringLiteral kUnalignedAttrName = "ew.unaligned";

/// The attribute with the tensors that the GPU variant stages through
/// shared memory in tiles (a DenseI64ArrayAttr of ABI tensor positions, as
/// ew.strided_tensors; ewc/ABI/TiledAccess.h): convert-ew-to-gpu gives the
/// nest that reads them the #ew.tiled layout.
constexpr llvm::StringLiteral kTiledTensorsAttrName = "ew.tiled_tensors";

/// The attribute of the GPU variant for inputs that a peel cannot align
/// together with the outputs (ewc/ABI/VectorAccess.h): a DenseI64ArrayAttr
/// of pairs (ABI tensor position, shift), the shift in elements, from 1 to
/// the tensor's vector lanes less one: where the outputs are aligned, that
/// input's element sits that many elements past an aligned address, so
/// ew-vectorize-gpu-loops reads it by two aligned vectors and a shuffle.
/// convert-ew-to-gpu puts it on the gpu.func too.
constexpr llvm::StringLiteral kShiftedTensorsAttrName = "ew.shifted_tensors";

/// The attribute (a unit attribute) of the CPU variant for launches that
/// write more than the caches keep (LaunchOptions::streamingStoreBytes):
/// convert-ew-to-loops writes the results of each row that is contiguous
/// in all of them with aligned non-temporal stores.
constexpr llvm::StringLiteral kStreamingStoresAttrName = "ew.streaming_stores";

/// The attribute (an integer) of the GPU variant whose rows schedule runs in
/// blocks of this many threads, its teams up to that many
/// (ewc/ABI/RowAccess.h, getRowsBlockSize): the runtime asks for it when a
/// launch's longest row wants another block than the default variant's.
/// It takes the place of convert-ew-to-gpu's rows-block-size.
constexpr llvm::StringLiteral kRowsBlockSizeAttrName = "ew.rows_block_size";

/// The attribute (an integer) of the GPU variant whose rows schedule keeps
/// this many elements of a row per lane in registers (ewc/ABI/RowAccess.h,
/// kRowResidentElements): the runtime builds it for a launch that asks for
/// it (--rows-resident). Its row's reductions and points read the row once
/// (CombineLoops.cpp, ResidentRow).
constexpr llvm::StringLiteral kRowsResidentAttrName = "ew.rows_resident";

/// The attribute (an integer) of the GPU variant whose rows schedule has
/// teams of this many lanes, a constant (RowAccess.h, getRowsResidentTeam):
/// the resident variant's.
constexpr llvm::StringLiteral kRowsTeamAttrName = "ew.rows_team";

/// The attribute (an integer) of the GPU variant of a kernel with its
/// row's points on the lanes that has one pass of the three alone
/// (ewc/ABI/RowAccess.h, getLanePass: 1 the full pass, 2 the one that
/// fits): with the three in one kernel ptxas gave decode attention 245
/// registers a thread, with the full pass alone 128.
constexpr llvm::StringLiteral kLanePassAttrName = "ew.lane_pass";

/// The attribute (a unit) of the variant of a kernel that reads its batch
/// position (index_flat()) for a batch of more than 2^32 positions. Every
/// other variant takes the position for a 32-bit value (its high word
/// zero), which a random number's Philox keyed by it needs: with the high
/// word known, LLVM folds it out of the counter's first round and hoists
/// the round's product of the key alone; seeded dropout over 2^28 f32 ran
/// at 73-78% of the copy with a 64-bit offset and 81-83% with a 32-bit one
/// (H100, 2026-12-05, docs/performance.md).
constexpr llvm::StringLiteral kWideBatchAttrName = "ew.wide_batch";

/// The unit attribute on the selects that keep a resident row's slots past
/// the row out of its reductions (ResidentRow::valid): what the test
/// mutation resident-mask-dropped finds.
constexpr llvm::StringLiteral kResidentMaskAttrName = "ew.resident_mask";

/// The attribute (a unit) of the GPU variant whose scans along rows run in
/// tiles across blocks (ewc/ABI/ScanAccess.h): the runtime asks for it when
/// a launch's rows do not fill the GPU. A variant of its own, not a branch
/// of the warp per row's kernel: one kernel with both loops took 72
/// registers a thread where the warp per row alone takes 55 (ptxas, sm_90),
/// 7 blocks of 128 an SM instead of 9, and ran row cumsums 10-15 points
/// slower (H200, 2026-12-04).
constexpr llvm::StringLiteral kSplitScansAttrName = "ew.split_scans";

/// What one compiled variant of a kernel assumes (ewc/ABI/KernelVariant.h),
/// as the kernel's attributes above say it.
using ewc::KernelVariant;

/// The variant `kernel`'s attributes ask for.
KernelVariant getKernelVariant(KernelOp kernel);

/// Sets on `kernel` the attributes getKernelVariant reads back as `variant`:
/// the batch rank always, the others where they are not the default's.
void setKernelVariant(KernelOp kernel, const KernelVariant &variant);

/// The pairs of kShiftedTensorsAttrName on `op` (a kernel or its gpu.func).
SmallVector<std::pair<int64_t, int64_t>> getShiftedTensors(Operation *op);

/// The name of dimension `index` of the expanded batch: "...0", "...1", ...
std::string getBatchDimName(unsigned index);

/// True if `kernel` reads the row-major position in its batch
/// (`ew.index "..."`, the language's `index_flat()`): its element function
/// then takes the position and the batch's number of points as the
/// coordinate and extent of a dimension named `...` (KernelAccess::namedDims).
bool readsBatchPosition(KernelOp kernel);

/// The dimensions of a tensor type as memref dimensions: its names in order,
/// the batch `...` replaced by `batchRank` names (getBatchDimName).
SmallVector<std::string> getMemRefDims(NamedTensorType type,
                                       unsigned batchRank);

/// The type arith computes an element of type `elementType` in: the
/// signless integer of an unsigned one (ui8 -> i8; the ew ops' lowering
/// reads the signedness off the ew types), else the type itself.
Type getSignlessType(Type elementType);

/// The in-memory type of an element: i8 for i1, the signless integer of an
/// unsigned one, else the type itself.
Type getStorageType(Type elementType);

/// The memref type of a tensor argument of type `type` in `memorySpace`
/// (null: the default space): dynamic extents, strides and offset, and an
/// innermost stride of 1 unless `stridedInner`.
MemRefType getTensorMemRefType(NamedTensorType type, unsigned batchRank,
                               bool stridedInner, Attribute memorySpace);

/// The ABI function type of `kernel` for its variant, with tensors in
/// `memorySpace`.
FunctionType getKernelABIType(KernelOp kernel, Attribute memorySpace);

/// Loads the element at `indices` of the tensor memref `memref` as
/// `elementType` (an i1 from its byte).
Value loadElement(OpBuilder &builder, Location loc, Value memref,
                  ValueRange indices, Type elementType);

/// Stores `value` as the element at `indices` of the tensor memref `memref`
/// (an i1 as the byte 0 or 1).
void storeElement(OpBuilder &builder, Location loc, Value value, Value memref,
                  ValueRange indices);

/// Whether the tensor memref `memref` has an innermost stride of 1 in its
/// type (not a strided variant's runtime stride): what a vector access
/// along its innermost dimension needs.
bool hasUnitInnerStride(Value memref);

/// The `lanes` consecutive elements of the tensor memref `memref` from
/// `indices` along its innermost dimension (hasUnitInnerStride), as
/// `elementType`, by one vector load that assumes `alignment` bytes.
SmallVector<Value> loadElements(OpBuilder &builder, Location loc, Value memref,
                                ValueRange indices, unsigned lanes,
                                Type elementType, unsigned alignment);

/// Stores `values` as consecutive elements of the tensor memref `memref`
/// from `indices` along its innermost dimension, by one vector store that
/// assumes `alignment` bytes.
void storeElements(OpBuilder &builder, Location loc, ValueRange values,
                   Value memref, ValueRange indices, unsigned alignment);

//===----------------------------------------------------------------------===//
// The access layer: loop nests and the element function at their points
//===----------------------------------------------------------------------===//

/// One loop nest of a lowered kernel: the results that share a set of
/// dimensions (one nest per set, in the order of their first result), with
/// the loop dimensions of their first result in its declared order (the
/// batch expanded), outermost first.
struct LoopNest {
  /// The positions of the results the nest computes.
  SmallVector<unsigned> results;
  /// The loop dimensions, outermost first (memref dimension names).
  SmallVector<std::string> dims;
};

/// Everything the loop nests of one kernel need to know about it, taken from
/// the ew.kernel before its body becomes the element function: each
/// argument's memref dimensions (none for a scalar), the named dimensions
/// whose coordinates and extents the element function takes, and the nests.
struct KernelAccess {
  /// Per ABI argument (parameters, then results): its memref dimensions, and
  /// its element type.
  SmallVector<SmallVector<std::string>> argDims;
  SmallVector<Type> argElementTypes;
  SmallVector<bool> argIsTensor;
  unsigned numParams = 0;
  /// The kernel's named dimensions (KernelOp::getDims without the batch),
  /// after `...` if the kernel reads its position (readsBatchPosition).
  SmallVector<std::string> namedDims;
  SmallVector<LoopNest> nests;
  /// Whether the batch position may reach 2^32 (kWideBatchAttrName); else
  /// emitElement gives it as a 32-bit value.
  bool wideBatch = false;

  static KernelAccess get(KernelOp kernel);
};

/// The extent of every memref dimension name of the kernel, read with
/// memref.dim from the first argument of `func` (the ABI function) that has
/// it, as index values made at the builder's point.
llvm::StringMap<Value> getExtents(OpBuilder &builder, Location loc,
                                  const KernelAccess &access,
                                  FunctionOpInterface func);

/// Inlines the element function `element` (EwToArith.h) at the point
/// `coords` of `nest` (one index value per loop dimension): loads the
/// parameters of `func` (the ABI function) that the nest's results can need
/// at the point, and stores those results into their memrefs. `extents` are
/// getExtents'. `elements`, where not empty, has per parameter its element
/// at the point where the caller read it already (a tile in shared memory),
/// null where it is to be loaded here. `storeResult`, where given, takes
/// each result's position and value at the point instead of their store
/// into the result's memref (the CPU's streaming loop keeps them in a
/// buffer).
void emitElement(
    OpBuilder &builder, Location loc, const KernelAccess &access,
    func::FuncOp element, FunctionOpInterface func, const LoopNest &nest,
    ValueRange coords, const llvm::StringMap<Value> &extents,
    ArrayRef<Value> elements = {},
    llvm::function_ref<void(unsigned result, Value value)> storeResult = {});

//===----------------------------------------------------------------------===//
// Reductions and scans in the access layer (CombineLoops.cpp)
//===----------------------------------------------------------------------===//

/// Values of an element function already emitted for the points of a scope
/// (the element function's value to the emitted one).
using KnownValues = llvm::DenseMap<Value, Value>;

/// The loop order of `nest` for an element function with reductions or
/// scans: its dimensions, those that more of its reductions depend on first
/// (stably), so that emitHoistedCombines can place each reduction at the
/// outermost loop where its dimensions are bound; then the dimension of its
/// first scan innermost, so that the loop can carry the scan's running value
/// (CarriedScans).
SmallVector<std::string> getCombineLoopOrder(const KernelAccess &access,
                                             func::FuncOp element,
                                             const LoopNest &nest);

/// The unit attribute on the multiplications of an online group's running
/// sums by their rescale (CombineLoops.cpp): what the test mutation
/// online-rescale-dropped finds.
constexpr llvm::StringLiteral kOnlineRescaleAttrName = "ew.online_rescale";

/// Combines two sets of running values (a team's lanes' or groups'), the
/// earlier first.
using CombineValuesFn =
    function_ref<SmallVector<Value>(ValueRange earlier, ValueRange later)>;

/// A team's row kept in registers (the GPU's rows schedule's resident
/// variant, ewc/ABI/RowAccess.h). Slot j of lane l is the row's flattened
/// element l + j * size along `dims` (the row's reduced dimensions, in
/// order), `valid` where that lies in the row; `exact` are the slot's
/// coordinates with the row's own, at which its loads (each taken only where
/// valid) and its points' stores go: a constant offset from the lane's
/// first where the team's size is one, so one address register serves all;
/// `coords` the same with a flat index past the row clamped to its last
/// element, what the element function sees, so that whatever else it reads
/// there stays in bounds; `loads` are the elements of the tensors read along
/// the row at each slot (0 past the row), loaded once before the row's
/// reductions. A reduction over exactly `dims` combines the
/// slots in order, each masked by `valid`, then loops over the rest of the
/// row from `rest` (none where the row fits); an element function emitted at
/// a slot's coordinates takes its tensors' elements from `loads`, so that
/// its values are the same SSA values wherever emitted (a later pass merges
/// softmax's two `exp(x - mx)` of one element into one).
struct ResidentRow {
  SmallVector<std::string> dims;
  /// Per slot: whether it is in the row, its coordinates.
  SmallVector<Value> valid;
  SmallVector<llvm::StringMap<Value>> exact, coords;
  /// (ABI argument, slot) to the argument's element at the slot.
  llvm::DenseMap<std::pair<unsigned, unsigned>, Value> loads;
  /// The lane's first flat index past its slots: lane + slots * size.
  Value rest;

  unsigned getSlots() const { return coords.size(); }
  /// The element of ABI argument `arg` (of memref dimensions `argDims`)
  /// where `coordOf` has a slot's coordinates for each of them, or null.
  Value getLoad(unsigned arg, ArrayRef<std::string> argDims,
                const llvm::StringMap<Value> &coordOf) const;
};

/// A lane's run of consecutive elements along a row's one dimension `dim`
/// (the GPU's rows schedule where its variant has the tensors read along
/// rows aligned: ewc/ABI/RowAccess.h, kRowVectorBytes): the elements whose
/// coordinate along `dim` is one of `flats` (consecutive, the first a
/// multiple of their count), each tensor's read by one vector load, made
/// by the first of them that reads it.
class ElementRun {
public:
  /// The run of `lanes` elements from `first`, their indices made at the
  /// builder's point.
  ElementRun(OpBuilder &builder, Location loc, StringRef dim, Value first,
             unsigned lanes);

  /// The run's flat indices along its dimension, in order.
  ArrayRef<Value> getFlats() const { return flats; }

  /// The element of ABI argument `arg` (the tensor memref `memref` of
  /// memref dimensions `argDims`) at `indices`, as `elementType`, from the
  /// run's load of it (made at the builder's point if it has none yet); or
  /// null where it is not the run's to give: another coordinate along
  /// `dim`, a tensor without a unit innermost stride, or a load made at
  /// other indices or where the builder's point does not follow it.
  Value getElement(OpBuilder &builder, Location loc, unsigned arg, Value memref,
                   ArrayRef<std::string> argDims, ValueRange indices,
                   Type elementType);

private:
  StringRef dim;
  SmallVector<Value> flats;
  struct Loaded {
    SmallVector<Value> indices, elements;
  };
  llvm::DenseMap<unsigned, Loaded> loads;
};

/// The points of its row that each lane of a team keeps (the GPU's rows
/// schedule with its points on the lanes: decode attention's `d`,
/// RowSplit::laneDims). Point j of a lane is the flattened point
/// `first + warp lane + j * 32` along `dims`, `valid` where that lies in
/// the row, `coords` its coordinates (the row's last point for one past
/// it, so that what the element function reads there stays in bounds). An
/// online group's sum that keeps these dimensions besides the max's
/// (attention's `sum(p * v, s)`) is carried per point through the group's
/// one pass; its value at point j goes to `values[j]`, where the row's
/// points find it.
struct LanePoints {
  SmallVector<std::string> dims;
  SmallVector<Value> valid;
  SmallVector<llvm::StringMap<Value>> coords;
  SmallVector<llvm::DenseMap<Value, Value>> values;

  unsigned getPoints() const { return coords.size(); }
};

/// The threads that compute a reduction together (the GPU's rows schedule:
/// a warp per row): each combines its lane's share of the elements in
/// order, then the lanes combine in a butterfly of `shuffleXor` steps
/// (CombineLoops.cpp). The lowering that has such teams provides the
/// shuffle, so that the access layer knows nothing of the GPU.
struct TeamCombine {
  /// The thread's lane, an index from 0 to size - 1.
  Value lane;
  /// The lanes, an index value, a power of two from minSize to maxSize (a
  /// runtime value: the GPU's rows schedule sizes its teams by the row).
  Value size;
  /// The most lanes a team has.
  unsigned maxSize;
  /// The lanes that shuffleXor reaches (a warp): the butterfly's first step
  /// is min(maxSize, shuffleSize) / 2, each step taken only where it is
  /// below size; a team of more lanes combines its groups of shuffleSize
  /// through combineWarps.
  unsigned shuffleSize;
  /// The fewest lanes a team has: steps below it need no condition.
  unsigned minSize;
  /// The elements a lane combines per iteration of its loop (in order: the
  /// unrolling changes no result, only how many loads are in flight).
  unsigned unroll;
  /// The value of `value` at the lane whose number is this one's xor
  /// `offset`, made at the builder's point.
  std::function<Value(OpBuilder &, Location, Value value, unsigned offset)>
      shuffleXor;
  /// For a team of more than shuffleSize lanes (the same for every lane that
  /// may meet it: it may synchronize them), given `values` (what a combine
  /// carries: one value, or an online group's running max and sums), the
  /// combination of each group of shuffleSize lanes on all of the group's
  /// lanes, the combination of the team's groups in their order on every
  /// lane, made at the builder's point with `combine` (which emits there
  /// too). Null when maxSize is at most shuffleSize.
  std::function<SmallVector<Value>(OpBuilder &, Location, ValueRange values,
                                   CombineValuesFn combine)>
      combineWarps;
  /// Whether the access layer may fuse a max with the sums of exponentials
  /// it scales (softmax's, logsumexp's, attention's) into one pass with
  /// online rescaling (CombineLoops.cpp, "online groups"): the rows
  /// schedule, whose rows are read once more per pass. Not the columns
  /// schedule, whose splits meet in a workspace by each reduction's own
  /// combiner.
  bool rescale = false;
  /// The team's row kept in registers (the rows schedule's resident
  /// variant), or null.
  const ResidentRow *resident = nullptr;
  /// Where the lowering's variant has the tensors read along its rows
  /// aligned (ewc/ABI/RowAccess.h, kRowVectorBytes): the row's one
  /// dimension and the elements of a lane's run along it (a divisor of
  /// `unroll`); else vectorLanes is 1. A reduction over exactly that
  /// dimension gives lane l the runs l, l + size, ... of vectorLanes
  /// consecutive elements (ElementRun), each tensor's elements of a run
  /// read by one vector load.
  StringRef vectorDim = {};
  unsigned vectorLanes = 1;
  /// The team that each lane of this one is, or null: where a lane is a
  /// warp (the rows schedule with points on the lanes, whose warps share a
  /// row's reduced dimension and whose warp's lanes share a nested
  /// reduction: attention's `sum(q * k, d)` at each `s`), a reduction
  /// emitted inside a lane's loop is spread over the warp.
  const TeamCombine *inner = nullptr;
  /// The row's points on the lanes (LanePoints), or null.
  LanePoints *points = nullptr;
  /// Points whose coordinates are all the elements of a reduction over
  /// exactly their dimensions that is spread over this team (a runtime
  /// fact the lowering branched on: a head of at most a pass's points), or
  /// null: such a reduction is one straight-line step over them, each
  /// masked by whether it is there, no loop, and the elements' loads are
  /// the points' own (ResidentRow::getLoad by the same coordinates).
  const LanePoints *single = nullptr;
  /// Where the team's row is split across blocks (the rows schedule with
  /// its points on the lanes for few rows, flash-decoding's split:
  /// ewc/ABI/RowAccess.h), given an online group's state combined over
  /// this block's lanes (on every lane), the state of no element
  /// (`identity`) and `merge` (two states into one, the earlier first):
  /// the row's blocks' states merged in their order, made at the builder's
  /// point. Only the block that meets last has the row's state: the caller
  /// stores where the hook says so. Null where a row is one block's.
  std::function<SmallVector<Value>(OpBuilder &, Location, ValueRange values,
                                   ValueRange identity, CombineValuesFn merge)>
      meetBlocks = nullptr;
};

/// Emits at the builder's point, where the dimensions of `coordOf` are
/// bound, every reduction and scan that `nest`'s results need directly and
/// whose value depends on bound dimensions only, unless `known` has it, and
/// adds them to `known`. With a `team`, whose lanes all reach this point
/// with the same coordinates, each such reduction is spread over the lanes
/// and every lane gets its value.
void emitHoistedCombines(OpBuilder &builder, Location loc,
                         const KernelAccess &access, func::FuncOp element,
                         FunctionOpInterface func, const LoopNest &nest,
                         const llvm::StringMap<Value> &coordOf,
                         const llvm::StringMap<Value> &extents,
                         KnownValues &known, const TeamCombine *team = nullptr);

/// How the GPU's rows schedule splits a nest: a team per point of
/// `rowDims` (the dimensions its reductions keep), whose lanes then share
/// the points of `innerDims` (the rest), each in getCombineLoopOrder's
/// order.
struct RowSplit {
  SmallVector<std::string> rowDims, innerDims;
  /// The dimensions the first of the nest's reductions combines over: the
  /// row's length, by which the GPU sizes a row's team.
  SmallVector<std::string> reducedDims;
  /// The row's points on the lanes (LanePoints), or none. Where the nest's
  /// reductions keep, besides the row's dimensions, dimensions of the
  /// points (`innerDims`, then these) that a reduction inside their operand
  /// combines over (decode attention: `sum(p * v, s)` keeps `d`, its
  /// scores `sum(q * k, d)` reduce it), a team per point would compute
  /// that inner reduction once per point: instead a block per row shares
  /// its reduced dimensions among its warps, each warp's lanes share the
  /// inner reduction at each of its elements and keep the row's points,
  /// and the sums that keep them ride in an online group.
  SmallVector<std::string> laneDims;
  /// With laneDims: whether the nest's reductions are all one online
  /// group's (decode attention's max and sums), whose states from parts of
  /// S merge into the row's (TeamCombine::meetBlocks): a row may then be
  /// split across blocks. A reduction outside the group could feed another
  /// one, which a block holding a part of S alone could not compute.
  bool blocksMeet = false;
};

/// The rows split of `nest`, or none where a thread per point serves it
/// better: where no reduction of the nest runs along a tensor's last
/// (contiguous) dimension, a thread per point reads consecutive elements
/// across a warp already (a column sum), and a row's lanes would not.
std::optional<RowSplit> getRowSplit(const KernelAccess &access,
                                    func::FuncOp element, const LoopNest &nest);

/// How the GPU's columns schedule splits a nest (ewc/ABI/ColumnAccess.h):
/// its points are the keys of its reductions, whose partial values meet
/// across blocks.
struct ColumnSplit {
  /// The element function's ew.reduce ops that the nest's results need,
  /// in the order emitHoistedCombines emits them.
  SmallVector<Operation *> reductions;
  /// The dimensions the first of them combines over: the reduction's
  /// length, by which the runtime chooses the splits.
  SmallVector<std::string> reducedDims;
};

/// The columns split of `nest`, or none: its results need reductions only
/// (no scan), each keeping every dimension of the nest (its points are the
/// reductions' keys: one point each, stored by one block) and none reading
/// another reduction or scan (a partial of one block is no input of
/// another's); a nest with a reduction along a tensor's contiguous
/// dimension is getRowSplit's.
std::optional<ColumnSplit> getColumnSplit(const KernelAccess &access,
                                          func::FuncOp element,
                                          const LoopNest &nest);

/// The scans whose running value a nest's innermost loop carries from one
/// point to the next (the loop runs along their dimension, in order, from
/// 0): each point combines one element into it instead of its whole prefix.
struct CarriedScans {
  /// The element function's ew.scan ops, and their identities.
  SmallVector<Operation *> scans;
  SmallVector<TypedAttr> inits;
  /// Per scan, its running value before this point (the loop's iter_arg),
  /// and, once the point is emitted, after it (what the loop yields).
  SmallVector<Value> running, next;

  /// The scans of `nest`'s results (those not inside another reduction's
  /// operand) along the nest's innermost dimension.
  static CarriedScans get(const KernelAccess &access, func::FuncOp element,
                          const LoopNest &nest);
};

/// Emits the values `roots` of the element function at the builder's point,
/// where the dimensions of `coordOf` are bound, reusing and extending
/// `known` (each reduction or scan among them not known yet becomes its
/// loops, combining in order).
void emitElementValues(OpBuilder &builder, Location loc,
                       const KernelAccess &access, func::FuncOp element,
                       FunctionOpInterface func,
                       const llvm::StringMap<Value> &coordOf,
                       const llvm::StringMap<Value> &extents,
                       KnownValues &known, ArrayRef<Value> roots);

/// The combiner of reduction or scan `op` (its region) cloned at the
/// builder's point on `acc` and `next`; returns its result.
Value emitCombinerOf(OpBuilder &builder, Operation *op, Value acc, Value next);

/// emitElement for an element function with reductions or scans: the
/// point's coordinates by dimension name, the values emitted at outer loops
/// in `hoisted`; each reduction not hoisted becomes a loop here, and each
/// scan of `carried` (if given) combines the point's element into its
/// running value.
void emitCombiningElement(
    OpBuilder &builder, Location loc, const KernelAccess &access,
    func::FuncOp element, FunctionOpInterface func, const LoopNest &nest,
    const llvm::StringMap<Value> &coordOf,
    const llvm::StringMap<Value> &extents, const KnownValues &hoisted,
    llvm::function_ref<void(unsigned result, Value value)> storeResult = {},
    CarriedScans *carried = nullptr);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOARITH_KERNELABI_H
