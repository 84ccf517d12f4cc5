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

#include "ewc/ABI/ColumnAccess.h"
#include "ewc/ABI/RowAccess.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ew;

namespace {

/// The scope of the workspace's fences and ticket: every block of the grid
/// (PTX's .gpu; NVPTX's name for it).
constexpr llvm::StringLiteral kDeviceScope = "device";

/// The partials a warp of the folding block loads before combining them:
/// in flight together (each a load from L2, ~0.15 us on the H200).
constexpr unsigned kFoldUnroll = 8;

/// The address of word `index` (an index value) of the workspace.
Value getWordAddress(OpBuilder &builder, Location loc, Value workspace,
                     Value index) {
  Value offset =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
  return LLVM::GEPOp::create(builder, loc, workspace.getType(),
                             builder.getI64Type(), workspace,
                             ValueRange{offset});
}

/// A combined value (an integer or a float of at most 64 bits) as a
/// workspace word, and back.
Value toWord(OpBuilder &builder, Location loc, Value value) {
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Value word = isa<FloatType>(type)
                   ? arith::BitcastOp::create(
                         builder, loc, builder.getIntegerType(bits), value)
                         .getResult()
                   : value;
  return bits == 64
             ? word
             : arith::ExtUIOp::create(builder, loc, builder.getI64Type(), word)
                   .getResult();
}
Value fromWord(OpBuilder &builder, Location loc, Value word, Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  Value value =
      bits == 64 ? word
                 : arith::TruncIOp::create(builder, loc,
                                           builder.getIntegerType(bits), word)
                       .getResult();
  return isa<FloatType>(type)
             ? arith::BitcastOp::create(builder, loc, type, value).getResult()
             : value;
}

/// The block's fold of its warps' values for one key: a slot per thread and
/// type, and the block's flag.
class BlockFold {
public:
  explicit BlockFold(gpu::GPUFuncOp func)
      : func(func), slots(func, ewc::kColumnsBlockSize) {}

  /// Every lane's combination of the values of its key's lanes (lane
  /// `column` of each warp), in the warps' order:
  ///
  ///   slot[threadIdx.x] = value;
  ///   barrier;
  ///   acc = slot[column]; for (w = 1; w < warps; ++w)
  ///     acc = combine(acc, slot[w * 32 + column]);
  ///   barrier;                       // before the slots are written again
  Value fold(OpBuilder &builder, Location loc, Value value, Value column,
             function_ref<Value(Value, Value)> combine) {
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    slots.store(builder, loc, value,
                gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x));
    gpu::BarrierOp::create(builder, loc);
    auto read = [&](Value index) {
      return slots.load(builder, loc, value.getType(), index);
    };
    auto loop =
        scf::ForOp::create(builder, loc, constant(1),
                           constant(ewc::kColumnsBlockSize / ewc::kColumnLanes),
                           constant(1), read(column));
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(loop.getBody());
      Value next = read(arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, loop.getInductionVar(),
                                constant(ewc::kColumnLanes)),
          column));
      scf::YieldOp::create(builder, loc,
                           combine(loop.getRegionIterArgs()[0], next));
    }
    gpu::BarrierOp::create(builder, loc);
    return loop.getResult(0);
  }

  /// The block's flag: one shared i32 of its own (an i32 reduction's slots
  /// are the other i32s).
  Value getFlag(OpBuilder &builder, Location loc) {
    if (!flag)
      flag = func.addWorkgroupAttribution(
          MemRefType::get(
              {1}, builder.getI32Type(), AffineMap(),
              gpu::AddressSpaceAttr::get(builder.getContext(),
                                         gpu::AddressSpace::Workgroup)),
          loc);
    return flag;
  }

private:
  gpu::GPUFuncOp func;
  SharedSlots slots;
  Value flag;
};

} // namespace

/// The loop of the columns schedule for one nest (ColumnAccess.h), in blocks
/// of 256 threads (8 warps of 32 lanes, R = 8), for K keys (the nest's
/// points), U keys a lane (by the narrowest element: 4 f32, 8 bf16), in T =
/// ceil(K / 32 U) tiles and S = max(1, gridDim.x / T) splits:
///
///   c = threadIdx.x mod 32, w = threadIdx.x / 32
///   s = blockIdx.x mod S
///   for (tile = blockIdx.x / S; tile < T; tile += gridDim.x / S) {
///     key_u = tile * 32 U + 32 u + c       // u < U; the last for one past K
///     p_u = sum over the elements s R + w, + R S, ... of key_u   // 4 rows
///                                          // of its U keys per iteration
///     p_u = fold of the block's 8 lanes of key_u, in order     // shared
///     if (S > 1) {
///       if (w == 0) workspace[partial(s, key_u)] = p_u; fence;
///       barrier; last = atomic ticket[tile]++ == S - 1 (thread 0); barrier
///       if (last) p_u = fold of partial(0..S, key_u): warp w the splits
///                 [w P, (w + 1) P) in order, then the warps in order
///     }
///     if (last && w == 0 && key_u < K) out[key_u] = element(p_u, ...);
///   }
///
/// A lane's loads of a row are one address and constant offsets (its keys
/// are 32 apart along the tensors' contiguous dimension). The loop's trip
/// count is the same for a whole block (its barriers), a lane past the last
/// key combining the last key's elements and storing nothing. The runtime
/// zeroes the tickets before the launch.
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
  constexpr unsigned warps = ewc::kColumnsBlockSize / ewc::kColumnLanes;
  const unsigned perLane = ewc::getColumnKeysPerLane(kernel.elementBytes);
  Value keys = getVolume(builder, loc, nest.dims, extents);
  Value tiles = arith::CeilDivUIOp::create(
      builder, loc, keys, constant(ewc::kColumnLanes * perLane));
  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value blockId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
  Value column = arith::RemUIOp::create(builder, loc, threadId,
                                        constant(ewc::kColumnLanes));
  Value warp = arith::DivUIOp::create(builder, loc, threadId,
                                      constant(ewc::kColumnLanes));
  // No tile: the runtime launches nothing then; a division by zero is not
  // what a stray launch should meet.
  Value divisor = arith::MaxUIOp::create(builder, loc, tiles, constant(1));
  Value splits = arith::MaxUIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, gridDim, divisor),
      constant(1));
  Value splitId = arith::RemUIOp::create(builder, loc, blockId, splits);
  Value first = arith::DivUIOp::create(builder, loc, blockId, splits);
  Value step = arith::DivUIOp::create(builder, loc, gridDim, splits);
  // The key's team: every warp of every split of the tile, lane s R + w.
  Value lane = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, splitId, constant(warps)), warp);
  Value team = arith::MulIOp::create(builder, loc, splits, constant(warps));
  Value lastKey = arith::SubIOp::create(builder, loc, keys, constant(1));
  Value firstWarp = compare(arith::CmpIPredicate::eq, warp, constant(0));
  OpBuilder::InsertionGuard guard(builder);
  auto loop = scf::ForOp::create(builder, loc, first, tiles, step);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value tile = loop.getInductionVar();
  Value tileStart = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, tile,
                            constant(ewc::kColumnLanes * perLane)),
      column);

  // The lane's keys: each with its coordinates, whether it is one, and
  // whether this thread stores its point (the first warp's lane).
  struct Key {
    Value key, keyAt, active, owner;
    llvm::StringMap<Value> coordOf;
    SmallVector<Value> partials;
  };
  SmallVector<Key> laneKeys(perLane);
  for (auto [u, k] : llvm::enumerate(laneKeys)) {
    k.key = arith::AddIOp::create(builder, loc, tileStart,
                                  constant(ewc::kColumnLanes * u));
    k.active = compare(arith::CmpIPredicate::ult, k.key, keys);
    k.keyAt = arith::SelectOp::create(builder, loc, k.active, k.key, lastKey);
    k.owner = both(k.active, firstWarp);
    delinearizeInto(builder, loc, k.keyAt, nest.dims, extents, k.coordOf);
  }

  BlockFold blockFold(kernel.func);
  // Each reduction: the lane's share of each key, kColumnRowUnroll rows of
  // all its keys loaded before they are combined (each key's elements in
  // order), then the rest a row at a time; then the block's fold.
  auto combineKeys = [&](ArrayRef<llvm::StringMap<Value>> keyCoords) {
    SmallVector<SmallVector<Value>> partials(perLane);
    for (Operation *op : split.reductions) {
      auto reduce = cast<ReduceOp>(op);
      SmallVector<std::string> dims;
      SmallVector<Value> uppers;
      Value total = constant(1);
      for (StringRef dim : reduce.getDimNames()) {
        dims.push_back(dim.str());
        uppers.push_back(extents.lookup(dim));
        total = arith::MulIOp::create(builder, loc, total, uppers.back());
      }
      auto combine = [&](Value acc, Value next) {
        return emitCombinerOf(builder, op, acc, next);
      };
      // The operand at the reduced point `flat` of key `k`.
      auto operandAt = [&](Value flat, const llvm::StringMap<Value> &keyCoord) {
        llvm::StringMap<Value> coordOf(keyCoord);
        delinearizeInto(builder, loc, flat, dims, extents, coordOf);
        KnownValues known;
        Value operand = reduce.getOperand();
        emitElementValues(builder, loc, kernel.access, kernel.element,
                          kernel.func, coordOf, extents, known, {operand});
        return known.lookup(operand);
      };
      Value identity =
          arith::ConstantOp::create(builder, loc, reduce.getInit());
      SmallVector<Value> starts(perLane, identity);
      Value stride = arith::MulIOp::create(builder, loc, team,
                                           constant(ewc::kColumnRowUnroll));
      Value chunks = arith::DivUIOp::create(builder, loc, total, stride);
      auto unrolled = scf::ForOp::create(builder, loc, constant(0), chunks,
                                         constant(1), starts);
      {
        OpBuilder::InsertionGuard inLoop(builder);
        builder.setInsertionPointToStart(unrolled.getBody());
        Value base = arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(builder, loc, unrolled.getInductionVar(),
                                  stride),
            lane);
        SmallVector<SmallVector<Value>> loaded;
        for (unsigned j = 0; j < ewc::kColumnRowUnroll; ++j) {
          Value flat = arith::AddIOp::create(
              builder, loc, base,
              arith::MulIOp::create(builder, loc, team, constant(j)));
          SmallVector<Value> &row = loaded.emplace_back();
          for (const llvm::StringMap<Value> &keyCoord : keyCoords)
            row.push_back(operandAt(flat, keyCoord));
        }
        SmallVector<Value> accs(unrolled.getRegionIterArgs());
        for (ArrayRef<Value> row : loaded)
          for (auto [acc, next] : llvm::zip(accs, row))
            acc = combine(acc, next);
        scf::YieldOp::create(builder, loc, accs);
      }
      Value rest = arith::AddIOp::create(
          builder, loc, arith::MulIOp::create(builder, loc, chunks, stride),
          lane);
      auto tail = scf::ForOp::create(builder, loc, rest, total, team,
                                     unrolled.getResults());
      {
        OpBuilder::InsertionGuard inLoop(builder);
        builder.setInsertionPointToStart(tail.getBody());
        SmallVector<Value> accs;
        for (auto [acc, keyCoord] :
             llvm::zip(tail.getRegionIterArgs(), keyCoords))
          accs.push_back(
              combine(acc, operandAt(tail.getInductionVar(), keyCoord)));
        scf::YieldOp::create(builder, loc, accs);
      }
      for (auto [value, keyPartials] : llvm::zip(tail.getResults(), partials))
        keyPartials.push_back(
            blockFold.fold(builder, loc, value, column, combine));
    }
    SmallVector<Value> flat;
    for (ArrayRef<Value> keyPartials : partials)
      llvm::append_range(flat, keyPartials);
    return flat;
  };
  // A full tile takes its keys unclamped (key_u = the first + 32 u: for one
  // key dimension, constant offsets from one address, which the loads share
  // a pointer register by); the last tile, when partial, the clamped ones
  // (the selects made each load an address of its own: 128 registers for
  // the f32 column sum instead of 32).
  SmallVector<Type> partialTypes;
  for (unsigned u = 0; u < perLane; ++u)
    for (Operation *op : split.reductions)
      partialTypes.push_back(op->getResult(0).getType());
  Value full = compare(
      arith::CmpIPredicate::ule,
      arith::MulIOp::create(
          builder, loc, arith::AddIOp::create(builder, loc, tile, constant(1)),
          constant(ewc::kColumnLanes * perLane)),
      keys);
  auto versions = scf::IfOp::create(builder, loc, partialTypes, full,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard inVersion(builder);
    builder.setInsertionPointToStart(versions.thenBlock());
    SmallVector<llvm::StringMap<Value>> unclamped(perLane);
    for (auto [k, coordOf] : llvm::zip(laneKeys, unclamped))
      delinearizeInto(builder, loc, k.key, nest.dims, extents, coordOf);
    scf::YieldOp::create(builder, loc, combineKeys(unclamped));
    builder.setInsertionPointToStart(versions.elseBlock());
    SmallVector<llvm::StringMap<Value>> clamped;
    for (const Key &k : laneKeys)
      clamped.push_back(k.coordOf);
    scf::YieldOp::create(builder, loc, combineKeys(clamped));
  }
  for (auto [u, k] : llvm::enumerate(laneKeys))
    for (unsigned slot = 0; slot < split.reductions.size(); ++slot)
      k.partials.push_back(
          versions.getResult(u * split.reductions.size() + slot));

  // The splits meet: the block's partials to the workspace, then the
  // tile's ticket; the block that draws the last folds them in split order.
  SmallVector<Type> types;
  for (const Key &k : laneKeys)
    for (Value partial : k.partials)
      types.push_back(partial.getType());
  types.push_back(builder.getI1Type());
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
    for (const Key &k : laneKeys) {
      auto write = scf::IfOp::create(builder, loc, k.owner);
      OpBuilder::InsertionGuard inWrite(builder);
      builder.setInsertionPoint(write.thenBlock()->getTerminator());
      for (auto [slot, partial] : llvm::enumerate(k.partials))
        LLVM::StoreOp::create(builder, loc, toWord(builder, loc, partial),
                              wordOf(slot, splitId, k.key), /*alignment=*/8);
      // The partials before the ticket, for every block of the grid.
      LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::release,
                            kDeviceScope);
    }
    gpu::BarrierOp::create(builder, loc);
    Value flag = blockFold.getFlag(builder, loc);
    Value zero = constant(0);
    auto draw = scf::IfOp::create(
        builder, loc, compare(arith::CmpIPredicate::eq, threadId, zero));
    {
      OpBuilder::InsertionGuard inDraw(builder);
      builder.setInsertionPoint(draw.thenBlock()->getTerminator());
      Type i64 = builder.getI64Type();
      // Fences around the ticket besides its ordering: NVPTX (LLVM 22, PTX
      // 7.8) emits an acq_rel atomicrmw as a plain, relaxed `atom`; fence,
      // atom, fence is CUDA's threadFenceReduction, for any back end.
      LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acq_rel,
                            kDeviceScope);
      Value drawn = LLVM::AtomicRMWOp::create(
          builder, loc, LLVM::AtomicBinOp::add,
          getWordAddress(builder, loc, workspace, tile),
          arith::ConstantIntOp::create(builder, loc, i64, 1),
          LLVM::AtomicOrdering::acq_rel, kDeviceScope);
      LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acq_rel,
                            kDeviceScope);
      Value last = compare(
          arith::CmpIPredicate::eq, drawn,
          arith::IndexCastOp::create(
              builder, loc, i64,
              arith::SubIOp::create(builder, loc, splits, constant(1))));
      memref::StoreOp::create(
          builder, loc,
          arith::ExtUIOp::create(builder, loc, builder.getI32Type(), last),
          flag, ValueRange{zero});
    }
    gpu::BarrierOp::create(builder, loc);
    Value last = compare(
        arith::CmpIPredicate::ne,
        memref::LoadOp::create(builder, loc, flag, ValueRange{zero}),
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0));
    // The block that drew the last ticket folds the tile's partials, all
    // its warps at once (the flag is the block's, so its barriers are
    // reached by all): warp w the splits [w P, min((w + 1) P, S)) in order
    // from the identity, P = ceil(S / 8), kFoldUnroll loads in flight, then
    // the warps' values in warp order through the slots. With one warp
    // folding in order, 528 dependent loads (issue 16's 128 columns) kept
    // the last block alone for about a quarter of the kernel. The loads go
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
      for (const Key &k : laneKeys) {
        for (auto [slot, op] : llvm::enumerate(split.reductions)) {
          Type type = k.partials[slot].getType();
          auto load = [&](Value splitIndex) {
            Value word = LLVM::LoadOp::create(
                builder, loc, builder.getI64Type(),
                wordOf(slot, splitIndex, k.keyAt), /*alignment=*/8,
                /*isVolatile=*/true);
            return fromWord(builder, loc, word, type);
          };
          auto combine = [&](Value acc, Value next) {
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
          folded.push_back(
              blockFold.fold(builder, loc, tail.getResult(0), column, combine));
        }
      }
      scf::YieldOp::create(builder, loc, folded);
      builder.setInsertionPointToStart(fold.elseBlock());
      SmallVector<Value> partials;
      for (const Key &k : laneKeys)
        llvm::append_range(partials, k.partials);
      scf::YieldOp::create(builder, loc, partials);
    }
    SmallVector<Value> results(fold.getResults());
    results.push_back(last);
    scf::YieldOp::create(builder, loc, results);
    builder.setInsertionPointToStart(meet.elseBlock());
    SmallVector<Value> alone;
    for (const Key &k : laneKeys)
      llvm::append_range(alone, k.partials);
    alone.push_back(
        arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
    scf::YieldOp::create(builder, loc, alone);
  }

  // Each key's point, by the block that has its value.
  Value stores = meet.getResults().back();
  ValueRange finals = meet.getResults().drop_back();
  for (auto [u, k] : llvm::enumerate(laneKeys)) {
    auto store = scf::IfOp::create(builder, loc, both(stores, k.owner));
    OpBuilder::InsertionGuard inStore(builder);
    builder.setInsertionPoint(store.thenBlock()->getTerminator());
    KnownValues known;
    for (auto [slot, op] : llvm::enumerate(split.reductions))
      known[op->getResult(0)] = finals[u * split.reductions.size() + slot];
    emitCombiningElement(builder, loc, kernel.access, kernel.element,
                         kernel.func, nest, k.coordOf, extents, known);
  }
}
