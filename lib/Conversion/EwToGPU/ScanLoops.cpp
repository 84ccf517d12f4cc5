//===- ScanLoops.cpp - Scans split across blocks --------------------------===//
//
// The loop of a scan along rows whose rows are split into tiles, a block
// each (ewc/ABI/ScanAccess.h, RowLoops.h): the warps scan their chunks as
// the rows schedule's warp per row does (RowLoops.cpp, scanChunk), the block
// its warps' totals through shared memory, and the tiles of a row meet in
// the workspace by decoupled look-back.
//
//===----------------------------------------------------------------------===//

#include "RowLoops.h"
#include "Workspace.h"

#include "ewc/ABI/ScanAccess.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ew;

/// Whether a carried scan's operand depends on another carried scan, as
/// `cumsum(cummax(x))`'s does: a tile's warps scan their chunks from the
/// identity and meet by their totals, which gives each scan of elements
/// its carry, but the outer scan's local values would be over the inner's
/// local values, not its carried ones (a tile past the row's first and a
/// warp past the tile's first came out wrong: ewc-fuzz on the H100, seed
/// 9140, program 1000000234).
static bool hasNestedScans(func::FuncOp element, const CarriedScans &carried) {
  Block &body = element.getBody().front();
  SmallVector<Value> worklist;
  llvm::SmallPtrSet<Operation *, 16> seen;
  for (Operation *scan : carried.scans)
    llvm::append_range(worklist, scan->getResults());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      Operation *op = body.findAncestorOpInBlock(*user);
      if (!op || !seen.insert(op).second)
        continue;
      if (llvm::is_contained(carried.scans, op))
        return true;
      llvm::append_range(worklist, op->getResults());
    }
  }
  return false;
}

bool mlir::ew::isSplitScanNest(func::FuncOp element,
                               const CarriedScans &carried) {
  bool split = !carried.scans.empty();
  element.walk([&](Operation *op) {
    if (isa<ReduceOp>(op) ||
        (isa<ScanOp>(op) && !llvm::is_contained(carried.scans, op)))
      split = false;
  });
  return split && !hasNestedScans(element, carried);
}

namespace {

/// What the look-back and the tile's publications share: the workspace's
/// words of the launch's `tiles` tiles, `slots` scans each, and their
/// protocol (ScanAccess.h: packed where every scan's type has at most 32
/// bits, else flagged).
struct TileWords {
  Value workspace, tiles;
  unsigned slots;
  bool packed;

  /// The address of tile `tile`'s flag (ScanAccess.h, getScanFlagWord).
  Value flag(OpBuilder &builder, Location loc, Value tile) const {
    return getWordAddress(
        builder, loc, workspace,
        arith::AddIOp::create(builder, loc, tile,
                              arith::ConstantIndexOp::create(builder, loc, 1)));
  }
  /// The address of tile `tile`'s aggregate (inclusive = 0) or inclusive
  /// prefix (1, an index value) of scan `slot` (getScanValueWord).
  Value value(OpBuilder &builder, Location loc, Value tile, unsigned slot,
              Value inclusive) const {
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    Value pair = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, tile, constant(slots)),
        constant(slot));
    Value first = arith::AddIOp::create(builder, loc, constant(1), tiles);
    Value offset = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, pair, constant(2)),
        inclusive);
    Value word = arith::AddIOp::create(builder, loc, first, offset);
    return getWordAddress(builder, loc, workspace, word);
  }

  /// Tile `tile`'s `values` (one per scan) with flag `flagValue`, by the
  /// calling thread. Packed: each value word with the flag in its high
  /// half, one volatile 8-byte store. Flagged: the values, a release fence
  /// (CUDA's __threadfence), then the flag, a volatile store that no cache
  /// keeps from the other blocks.
  void publish(OpBuilder &builder, Location loc, Value tile,
               ArrayRef<Value> values, uint64_t flagValue) const {
    Value inclusive = arith::ConstantIndexOp::create(
        builder, loc, flagValue == ewc::kScanFlagPrefix ? 1 : 0);
    Type i64 = builder.getI64Type();
    Value flagBits = arith::ConstantIntOp::create(
        builder, loc, i64, flagValue << ewc::kScanPackedFlagShift);
    for (auto [slot, v] : llvm::enumerate(values)) {
      // The address and the word in statements of their own (the order of
      // a call's arguments is the compiler's).
      Value address = value(builder, loc, tile, slot, inclusive);
      Value word = toWord(builder, loc, v);
      if (packed)
        word = arith::OrIOp::create(builder, loc, word, flagBits);
      LLVM::StoreOp::create(builder, loc, word, address, /*alignment=*/8,
                            /*isVolatile=*/true);
    }
    if (packed)
      return;
    LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::release,
                          kDeviceScope);
    Value address = flag(builder, loc, tile);
    Value word = arith::ConstantIntOp::create(builder, loc, i64, flagValue);
    LLVM::StoreOp::create(builder, loc, word, address, /*alignment=*/8,
                          /*isVolatile=*/true);
  }

  /// Waits until tile `tile` has published something and returns its flag
  /// (an i64) and its values of `types`: its inclusive prefix where it has
  /// published that, else its aggregate. Packed: polls the prefix words,
  /// then the aggregate words, until every scan's word of one of them has
  /// its flag (a first tile publishes no aggregate). Flagged: polls the
  /// flag, fences (acquire), loads the values it names.
  SmallVector<Value> read(OpBuilder &builder, Location loc, Value tile,
                          TypeRange types) const {
    Type i64 = builder.getI64Type();
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    auto load = [&](Value address) -> Value {
      return LLVM::LoadOp::create(builder, loc, i64, address,
                                  /*alignment=*/8, /*isVolatile=*/true);
    };
    auto flagOf = [&](uint64_t flagValue) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i64, flagValue);
    };
    SmallVector<Value> result;
    if (packed) {
      SmallVector<Type> state{builder.getI1Type(), i64};
      state.append(types.begin(), types.end());
      auto wait = scf::WhileOp::create(builder, loc, state, ValueRange{});
      Block *poll = builder.createBlock(&wait.getBefore());
      builder.setInsertionPointToStart(poll);
      Value shift = arith::ConstantIntOp::create(builder, loc, i64,
                                                 ewc::kScanPackedFlagShift);
      // Whether every scan's word of kind `inclusive` has its flag, and its
      // values.
      auto words = [&](int64_t inclusive, SmallVector<Value> &values) {
        Value all;
        for (auto [slot, type] : llvm::enumerate(types)) {
          Value address = value(builder, loc, tile, slot, constant(inclusive));
          Value word = load(address);
          // Ops in statements of their own (a call's arguments are made in
          // the compiler's order).
          Value flagBits = arith::ShRUIOp::create(builder, loc, word, shift);
          Value none = flagOf(ewc::kScanFlagNone);
          Value flagged = arith::CmpIOp::create(
              builder, loc, arith::CmpIPredicate::ne, flagBits, none);
          all = all ? arith::AndIOp::create(builder, loc, all, flagged)
                          .getResult()
                    : flagged;
          values.push_back(fromWord(builder, loc, word, type));
        }
        return all;
      };
      SmallVector<Value> prefixes, aggregates;
      Value hasPrefix = words(1, prefixes);
      Value hasAggregate = words(0, aggregates);
      Value ready = arith::OrIOp::create(builder, loc, hasPrefix, hasAggregate);
      Value notReady = arith::XOrIOp::create(
          builder, loc, ready,
          arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
      Value prefixFlag = flagOf(ewc::kScanFlagPrefix);
      Value aggregateFlag = flagOf(ewc::kScanFlagAggregate);
      SmallVector<Value> seen{
          ready, arith::SelectOp::create(builder, loc, hasPrefix, prefixFlag,
                                         aggregateFlag)};
      for (auto [p, a] : llvm::zip(prefixes, aggregates))
        seen.push_back(arith::SelectOp::create(builder, loc, hasPrefix, p, a));
      scf::ConditionOp::create(builder, loc, notReady, seen);
      SmallVector<Location> locs(state.size(), loc);
      Block *again = builder.createBlock(&wait.getAfter(), {}, state, locs);
      builder.setInsertionPointToStart(again);
      scf::YieldOp::create(builder, loc, ValueRange{});
      builder.setInsertionPointAfter(wait);
      llvm::append_range(result, wait.getResults().drop_front());
      return result;
    }
    auto wait = scf::WhileOp::create(builder, loc, i64, ValueRange{});
    {
      OpBuilder::InsertionGuard guard(builder);
      Block *poll = builder.createBlock(&wait.getBefore());
      builder.setInsertionPointToStart(poll);
      Value seen = load(flag(builder, loc, tile));
      Value none = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         seen, flagOf(ewc::kScanFlagNone));
      scf::ConditionOp::create(builder, loc, none, seen);
      Block *again = builder.createBlock(&wait.getAfter(), {}, i64, loc);
      builder.setInsertionPointToStart(again);
      scf::YieldOp::create(builder, loc, ValueRange{});
    }
    // The values after their flag.
    LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acquire,
                          kDeviceScope);
    Value flagSeen = wait.getResult(0);
    Value isPrefix =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, flagSeen,
                              flagOf(ewc::kScanFlagPrefix));
    Value inclusive = arith::IndexCastUIOp::create(
        builder, loc, builder.getIndexType(), isPrefix);
    result.push_back(flagSeen);
    for (auto [slot, type] : llvm::enumerate(types)) {
      Value address = value(builder, loc, tile, slot, inclusive);
      result.push_back(fromWord(builder, loc, load(address), type));
    }
    return result;
  }
};

} // namespace

/// The loop of a scan split into tiles (ScanAccess.h) for a nest of
/// `carried` scans along its innermost dimension (length n) over R rows, in
/// blocks of B threads (W = B / 32 warps, U = kScanTileChunks chunks a
/// warp), S = max(ceil(n / (B U)), gridDim.x / R) tiles of a row, each of
/// ceil(n / S) elements:
///
///   while ((t = counter++ (thread 0, shared)) < R S) {   // the tile, in order
///     (once only with gridDim.x >= R S: the first draws take every tile)
///     row = t / S, j = t mod S, [start, end) the tile's elements
///     warp w's chunks: start + w 32 U + 32 u + lane, scanned as the
///       rows schedule's warp (scanChunk) from the identity: v[u]
///     total[w] = the warp's last value (shared); barrier
///     before = total[0] + ... + total[w - 1]          // in order
///     if (w == 0) {
///       sum = total[0] + ... + total[W - 1]
///       if (j == 0) prefix = init
///       else { publish(t, aggregate = sum, flag 1); prefix = lookBack(t) }
///       publish(t, inclusive = prefix + sum, flag 2); shared = prefix
///     }
///     barrier
///     out[row, k[u]] = element(shared + before + v[u], ...) where inside
///   }
///
/// lookBack: the first warp's lanes read the flags of the 32 tiles before
/// the window's end (lane l the l-th before; a tile before the row's first
/// counts as a prefix of the identity), each lane waiting for its tile's
/// flag; the lowest lane L whose tile has its prefix bounds the window; the
/// values of lanes 0..L (aggregates, then L's prefix) fold oldest first in
/// a tree of five shuffles down, before the window's older neighbours
/// already folded; without a prefix, the window moves 32 tiles back.
void mlir::ew::buildSplitScanLoop(OpBuilder &builder, Location loc,
                                  const RowKernel &kernel,
                                  const LoopNest &ordered,
                                  const CarriedScans &carried,
                                  Value workspace) {
  const llvm::StringMap<Value> &extents = kernel.extents;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b).getResult();
  };
  auto select = [&](Value condition, Value a, Value b) {
    return arith::SelectOp::create(builder, loc, condition, a, b).getResult();
  };
  Type i64 = builder.getI64Type();
  Type i32 = builder.getI32Type();
  unsigned warps = kernel.blockSize / ewc::kRowWarpThreads;
  unsigned slots = carried.scans.size();
  ArrayRef<std::string> rowDims = ArrayRef(ordered.dims).drop_back();
  const std::string &scanDim = ordered.dims.back();
  Value rows = getVolume(builder, loc, rowDims, extents);
  Value extent = extents.lookup(scanDim);
  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
  Value lane =
      arith::RemUIOp::create(builder, loc, threadId, constant(32)).getResult();
  Value warp =
      arith::DivUIOp::create(builder, loc, threadId, constant(32)).getResult();
  // ScanAccess.h, getScanSplits: none for an empty row.
  Value least = arith::CeilDivUIOp::create(
      builder, loc, extent,
      constant(ewc::getScanTileElements(kernel.blockSize)));
  Value byGrid = arith::DivUIOp::create(
      builder, loc, gridDim,
      arith::MaxUIOp::create(builder, loc, rows, constant(1)));
  // Each op in a statement of its own: the order in which a call's
  // arguments make their ops is the compiler's (GCC and Clang differ).
  Value most = arith::MaxUIOp::create(builder, loc, least, byGrid);
  Value empty = compare(arith::CmpIPredicate::eq, extent, constant(0));
  Value splits = select(empty, constant(0), most);
  Value tiles = arith::MulIOp::create(builder, loc, rows, splits);
  Value segment = arith::CeilDivUIOp::create(
      builder, loc, extent,
      arith::MaxUIOp::create(builder, loc, splits, constant(1)));
  SmallVector<Value> inits = getScanInits(builder, loc, carried);
  bool packed = llvm::all_of(inits, [](Value init) {
    return init.getType().getIntOrFloatBitWidth() <= ewc::kScanPackedMaxBits;
  });
  TileWords words{workspace, tiles, slots, packed};
  SharedSlots drawnSlot(kernel.func, 1), totalSlots(kernel.func, warps * slots),
      prefixSlots(kernel.func, slots);
  Value isThread0 = compare(arith::CmpIPredicate::eq, threadId, constant(0));
  Value isLane0 = compare(arith::CmpIPredicate::eq, lane, constant(0));
  Value isWarp0 = compare(arith::CmpIPredicate::eq, warp, constant(0));
  SmallVector<Value> operands = getScanOperands(carried);
  auto combine = [&](unsigned slot, Value acc, Value next) {
    return emitCombinerOf(builder, carried.scans[slot], acc, next);
  };

  OpBuilder::InsertionGuard guard(builder);
  // The tiles, drawn one at a time by each block until none is left; a
  // grid of a block per tile (the runtime's) draws once, every tile taken
  // by the blocks' first draws (a second would cost each block an atomic's
  // round trip and a barrier before it leaves).
  Type i1 = builder.getI1Type();
  Value again = arith::ConstantIntOp::create(builder, loc, i1, 1);
  auto loop = scf::WhileOp::create(builder, loc, builder.getIndexType(),
                                   ValueRange{again});
  {
    Block *before = builder.createBlock(&loop.getBefore(), {}, i1, loc);
    builder.setInsertionPointToStart(before);
    Value drawAgain = before->getArgument(0);
    auto draw = scf::IfOp::create(
        builder, loc,
        arith::AndIOp::create(builder, loc, drawAgain, isThread0));
    {
      OpBuilder::InsertionGuard inDraw(builder);
      builder.setInsertionPoint(draw.thenBlock()->getTerminator());
      // Only the count's atomicity matters here: the tiles' values have
      // their own fences.
      Value drawn = LLVM::AtomicRMWOp::create(
          builder, loc, LLVM::AtomicBinOp::add,
          getWordAddress(builder, loc, workspace, constant(0)),
          arith::ConstantIntOp::create(builder, loc, i64, 1),
          LLVM::AtomicOrdering::monotonic, kDeviceScope);
      drawnSlot.store(builder, loc, drawn, constant(0));
    }
    gpu::BarrierOp::create(builder, loc);
    Value tile = arith::IndexCastUIOp::create(
        builder, loc, builder.getIndexType(),
        drawnSlot.load(builder, loc, i64, constant(0)));
    scf::ConditionOp::create(
        builder, loc,
        arith::AndIOp::create(builder, loc, drawAgain,
                              compare(arith::CmpIPredicate::ult, tile, tiles)),
        tile);
  }
  Block *after =
      builder.createBlock(&loop.getAfter(), {}, builder.getIndexType(), loc);
  builder.setInsertionPointToStart(after);
  Value tile = after->getArgument(0);
  Value row = arith::DivUIOp::create(builder, loc, tile, splits);
  Value j = arith::RemUIOp::create(builder, loc, tile, splits);
  llvm::StringMap<Value> coordOf;
  delinearizeInto(builder, loc, row, rowDims, extents, coordOf);
  Value start = arith::MulIOp::create(builder, loc, j, segment);
  Value end = arith::MinUIOp::create(
      builder, loc, extent,
      arith::AddIOp::create(builder, loc, start, segment));
  Value base = arith::AddIOp::create(
      builder, loc, start,
      arith::MulIOp::create(
          builder, loc, warp,
          constant(ewc::kRowWarpThreads * ewc::kScanTileChunks)));
  // A tile exists only for a row with an element: the last is one.
  Value last = arith::SubIOp::create(builder, loc, extent, constant(1));
  SmallVector<ScanChunk> chunks =
      loadScanChunks(builder, loc, kernel, coordOf, KnownValues(), scanDim,
                     base, lane, end, last, operands, ewc::kScanTileChunks);
  SmallVector<Value> carries(inits);
  for (ScanChunk &chunk : chunks)
    scanChunk(builder, loc, chunk, carried, operands, inits, lane, carries);

  // The block: its warps' totals in order.
  auto totalIndex = [&](unsigned slot, Value w) {
    return arith::AddIOp::create(builder, loc, constant(slot * warps), w)
        .getResult();
  };
  {
    auto write = scf::IfOp::create(builder, loc, isLane0);
    OpBuilder::InsertionGuard inWrite(builder);
    builder.setInsertionPoint(write.thenBlock()->getTerminator());
    for (auto [slot, total] : llvm::enumerate(carries))
      totalSlots.store(builder, loc, total, totalIndex(slot, warp));
  }
  gpu::BarrierOp::create(builder, loc);
  SmallVector<Value> before;
  for (auto [slot, init] : llvm::enumerate(inits)) {
    auto fold =
        scf::ForOp::create(builder, loc, constant(0), warp, constant(1), init);
    OpBuilder::InsertionGuard inFold(builder);
    builder.setInsertionPointToStart(fold.getBody());
    Value next = totalSlots.load(builder, loc, init.getType(),
                                 totalIndex(slot, fold.getInductionVar()));
    scf::YieldOp::create(builder, loc,
                         combine(slot, fold.getRegionIterArgs()[0], next));
    before.push_back(fold.getResult(0));
  }

  // The first warp: the tile's aggregate, its look-back, its prefix.
  {
    auto first = scf::IfOp::create(builder, loc, isWarp0);
    OpBuilder::InsertionGuard inFirst(builder);
    builder.setInsertionPoint(first.thenBlock()->getTerminator());
    SmallVector<Value> sums;
    for (auto [slot, init] : llvm::enumerate(inits)) {
      Value sum = init;
      for (unsigned w = 0; w < warps; ++w)
        sum = combine(slot, sum,
                      totalSlots.load(builder, loc, init.getType(),
                                      constant(slot * warps + w)));
      sums.push_back(sum);
    }
    SmallVector<Type> types;
    for (Value init : inits)
      types.push_back(init.getType());
    auto look = scf::IfOp::create(
        builder, loc, types, compare(arith::CmpIPredicate::eq, j, constant(0)),
        /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard inLook(builder);
      builder.setInsertionPointToStart(look.thenBlock());
      scf::YieldOp::create(builder, loc, inits);
      builder.setInsertionPointToStart(look.elseBlock());
      {
        auto publish = scf::IfOp::create(builder, loc, isLane0);
        OpBuilder::InsertionGuard inPublish(builder);
        builder.setInsertionPoint(publish.thenBlock()->getTerminator());
        words.publish(builder, loc, tile, sums, ewc::kScanFlagAggregate);
      }
      Value rowFirst = arith::SubIOp::create(builder, loc, tile, j);
      Value lane32 = arith::IndexCastUIOp::create(builder, loc, i32, lane);
      // The window's loop: (its end, whether a prefix was found, the fold
      // of the tiles after the window).
      SmallVector<Value> state{j, arith::ConstantIntOp::create(
                                      builder, loc, builder.getI1Type(), 0)};
      llvm::append_range(state, inits);
      SmallVector<Type> stateTypes;
      for (Value v : state)
        stateTypes.push_back(v.getType());
      SmallVector<Location> stateLocs(state.size(), loc);
      auto window = scf::WhileOp::create(builder, loc, stateTypes, state);
      {
        Block *check =
            builder.createBlock(&window.getBefore(), {}, stateTypes, stateLocs);
        builder.setInsertionPointToStart(check);
        Value go = arith::XOrIOp::create(
            builder, loc, check->getArgument(1),
            arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
        scf::ConditionOp::create(builder, loc, go, check->getArguments());
      }
      Block *step =
          builder.createBlock(&window.getAfter(), {}, stateTypes, stateLocs);
      builder.setInsertionPointToStart(step);
      Value end = step->getArgument(0);
      Value inRow = compare(arith::CmpIPredicate::ult, lane, end);
      Value before1 = arith::SubIOp::create(
          builder, loc, end,
          arith::AddIOp::create(builder, loc, lane, constant(1)));
      Value other = arith::AddIOp::create(builder, loc, rowFirst,
                                          select(inRow, before1, constant(0)));
      // The lane's tile's flag and values, once published; a tile before
      // the row's first is the identity's prefix.
      SmallVector<Type> readTypes{i64};
      llvm::append_range(readTypes, types);
      auto seen = scf::IfOp::create(builder, loc, readTypes, inRow,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inSeen(builder);
        builder.setInsertionPointToStart(seen.thenBlock());
        scf::YieldOp::create(builder, loc,
                             words.read(builder, loc, other, types));
        builder.setInsertionPointToStart(seen.elseBlock());
        SmallVector<Value> identity{arith::ConstantIntOp::create(
            builder, loc, i64, ewc::kScanFlagPrefix)};
        llvm::append_range(identity, inits);
        scf::YieldOp::create(builder, loc, identity);
      }
      Value isPrefix = compare(arith::CmpIPredicate::eq, seen.getResult(0),
                               arith::ConstantIntOp::create(
                                   builder, loc, i64, ewc::kScanFlagPrefix));
      ValueRange seenValues = seen.getResults().drop_front();
      // The lowest lane with a prefix (32 for none), on every lane.
      Value bound = select(isPrefix, lane32,
                           arith::ConstantIntOp::create(builder, loc, i32, 32));
      for (unsigned offset = ewc::kRowWarpThreads / 2; offset >= 1; offset /= 2)
        bound = arith::MinUIOp::create(
            builder, loc, bound,
            shuffleLanes(builder, loc, bound, offset, gpu::ShuffleMode::XOR));
      Value inWindow = compare(arith::CmpIPredicate::ule, lane32, bound);
      SmallVector<Value> next{
          end, compare(arith::CmpIPredicate::ult, bound,
                       arith::ConstantIntOp::create(builder, loc, i32, 32))};
      for (auto [slot, init] : llvm::enumerate(inits)) {
        Value folded = select(inWindow, seenValues[slot], init);
        // Oldest first: lane l takes lane l + offset's fold before its own.
        for (unsigned offset = 1; offset < ewc::kRowWarpThreads; offset *= 2) {
          Value older = shuffleLanes(builder, loc, folded, offset,
                                     gpu::ShuffleMode::DOWN);
          Value has = compare(
              arith::CmpIPredicate::ult,
              arith::AddIOp::create(builder, loc, lane, constant(offset)),
              constant(ewc::kRowWarpThreads));
          folded = select(has, combine(slot, older, folded), folded);
        }
        Value windowValue =
            shuffleLanes(builder, loc, folded, 0, gpu::ShuffleMode::IDX);
        next.push_back(combine(slot, windowValue, step->getArgument(2 + slot)));
      }
      // Without a prefix the window had 32 tiles of the row, all before
      // `end`: the next ends 32 earlier.
      next[0] = select(next[1], end,
                       arith::SubIOp::create(builder, loc, end,
                                             constant(ewc::kRowWarpThreads)));
      scf::YieldOp::create(builder, loc, next);
      builder.setInsertionPointAfter(window);
      scf::YieldOp::create(builder, loc, window.getResults().drop_front(2));
    }
    SmallVector<Value> inclusive;
    for (auto [slot, sum] : llvm::enumerate(sums))
      inclusive.push_back(combine(slot, look.getResult(slot), sum));
    auto publish = scf::IfOp::create(builder, loc, isLane0);
    OpBuilder::InsertionGuard inPublish(builder);
    builder.setInsertionPoint(publish.thenBlock()->getTerminator());
    words.publish(builder, loc, tile, inclusive, ewc::kScanFlagPrefix);
    for (unsigned slot = 0; slot < slots; ++slot)
      prefixSlots.store(builder, loc, look.getResult(slot), constant(slot));
  }
  gpu::BarrierOp::create(builder, loc);

  // Every thread: its elements after the tile's prefix and its warp's.
  SmallVector<Value> prefix;
  for (auto [slot, init] : llvm::enumerate(inits))
    prefix.push_back(combine(
        slot, prefixSlots.load(builder, loc, init.getType(), constant(slot)),
        before[slot]));
  for (ScanChunk &chunk : chunks) {
    for (auto [slot, op] : llvm::enumerate(carried.scans)) {
      Value &value = chunk.known[op->getResult(0)];
      value = combine(slot, prefix[slot], value);
    }
    auto store = scf::IfOp::create(builder, loc, chunk.inside);
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPoint(store.thenBlock()->getTerminator());
    emitCombiningElement(builder, loc, kernel.access, kernel.element,
                         kernel.func, ordered, chunk.coords, extents,
                         chunk.known);
  }
  scf::YieldOp::create(builder, loc,
                       compare(arith::CmpIPredicate::ult, gridDim, tiles));
}
