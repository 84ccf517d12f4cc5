//===- RowLoops.cpp - The GPU's rows schedule
//------------------------------===//
//
// The loops of the rows schedule (ewc/ABI/RowAccess.h, RowLoops.h): a team
// of lanes per row, whose reductions the access layer spreads over the team
// (CombineLoops.cpp, TeamCombine) and which this file gives its threads,
// shuffles and shared memory; and the warp scan along a row.
//
//===----------------------------------------------------------------------===//

#include "RowLoops.h"
#include "Workspace.h"

#include "ewc/ABI/RowAccess.h"
#include "ewc/Conversion/EwToArith/EwToArith.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/MapVector.h"

#include <deque>

using namespace mlir;
using namespace mlir::ew;

Value mlir::ew::shuffleLanes(OpBuilder &builder, Location loc, Value value,
                             unsigned offset, gpu::ShuffleMode mode) {
  Type type = value.getType();
  Type i32 = builder.getI32Type();
  Value offsetValue = arith::ConstantIntOp::create(builder, loc, i32, offset);
  Value width =
      arith::ConstantIntOp::create(builder, loc, i32, ewc::kRowWarpThreads);
  auto shuffle32 = [&](Value word) -> Value {
    return gpu::ShuffleOp::create(builder, loc, word, offsetValue, width, mode)
        .getShuffleResult();
  };
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits == 32)
    return shuffle32(value);
  if (bits < 32) {
    assert(type.isInteger() && "narrow floats combine in f32");
    Value wide = arith::ExtUIOp::create(builder, loc, i32, value);
    return arith::TruncIOp::create(builder, loc, type, shuffle32(wide));
  }
  assert(bits == 64 && "a combine's value is at most 64 bits");
  Type i64 = builder.getI64Type();
  Value word = type.isInteger()
                   ? value
                   : arith::BitcastOp::create(builder, loc, i64, value);
  Value thirtyTwo = arith::ConstantIntOp::create(builder, loc, i64, 32);
  Value low = shuffle32(arith::TruncIOp::create(builder, loc, i32, word));
  Value high = shuffle32(arith::TruncIOp::create(
      builder, loc, i32,
      arith::ShRUIOp::create(builder, loc, word, thirtyTwo)));
  Value joined = arith::OrIOp::create(
      builder, loc, arith::ExtUIOp::create(builder, loc, i64, low),
      arith::ShLIOp::create(builder, loc,
                            arith::ExtUIOp::create(builder, loc, i64, high),
                            thirtyTwo));
  return type.isInteger()
             ? joined
             : arith::BitcastOp::create(builder, loc, type, joined).getResult();
}

namespace {

Value shuffleXor(OpBuilder &builder, Location loc, Value value,
                 unsigned offset) {
  return shuffleLanes(builder, loc, value, offset, gpu::ShuffleMode::XOR);
}

/// The rows loop of a team schedule for teams of `team` lanes (an index
/// value, a power of two that divides the block or a multiple of it) over
/// `rows` rows, made at the builder's point; the builder is left at the end
/// of its body.
struct TeamRows {
  scf::ForOp loop;
  /// The thread's lane in its team; the team's row (the last row for a
  /// team past it); whether the team has a row of its own; the block's
  /// split of its row (0 for rows of a block each).
  Value lane, row, active, split;
};

/// Builds TeamRows. The loop runs over the blocks' groups of blockDim / team
/// rows, the same trip count for the whole block, so that a warp's lanes
/// stay together through the shuffles and a block's warps through the
/// barriers of a team of several warps: a team past the last row takes the
/// last row's values and must store nothing (the warp's teams would
/// otherwise leave the loop at different iterations, and a shuffle with
/// lanes gone is an illegal instruction: ewc-fuzz --reductions on the H200,
/// seed 9802). With `splits` (an index value; blocks of a team each), a
/// row is `splits` consecutive blocks'.
TeamRows buildTeamRows(OpBuilder &builder, Location loc, Value team, Value rows,
                       unsigned blockSize, Value splits = nullptr) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value blockId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
  TeamRows result;
  result.lane = arith::RemUIOp::create(builder, loc, threadId, team);
  Value teamsPerBlock =
      arith::DivUIOp::create(builder, loc, constant(blockSize), team);
  Value teamInBlock = arith::DivUIOp::create(builder, loc, threadId, team);
  result.split = constant(0);
  if (splits) {
    result.split = arith::RemUIOp::create(builder, loc, blockId, splits);
    blockId = arith::DivUIOp::create(builder, loc, blockId, splits);
    gridDim = arith::DivUIOp::create(builder, loc, gridDim, splits);
  }
  Value first = arith::MulIOp::create(builder, loc, blockId, teamsPerBlock);
  Value step = arith::MulIOp::create(builder, loc, gridDim, teamsPerBlock);
  result.loop = scf::ForOp::create(builder, loc, first, rows, step);
  builder.setInsertionPoint(result.loop.getBody()->getTerminator());
  Value row = arith::AddIOp::create(builder, loc, result.loop.getInductionVar(),
                                    teamInBlock);
  result.active =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, row, rows);
  result.row = arith::SelectOp::create(
      builder, loc, result.active, row,
      arith::SubIOp::create(builder, loc, rows, constant(1)));
  return result;
}

/// The shared memory through which the warps of a team of several combine
/// their values: a slot per warp of the block (RowKernel::blockSize /
/// kRowWarpThreads) for each type combined, made once per kernel and
/// reused by every combine, which ends with a barrier.
class WarpExchange {
public:
  /// For a kernel whose narrowest tensor element has `elementBytes` bytes
  /// (the lanes' loads in flight: getRowCombineUnroll).
  WarpExchange(gpu::GPUFuncOp func, unsigned blockSize, unsigned elementBytes)
      : func(func), blockSize(blockSize),
        unroll(ewc::getRowCombineUnroll(elementBytes)) {}

  /// The TeamCombine of a team of `size` lanes (at most `maxSize`; more
  /// than a warp only if at least `minSize` is too) whose thread is `lane`.
  TeamCombine getTeamCombine(Value lane, Value size, unsigned maxSize,
                             unsigned minSize, bool resident) {
    TeamCombine team{lane,    size,   maxSize,    ewc::kRowWarpThreads,
                     minSize, unroll, shuffleXor, nullptr};
    if (maxSize > ewc::kRowWarpThreads)
      team.combineWarps = [this, size](OpBuilder &builder, Location loc,
                                       ValueRange values,
                                       CombineValuesFn combine) {
        return combineWarps(builder, loc, values, size, combine);
      };
    // Long rows are read from memory once more per pass: a max and the sums
    // it scales go in one (CombineLoops.cpp; the rule's measurements in
    // RowAccess.h).
    // A row kept in registers is read once anyway.
    team.rescale = blockSize >= ewc::kRowsOnlineMinBlock && !resident;
    return team;
  }

  /// The TeamCombine of a block whose lanes are its warps (the rows
  /// schedule with points on the lanes): warp w is lane w of `blockSize /
  /// 32`, no shuffle, its warps' values combined per lane of a warp
  /// (combineLanewise); `inner` is the team of a warp's lanes. With
  /// `splits` blocks a row (index values), warp w of split `split` is lane
  /// split W + w of splits W (maxSize counts the block's W, whose values
  /// combineLanewise combines; the splits' meet in TeamCombine::meetBlocks).
  TeamCombine getWarpsTeam(OpBuilder &builder, Location loc, unsigned unroll,
                           const TeamCombine *inner, LanePoints *points,
                           Value split, Value splits) {
    unsigned warps = blockSize / ewc::kRowWarpThreads;
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
    Value warp = arith::DivUIOp::create(builder, loc, threadId,
                                        constant(ewc::kRowWarpThreads));
    Value lane = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, split, constant(warps)), warp);
    TeamCombine team{
        lane,
        arith::MulIOp::create(builder, loc, splits, constant(warps)),
        warps,
        /*shuffleSize=*/1,
        /*minSize=*/warps,
        unroll,
        shuffleXor,
        nullptr};
    if (warps > 1)
      team.combineWarps = [this](OpBuilder &builder, Location loc,
                                 ValueRange values, CombineValuesFn combine) {
        return combineLanewise(builder, loc, values, combine);
      };
    team.rescale = true;
    team.inner = inner;
    team.points = points;
    return team;
  }

  /// Every lane's combination of the block's warps' `values` at the same
  /// lane (a value may differ between a warp's lanes: each keeps points of
  /// its own), in the warps' order, through slots of a thread each:
  ///
  ///   slot_k[threadIdx.x] = value_k;
  ///   barrier;
  ///   acc = slot[lane]; for (w = 1; w < B / 32; ++w)
  ///     acc = combine(acc, slot[32 w + lane]);
  ///   barrier;                       // before the slots are written again
  SmallVector<Value> combineLanewise(OpBuilder &builder, Location loc,
                                     ValueRange values,
                                     CombineValuesFn combine) {
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
    Value warp = constant(ewc::kRowWarpThreads);
    Value lane = arith::RemUIOp::create(builder, loc, threadId, warp);
    while (laneBanks.size() < values.size())
      laneBanks.emplace_back(func, blockSize);
    for (auto [k, value] : llvm::enumerate(values))
      laneBanks[k].store(builder, loc, value, threadId);
    gpu::BarrierOp::create(builder, loc);
    auto read = [&](Value index) {
      SmallVector<Value> read;
      for (auto [k, value] : llvm::enumerate(values))
        read.push_back(laneBanks[k].load(builder, loc, value.getType(), index));
      return read;
    };
    auto loop = scf::ForOp::create(builder, loc, constant(1),
                                   constant(blockSize / ewc::kRowWarpThreads),
                                   constant(1), read(lane));
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(loop.getBody());
      Value index = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, loop.getInductionVar(), warp),
          lane);
      scf::YieldOp::create(builder, loc,
                           combine(loop.getRegionIterArgs(), read(index)));
    }
    gpu::BarrierOp::create(builder, loc);
    return loop.getResults();
  }

private:
  /// Every lane's combination of its team's warps' `values` (each the same
  /// on all lanes of its warp), in the warps' order, value k through slots
  /// of its own:
  ///
  ///   if (threadIdx.x % 32 == 0) slot_k[threadIdx.x / 32] = value_k;
  ///   barrier;
  ///   first = threadIdx.x / size * (size / 32);
  ///   acc = slot[first]; for (w = 1; w < size / 32; ++w)
  ///     acc = combine(acc, slot[first + w]);
  ///   barrier;                       // before the slots are written again
  SmallVector<Value> combineWarps(OpBuilder &builder, Location loc,
                                  ValueRange values, Value size,
                                  CombineValuesFn combine) {
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
    Value warp = constant(ewc::kRowWarpThreads);
    Value leader = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, threadId, warp), constant(0));
    while (banks.size() < values.size())
      banks.emplace_back(func, blockSize / ewc::kRowWarpThreads);
    auto write = scf::IfOp::create(builder, loc, leader);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(write.thenBlock()->getTerminator());
      Value index = arith::DivUIOp::create(builder, loc, threadId, warp);
      for (auto [k, value] : llvm::enumerate(values))
        banks[k].store(builder, loc, value, index);
    }
    gpu::BarrierOp::create(builder, loc);
    Value warps = arith::DivUIOp::create(builder, loc, size, warp);
    Value first = arith::MulIOp::create(
        builder, loc, arith::DivUIOp::create(builder, loc, threadId, size),
        warps);
    auto read = [&](Value index) {
      SmallVector<Value> read;
      for (auto [k, value] : llvm::enumerate(values))
        read.push_back(banks[k].load(builder, loc, value.getType(), index));
      return read;
    };
    auto loop = scf::ForOp::create(builder, loc, constant(1), warps,
                                   constant(1), read(first));
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> next = read(
          arith::AddIOp::create(builder, loc, first, loop.getInductionVar()));
      scf::YieldOp::create(builder, loc,
                           combine(loop.getRegionIterArgs(), next));
    }
    gpu::BarrierOp::create(builder, loc);
    return loop.getResults();
  }

  gpu::GPUFuncOp func;
  unsigned blockSize, unroll;
  /// Slots per value of a combine (a warp's each), made on first use: most
  /// combines carry one value, an online group its max and its sums.
  std::deque<SharedSlots> banks;
  /// Slots per value of a lanewise combine (a thread's each).
  std::deque<SharedSlots> laneBanks;
};

/// Loads into `row`'s slots (ResidentRow::loads) every tensor that `roots`
/// read, one of whose dimensions is among `along` and each of whose
/// dimensions the slots bind: at each slot's exact coordinates, behind a
/// branch of its own where the slot is valid (0 elsewhere).
void loadSlots(OpBuilder &builder, Location loc, const RowKernel &kernel,
               ArrayRef<Value> roots, ArrayRef<std::string> along,
               ResidentRow &row) {
  const KernelAccess &access = kernel.access;
  gpu::GPUFuncOp func = kernel.func;
  llvm::SmallBitVector read =
      getParamsReadBy(kernel.element, roots, access.numParams);
  for (unsigned p = 0; p < access.numParams; ++p) {
    ArrayRef<std::string> dims = access.argDims[p];
    bool kept = access.argIsTensor[p] && read.test(p) &&
                llvm::any_of(dims,
                             [&](const std::string &dim) {
                               return llvm::is_contained(along, dim);
                             }) &&
                llvm::all_of(dims, [&](const std::string &dim) {
                  return row.exact.front().count(dim);
                });
    if (!kept)
      continue;
    // The loads' values are signless (loadElement): a u8 tensor's are i8,
    // and so must the zero of a slot past the row be.
    Type type = getSignlessType(access.argElementTypes[p]);
    for (unsigned j = 0; j < row.getSlots(); ++j) {
      auto load = scf::IfOp::create(builder, loc, type, row.valid[j],
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(load.thenBlock());
      SmallVector<Value> indices;
      for (const std::string &dim : dims)
        indices.push_back(row.exact[j].lookup(dim));
      scf::YieldOp::create(
          builder, loc,
          loadElement(builder, loc, func.getArgument(p), indices, type));
      builder.setInsertionPointToStart(load.elseBlock());
      scf::YieldOp::create(builder, loc,
                           ValueRange{arith::ConstantOp::create(
                               builder, loc, type, builder.getZeroAttr(type))});
      row.loads[{p, j}] = load.getResult(0);
    }
  }
}

/// The resident row (ResidentRow) of a team of `team` lanes (an index
/// value) whose row's coordinates are `coordOf`: the lane's slots along the
/// row's reduced dimensions and the loads of every tensor its reductions
/// read along it at each slot, each where the slot is in the row.
ResidentRow buildResidentRow(OpBuilder &builder, Location loc,
                             const RowKernel &kernel, const RowSplit &split,
                             const llvm::StringMap<Value> &coordOf, Value lane,
                             Value team) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  ResidentRow row;
  row.dims = split.reducedDims;
  Value total = getVolume(builder, loc, split.reducedDims, kernel.extents);
  Value last = arith::SubIOp::create(builder, loc, total, constant(1));
  // The lane's slots in the row, ceil((total - lane) / team), against which
  // each slot's number is a constant: a comparison of each slot's flat index
  // with the row's length kept 32 64-bit indices live across the rows'
  // loop (ptxas: 116 registers for logsumexp's warp per row, 2026-12-04).
  Value inRow = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt,
                                      total, lane);
  Value count = arith::SelectOp::create(
      builder, loc, inRow,
      arith::CeilDivUIOp::create(
          builder, loc, arith::SubIOp::create(builder, loc, total, lane), team),
      constant(0));
  for (unsigned j = 0; j < kernel.resident; ++j) {
    Value flat = arith::AddIOp::create(
        builder, loc, lane,
        arith::MulIOp::create(builder, loc, team, constant(j)));
    Value valid = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        constant(j), count);
    row.valid.push_back(valid);
    llvm::StringMap<Value> exact(coordOf), coords(coordOf);
    delinearizeInto(builder, loc, flat, split.reducedDims, kernel.extents,
                    exact);
    delinearizeInto(builder, loc,
                    arith::SelectOp::create(builder, loc, valid, flat, last),
                    split.reducedDims, kernel.extents, coords);
    row.exact.push_back(std::move(exact));
    row.coords.push_back(std::move(coords));
  }
  row.rest = arith::AddIOp::create(
      builder, loc, lane,
      arith::MulIOp::create(builder, loc, team, constant(kernel.resident)));

  // The tensors that the row's reductions read along it (a reduced
  // dimension among theirs, each of theirs bound in the row); a tensor only
  // the points read (a norm's weight, the same for every row) is loaded
  // there: kept in slots too it took rmsnorm f32 to 152 registers a thread.
  // Each slot's load behind a branch of its own (0 past the row): one
  // branch a row, a slot past the row loading the lane's first, ran every
  // kernel slower (softmax f32, rows of 1024: 58.4% of the copy against
  // 73.1%; H200, 2026-12-04).
  // The row's reductions: those over its reduced dimensions.
  SmallVector<Value> reduced;
  func::FuncOp element = kernel.element;
  element.walk([&](ReduceOp reduce) {
    if (llvm::equal(reduce.getDimNames(), split.reducedDims))
      reduced.push_back(reduce->getOperand(0));
  });
  loadSlots(builder, loc, kernel, reduced, split.reducedDims, row);
  return row;
}

/// The elements at the lane's `points` (of the row at `coordOf`) of every
/// tensor that the kernel's reductions read there alone (its dimensions the
/// row's and the points', some of the points': attention's q), each loaded
/// where the point is valid (0 elsewhere), as a ResidentRow over the
/// points' dimensions whose slots are the points: an element function
/// emitted at a point's coordinates takes them (ResidentRow::getLoad).
ResidentRow buildPointLoads(OpBuilder &builder, Location loc,
                            const RowKernel &kernel, const RowSplit &split,
                            const llvm::StringMap<Value> &coordOf,
                            const LanePoints &points) {
  ResidentRow row;
  row.dims = split.laneDims;
  row.valid = points.valid;
  for (const llvm::StringMap<Value> &pointCoords : points.coords) {
    llvm::StringMap<Value> coords(coordOf);
    for (const auto &entry : pointCoords)
      coords[entry.getKey()] = entry.getValue();
    row.coords.push_back(coords);
    row.exact.push_back(std::move(coords));
  }
  func::FuncOp element = kernel.element;
  SmallVector<Value> reduced;
  element.walk(
      [&](ReduceOp reduce) { reduced.push_back(reduce->getOperand(0)); });
  loadSlots(builder, loc, kernel, reduced, split.laneDims, row);
  return row;
}

/// Where a row's S is split across blocks (RowAccess.h, "Decode attention
/// with few rows"), their meet in the workspace, TeamCombine::meetBlocks
/// for one pass over a row's points:
///
///   if (splits > 1) {
///     if (warp == 0) state[row, pass, split, k, lane] = value_k; fence
///     barrier; last = atomic ticket[row, pass]++ == splits - 1 (thread 0)
///     barrier
///     if (last) acc = identity; for (s = warp; s < splits; s += W)
///                 acc = merge(acc, state[row, pass, s, :, lane])
///               value = acc of the block's warps merged in order
///   }
///
/// and `last` says whether the block has the row's state (always for one
/// split).
class BlockMeet {
public:
  /// For the kernel's `workspace`, `rows` rows of `passes` passes each in
  /// `splits` splits (index values); this block's row, pass and split.
  BlockMeet(gpu::GPUFuncOp func, unsigned blockSize, Value workspace,
            Value rows, Value passes, Value splits)
      : blockSize(blockSize), workspace(workspace), rows(rows), passes(passes),
        splits(splits), flag(func, 1) {}

  /// The meet of this block's `values` for `row`'s `pass` as its `split`
  /// (index values); sets `last`.
  SmallVector<Value> meet(OpBuilder &builder, Location loc,
                          WarpExchange &exchange, ValueRange values,
                          ValueRange identity, CombineValuesFn merge, Value row,
                          Value pass, Value split) {
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
      return arith::CmpIOp::create(builder, loc, predicate, a, b).getResult();
    };
    assert((!words || words == values.size()) &&
           "every pass's state has the same values");
    // A second meet in one pass would draw the pass's ticket again, and no
    // block would then be the last to store (getRowSplit's blocksMeet
    // keeps such nests a block a row: a combine the row's team spreads
    // over the blocks outside the row's group); `again` reports one that
    // got through instead of a kernel that stores nothing.
    if (last)
      again = true;
    words = values.size();
    Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
    Value warpSize = constant(ewc::kRowWarpThreads);
    Value lane = arith::RemUIOp::create(builder, loc, threadId, warpSize);
    Value warp = arith::DivUIOp::create(builder, loc, threadId, warpSize);
    // ewc::getLanePartialWord.
    Value tickets = arith::MulIOp::create(builder, loc, rows, passes);
    Value rowPass = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, row, passes), pass);
    auto wordOf = [&](Value splitIndex, unsigned k) {
      Value state = arith::AddIOp::create(
          builder, loc, arith::MulIOp::create(builder, loc, rowPass, splits),
          splitIndex);
      Value value = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, state, constant(words)),
          constant(k));
      Value index = arith::AddIOp::create(
          builder, loc, arith::MulIOp::create(builder, loc, value, warpSize),
          lane);
      return getWordAddress(
          builder, loc, workspace,
          arith::AddIOp::create(builder, loc, tickets, index));
    };
    SmallVector<Type> types(ValueRange(values).getTypes());
    types.push_back(builder.getI1Type());
    Value several = compare(arith::CmpIPredicate::ugt, splits, constant(1));
    auto meet = scf::IfOp::create(builder, loc, types, several,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(meet.thenBlock());
      auto write = scf::IfOp::create(
          builder, loc, compare(arith::CmpIPredicate::eq, warp, constant(0)));
      {
        OpBuilder::InsertionGuard inWrite(builder);
        builder.setInsertionPoint(write.thenBlock()->getTerminator());
        for (auto [k, value] : llvm::enumerate(values)) {
          // The address first, then the word, in statements of their own
          // (the order of a call's arguments is the compiler's).
          Value address = wordOf(split, k);
          Value word = toWord(builder, loc, value);
          LLVM::StoreOp::create(builder, loc, word, address, /*alignment=*/8);
        }
        // The state before the ticket, for every block of the grid.
        LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::release,
                              kDeviceScope);
      }
      gpu::BarrierOp::create(builder, loc);
      auto draw = scf::IfOp::create(
          builder, loc,
          compare(arith::CmpIPredicate::eq, threadId, constant(0)));
      {
        OpBuilder::InsertionGuard inDraw(builder);
        builder.setInsertionPoint(draw.thenBlock()->getTerminator());
        Value isLast = drawLastTicket(builder, loc, workspace, rowPass, splits);
        flag.store(
            builder, loc,
            arith::ExtUIOp::create(builder, loc, builder.getI32Type(), isLast),
            constant(0));
      }
      gpu::BarrierOp::create(builder, loc);
      Type i32 = builder.getI32Type();
      Value drewLast = compare(
          arith::CmpIPredicate::ne, flag.load(builder, loc, i32, constant(0)),
          arith::ConstantIntOp::create(builder, loc, i32, 0));
      // The last block merges the row's states: its warp v those of the
      // splits v, v + W, ... in order from no element, then its warps'
      // in order. The loads go past this block's L1 (volatile), after the
      // ticket (acquire).
      types.pop_back();
      auto fold = scf::IfOp::create(builder, loc, types, drewLast,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inFold(builder);
        builder.setInsertionPointToStart(fold.thenBlock());
        LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acquire,
                              kDeviceScope);
        auto loop = scf::ForOp::create(
            builder, loc, warp, splits,
            constant(blockSize / ewc::kRowWarpThreads), identity);
        {
          OpBuilder::InsertionGuard inLoop(builder);
          builder.setInsertionPointToStart(loop.getBody());
          SmallVector<Value> state;
          for (auto [k, type] : llvm::enumerate(types)) {
            Value word = LLVM::LoadOp::create(
                builder, loc, builder.getI64Type(),
                wordOf(loop.getInductionVar(), k), /*alignment=*/8,
                /*isVolatile=*/true);
            state.push_back(fromWord(builder, loc, word, type));
          }
          scf::YieldOp::create(builder, loc,
                               merge(loop.getRegionIterArgs(), state));
        }
        scf::YieldOp::create(
            builder, loc,
            exchange.combineLanewise(builder, loc, loop.getResults(), merge));
        builder.setInsertionPointToStart(fold.elseBlock());
        scf::YieldOp::create(builder, loc, values);
      }
      SmallVector<Value> results(fold.getResults());
      results.push_back(drewLast);
      scf::YieldOp::create(builder, loc, results);
      builder.setInsertionPointToStart(meet.elseBlock());
      SmallVector<Value> alone(values);
      alone.push_back(
          arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
      scf::YieldOp::create(builder, loc, alone);
    }
    last = meet.getResults().back();
    return SmallVector<Value>(meet.getResults().drop_back());
  }

  /// Whether the block has its row's state after the last meet.
  Value last;
  /// The values of a lane's state (the workspace's words per lane), 0
  /// before the first meet.
  unsigned words = 0;
  /// Whether a pass met twice (meet with `last` set): a kernel that would
  /// store nothing.
  bool again = false;

private:
  unsigned blockSize;
  Value workspace, rows, passes, splits;
  /// Thread 0's ticket told to the block.
  SharedSlots flag;
};

/// The loop of the rows schedule for a nest with its points on the lanes
/// (RowSplit::laneDims; decode attention): a block per row, whose warps
/// share the row's reduced dimensions and whose warp's lanes share both the
/// reductions inside (at each element of the row, all lanes together) and
/// the row's points (kRowLanePoints a lane, in passes of 32 of them for
/// more):
///
///   warp = threadIdx.x / 32, lane = threadIdx.x % 32
///   for (row = blockIdx.x; row < rows; row += gridDim.x)
///     for (first = 0; first < points; first += 32 J)   // once for d <= 128
///       p_j = first + lane + 32 j                        // the lane's points
///       (m, l, acc_j) = (-inf, 0, 0)
///       for (s = warp; s < S; s += B / 32)              // U at a time
///         score = sum(q * k[row, s, :])                  // the warp's lanes
///         m' = max(m, score); c = exp(m - m')            // online rescale
///         l = l c + exp(score - m'); acc_j = acc_j c + exp(score - m') v_j
///       (m, l, acc_j) = the block's warps' states merged per lane
///       out[row, p_j] = acc_j / l
///
/// so each score is computed once for the row's points and K and V are read
/// once (a team per point computed the scores once per point). With a
/// workspace (RowSplit::blocksMeet), a row is split's blocks', each warp
/// taking every W splits-th element of S, that meet (BlockMeet) before the
/// points, stored by the block that meets last. Returns the words of a
/// lane's state in the workspace (0 for none), or failure (reported) for a
/// pass that would meet twice.
FailureOr<unsigned> buildLanePointsLoop(OpBuilder &builder, Location loc,
                                        const RowKernel &kernel,
                                        const LoopNest &nest,
                                        const RowSplit &split,
                                        WarpExchange &exchange) {
  func::FuncOp element = kernel.element;
  const llvm::StringMap<Value> &extents = kernel.extents;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  OpBuilder::InsertionGuard guard(builder);
  Value rows = getVolume(builder, loc, split.rowDims, extents);
  Value total = getVolume(builder, loc, split.laneDims, extents);
  Value warp = constant(ewc::kRowWarpThreads);
  // The splits of a row, by the grid (RowAccess.h): max(1, gridDim.x /
  // rows), 1 for a null workspace (the exported header's launch) or none.
  std::optional<BlockMeet> blockMeet;
  Value splits = constant(1);
  if (kernel.workspace) {
    Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
    Value byGrid = arith::MaxUIOp::create(
        builder, loc,
        arith::DivUIOp::create(
            builder, loc, gridDim,
            arith::MaxUIOp::create(builder, loc, rows, constant(1))),
        constant(1));
    Value null = LLVM::ZeroOp::create(builder, loc, kernel.workspace.getType());
    Value none = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                      kernel.workspace, null);
    splits = arith::SelectOp::create(builder, loc, none, constant(1), byGrid);
    Value passCount = arith::CeilDivUIOp::create(
        builder, loc, total,
        constant(ewc::kRowWarpThreads * ewc::kRowLanePoints));
    blockMeet.emplace(kernel.func, kernel.blockSize, kernel.workspace, rows,
                      passCount, splits);
  }
  TeamRows teamRows =
      buildTeamRows(builder, loc, constant(kernel.blockSize), rows,
                    kernel.blockSize, kernel.workspace ? splits : Value());
  Value lane = arith::RemUIOp::create(builder, loc, teamRows.lane, warp);
  llvm::StringMap<Value> coordOf;
  delinearizeInto(builder, loc, teamRows.row, split.rowDims, extents, coordOf);
  // The passes over the row's points, kRowLanePoints x 32 each.
  unsigned perLane = ewc::kRowLanePoints;
  auto passes = scf::ForOp::create(builder, loc, constant(0), total,
                                   constant(ewc::kRowWarpThreads * perLane));
  builder.setInsertionPoint(passes.getBody()->getTerminator());
  // The lane's points of this pass: clamped to the row's last where past
  // it, or, where the pass is known full, the flat indices themselves (a
  // constant offset apart: one address register for a lane's loads).
  auto getPoints = [&](bool full) {
    LanePoints points;
    points.dims = split.laneDims;
    Value last = arith::SubIOp::create(builder, loc, total, constant(1));
    Value yes = arith::ConstantIntOp::create(builder, loc, 1, 1);
    for (unsigned j = 0; j < perLane; ++j) {
      Value flat = arith::AddIOp::create(
          builder, loc, passes.getInductionVar(),
          arith::AddIOp::create(builder, loc, lane,
                                constant(j * ewc::kRowWarpThreads)));
      Value valid =
          full ? yes
               : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       flat, total)
                     .getResult();
      points.valid.push_back(valid);
      llvm::StringMap<Value> &coords = points.coords.emplace_back();
      delinearizeInto(
          builder, loc,
          full ? flat
               : arith::SelectOp::create(builder, loc, valid, flat, last),
          split.laneDims, extents, coords);
    }
    return points;
  };
  // Three versions of the pass: where the row's points are a pass's (a
  // head of 128), or at least one and fewer (1 to 127), a reduction over
  // them (the scores) is one straight-line step of the warp's lanes, so
  // that the loads of a warp's elements of the row are in flight together
  // (with a loop per element, one element's loads waited for the last's),
  // with no clamp and no mask for a full pass; else the loops.
  Value passPoints = constant(ewc::kRowWarpThreads * perLane);
  Value full = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                     total, passPoints);
  Value fits = arith::AndIOp::create(
      builder, loc,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, total,
                            constant(0)),
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, total,
                            passPoints));
  enum class Pass { Full, Fits, Loops };
  // Where each is built: the variant of one pass (RowAccess.h,
  // getLanePass: launched only where its points are) has it alone.
  SmallVector<std::pair<Pass, Operation *>> versions;
  if (kernel.lanePass) {
    bool isFull = kernel.lanePass == ewc::kLanePassFull;
    auto only = scf::IfOp::create(builder, loc, isFull ? full : fits);
    versions.push_back(
        {isFull ? Pass::Full : Pass::Fits, only.thenBlock()->getTerminator()});
  } else {
    auto fullVersion = scf::IfOp::create(builder, loc, full, /*withElse=*/true);
    builder.setInsertionPoint(fullVersion.elseBlock()->getTerminator());
    auto fitVersion = scf::IfOp::create(builder, loc, fits, /*withElse=*/true);
    versions = {{Pass::Full, fullVersion.thenBlock()->getTerminator()},
                {Pass::Fits, fitVersion.thenBlock()->getTerminator()},
                {Pass::Loops, fitVersion.elseBlock()->getTerminator()}};
  }
  for (auto [kind, before] : versions) {
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPoint(before);
    bool single = kind != Pass::Loops;
    LanePoints pass = getPoints(kind == Pass::Full);
    TeamCombine warpLanes =
        exchange.getTeamCombine(lane, warp, ewc::kRowWarpThreads,
                                ewc::kRowWarpThreads, /*resident=*/false);
    // The inner reductions are plain ones; the warps' pass is the online
    // one. kRowLanePoints elements of theirs a lane per iteration: those
    // over the points take the lane's points.
    warpLanes.rescale = false;
    warpLanes.unroll = ewc::kRowLanePoints;
    if (single)
      warpLanes.single = &pass;
    TeamCombine warps =
        exchange.getWarpsTeam(builder, loc, ewc::kRowLaneUnroll, &warpLanes,
                              &pass, teamRows.split, splits);
    if (blockMeet) {
      blockMeet->last = nullptr;
      Value passIndex =
          arith::DivUIOp::create(builder, loc, passes.getInductionVar(),
                                 constant(ewc::kRowWarpThreads * perLane));
      warps.meetBlocks = [&, passIndex](OpBuilder &b, Location l,
                                        ValueRange values, ValueRange identity,
                                        CombineValuesFn merge) {
        return blockMeet->meet(b, l, exchange, values, identity, merge,
                               teamRows.row, passIndex, teamRows.split);
      };
    }
    // What the reductions read at the points alone (attention's q), loaded
    // once before the pass: inside it every element of s would load it
    // again (LLVM does not hoist a load out of a loop that may not run).
    std::optional<ResidentRow> pointLoads;
    if (single) {
      pointLoads = buildPointLoads(builder, loc, kernel, split, coordOf, pass);
      warps.resident = &*pointLoads;
    }
    KnownValues known;
    emitHoistedCombines(builder, loc, kernel.access, element, kernel.func, nest,
                        coordOf, extents, known, &warps);
    // The lane's points, each with its own values of the sums that keep it.
    for (unsigned j = 0; j < perLane; ++j) {
      llvm::StringMap<Value> pointCoords(coordOf);
      for (const auto &entry : pass.coords[j])
        pointCoords[entry.getKey()] = entry.getValue();
      KnownValues pointKnown(known);
      if (j < pass.values.size())
        for (auto [from, to] : pass.values[j])
          pointKnown[from] = to;
      Value mine =
          arith::AndIOp::create(builder, loc, pass.valid[j], teamRows.active);
      if (blockMeet && blockMeet->last)
        mine = arith::AndIOp::create(builder, loc, mine, blockMeet->last);
      auto store = scf::IfOp::create(builder, loc, mine);
      OpBuilder::InsertionGuard point(builder);
      builder.setInsertionPoint(store.thenBlock()->getTerminator());
      emitCombiningElement(builder, loc, kernel.access, element, kernel.func,
                           nest, pointCoords, extents, pointKnown);
    }
  }
  if (blockMeet && blockMeet->again)
    return gpu::GPUFuncOp(kernel.func).emitError()
           << "internal error: a row split across blocks meets twice in one "
              "pass (RowSplit::blocksMeet admitted a nest whose combines "
              "outside the row's group the blocks would share)";
  return blockMeet ? blockMeet->words : 0;
}

/// buildRowsLoop's loop for teams of `team` lanes (an index value).
void buildTeamLoop(OpBuilder &builder, Location loc, const RowKernel &kernel,
                   const LoopNest &nest, const RowSplit &split, Value team,
                   unsigned maxTeam, WarpExchange &exchange,
                   unsigned minTeam = 1) {
  func::FuncOp element = kernel.element;
  const llvm::StringMap<Value> &extents = kernel.extents;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value rows = getVolume(builder, loc, split.rowDims, extents);
  Value innerPoints = getVolume(builder, loc, split.innerDims, extents);
  OpBuilder::InsertionGuard guard(builder);
  TeamRows teamRows = buildTeamRows(builder, loc, team, rows, kernel.blockSize);
  Value lane = teamRows.lane, row = teamRows.row;
  innerPoints = arith::SelectOp::create(builder, loc, teamRows.active,
                                        innerPoints, constant(0));
  llvm::StringMap<Value> coordOf;
  delinearizeInto(builder, loc, row, split.rowDims, extents, coordOf);
  TeamCombine teamCombine =
      exchange.getTeamCombine(lane, team, maxTeam, minTeam, kernel.resident);
  std::optional<ResidentRow> resident;
  if (kernel.resident) {
    resident =
        buildResidentRow(builder, loc, kernel, split, coordOf, lane, team);
    teamCombine.resident = &*resident;
  }
  // A row of one dimension in runs of consecutive elements where the
  // variant has its tensors aligned (RowAccess.h, kRowVectorBytes); not a
  // resident row, whose slots are the lanes' one at a time.
  bool runs =
      kernel.rowVectors && !kernel.resident && split.reducedDims.size() == 1;
  if (runs) {
    teamCombine.vectorDim = split.reducedDims.front();
    teamCombine.vectorLanes =
        ewc::getRowVectorLanes(kernel.elementBytes, teamCombine.unroll);
  }
  KnownValues known;
  emitHoistedCombines(builder, loc, kernel.access, element, kernel.func, nest,
                      coordOf, extents, known, &teamCombine);

  // The row's points: getRowPointUnroll per lane and iteration, each
  // point's tensor elements loaded before any point stores, then the rest
  // one at a time.
  unsigned pointUnroll = ewc::getRowPointUnroll(kernel.elementBytes);
  // In runs where the points are the row's elements (softmax, the norms),
  // which the runtime's check covers (isRowVectorAligned).
  unsigned pointLanes =
      runs && split.innerDims == split.reducedDims
          ? ewc::getRowVectorLanes(kernel.elementBytes, pointUnroll)
          : 1;
  assert((pointLanes == 1 || pointLanes == pointUnroll) &&
         "a lane's points are one run");
  Block &body = element.getBody().front();
  gpu::GPUFuncOp func = kernel.func;
  // The tensor elements of a point at `pointCoords`: a resident row's slot
  // from its loads, a run's from its vector loads, the rest loaded here.
  auto loadPoint = [&](const llvm::StringMap<Value> &pointCoords,
                       KnownValues &pointKnown, ElementRun *run = nullptr) {
    for (unsigned p = 0; p < kernel.access.numParams; ++p) {
      if (!kernel.access.argIsTensor[p])
        continue;
      ArrayRef<std::string> dims = kernel.access.argDims[p];
      if (resident)
        if (Value kept = resident->getLoad(p, dims, pointCoords)) {
          pointKnown[body.getArgument(p)] = kept;
          continue;
        }
      SmallVector<Value> indices;
      for (const std::string &dim : dims)
        if (Value coord = pointCoords.lookup(dim))
          indices.push_back(coord);
      // A tensor with a dimension the point lacks is read inside a
      // reduction only; one that no result needs here is dead code.
      if (indices.size() != dims.size())
        continue;
      Type type = kernel.access.argElementTypes[p];
      Value element =
          run ? run->getElement(builder, loc, p, func.getArgument(p), dims,
                                indices, type)
              : Value();
      pointKnown[body.getArgument(p)] =
          element
              ? element
              : loadElement(builder, loc, func.getArgument(p), indices, type);
    }
  };
  // The points at `flats`; with a `run` (whose flats they are), each tensor
  // along the row read and each result along it written by one vector
  // access.
  auto emitPoints = [&](ArrayRef<Value> flats, ElementRun *run = nullptr) {
    SmallVector<llvm::StringMap<Value>> coords(flats.size(), coordOf);
    SmallVector<KnownValues> knowns(flats.size(), known);
    for (auto [flat, pointCoords, pointKnown] :
         llvm::zip(flats, coords, knowns)) {
      delinearizeInto(builder, loc, flat, split.innerDims, extents,
                      pointCoords);
      loadPoint(pointCoords, pointKnown, run);
    }
    if (!run) {
      for (auto [pointCoords, pointKnown] : llvm::zip(coords, knowns))
        emitCombiningElement(builder, loc, kernel.access, element, kernel.func,
                             nest, pointCoords, extents, pointKnown);
      return;
    }
    // Each result's values at the run's points, in order.
    llvm::MapVector<unsigned, SmallVector<Value>> results;
    for (auto [pointCoords, pointKnown] : llvm::zip(coords, knowns))
      emitCombiningElement(
          builder, loc, kernel.access, element, kernel.func, nest, pointCoords,
          extents, pointKnown,
          [&](unsigned r, Value value) { results[r].push_back(value); });
    for (auto &[r, values] : results) {
      unsigned arg = kernel.access.numParams + r;
      ArrayRef<std::string> dims = kernel.access.argDims[arg];
      Value memref = func.getArgument(arg);
      auto indicesAt = [&](const llvm::StringMap<Value> &pointCoords) {
        SmallVector<Value> indices;
        for (const std::string &dim : dims)
          indices.push_back(pointCoords.lookup(dim));
        return indices;
      };
      if (!dims.empty() && dims.back() == split.innerDims.front() &&
          hasUnitInnerStride(memref) && values.size() == flats.size()) {
        unsigned bytes =
            getStorageType(values.front().getType()).getIntOrFloatBitWidth() /
            8;
        unsigned alignment = std::min<unsigned>(
            ewc::kRowVectorBytes, std::max(1u, bytes) * values.size());
        storeElements(builder, loc, values, memref, indicesAt(coords.front()),
                      alignment);
        continue;
      }
      for (auto [value, pointCoords] : llvm::zip(values, coords))
        storeElement(builder, loc, value, memref, indicesAt(pointCoords));
    }
  };
  // In a resident row whose points are its elements (softmax, the norms),
  // each slot's point from the slot's elements (their values the
  // reductions' own: one exponential an element), stored where it lies in
  // the row; then the row's rest, if any.
  if (resident && split.innerDims == split.reducedDims) {
    for (unsigned j = 0; j < resident->getSlots(); ++j) {
      const llvm::StringMap<Value> &pointCoords = resident->coords[j];
      KnownValues pointKnown(known);
      loadPoint(pointCoords, pointKnown);
      SmallVector<std::pair<unsigned, Value>> values;
      emitCombiningElement(builder, loc, kernel.access, element, kernel.func,
                           nest, pointCoords, extents, pointKnown,
                           [&](unsigned r, Value value) {
                             values.push_back({r, value});
                           });
      Value inRow = arith::AndIOp::create(builder, loc, resident->valid[j],
                                          teamRows.active);
      auto store = scf::IfOp::create(builder, loc, inRow);
      OpBuilder::InsertionGuard inner(builder);
      builder.setInsertionPoint(store.thenBlock()->getTerminator());
      for (auto [r, value] : values) {
        unsigned arg = kernel.access.numParams + r;
        SmallVector<Value> indices;
        for (const std::string &dim : kernel.access.argDims[arg])
          indices.push_back(resident->exact[j].lookup(dim));
        storeElement(builder, loc, value, func.getArgument(arg), indices);
      }
    }
    auto tail =
        scf::ForOp::create(builder, loc, resident->rest, innerPoints, team);
    builder.setInsertionPoint(tail.getBody()->getTerminator());
    emitPoints({tail.getInductionVar()});
    return;
  }
  Value stride =
      arith::MulIOp::create(builder, loc, team, constant(pointUnroll));
  Value chunks = arith::DivUIOp::create(builder, loc, innerPoints, stride);
  auto unrolled =
      scf::ForOp::create(builder, loc, constant(0), chunks, constant(1));
  {
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPoint(unrolled.getBody()->getTerminator());
    Value start =
        arith::MulIOp::create(builder, loc, unrolled.getInductionVar(), stride);
    // Lane l's points: one run of them from start + l pointUnroll, else l,
    // l + team, ... from start.
    Value first = arith::AddIOp::create(
        builder, loc, start,
        arith::MulIOp::create(builder, loc, lane,
                              constant(pointLanes > 1 ? pointUnroll : 1)));
    if (pointLanes > 1) {
      ElementRun run(builder, loc, split.innerDims.front(), first, pointLanes);
      emitPoints(run.getFlats(), &run);
    } else {
      SmallVector<Value> flats;
      for (unsigned j = 0; j < pointUnroll; ++j)
        flats.push_back(arith::AddIOp::create(
            builder, loc, first,
            arith::MulIOp::create(builder, loc, team, constant(j))));
      emitPoints(flats);
    }
  }
  Value done = arith::MulIOp::create(builder, loc, chunks, stride);
  // The whole runs past the iterations, a run a lane and step, then the
  // last points one at a time.
  if (pointLanes > 1) {
    Value runs =
        arith::DivUIOp::create(builder, loc, innerPoints, constant(pointLanes));
    Value firstRun = arith::AddIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, done, constant(pointLanes)), lane);
    auto runLoop = scf::ForOp::create(builder, loc, firstRun, runs, team);
    {
      OpBuilder::InsertionGuard inner(builder);
      builder.setInsertionPoint(runLoop.getBody()->getTerminator());
      Value first = arith::MulIOp::create(
          builder, loc, runLoop.getInductionVar(), constant(pointLanes));
      ElementRun run(builder, loc, split.innerDims.front(), first, pointLanes);
      emitPoints(run.getFlats(), &run);
    }
    done = arith::MulIOp::create(builder, loc, runs, constant(pointLanes));
  }
  Value rest = arith::AddIOp::create(builder, loc, done, lane);
  auto tail = scf::ForOp::create(builder, loc, rest, innerPoints, team);
  builder.setInsertionPoint(tail.getBody()->getTerminator());
  emitPoints({tail.getInductionVar()});
}

} // namespace

void mlir::ew::delinearizeInto(OpBuilder &builder, Location loc, Value flat,
                               ArrayRef<std::string> dims,
                               const llvm::StringMap<Value> &extents,
                               llvm::StringMap<Value> &coordOf) {
  if (dims.empty())
    return;
  if (dims.size() == 1) {
    coordOf[dims[0]] = flat;
    return;
  }
  SmallVector<Value> basis;
  for (const std::string &dim : dims)
    basis.push_back(extents.lookup(dim));
  auto coords = affine::AffineDelinearizeIndexOp::create(
      builder, loc, flat, basis, /*hasOuterBound=*/true);
  for (auto [dim, coord] : llvm::zip(dims, coords.getResults()))
    coordOf[dim] = coord;
}

Value mlir::ew::getVolume(OpBuilder &builder, Location loc,
                          ArrayRef<std::string> dims,
                          const llvm::StringMap<Value> &extents) {
  Value volume = arith::ConstantIndexOp::create(builder, loc, 1);
  for (const std::string &dim : dims)
    volume = arith::MulIOp::create(builder, loc, volume, extents.lookup(dim));
  return volume;
}

llvm::SmallBitVector mlir::ew::getParamsReadBy(func::FuncOp element,
                                               ArrayRef<Value> roots,
                                               unsigned numParams) {
  llvm::SmallBitVector read(numParams);
  Block &body = element.getBody().front();
  llvm::SmallPtrSet<Operation *, 32> seen;
  SmallVector<Value> worklist(roots);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &body && arg.getArgNumber() < numParams)
        read.set(arg.getArgNumber());
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (op && seen.insert(op).second)
      llvm::append_range(worklist, op->getOperands());
  }
  return read;
}

void SharedSlots::store(OpBuilder &builder, Location loc, Value value,
                        Value index) {
  Type type = value.getType();
  Value word =
      type.isInteger(1)
          ? arith::ExtUIOp::create(builder, loc, builder.getI8Type(), value)
                .getResult()
          : value;
  memref::StoreOp::create(builder, loc, word,
                          getSlots(builder, loc, word.getType()),
                          ValueRange{index});
}

Value SharedSlots::load(OpBuilder &builder, Location loc, Type type,
                        Value index) {
  bool isBool = type.isInteger(1);
  Value word = memref::LoadOp::create(
      builder, loc, getSlots(builder, loc, isBool ? builder.getI8Type() : type),
      ValueRange{index});
  return isBool ? arith::TruncIOp::create(builder, loc, type, word).getResult()
                : word;
}

Value SharedSlots::getSlots(OpBuilder &builder, Location loc, Type type) {
  Value &slots = slotsOf[type];
  if (!slots) {
    auto workgroup = gpu::AddressSpaceAttr::get(builder.getContext(),
                                                gpu::AddressSpace::Workgroup);
    slots = func.addWorkgroupAttribution(
        MemRefType::get({count}, type, AffineMap(), workgroup), loc);
  }
  return slots;
}

unsigned mlir::ew::getNarrowestBytes(const KernelAccess &access) {
  unsigned bytes = 8;
  for (auto [isTensor, type] :
       llvm::zip(access.argIsTensor, access.argElementTypes))
    if (isTensor)
      bytes = std::min(bytes, std::max(1u, type.getIntOrFloatBitWidth() / 8));
  return bytes;
}

/// The loop of the rows schedule for one nest (RowAccess.h), in blocks of
/// RowKernel::blockSize threads (kRowsBlockSize by default), for teams of
/// T lanes (by the row's length):
///
///   lane = threadIdx.x mod T
///   for (r = blockIdx.x * (B / T); r < rows; r += gridDim.x * (B / T)) {
///     row = r + threadIdx.x / T                      // the same for a block
///     (r...) = delinearize(row, row extents);
///     m = amax(x[r..., :]), s = sum(...);            // the whole team
///     for (p = lane; p < inner points; p += T)       // the row's points,
///       out[r..., p...] = element(m, s, x[r..., p...]); // 4 at a time
///   }
///
/// Each reduction that the row's points share is computed once per row by
/// the team together (emitHoistedCombines with a TeamCombine): shuffles in
/// each warp, then, for a team of several warps, the warps' values through
/// shared memory; a reduction of one point (none in softmax) by its lane
/// alone.
FailureOr<unsigned> mlir::ew::buildRowsLoop(OpBuilder &builder, Location loc,
                                            const RowKernel &kernel,
                                            const LoopNest &nest,
                                            const RowSplit &split) {
  const llvm::StringMap<Value> &extents = kernel.extents;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  // The team's lanes by the row's length L (RowAccess.h): the power of two
  // at or above ceil(L / kRowElementsPerLane) up to a warp, else at or above
  // ceil(L / (kRowBytesPerWarpLane / the narrowest tensor's element bytes))
  // up to the block; the same for the whole grid, so that a team never
  // straddles a warp or, of several warps, a block. A chain of selects from
  // the top.
  // A resident row's team: at or above ceil(L / its slots) lanes at every
  // size, so that a lane's slots are mostly in the row.
  unsigned bytes = kernel.elementBytes;
  Value length = getVolume(builder, loc, split.reducedDims, extents);
  unsigned perLane[] = {ewc::kRowElementsPerLane,
                        ewc::kRowBytesPerWarpLane / bytes};
  if (kernel.resident)
    perLane[0] = perLane[1] = kernel.resident;
  Value shares[] = {
      arith::CeilDivUIOp::create(builder, loc, length, constant(perLane[0])),
      arith::CeilDivUIOp::create(builder, loc, length, constant(perLane[1]))};
  Value team = constant(kernel.blockSize);
  for (unsigned lanes = kernel.blockSize / 2; lanes >= 1; lanes /= 2)
    team = arith::SelectOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                              shares[lanes >= ewc::kRowWarpThreads],
                              constant(lanes)),
        constant(lanes), team);
  // Three versions, each with the steps it needs: a warp per row, the
  // common case (rows of 257 to 1024), with the team's size a constant
  // (with it a runtime value everywhere softmax f32 at n = 1000 ran at 42.5%
  // of the copy on the H200 instead of 68.3%: 2026-12-03, calls 2 and 3);
  // teams of a part of a warp, with the butterfly's steps by the size; and
  // teams of several warps, whose warps combine through shared memory.
  WarpExchange exchange(kernel.func, kernel.blockSize, kernel.elementBytes);
  if (!split.laneDims.empty()) {
    OpBuilder::InsertionGuard guard(builder);
    return buildLanePointsLoop(builder, loc, kernel, nest, split, exchange);
  }
  // A team of a constant size (the variant's): one version, every step of
  // it known.
  if (kernel.team) {
    OpBuilder::InsertionGuard guard(builder);
    buildTeamLoop(builder, loc, kernel, nest, split, constant(kernel.team),
                  kernel.team, exchange, /*minTeam=*/kernel.team);
    return 0;
  }
  Value warp = constant(ewc::kRowWarpThreads);
  Value whole =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, team, warp);
  Value several = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt,
                                        team, warp);
  OpBuilder::InsertionGuard guard(builder);
  auto version = scf::IfOp::create(builder, loc, whole, /*withElse=*/true);
  builder.setInsertionPoint(version.thenBlock()->getTerminator());
  buildTeamLoop(builder, loc, kernel, nest, split, warp, ewc::kRowWarpThreads,
                exchange, /*minTeam=*/ewc::kRowWarpThreads);
  builder.setInsertionPoint(version.elseBlock()->getTerminator());
  auto size = scf::IfOp::create(builder, loc, several, /*withElse=*/true);
  builder.setInsertionPoint(size.thenBlock()->getTerminator());
  buildTeamLoop(builder, loc, kernel, nest, split, team, kernel.blockSize,
                exchange, /*minTeam=*/2 * ewc::kRowWarpThreads);
  builder.setInsertionPoint(size.elseBlock()->getTerminator());
  buildTeamLoop(builder, loc, kernel, nest, split, team,
                ewc::kRowWarpThreads / 2, exchange);
  return 0;
}

/// The scans of `nest` that a warp per row carries along a tensor's last
/// dimension (the nest's innermost in getCombineLoopOrder's order), or none.
std::optional<CarriedScans> mlir::ew::getRowScans(const KernelAccess &access,
                                                  func::FuncOp element,
                                                  const LoopNest &ordered) {
  if (ordered.dims.empty())
    return std::nullopt;
  CarriedScans carried = CarriedScans::get(access, element, ordered);
  bool contiguous = false;
  for (unsigned p = 0; p < access.numParams; ++p)
    contiguous |= access.argIsTensor[p] && !access.argDims[p].empty() &&
                  access.argDims[p].back() == ordered.dims.back();
  if (carried.scans.empty() || !contiguous)
    return std::nullopt;
  return carried;
}

/// The chunks of a warp's step along a row (ScanChunk): lane l's elements
/// base + 32 u + l for u < U (kRowScanUnroll), inside while below `end`; a
/// lane past it reads element `last` (one the row has) and scans the
/// identity instead. Every load of the step is made before any scan.
SmallVector<ScanChunk> mlir::ew::loadScanChunks(
    OpBuilder &builder, Location loc, const RowKernel &kernel,
    const llvm::StringMap<Value> &coordOf, const KnownValues &known,
    StringRef scanDim, Value base, Value lane, Value end, Value last,
    ArrayRef<Value> operands, unsigned count) {
  SmallVector<ScanChunk> chunks;
  for (unsigned u = 0; u < count; ++u) {
    ScanChunk &chunk = chunks.emplace_back(ScanChunk{nullptr, coordOf, known});
    Value k = arith::AddIOp::create(
        builder, loc, base,
        arith::AddIOp::create(builder, loc,
                              arith::ConstantIndexOp::create(
                                  builder, loc, u * ewc::kRowWarpThreads),
                              lane));
    chunk.inside =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, k, end);
    chunk.coords[scanDim] =
        arith::SelectOp::create(builder, loc, chunk.inside, k, last);
    emitElementValues(builder, loc, kernel.access, kernel.element, kernel.func,
                      chunk.coords, kernel.extents, chunk.known, operands);
  }
  return chunks;
}

/// The warp's inclusive scan of `chunk` (a Hillis-Steele scan of five
/// shuffles per scan of `carried`), each after `carries` (the warp's
/// prefix so far, the same on every lane), which become the chunk's last
/// value; the chunk's values go to its known values.
void mlir::ew::scanChunk(OpBuilder &builder, Location loc, ScanChunk &chunk,
                         const CarriedScans &carried, ArrayRef<Value> operands,
                         ArrayRef<Value> inits, Value lane,
                         MutableArrayRef<Value> carries) {
  for (auto [i, op] : llvm::enumerate(carried.scans)) {
    Value value = arith::SelectOp::create(
        builder, loc, chunk.inside, chunk.known.lookup(operands[i]), inits[i]);
    for (unsigned offset = 1; offset < ewc::kRowWarpThreads; offset *= 2) {
      Value before =
          shuffleLanes(builder, loc, value, offset, gpu::ShuffleMode::UP);
      Value has = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::uge, lane,
          arith::ConstantIndexOp::create(builder, loc, offset));
      value = arith::SelectOp::create(
          builder, loc, has, emitCombinerOf(builder, op, before, value), value);
    }
    value = emitCombinerOf(builder, op, carries[i], value);
    chunk.known[op->getResult(0)] = value;
    carries[i] = shuffleLanes(builder, loc, value, ewc::kRowWarpThreads - 1,
                              gpu::ShuffleMode::IDX);
  }
}

/// The loop of the rows schedule for a nest of scans along its innermost
/// dimension (getRowScans): a warp per row, along which it walks 32 x U
/// points at a time (U = kRowScanUnroll), U chunks of 32 whose elements
/// are all loaded before the first chunk is scanned,
///
///   lane = threadIdx.x mod 32
///   for (row = ...) {                            // as buildRowsLoop
///     carry = init;
///     for (base = 0; base < n; base += 32 U) {  // the same for a warp
///       for (u = 0; u < U; ++u) {               // the loads first
///         k[u] = base + 32 u + lane;
///         v[u] = k[u] < n ? x[row, k[u]] : init;
///       }
///       for (u = 0; u < U; ++u) {               // then each chunk in order
///         for (o = 1; o < 32; o *= 2)           // the warp's inclusive scan
///           w = shfl.up(v[u], o); if (lane >= o) v[u] = w + v[u];
///         v[u] = carry + v[u];
///         if (k[u] < n) out[row, k[u]] = element(v[u], ...);
///         carry = shfl.idx(v[u], 31);            // the row's prefix so far
///       }
///     }
///   }
///
/// each element read once, each chunk of 32 a Hillis-Steele scan of five
/// shuffles (the same combinations, in the same order, for any U).
/// Reductions the row's points share are the warp's, before.
void mlir::ew::buildScanRowsLoop(OpBuilder &builder, Location loc,
                                 const RowKernel &kernel,
                                 const LoopNest &ordered,
                                 CarriedScans &carried) {
  func::FuncOp element = kernel.element;
  const llvm::StringMap<Value> &extents = kernel.extents;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  ArrayRef<std::string> rowDims = ArrayRef(ordered.dims).drop_back();
  const std::string &scanDim = ordered.dims.back();
  Value team = constant(ewc::kRowWarpThreads);
  Value rows = getVolume(builder, loc, rowDims, extents);
  Value extent = extents.lookup(scanDim);
  // A whole warp per row: every team has its row (active), and a warp's
  // walk along its row is the same for all its lanes.
  OpBuilder::InsertionGuard guard(builder);
  TeamRows teamRows = buildTeamRows(builder, loc, team, rows, kernel.blockSize);
  Value lane = teamRows.lane;
  llvm::StringMap<Value> coordOf;
  delinearizeInto(builder, loc, teamRows.row, rowDims, extents, coordOf);
  WarpExchange exchange(kernel.func, kernel.blockSize, kernel.elementBytes);
  TeamCombine teamCombine =
      exchange.getTeamCombine(lane, team, ewc::kRowWarpThreads,
                              /*minSize=*/1, /*resident=*/false);
  KnownValues known;
  emitHoistedCombines(builder, loc, kernel.access, element, kernel.func,
                      ordered, coordOf, extents, known, &teamCombine);

  SmallVector<Value> inits = getScanInits(builder, loc, carried);
  SmallVector<Value> operands = getScanOperands(carried);
  auto steps = scf::ForOp::create(
      builder, loc, constant(0), extent,
      constant(ewc::kRowWarpThreads * ewc::kRowScanUnroll), inits);
  builder.setInsertionPointToStart(steps.getBody());
  // The loop runs only while the row has an element: the last is one.
  Value last = arith::SubIOp::create(builder, loc, extent, constant(1));
  SmallVector<ScanChunk> chunks = loadScanChunks(
      builder, loc, kernel, coordOf, known, scanDim, steps.getInductionVar(),
      lane, extent, last, operands, ewc::kRowScanUnroll);
  SmallVector<Value> carries(steps.getRegionIterArgs());
  for (ScanChunk &chunk : chunks) {
    scanChunk(builder, loc, chunk, carried, operands, inits, lane, carries);
    auto store = scf::IfOp::create(builder, loc, chunk.inside);
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPoint(store.thenBlock()->getTerminator());
    emitCombiningElement(builder, loc, kernel.access, element, kernel.func,
                         ordered, chunk.coords, extents, chunk.known);
  }
  scf::YieldOp::create(builder, loc, carries);
}

SmallVector<Value> mlir::ew::getScanInits(OpBuilder &builder, Location loc,
                                          const CarriedScans &carried) {
  SmallVector<Value> inits;
  for (TypedAttr init : carried.inits)
    inits.push_back(arith::ConstantOp::create(builder, loc, init));
  return inits;
}

SmallVector<Value> mlir::ew::getScanOperands(const CarriedScans &carried) {
  SmallVector<Value> operands;
  for (Operation *op : carried.scans)
    operands.push_back(op->getOperand(0));
  return operands;
}
