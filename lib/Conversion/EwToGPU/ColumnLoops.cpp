//===- ColumnLoops.cpp - The GPU's columns schedule -----------------------===//
//
// The loop of the columns schedule (ewc/ABI/ColumnAccess.h, RowLoops.h): a
// nest whose reductions run across rows (a column sum) in tiles of 32 of its
// points, each tile's reductions split across blocks that meet in a
// workspace. The access layer spreads each reduction over a team whose lanes
// are every warp of every block of the tile (CombineLoops.cpp, TeamCombine);
// this file gives the team its block's fold through shared memory, and the
// blocks their meeting: the partials, the ticket, the fold in split order.
//
//===----------------------------------------------------------------------===//

#include "RowLoops.h"
#include "Workspace.h"

#include "ewc/ABI/ColumnAccess.h"
#include "ewc/ABI/RowAccess.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <deque>
#include <limits>

using namespace mlir;
using namespace mlir::ew;

namespace {

/// The partials a warp of the folding block loads before combining them:
/// in flight together (each a load from L2, ~0.15 us on the H200).
constexpr unsigned kFoldUnroll = 8;

/// The block's fold of its warps' values for one key: a slot per thread and
/// type; and the block's flag.
class BlockFold {
public:
  explicit BlockFold(gpu::GPUFuncOp func) : func(func), flag(func, 1) {}

  /// Every lane's combination of the values of its key's lanes (lane
  /// `column` of each warp), in the warps' order:
  ///
  ///   slot[threadIdx.x] = value;
  ///   barrier;
  ///   acc = slot[column]; for (w = 1; w < warps; ++w)
  ///     acc = combine(acc, slot[w * 32 + column]);
  ///   barrier;                       // before the slots are written again
  SmallVector<Value> fold(OpBuilder &builder, Location loc, ValueRange values,
                          Value column, CombineValuesFn combine) {
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    // One set of slots per value (the columns schedule combines one: it
    // has no online groups, TeamCombine::rescale).
    while (banks.size() < values.size())
      banks.emplace_back(func, ewc::kColumnsBlockSize);
    Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
    for (auto [k, value] : llvm::enumerate(values))
      banks[k].store(builder, loc, value, threadId);
    gpu::BarrierOp::create(builder, loc);
    auto read = [&](Value index) {
      SmallVector<Value> read;
      for (auto [k, value] : llvm::enumerate(values))
        read.push_back(banks[k].load(builder, loc, value.getType(), index));
      return read;
    };
    auto loop = scf::ForOp::create(
        builder, loc, constant(1),
        constant(ewc::kColumnsBlockSize / ewc::kColumnTileKeys), constant(1),
        read(column));
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> next = read(arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, loop.getInductionVar(),
                                constant(ewc::kColumnTileKeys)),
          column));
      scf::YieldOp::create(builder, loc,
                           combine(loop.getRegionIterArgs(), next));
    }
    gpu::BarrierOp::create(builder, loc);
    return loop.getResults();
  }

  /// The block's flag (whether it folds the tile): a shared i32 of its own
  /// (an i32 reduction's slots are others).
  void setFlag(OpBuilder &builder, Location loc, Value value) {
    flag.store(builder, loc, value,
               arith::ConstantIndexOp::create(builder, loc, 0));
  }
  Value getFlag(OpBuilder &builder, Location loc) {
    return flag.load(builder, loc, builder.getI32Type(),
                     arith::ConstantIndexOp::create(builder, loc, 0));
  }

private:
  gpu::GPUFuncOp func;
  std::deque<SharedSlots> banks;
  SharedSlots flag;
};

} // namespace

/// The loop of the columns schedule for one nest (ColumnAccess.h), in blocks
/// of 256 threads (8 warps of 32 lanes, R = 8), for K keys (the nest's
/// points) in T = ceil(K / 32) tiles and S = max(1, gridDim.x / T) splits:
///
///   column = threadIdx.x mod 32, w = threadIdx.x / 32
///   s = blockIdx.x mod S
///   for (tile = blockIdx.x / S; tile < T; tile += gridDim.x / S) {
///     key = tile * 32 + column                   // the last for one past K
///     (k...) = delinearize(key, extents);
///     p = sum over the elements s R + w, + R S, ... of the key   // a lane
///     p = fold of the block's 8 lanes of the key, in order    // shared
///     if (S > 1) {
///       if (w == 0) workspace[partial(s, key)] = p; fence;
///       barrier; last = atomic ticket[tile]++ == S - 1 (thread 0); barrier
///       if (last) p = fold of partial(0..S, key): warp w the splits
///                 [w P, (w + 1) P) in order, then the warps in order
///     }
///     if (last && w == 0 && key < K) out[k...] = element(p, ...);
///   }
///
/// The loop's trip count is the same for a whole block (its barriers), a
/// lane past the last key combining the last key's elements and storing
/// nothing. The runtime zeroes the tickets before the launch.
void mlir::ew::buildColumnsLoop(OpBuilder &builder, Location loc,
                                const RowKernel &kernel, const LoopNest &nest,
                                const ColumnSplit &split, Value workspace) {
  const llvm::StringMap<Value> &extents = kernel.extents;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b).getResult();
  };
  auto both = [&](Value a, Value b) -> Value {
    return arith::AndIOp::create(builder, loc, a, b);
  };
  constexpr unsigned warps = ewc::kColumnsBlockSize / ewc::kColumnTileKeys;
  Value keys = getVolume(builder, loc, nest.dims, extents);
  Value tiles = arith::CeilDivUIOp::create(builder, loc, keys,
                                           constant(ewc::kColumnTileKeys));
  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value blockId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
  Value column = arith::RemUIOp::create(builder, loc, threadId,
                                        constant(ewc::kColumnTileKeys));
  Value warp = arith::DivUIOp::create(builder, loc, threadId,
                                      constant(ewc::kColumnTileKeys));
  // No tile: the runtime launches nothing then; a division by zero is not
  // what a stray launch should meet.
  Value divisor = arith::MaxUIOp::create(builder, loc, tiles, constant(1));
  Value splits = arith::MaxUIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, gridDim, divisor),
      constant(1));
  Value splitId = arith::RemUIOp::create(builder, loc, blockId, splits);
  Value first = arith::DivUIOp::create(builder, loc, blockId, splits);
  Value step = arith::DivUIOp::create(builder, loc, gridDim, splits);
  OpBuilder::InsertionGuard guard(builder);
  auto loop = scf::ForOp::create(builder, loc, first, tiles, step);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value tile = loop.getInductionVar();
  Value key = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, tile, constant(ewc::kColumnTileKeys)),
      column);
  Value active = compare(arith::CmpIPredicate::ult, key, keys);
  Value keyAt = arith::SelectOp::create(
      builder, loc, active, key,
      arith::SubIOp::create(builder, loc, keys, constant(1)));
  llvm::StringMap<Value> coordOf;
  delinearizeInto(builder, loc, keyAt, nest.dims, extents, coordOf);

  // The key's team: every warp of every split of the tile, lane s R + w,
  // with no shuffle (its lanes are in different warps) and the block's fold
  // as its groups' combination.
  BlockFold blockFold(kernel.func);
  TeamCombine team{
      arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, splitId, constant(warps)), warp),
      arith::MulIOp::create(builder, loc, splits, constant(warps)),
      /*maxSize=*/std::numeric_limits<unsigned>::max(),
      /*shuffleSize=*/1,
      /*minSize=*/warps,
      ewc::getRowCombineUnroll(kernel.elementBytes),
      /*shuffleXor=*/nullptr,
      [&](OpBuilder &b, Location l, ValueRange values,
          CombineValuesFn combine) {
        return blockFold.fold(b, l, values, column, combine);
      }};
  KnownValues known;
  emitHoistedCombines(builder, loc, kernel.access, kernel.element, kernel.func,
                      nest, coordOf, extents, known, &team);
  SmallVector<Value> partials;
  SmallVector<Type> types;
  for (Operation *op : split.reductions) {
    partials.push_back(known.lookup(op->getResult(0)));
    assert(partials.back() && "a split reduction is hoisted to its key");
    types.push_back(partials.back().getType());
  }
  types.push_back(builder.getI1Type());
  Value owner =
      both(active, compare(arith::CmpIPredicate::eq, warp, constant(0)));

  // The splits meet: the block's partials to the workspace, then the
  // tile's ticket; the block that draws the last folds them in split order.
  Value several = compare(arith::CmpIPredicate::ugt, splits, constant(1));
  auto meet = scf::IfOp::create(builder, loc, types, several,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPointToStart(meet.thenBlock());
    auto wordOf = [&](unsigned slot, Value splitIndex, Value keyIndex) {
      // ewc::getColumnPartialWord.
      Value index = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(
              builder, loc,
              arith::AddIOp::create(
                  builder, loc,
                  arith::MulIOp::create(builder, loc, constant(slot), splits),
                  splitIndex),
              keys),
          keyIndex);
      return getWordAddress(builder, loc, workspace,
                            arith::AddIOp::create(builder, loc, tiles, index));
    };
    auto write = scf::IfOp::create(builder, loc, owner);
    {
      OpBuilder::InsertionGuard inWrite(builder);
      builder.setInsertionPoint(write.thenBlock()->getTerminator());
      for (auto [slot, partial] : llvm::enumerate(partials)) {
        // The address first, then the word, in statements of their own: the
        // order in which a call's arguments make their ops is the
        // compiler's (GCC and Clang built different IR).
        Value address = wordOf(slot, splitId, key);
        Value word = toWord(builder, loc, partial);
        LLVM::StoreOp::create(builder, loc, word, address, /*alignment=*/8);
      }
      // The partials before the ticket, for every block of the grid.
      LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::release,
                            kDeviceScope);
    }
    gpu::BarrierOp::create(builder, loc);
    Value zero = constant(0);
    auto draw = scf::IfOp::create(
        builder, loc, compare(arith::CmpIPredicate::eq, threadId, zero));
    {
      OpBuilder::InsertionGuard inDraw(builder);
      builder.setInsertionPoint(draw.thenBlock()->getTerminator());
      Value last = drawLastTicket(builder, loc, workspace, tile, splits);
      blockFold.setFlag(
          builder, loc,
          arith::ExtUIOp::create(builder, loc, builder.getI32Type(), last));
    }
    gpu::BarrierOp::create(builder, loc);
    Value last = compare(
        arith::CmpIPredicate::ne, blockFold.getFlag(builder, loc),
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0));
    // The block that drew the last ticket folds the tile's partials, all
    // its warps at once (the flag is the block's, so its barriers are
    // reached by all): warp w the splits [w P, min((w + 1) P, S)) in order
    // from the identity, P = ceil(S / 8), kFoldUnroll loads in flight, then
    // the warps' values in warp order through the slots. One lane folding
    // in order is 528 dependent loads from L2 at issue 16's 128 columns (by
    // estimate ~80 us of a ~330 us kernel). The loads go
    // past this block's L1 (volatile: ld.volatile), after the ticket
    // (acquire); a lane past the last key reads the last key's.
    types.pop_back();
    auto fold = scf::IfOp::create(builder, loc, types, last,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard inFold(builder);
      builder.setInsertionPointToStart(fold.thenBlock());
      LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acquire,
                            kDeviceScope);
      Value share =
          arith::CeilDivUIOp::create(builder, loc, splits, constant(warps));
      Value lo = arith::MinUIOp::create(
          builder, loc, arith::MulIOp::create(builder, loc, warp, share),
          splits);
      Value hi = arith::MinUIOp::create(
          builder, loc, arith::AddIOp::create(builder, loc, lo, share), splits);
      Value chunks = arith::DivUIOp::create(
          builder, loc, arith::SubIOp::create(builder, loc, hi, lo),
          constant(kFoldUnroll));
      Value rest = arith::AddIOp::create(
          builder, loc, lo,
          arith::MulIOp::create(builder, loc, chunks, constant(kFoldUnroll)));
      SmallVector<Value> folded;
      for (auto [slot, op] : llvm::enumerate(split.reductions)) {
        Type type = partials[slot].getType();
        auto load = [&, slot = slot](Value splitIndex) {
          Value word = LLVM::LoadOp::create(builder, loc, builder.getI64Type(),
                                            wordOf(slot, splitIndex, keyAt),
                                            /*alignment=*/8,
                                            /*isVolatile=*/true);
          return fromWord(builder, loc, word, type);
        };
        auto combine = [&, op = op](Value acc, Value next) {
          return emitCombinerOf(builder, op, acc, next);
        };
        Value identity = arith::ConstantOp::create(
            builder, loc, cast<ReduceOp>(op).getInit());
        auto unrolled = scf::ForOp::create(builder, loc, constant(0), chunks,
                                           constant(1), identity);
        {
          OpBuilder::InsertionGuard inLoop(builder);
          builder.setInsertionPointToStart(unrolled.getBody());
          Value base = arith::AddIOp::create(
              builder, loc, lo,
              arith::MulIOp::create(builder, loc, unrolled.getInductionVar(),
                                    constant(kFoldUnroll)));
          SmallVector<Value> loaded;
          for (unsigned j = 0; j < kFoldUnroll; ++j)
            loaded.push_back(
                load(arith::AddIOp::create(builder, loc, base, constant(j))));
          Value acc = unrolled.getRegionIterArgs()[0];
          for (Value next : loaded)
            acc = combine(acc, next);
          scf::YieldOp::create(builder, loc, acc);
        }
        auto tail = scf::ForOp::create(builder, loc, rest, hi, constant(1),
                                       unrolled.getResult(0));
        {
          OpBuilder::InsertionGuard inLoop(builder);
          builder.setInsertionPointToStart(tail.getBody());
          scf::YieldOp::create(builder, loc,
                               combine(tail.getRegionIterArgs()[0],
                                       load(tail.getInductionVar())));
        }
        folded.push_back(blockFold.fold(
            builder, loc, tail.getResult(0), column,
            [&](ValueRange earlier, ValueRange later) {
              return SmallVector<Value>{combine(earlier[0], later[0])};
            })[0]);
      }
      scf::YieldOp::create(builder, loc, folded);
      builder.setInsertionPointToStart(fold.elseBlock());
      scf::YieldOp::create(builder, loc, partials);
    }
    SmallVector<Value> results(fold.getResults());
    results.push_back(last);
    scf::YieldOp::create(builder, loc, results);
    builder.setInsertionPointToStart(meet.elseBlock());
    SmallVector<Value> alone(partials);
    alone.push_back(
        arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
    scf::YieldOp::create(builder, loc, alone);
  }

  // The key's point, by the block that has its value.
  auto store =
      scf::IfOp::create(builder, loc, both(meet.getResults().back(), owner));
  builder.setInsertionPoint(store.thenBlock()->getTerminator());
  for (auto [op, value] : llvm::zip(split.reductions, meet.getResults()))
    known[op->getResult(0)] = value;
  emitCombiningElement(builder, loc, kernel.access, kernel.element, kernel.func,
                       nest, coordOf, extents, known);
}
