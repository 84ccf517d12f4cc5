//===- TestMutations.cpp - Break the compiler on purpose ------------------===//
//
// ew-test-mutate{mutation=NAME}: one deliberate miscompilation per name, each
// a short rewrite of the kind a real lowering bug would make. The mutation
// suite (test/Mutations) runs every one through `ewc-run --test-mutation` and
// checks that the verdict turns False: the proof that a True can be trusted.
//
// The mutations walk the IR instead of using rewrite patterns: each must apply
// exactly once to what the compiler produced (a pattern could match its own
// output, e.g. the truncf that round-toward-zero emits) and must count what it
// changed, so that the pass can fail when it changed nothing.
//
//===----------------------------------------------------------------------===//

#include "Transforms/TestPasses.h"

#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

namespace mlir {
namespace ew {
namespace test {
#define GEN_PASS_DECL_EWTESTMUTATE
#define GEN_PASS_DEF_EWTESTMUTATE
#define GEN_PASS_REGISTRATION
#include "Transforms/Passes.h.inc"
} // namespace test
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;
using namespace mlir::ew::test;

/// Every op of type OpTy in `module` for which `filter` holds, collected
/// before any is rewritten (so a rewrite never meets its own output).
template <typename OpTy>
static SmallVector<OpTy> collect(ModuleOp module,
                                 function_ref<bool(OpTy)> filter) {
  SmallVector<OpTy> ops;
  module.walk([&](OpTy op) {
    if (filter(op))
      ops.push_back(op);
  });
  return ops;
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

static unsigned geToGt(ModuleOp module, IRRewriter &rewriter) {
  auto floats = collect<arith::CmpFOp>(module, [](arith::CmpFOp op) {
    return op.getPredicate() == arith::CmpFPredicate::OGE;
  });
  auto ints = collect<arith::CmpIOp>(module, [](arith::CmpIOp op) {
    return op.getPredicate() == arith::CmpIPredicate::sge;
  });
  for (arith::CmpFOp op : floats)
    rewriter.modifyOpInPlace(
        op, [&] { op.setPredicate(arith::CmpFPredicate::OGT); });
  for (arith::CmpIOp op : ints)
    rewriter.modifyOpInPlace(
        op, [&] { op.setPredicate(arith::CmpIPredicate::sgt); });
  return floats.size() + ints.size();
}

/// The unordered twin of an ordered predicate (true also when an operand is
/// NaN), or nullopt.
static std::optional<arith::CmpFPredicate>
getUnorderedTwin(arith::CmpFPredicate predicate) {
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::OEQ:
    return P::UEQ;
  case P::OGT:
    return P::UGT;
  case P::OGE:
    return P::UGE;
  case P::OLT:
    return P::ULT;
  case P::OLE:
    return P::ULE;
  case P::ONE:
    return P::UNE;
  default:
    return std::nullopt;
  }
}

static unsigned orderedToUnordered(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<arith::CmpFOp>(module, [](arith::CmpFOp op) {
    return getUnorderedTwin(op.getPredicate()).has_value();
  });
  for (arith::CmpFOp op : ops)
    rewriter.modifyOpInPlace(
        op, [&] { op.setPredicate(*getUnorderedTwin(op.getPredicate())); });
  return ops.size();
}

//===----------------------------------------------------------------------===//
// The element loop
//===----------------------------------------------------------------------===//

/// The element loops of the lowered kernels: the innermost scf.for loops
/// that store into a kernel argument (the CPU's innermost loop of each nest,
/// the GPU's grid-stride loops: the vectorized main loop and the scalar
/// ones around it).
static bool storesToArgument(scf::ForOp loop);

static SmallVector<scf::ForOp> getElementLoops(ModuleOp module) {
  return collect<scf::ForOp>(module, [](scf::ForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](scf::ForOp) { innermost = false; });
    return innermost && storesToArgument(loop);
  });
}

/// Replaces the upper bound of every element loop by `bound(ub)`.
static unsigned
changeLoopBound(ModuleOp module, IRRewriter &rewriter,
                function_ref<Value(OpBuilder &, Location, Value)> bound) {
  SmallVector<scf::ForOp> loops = getElementLoops(module);
  for (scf::ForOp loop : loops) {
    rewriter.setInsertionPoint(loop);
    Value n = loop.getUpperBound();
    Value newBound = bound(rewriter, loop.getLoc(), n);
    rewriter.modifyOpInPlace(
        loop, [&] { loop.getUpperBoundMutable().assign(newBound); });
  }
  return loops.size();
}

/// The constant `value` of `type` (index or an integer type).
static Value getConstant(OpBuilder &builder, Location loc, Type type,
                         int64_t value) {
  return arith::ConstantOp::create(builder, loc,
                                   builder.getIntegerAttr(type, value));
}

static unsigned dropTail(ModuleOp module, IRRewriter &rewriter) {
  return changeLoopBound(
      module, rewriter, [](OpBuilder &builder, Location loc, Value n) -> Value {
        Value mask = getConstant(builder, loc, n.getType(), -8);
        return arith::AndIOp::create(builder, loc, n, mask);
      });
}

static unsigned offByOne(ModuleOp module, IRRewriter &rewriter) {
  return changeLoopBound(
      module, rewriter, [](OpBuilder &builder, Location loc, Value n) -> Value {
        Value one = getConstant(builder, loc, n.getType(), 1);
        return arith::SubIOp::create(builder, loc, n, one);
      });
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

/// Computes every f64 float op (arith or math with one type for operands and
/// result, e.g. addf, divf, negf, math.exp) and every f64 cmpf in f32:
/// truncf the operands, extf the result.
static unsigned f64AsF32(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    bool isArithmetic =
        op->hasTrait<OpTrait::SameOperandsAndResultType>() &&
        op->getNumResults() == 1 &&
        isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
    if ((isArithmetic || isa<arith::CmpFOp>(op)) && op->getNumOperands() > 0 &&
        llvm::all_of(op->getOperandTypes(),
                     [](Type type) { return type.isF64(); }))
      ops.push_back(op);
  });
  Type f32 = Float32Type::get(module.getContext());
  Type f64 = Float64Type::get(module.getContext());
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    rewriter.modifyOpInPlace(op, [&] {
      for (OpOperand &operand : op->getOpOperands())
        operand.set(arith::TruncFOp::create(rewriter, loc, f32, operand.get()));
    });
    if (isa<arith::CmpFOp>(op))
      continue;
    Value result = op->getResult(0);
    rewriter.modifyOpInPlace(op, [&] { result.setType(f32); });
    rewriter.setInsertionPointAfter(op);
    auto widened = arith::ExtFOp::create(rewriter, loc, f64, result);
    rewriter.replaceAllUsesExcept(result, widened, widened);
  }
  return ops.size();
}

static unsigned negAsSub(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<arith::NegFOp>(module, [](arith::NegFOp) { return true; });
  for (arith::NegFOp op : ops) {
    rewriter.setInsertionPoint(op);
    // 0.0 - x: +0.0 where -x is -0.0, the sign of zero lost.
    Value zero = arith::ConstantOp::create(rewriter, op.getLoc(),
                                           rewriter.getZeroAttr(op.getType()));
    rewriter.replaceOpWithNewOp<arith::SubFOp>(op, zero, op.getOperand());
  }
  return ops.size();
}

static unsigned maxAsMaxnum(ModuleOp module, IRRewriter &rewriter) {
  auto maxima = collect<arith::MaximumFOp>(
      module, [](arith::MaximumFOp) { return true; });
  auto minima = collect<arith::MinimumFOp>(
      module, [](arith::MinimumFOp) { return true; });
  // maxnumf/minnumf return the other operand where one is NaN; torch.maximum
  // and ew.max return NaN.
  for (arith::MaximumFOp op : maxima) {
    rewriter.setInsertionPoint(op);
    rewriter.replaceOpWithNewOp<arith::MaxNumFOp>(op, op.getLhs(), op.getRhs());
  }
  for (arith::MinimumFOp op : minima) {
    rewriter.setInsertionPoint(op);
    rewriter.replaceOpWithNewOp<arith::MinNumFOp>(op, op.getLhs(), op.getRhs());
  }
  return maxima.size() + minima.size();
}

static unsigned swapWhere(ModuleOp module, IRRewriter &rewriter) {
  // The selects of the element code: not those of index type, which are the
  // vectorizer's coordinate arithmetic (a carry), not a `where`; swapped,
  // they send the accesses out of bounds, a run error instead of the wrong
  // values this mutation is for.
  auto ops = collect<arith::SelectOp>(
      module, [](arith::SelectOp op) { return !op.getType().isIndex(); });
  for (arith::SelectOp op : ops) {
    Value onTrue = op.getTrueValue(), onFalse = op.getFalseValue();
    rewriter.modifyOpInPlace(op, [&] {
      op.getTrueValueMutable().assign(onFalse);
      op.getFalseValueMutable().assign(onTrue);
    });
  }
  return ops.size();
}

/// `round` breaks ties away from zero (C's round) instead of to even:
/// math.roundeven becomes math.round. Only ties differ: 0.5 gives 1.0, 2.5
/// gives 3.0, -0.5 gives -1.0.
static unsigned roundHalfAway(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<math::RoundEvenOp>(module,
                                        [](math::RoundEvenOp) { return true; });
  for (math::RoundEvenOp op : ops) {
    rewriter.setInsertionPoint(op);
    rewriter.replaceOpWithNewOp<math::RoundOp>(op, op.getOperand());
  }
  return ops.size();
}

/// Replaces every op of type From (on `isElement` values) by a To of the same
/// operands and result type.
template <typename From, typename To>
static unsigned replaceOps(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<From>(module, [](From op) {
    return !op->getResult(0).getType().isIndex() &&
           !op->getOperand(0).getType().isIndex();
  });
  for (From op : ops) {
    rewriter.setInsertionPoint(op);
    rewriter.replaceOpWithNewOp<To>(op, op->getResultTypes(),
                                    op->getOperands());
  }
  return ops.size();
}

/// The unsigned integer types computed as signed: divui, remui, shrui,
/// maxui, minui, uitofp and fptoui become their signed twins and unsigned
/// compares signed ones (not on index values: the loops' own). A u8 of
/// 200 is then -56 to all of them.
static unsigned unsignedAsSigned(ModuleOp module, IRRewriter &rewriter) {
  unsigned count =
      replaceOps<arith::DivUIOp, arith::DivSIOp>(module, rewriter) +
      replaceOps<arith::RemUIOp, arith::RemSIOp>(module, rewriter) +
      replaceOps<arith::ShRUIOp, arith::ShRSIOp>(module, rewriter) +
      replaceOps<arith::MaxUIOp, arith::MaxSIOp>(module, rewriter) +
      replaceOps<arith::MinUIOp, arith::MinSIOp>(module, rewriter) +
      replaceOps<arith::UIToFPOp, arith::SIToFPOp>(module, rewriter) +
      replaceOps<arith::FPToUIOp, arith::FPToSIOp>(module, rewriter);
  auto compares = collect<arith::CmpIOp>(module, [](arith::CmpIOp op) {
    using P = arith::CmpIPredicate;
    P p = op.getPredicate();
    return !op.getLhs().getType().isIndex() &&
           (p == P::ult || p == P::ule || p == P::ugt || p == P::uge);
  });
  for (arith::CmpIOp op : compares)
    rewriter.modifyOpInPlace(op, [&] {
      using P = arith::CmpIPredicate;
      switch (op.getPredicate()) {
      case P::ult:
        return op.setPredicate(P::slt);
      case P::ule:
        return op.setPredicate(P::sle);
      case P::ugt:
        return op.setPredicate(P::sgt);
      default:
        return op.setPredicate(P::sge);
      }
    });
  return count + compares.size();
}

/// atan2 takes its operands in the wrong order, atan2(x, y) for
/// atan2(y, x): the angle mirrored about the diagonal, pi/2 - atan2(y, x)
/// for positive operands, equal only where y == x.
static unsigned swapAtan2(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<math::Atan2Op>(module, [](math::Atan2Op) { return true; });
  for (math::Atan2Op op : ops) {
    Value y = op.getLhs(), x = op.getRhs();
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(x);
      op.getRhsMutable().assign(y);
    });
  }
  return ops.size();
}

/// A bitcast between f32 or f64 and an integer type converts the value
/// instead (sitofp, fptosi): `bitcast(1.0, u32)` becomes 1, not 0x3F800000.
static unsigned bitcastAsConvert(ModuleOp module, IRRewriter &rewriter) {
  // f32 and f64 only: LLVM has no conversion into an 8-bit float.
  auto ops = collect<arith::BitcastOp>(module, [](arith::BitcastOp op) {
    Type from = op.getIn().getType(), to = op.getType();
    auto wide = [](Type t) { return t.isF32() || t.isF64(); };
    return (wide(from) && isa<IntegerType>(to)) ||
           (isa<IntegerType>(from) && wide(to));
  });
  for (arith::BitcastOp op : ops) {
    rewriter.setInsertionPoint(op);
    if (isa<FloatType>(op.getType()))
      rewriter.replaceOpWithNewOp<arith::SIToFPOp>(op, op.getType(),
                                                   op.getIn());
    else
      rewriter.replaceOpWithNewOp<arith::FPToSIOp>(op, op.getType(),
                                                   op.getIn());
  }
  return ops.size();
}

/// Conversions to the 8-bit floats saturate (clamp to the largest finite
/// value first) where torch's give NaN (f8e4m3) or infinity (f8e5m2): 1000
/// becomes 448, inf 57344. NaN stays NaN (minimumf and maximumf propagate
/// it). What the sm_89 cvt alone would do, without ew-expand-float8's
/// selects.
static unsigned float8Saturate(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<arith::TruncFOp>(module, [](arith::TruncFOp op) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(op.getType());
  });
  for (arith::TruncFOp op : ops) {
    Location loc = op.getLoc();
    Value x = op.getIn();
    Type type = x.getType();
    double largest = isa<Float8E4M3FNType>(op.getType()) ? 448.0 : 57344.0;
    rewriter.setInsertionPoint(op);
    Value high = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(type, largest));
    Value low = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(type, -largest));
    Value below = arith::MinimumFOp::create(rewriter, loc, x, high);
    Value clamped = arith::MaximumFOp::create(rewriter, loc, below, low);
    rewriter.modifyOpInPlace(op, [&] { op.getInMutable().assign(clamped); });
  }
  return ops.size();
}

/// Every float narrowing (truncf, round to nearest even) rounds toward zero
/// instead: where rounding moved the value away from zero, step its bits one
/// down in magnitude (for an overflow to inf, that is the largest finite).
static unsigned roundTowardZero(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<arith::TruncFOp>(module, [](arith::TruncFOp op) {
    return isa<FloatType>(op.getIn().getType());
  });
  for (arith::TruncFOp op : ops) {
    Location loc = op.getLoc();
    Value x = op.getIn();
    Type wide = x.getType(), narrow = op.getType();
    Type bits = rewriter.getIntegerType(narrow.getIntOrFloatBitWidth());
    rewriter.setInsertionPoint(op);
    Value nearest = arith::TruncFOp::create(rewriter, loc, narrow, x);
    Value back = arith::ExtFOp::create(rewriter, loc, wide, nearest);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(wide));
    auto cmp = [&](arith::CmpFPredicate predicate, Value lhs, Value rhs) {
      return arith::CmpFOp::create(rewriter, loc, predicate, lhs, rhs);
    };
    // |back| > |x|; false for NaN. One op per statement, so that the IR's
    // order does not follow the compiler's order of evaluating arguments.
    Value below = cmp(arith::CmpFPredicate::OLT, back, x);
    Value above = cmp(arith::CmpFPredicate::OGT, back, x);
    Value nonNegative = cmp(arith::CmpFPredicate::OGE, x, zero);
    Value awayFromZero =
        arith::SelectOp::create(rewriter, loc, nonNegative, above, below);
    Value one = arith::ConstantIntOp::create(rewriter, loc, bits, 1);
    Value towardZero = arith::BitcastOp::create(
        rewriter, loc, narrow,
        arith::SubIOp::create(
            rewriter, loc,
            arith::BitcastOp::create(rewriter, loc, bits, nearest), one));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, awayFromZero, towardZero,
                                                 nearest);
  }
  return ops.size();
}

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

/// The function argument that `op` stores into (memref.store or
/// vector.store into the argument's memref, llvm.store through a
/// getelementptr of it), or null if `op` is no such store.
static BlockArgument getStoredArgument(Operation *op) {
  Value base;
  if (auto store = dyn_cast<memref::StoreOp>(op))
    base = store.getMemRef();
  else if (auto store = dyn_cast<vector::StoreOp>(op))
    base = store.getBase();
  else if (auto store = dyn_cast<LLVM::StoreOp>(op))
    if (auto address = store.getAddr().getDefiningOp<LLVM::GEPOp>())
      base = address.getBase();
  auto arg = dyn_cast_or_null<BlockArgument>(base);
  if (!arg || !isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    return nullptr;
  return arg;
}

static bool storesToArgument(scf::ForOp loop) {
  bool found = false;
  loop.getBody()->walk([&](Operation *op) {
    found |= static_cast<bool>(getStoredArgument(op));
  });
  return found;
}

static unsigned boolAs2(ModuleOp module, IRRewriter &rewriter) {
  // The ABI stores an i1 as the byte `extui %b`: stored as it is (scalar
  // loops), or gathered into a vector of bytes first (the GPU's vectorized
  // main loop, ew-vectorize-gpu-loops), or widened as a vector.
  auto isBoolWidening = [](arith::ExtUIOp widen) {
    Type from = getElementTypeOrSelf(widen.getIn().getType());
    Type to = getElementTypeOrSelf(widen.getType());
    return from.isInteger(1) && to.isInteger(8) && !widen->use_empty() &&
           llvm::all_of(widen->getUsers(), [](Operation *user) {
             return isa<memref::StoreOp, vector::StoreOp, vector::InsertOp,
                        vector::FromElementsOp, LLVM::StoreOp,
                        LLVM::InsertElementOp>(user);
           });
  };
  auto widenings = collect<arith::ExtUIOp>(module, isBoolWidening);
  for (arith::ExtUIOp widen : widenings) {
    Location loc = widen.getLoc();
    rewriter.setInsertionPoint(widen);
    Value two = arith::ConstantOp::create(
        rewriter, loc,
        cast<TypedAttr>(
            rewriter.getIntegerAttr(getElementTypeOrSelf(widen.getType()), 2)));
    Value zero = arith::ConstantOp::create(
        rewriter, loc,
        cast<TypedAttr>(
            rewriter.getIntegerAttr(getElementTypeOrSelf(widen.getType()), 0)));
    if (auto vector = dyn_cast<VectorType>(widen.getType())) {
      two = vector::BroadcastOp::create(rewriter, loc, vector, two);
      zero = vector::BroadcastOp::create(rewriter, loc, vector, zero);
    }
    rewriter.replaceOpWithNewOp<arith::SelectOp>(widen, widen.getIn(), two,
                                                 zero);
  }
  return widenings.size();
}

static unsigned unwrittenOutput(ModuleOp module, IRRewriter &rewriter) {
  // The first result's pointer is the lowest-numbered argument stored
  // through: kernels only load from their inputs.
  unsigned erased = 0;
  module.walk([&](FunctionOpInterface func) {
    SmallVector<Operation *> stores;
    func.walk([&](Operation *store) {
      BlockArgument arg = getStoredArgument(store);
      if (arg && arg.getOwner()->getParentOp() == func)
        stores.push_back(store);
    });
    if (stores.empty())
      return;
    unsigned first = getStoredArgument(stores.front()).getArgNumber();
    for (Operation *store : stores)
      first = std::min(first, getStoredArgument(store).getArgNumber());
    for (Operation *store : stores) {
      if (getStoredArgument(store).getArgNumber() != first)
        continue;
      rewriter.eraseOp(store);
      ++erased;
    }
  });
  return erased;
}

//===----------------------------------------------------------------------===//
// Indexing: strides, broadcasts, dimensions, iterations
//===----------------------------------------------------------------------===//

/// The kernel arguments that `op` reads (memref.load, vector.load), or null.
static BlockArgument getLoadedArgument(Operation *op) {
  Value base;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    base = load.getMemRef();
  else if (auto load = dyn_cast<vector::LoadOp>(op))
    base = load.getBase();
  auto arg = dyn_cast_or_null<BlockArgument>(base);
  if (!arg || !isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    return nullptr;
  return arg;
}

/// Reads and writes `arg` through a view of it with other strides: from the
/// innermost dimension out, each stride the next inner one times that
/// dimension's extent, starting from 1 (`keepInner` false: the row-major
/// strides of its extents) or from its own innermost stride (`keepInner`:
/// every dimension merged into the innermost one, as a launch would merge
/// them). Only the uses by the ops `isAccess` accepts change.
static void restride(BlockArgument arg, bool keepInner, IRRewriter &rewriter,
                     function_ref<bool(Operation *)> isAccess) {
  auto type = cast<MemRefType>(arg.getType());
  Location loc = arg.getLoc();
  rewriter.setInsertionPointToStart(arg.getOwner());
  auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc, arg);
  SmallVector<OpFoldResult> sizes, strides(type.getRank());
  for (Value size : metadata.getSizes())
    sizes.push_back(size);
  OpFoldResult stride = rewriter.getIndexAttr(1);
  if (keepInner && type.getRank() > 0)
    stride = metadata.getStrides().back();
  for (int64_t d = type.getRank(); d-- > 0;) {
    strides[d] = stride;
    Value next = arith::MulIOp::create(
        rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, stride),
        metadata.getSizes()[d]);
    stride = next;
  }
  // The static strides of the type stay as they are (the innermost 1 of
  // a unit-stride tensor): a reinterpret_cast must match them.
  auto [typeStrides, typeOffset] = type.getStridesAndOffset();
  for (auto [d, typeStride] : llvm::enumerate(typeStrides))
    if (!ShapedType::isDynamic(typeStride))
      strides[d] = rewriter.getIndexAttr(typeStride);
  auto view = memref::ReinterpretCastOp::create(
      rewriter, loc, type, metadata.getBaseBuffer(),
      OpFoldResult(metadata.getOffset()), sizes, strides);
  rewriter.replaceUsesWithIf(
      arg, view, [&](OpOperand &use) { return isAccess(use.getOwner()); });
}

/// Every input is read as if it were contiguous: its strides replaced by
/// the row-major ones of its extents (a lowering that forgot the strides).
/// Nothing changes for contiguous inputs; a padded, transposed or strided
/// view reads the wrong elements.
static unsigned strideAsContiguous(ModuleOp module, IRRewriter &rewriter) {
  llvm::SetVector<BlockArgument> inputs;
  module.walk([&](Operation *op) {
    if (BlockArgument arg = getLoadedArgument(op))
      inputs.insert(arg);
  });
  for (BlockArgument arg : inputs)
    restride(arg, /*keepInner=*/false, rewriter,
             [&](Operation *user) { return getLoadedArgument(user) == arg; });
  return inputs.size();
}

/// Every input of two or more dimensions is read as if the launch had merged
/// all its dimensions into the innermost one whether or not they are
/// contiguous with each other (LaunchPlan.h, step 3, without its check):
/// each outer stride becomes the next inner one times that dimension's
/// extent, the innermost stride stays. Nothing changes where the merge would
/// have been right (contiguous rows, and every other element of them:
/// x[:, ::2]); padded rows and transposed views read the wrong elements.
/// Inputs only: outputs written so would land past their buffers (a
/// transposed output's rows m x n elements apart) and corrupt the heap
/// instead of printing False.
static unsigned mergeNoncontiguous(ModuleOp module, IRRewriter &rewriter) {
  llvm::SetVector<BlockArgument> inputs;
  module.walk([&](Operation *op) {
    BlockArgument arg = getLoadedArgument(op);
    if (arg && cast<MemRefType>(arg.getType()).getRank() >= 2)
      inputs.insert(arg);
  });
  for (BlockArgument arg : inputs)
    restride(arg, /*keepInner=*/true, rewriter,
             [&](Operation *user) { return getLoadedArgument(user) == arg; });
  return inputs.size();
}

/// The coordinates of the point an element loop is at: the induction
/// variables of the loops around `op` (the CPU's nests) and the results of
/// the delinearization of the flat index (the GPU's grid-stride loops).
static SmallVector<Value> getCoordinates(Operation *op) {
  SmallVector<Value> coords;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      bool delinearized = false;
      loop.getBody()->walk([&](affine::AffineDelinearizeIndexOp delinearize) {
        if (delinearize.getLinearIndex() == loop.getInductionVar()) {
          coords.append(delinearize.getResults().begin(),
                        delinearize.getResults().end());
          delinearized = true;
        }
      });
      if (!delinearized)
        coords.insert(coords.begin(), loop.getInductionVar());
    }
  }
  return coords;
}

/// A broadcast input (fewer dimensions than its nest) is indexed by the
/// nest's outermost coordinate instead of its own: b[n] read as b[m].
static unsigned broadcastWrongDim(ModuleOp module, IRRewriter &rewriter) {
  unsigned changed = 0;
  module.walk([&](memref::LoadOp load) {
    if (!getLoadedArgument(load) || load.getIndices().size() != 1)
      return;
    SmallVector<Value> coords = getCoordinates(load);
    if (coords.size() < 2 || load.getIndices()[0] == coords.front())
      return;
    rewriter.modifyOpInPlace(
        load, [&] { load.getIndicesMutable()[0].assign(coords.front()); });
    ++changed;
  });
  return changed;
}

/// Every load of two or more indices swaps its innermost two: x[i, j] read
/// as x[j, i]. (Loads only: swapping the stores too would relabel the
/// points consistently and compute the right result.)
static unsigned swapDims(ModuleOp module, IRRewriter &rewriter) {
  unsigned changed = 0;
  auto swap = [&](Operation *op, MutableOperandRange indices) {
    if (indices.size() < 2)
      return;
    size_t last = indices.size() - 1;
    Value inner = indices[last].get(), outer = indices[last - 1].get();
    rewriter.modifyOpInPlace(op, [&] {
      indices[last].assign(outer);
      indices[last - 1].assign(inner);
    });
    ++changed;
  };
  module.walk([&](Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op); load && getLoadedArgument(op))
      swap(op, load.getIndicesMutable());
    else if (auto load = dyn_cast<vector::LoadOp>(op);
             load && getLoadedArgument(op))
      swap(op, load.getIndicesMutable());
  });
  return changed;
}

/// The outermost dimension of every nest of two or more runs its first
/// iteration only: the CPU's outer loop stops after one row, the GPU's
/// delinearized outer coordinate is always 0 (every row writes row 0).
static unsigned dropOuter(ModuleOp module, IRRewriter &rewriter) {
  unsigned changed = 0;
  auto outerLoops = collect<scf::ForOp>(module, [](scf::ForOp loop) {
    bool nested = false;
    loop.getBody()->walk([&](scf::ForOp) { nested = true; });
    return nested && !loop->getParentOfType<scf::ForOp>() &&
           storesToArgument(loop);
  });
  for (scf::ForOp loop : outerLoops) {
    rewriter.setInsertionPoint(loop);
    Value one =
        getConstant(rewriter, loop.getLoc(), loop.getLowerBound().getType(), 1);
    Value bound = arith::AddIOp::create(rewriter, loop.getLoc(),
                                        loop.getLowerBound(), one);
    rewriter.modifyOpInPlace(
        loop, [&] { loop.getUpperBoundMutable().assign(bound); });
    ++changed;
  }
  auto delinearizations = collect<affine::AffineDelinearizeIndexOp>(
      module, [](affine::AffineDelinearizeIndexOp op) {
        return op.getNumResults() >= 2;
      });
  for (affine::AffineDelinearizeIndexOp op : delinearizations) {
    rewriter.setInsertionPointAfter(op);
    Value zero = getConstant(rewriter, op.getLoc(), rewriter.getIndexType(), 0);
    rewriter.replaceAllUsesWith(op.getResult(0), zero);
    ++changed;
  }
  return changed;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

/// The loops that carry a reduction's or a scan's running value
/// (CombineLoops.cpp): the only scf.for with iter_args before the lowerings
/// to LLVM (a nest's innermost loop carries one per scan along it).
static SmallVector<scf::ForOp> getCombineLoops(ModuleOp module) {
  return collect<scf::ForOp>(
      module, [](scf::ForOp loop) { return loop.getNumRegionIterArgs() > 0; });
}

/// drop-first-element: each combination starts at its run's second element
/// (every reduction's and scan's, so that the kernel under test has one);
/// a resident row's fold leaves out each lane's first slot (its mask, the
/// first of the fold's, keeps the start value).
static unsigned dropFirstElement(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<scf::ForOp> loops = getCombineLoops(module);
  for (scf::ForOp loop : loops) {
    rewriter.setInsertionPoint(loop);
    loop.getLowerBoundMutable().assign(
        arith::ConstantIndexOp::create(rewriter, loop.getLoc(), 1));
  }
  auto isMask = [](Value value) {
    Operation *def = value.getDefiningOp();
    return def && def->hasAttr(mlir::ew::kResidentMaskAttrName);
  };
  SmallVector<arith::SelectOp> firsts =
      collect<arith::SelectOp>(module, [&](arith::SelectOp select) {
        return isMask(select.getResult()) && !isMask(select.getFalseValue());
      });
  for (arith::SelectOp first : firsts)
    rewriter.replaceOp(first, first.getFalseValue());
  return loops.size() + firsts.size();
}

/// exclusive-scan: a scan combines the elements before the point's own,
/// not up to and including it. A scan that re-combines its prefix loops to
/// the point's coordinate instead of one past it; one that the nest's loop
/// carries stores the running value from before the point's element; a
/// warp's scan along a row (the GPU's rows schedule, RowLoops.cpp: each
/// chunk's `prefix + inclusive` is used and its lane 31 carried on by a
/// `gpu.shuffle idx` of offset 31) uses `prefix + the lane before's
/// inclusive` instead, the prefix alone on lane 0.
static unsigned exclusiveScan(ModuleOp module, IRRewriter &rewriter) {
  unsigned changed = 0;
  for (gpu::ShuffleOp carry :
       collect<gpu::ShuffleOp>(module, [](gpu::ShuffleOp shuffle) {
         APInt offset;
         return shuffle.getMode() == gpu::ShuffleMode::IDX &&
                matchPattern(shuffle.getOffset(), m_ConstantInt(&offset)) &&
                offset == 31;
       })) {
    // 32-bit values only: a wider one is shuffled in halves, a narrower
    // one extended first (RowLoops.cpp's shuffle).
    Operation *scanned = carry.getValue().getDefiningOp();
    if (!scanned || scanned->getNumOperands() != 2 ||
        scanned->getNumResults() != 1 ||
        scanned->getDialect()->getNamespace() != "arith")
      continue;
    Location loc = scanned->getLoc();
    rewriter.setInsertionPointAfter(scanned);
    Value prefix = scanned->getOperand(0), inclusive = scanned->getOperand(1);
    Value one =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 1);
    Value before =
        gpu::ShuffleOp::create(rewriter, loc, inclusive, one, carry.getWidth(),
                               gpu::ShuffleMode::UP)
            .getShuffleResult();
    Operation *shifted = rewriter.clone(*scanned);
    shifted->setOperand(1, before);
    Value lane = arith::RemUIOp::create(
        rewriter, loc,
        gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x),
        arith::ConstantIndexOp::create(rewriter, loc, 32));
    Value first =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane,
                              arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value exclusive = arith::SelectOp::create(rewriter, loc, first, prefix,
                                              shifted->getResult(0));
    rewriter.replaceAllUsesExcept(scanned->getResult(0), exclusive, carry);
    ++changed;
  }
  for (scf::ForOp loop : collect<scf::ForOp>(module, [](scf::ForOp loop) {
         return loop.getNumRegionIterArgs() > 0;
       })) {
    auto bound = loop.getUpperBound().getDefiningOp<arith::AddIOp>();
    if (bound && matchPattern(bound.getRhs(), m_One())) {
      loop.getUpperBoundMutable().assign(bound.getLhs());
      ++changed;
      continue;
    }
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, next] : llvm::enumerate(yield.getOperands())) {
      SmallVector<memref::StoreOp> stores;
      for (Operation *user : next.getUsers())
        if (auto store = dyn_cast<memref::StoreOp>(user);
            store && store->getParentOp() == loop)
          stores.push_back(store);
      for (memref::StoreOp store : stores)
        store.getValueMutable().assign(loop.getRegionIterArgs()[i]);
      changed += stores.size();
    }
  }
  return changed;
}

/// lane-tail-skipped: a team's reduction leaves out the elements after its
/// lanes' unrolled chunks (the GPU's rows schedule, CombineLoops.cpp: the
/// loop that continues another loop's running value, one element per lane
/// and step: one running value, or an online group's max and sums), the
/// "tail tile skipped" of a tiled reduction; in a resident row, the loop
/// over the row past the lanes' slots, which continues their masked fold.
static unsigned laneTailSkipped(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<scf::ForOp> tails =
      collect<scf::ForOp>(module, [](scf::ForOp loop) {
        if (!loop.getNumRegionIterArgs())
          return false;
        auto before = loop.getInitArgs()[0].getDefiningOp<scf::ForOp>();
        if (before)
          return llvm::equal(loop.getInitArgs(), before.getResults());
        return llvm::all_of(loop.getInitArgs(), [](Value init) {
          Operation *def = init.getDefiningOp();
          return def && def->hasAttr(mlir::ew::kResidentMaskAttrName);
        });
      });
  for (scf::ForOp tail : tails)
    rewriter.replaceOp(tail, tail.getInitArgs());
  return tails.size();
}

/// run-lane-repeated: a lane's run of consecutive elements along a row (the
/// GPU's rows schedule in its aligned variant, RowAccess.h's
/// kRowVectorBytes: one vector load of a kernel argument a run) takes its
/// first element where its second belongs, so each run counts its first
/// element twice and leaves its second out, in the row's reductions and
/// its points alike.
static unsigned runLaneRepeated(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<vector::ExtractOp> seconds =
      collect<vector::ExtractOp>(module, [](vector::ExtractOp extract) {
        auto load = extract.getSource().getDefiningOp<vector::LoadOp>();
        ArrayRef<int64_t> position = extract.getStaticPosition();
        return load && getLoadedArgument(load) && position.size() == 1 &&
               position[0] == 1;
      });
  for (vector::ExtractOp second : seconds)
    rewriter.modifyOpInPlace(
        second, [&] { second.setStaticPosition(ArrayRef<int64_t>{0}); });
  return seconds.size();
}

/// half-butterfly: the last step of a team's butterfly combines each lane
/// with itself instead of its neighbour (the shuffle of offset 1 returns the
/// lane's own value), so each lane holds the combination of half the lanes,
/// twice for a sum.
static unsigned halfButterfly(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<gpu::ShuffleOp> shuffles =
      collect<gpu::ShuffleOp>(module, [](gpu::ShuffleOp shuffle) {
        return shuffle.getMode() == gpu::ShuffleMode::XOR &&
               matchPattern(shuffle.getOffset(), m_One());
      });
  for (gpu::ShuffleOp shuffle : shuffles)
    rewriter.replaceAllUsesWith(shuffle.getShuffleResult(), shuffle.getValue());
  return shuffles.size();
}

/// Makes each of `loops` stop one iteration short (its upper bound less 1);
/// returns how many.
static unsigned stopOneShort(ArrayRef<scf::ForOp> loops, IRRewriter &rewriter) {
  for (scf::ForOp loop : loops) {
    rewriter.setInsertionPoint(loop);
    Value one = arith::ConstantIndexOp::create(rewriter, loop.getLoc(), 1);
    loop.getUpperBoundMutable().assign(arith::SubIOp::create(
        rewriter, loop.getLoc(), loop.getUpperBound(), one));
  }
  return loops.size();
}

/// warp-share-dropped: a team of several warps (the GPU's rows schedule,
/// RowLoops.cpp) combines the values of all its warps but the last from the
/// shared slots: the loop over the slots stops one short, so a row loses
/// the elements of one warp's lanes.
static unsigned warpShareDropped(ModuleOp module, IRRewriter &rewriter) {
  auto isSlotLoad = [](Operation *op) {
    auto load = dyn_cast_or_null<memref::LoadOp>(op);
    return load && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
                       load.getMemRefType());
  };
  SmallVector<scf::ForOp> loops =
      collect<scf::ForOp>(module, [&](scf::ForOp loop) {
        return loop.getNumRegionIterArgs() == 1 &&
               isSlotLoad(loop.getInitArgs()[0].getDefiningOp());
      });
  return stopOneShort(loops, rewriter);
}

/// split-partial-dropped: the block that folds a tile's partials across its
/// splits (the GPU's columns schedule, ColumnLoops.cpp: the loop of
/// volatile loads from the workspace, from the identity) stops one split
/// short, so a column loses the elements of the last split's blocks; and
/// so does the block that merges a row's states across its splits (the
/// rows schedule with points on the lanes, RowLoops.cpp's BlockMeet: each
/// warp's loop over its splits), so a row loses the last split's share of
/// S.
static unsigned splitPartialDropped(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<scf::ForOp> loops =
      collect<scf::ForOp>(module, [](scf::ForOp loop) {
        // A columns fold carries one value (its tail loop from the
        // unrolled loop's); a state's merge several, from the identity.
        if (loop.getNumRegionIterArgs() == 0 ||
            (loop.getNumRegionIterArgs() > 1 &&
             !llvm::all_of(loop.getInitArgs(), [](Value init) {
               return matchPattern(init, m_Constant());
             })))
          return false;
        WalkResult found = loop.getBody()->walk([](LLVM::LoadOp load) {
          return load.getVolatile_() ? WalkResult::interrupt()
                                     : WalkResult::advance();
        });
        return found.wasInterrupted();
      });
  return stopOneShort(loops, rewriter);
}

/// early-fold: the block that draws a tile's first ticket folds the tile's
/// partials (the GPU's columns schedule), not the one that draws the last:
/// it reads the splits that have not arrived yet.
static unsigned earlyFold(ModuleOp module, IRRewriter &rewriter) {
  unsigned changed = 0;
  for (LLVM::AtomicRMWOp ticket :
       collect<LLVM::AtomicRMWOp>(module, [](LLVM::AtomicRMWOp op) {
         return op.getBinOp() == LLVM::AtomicBinOp::add;
       }))
    for (Operation *user : ticket->getUsers())
      if (auto compare = dyn_cast<arith::CmpIOp>(user);
          compare && compare.getPredicate() == arith::CmpIPredicate::eq) {
        rewriter.setInsertionPoint(compare);
        Value operand = compare.getLhs() == ticket.getResult()
                            ? compare.getRhs()
                            : compare.getLhs();
        rewriter.modifyOpInPlace(compare, [&] {
          compare->replaceUsesOfWith(
              operand, arith::ConstantIntOp::create(rewriter, compare.getLoc(),
                                                    operand.getType(), 0));
        });
        ++changed;
      }
  return changed;
}

/// lookback-first-flag: a scan's tile (the GPU's rows split into tiles,
/// ScanLoops.cpp) ends its look-back at the first earlier tile that has
/// published anything, its aggregate as well as its prefix: the window's
/// bound (the lowest lane whose tile has its prefix, 32 for none) becomes
/// lane 0, so a tile whose neighbour has only its aggregate loses every
/// tile before that one.
static unsigned lookbackFirstFlag(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<arith::SelectOp> bounds =
      collect<arith::SelectOp>(module, [](arith::SelectOp select) {
        APInt value;
        return select.getType().isInteger(32) &&
               matchPattern(select.getFalseValue(), m_ConstantInt(&value)) &&
               value == 32;
      });
  for (arith::SelectOp bound : bounds) {
    rewriter.setInsertionPoint(bound);
    Value yes = arith::ConstantIntOp::create(rewriter, bound.getLoc(),
                                             rewriter.getI1Type(), 1);
    rewriter.modifyOpInPlace(bound,
                             [&] { bound.getConditionMutable().assign(yes); });
  }
  return bounds.size();
}

/// online-rescale-dropped: an online group's running sums (a max and the
/// sums of exponentials it scales in one pass, CombineLoops.cpp) are not
/// rescaled when the max grows: each keeps terms taken against an older,
/// smaller max.
static unsigned onlineRescaleDropped(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<arith::MulFOp> products =
      collect<arith::MulFOp>(module, [](arith::MulFOp product) {
        return product->hasAttr(mlir::ew::kOnlineRescaleAttrName);
      });
  for (arith::MulFOp product : products)
    rewriter.replaceOp(product, product.getLhs());
  return products.size();
}

/// resident-mask-dropped: a resident row's slots past the row (ResidentRow,
/// whose loads there give 0) are folded into its reductions: an amax of
/// negative elements becomes 0, an amin of positive ones 0.
static unsigned residentMaskDropped(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<arith::SelectOp> masks =
      collect<arith::SelectOp>(module, [](arith::SelectOp select) {
        return select->hasAttr(mlir::ew::kResidentMaskAttrName);
      });
  for (arith::SelectOp mask : masks)
    rewriter.replaceOp(mask, mask.getTrueValue());
  return masks.size();
}

/// stale-prefix: a running value that a loop starts from a constant (a
/// scan's carry, a reduction's accumulator) inside another loop starts from
/// where that loop's previous iteration left it instead: the prefix of one
/// row carried into the next. The outer loop gets the values as iter_args.
static unsigned stalePrefix(ModuleOp module, IRRewriter &rewriter) {
  SmallVector<scf::ForOp> loops =
      collect<scf::ForOp>(module, [](scf::ForOp loop) {
        auto outer = loop->getParentOfType<scf::ForOp>();
        return outer && loop->getParentOp() == outer &&
               loop.getNumRegionIterArgs() > 0 &&
               llvm::all_of(loop.getInitArgs(), [](Value init) {
                 return init.getDefiningOp<arith::ConstantOp>();
               });
      });
  unsigned changed = 0;
  for (scf::ForOp loop : loops) {
    auto outer = cast<scf::ForOp>(loop->getParentOp());
    // Only loops whose outer loop has no running value of its own: the rows
    // loop of a nest.
    if (outer.getNumRegionIterArgs() != 0)
      continue;
    SmallVector<Value> inits(loop.getInitArgs());
    rewriter.setInsertionPoint(outer);
    SmallVector<Value> hoisted;
    for (Value init : inits)
      hoisted.push_back(rewriter.clone(*init.getDefiningOp())->getResult(0));
    FailureOr<LoopLikeOpInterface> grown =
        cast<LoopLikeOpInterface>(outer.getOperation())
            .replaceWithAdditionalYields(
                rewriter, hoisted, /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return SmallVector<Value>(loop.getResults());
                });
    if (failed(grown))
      continue;
    auto newOuter = cast<scf::ForOp>(grown->getOperation());
    unsigned first = newOuter.getNumRegionIterArgs() - inits.size();
    for (unsigned i = 0; i < inits.size(); ++i)
      loop.getInitArgsMutable()[i].assign(
          newOuter.getRegionIterArgs()[first + i]);
    ++changed;
  }
  return changed;
}

/// amax-from-zero: a maximum starts from 0 instead of -inf (a row of
/// negative numbers gets 0).
static unsigned amaxFromZero(ModuleOp module, IRRewriter &) {
  unsigned changed = 0;
  module.walk([&](Operation *op) {
    if (!isa<ReduceOp, ScanOp>(op))
      return;
    auto init = dyn_cast<FloatAttr>(op->getAttr("init"));
    if (!init || !init.getValue().isInfinity() || !init.getValue().isNegative())
      return;
    op->setAttr("init", FloatAttr::get(init.getType(), 0.0));
    ++changed;
  });
  return changed;
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

/// Calls `f` on every ew.rand, ew.randn and ew.randint; returns how many.
static unsigned forEachRandomOp(ModuleOp module,
                                function_ref<void(Operation *)> f) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<RandOp, RandnOp, RandintOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    f(op);
  return ops.size();
}

/// Philox with one round fewer than the op asks for (9 of Triton's 10).
static unsigned philoxRoundFewer(ModuleOp module, IRRewriter &rewriter) {
  return forEachRandomOp(module, [&](Operation *op) {
    auto rounds = cast<IntegerAttr>(op->getAttr("rounds")
                                        ? op->getAttr("rounds")
                                        : rewriter.getI64IntegerAttr(10));
    op->setAttr("rounds", rewriter.getI64IntegerAttr(rounds.getInt() - 1));
  });
}

/// The key's two words swapped: the seed, as 64 bits, rotated by 32 before
/// the op splits it (ew ops: cast to i64, bitcast to ui64, shl | shr).
static unsigned philoxSeedSwap(ModuleOp module, IRRewriter &rewriter) {
  return forEachRandomOp(module, [&](Operation *op) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value seed = op->getOperand(0);
    Type seedType = seed.getType();
    auto i64 = rewriter.getI64Type();
    auto ui64 = rewriter.getIntegerType(64, /*isSigned=*/false);
    Value wide = seed;
    if (getElementType(seedType).getIntOrFloatBitWidth() != 64)
      wide =
          CastOp::create(rewriter, loc, getBroadcastType(seedType, i64), seed);
    Value bits = BitcastOp::create(
        rewriter, loc, getBroadcastType(wide.getType(), ui64), wide);
    Value amount =
        ConstantOp::create(rewriter, loc, rewriter.getIntegerAttr(ui64, 32));
    Value high = ShlOp::create(rewriter, loc, bits, amount);
    Value low = ShrOp::create(rewriter, loc, bits, amount);
    Value swapped = BitOrOp::create(rewriter, loc, high, low);
    rewriter.modifyOpInPlace(op, [&] { op->setOperand(0, swapped); });
  });
}

/// A Philox multiplier off in one bit: 0xD2511F53 (round constant A) becomes
/// 0xD2511F57 in every product.
static unsigned philoxRoundConstant(ModuleOp module, IRRewriter &rewriter) {
  auto isRoundA = [](Value value) {
    APInt bits;
    return matchPattern(value, m_ConstantInt(&bits)) &&
           bits.getBitWidth() == 32 && bits.getZExtValue() == 0xD2511F53u;
  };
  auto ops = collect<arith::MulUIExtendedOp>(
      module, [&](arith::MulUIExtendedOp op) { return isRoundA(op.getRhs()); });
  for (arith::MulUIExtendedOp op : ops) {
    rewriter.setInsertionPoint(op);
    Value wrong = arith::ConstantIntOp::create(
        rewriter, op.getLoc(), rewriter.getI32Type(), int64_t(0xD2511F57));
    rewriter.modifyOpInPlace(op, [&] { op.getRhsMutable().assign(wrong); });
  }
  return ops.size();
}

/// rand's scale one ulp low: the f32 4.6566127342e-10 (0x2FFFFFFF) becomes
/// 0x2FFFFFFE, the conversion of a word to [0, 1) off in its last bit.
static unsigned uniformScaleUlp(ModuleOp module, IRRewriter &rewriter) {
  auto ops = collect<arith::ConstantOp>(module, [](arith::ConstantOp op) {
    auto value = dyn_cast<FloatAttr>(op.getValue());
    return value && value.getType().isF32() &&
           value.getValue().bitcastToAPInt().getZExtValue() == 0x2FFFFFFFu;
  });
  for (arith::ConstantOp op : ops) {
    rewriter.setInsertionPoint(op);
    APFloat lower(APFloat::IEEEsingle(), APInt(32, 0x2FFFFFFEu));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getF32FloatAttr(lower.convertToFloat()));
  }
  return ops.size();
}

//===----------------------------------------------------------------------===//
// Scalar defaults
//===----------------------------------------------------------------------===//

/// A value of `value`'s type that differs from it: twice a float (1.0 where
/// doubling would not change it or overflow), an integer plus one (wrapping,
/// so a bool flips).
static TypedAttr getWrongValue(TypedAttr value) {
  if (auto floatAttr = dyn_cast<FloatAttr>(value)) {
    APFloat x = floatAttr.getValue(), twice = x;
    twice.add(x, APFloat::rmNearestTiesToEven);
    if (x.isFiniteNonZero() && twice.isFinite())
      return FloatAttr::get(floatAttr.getType(), twice);
    return FloatAttr::get(floatAttr.getType(), 1.0);
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(value))
    return IntegerAttr::get(intAttr.getType(), intAttr.getValue() + 1);
  return nullptr;
}

static unsigned wrongDefault(ModuleOp module, IRRewriter &) {
  StringRef name = KernelOp::getDefaultAttrName();
  unsigned changed = 0;
  module.walk([&](FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto value = func.getArgAttrOfType<TypedAttr>(i, name);
      TypedAttr wrong = value ? getWrongValue(value) : nullptr;
      if (!wrong)
        continue;
      func.setArgAttr(i, name, wrong);
      ++changed;
      return;
    }
  });
  return changed;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// The IR a mutation rewrites.
enum class MutationStage {
  /// The ew module, before any lowering (wrong-default).
  Ew,
  /// The output of convert-ew-to-loops or convert-ew-to-gpu (the rest), for
  /// the whole module or for one kernel's variant.
  Lowered,
};

struct Mutation {
  StringLiteral name;
  MutationStage stage;
  /// What the mutation rewrites, for the error when there is none.
  StringLiteral target;
  /// Applies the mutation; returns the number of places changed.
  unsigned (*apply)(ModuleOp, IRRewriter &);
  /// Its target is built only in a variant that the runtime compiles at its
  /// first launch (the scans split into tiles, the online groups of long
  /// rows): the module's first compile may have none, and the mutant's wrong
  /// answer is what shows it applied.
  bool variantOnly = false;
};

constexpr MutationStage kLowered = MutationStage::Lowered;
const Mutation kMutations[] = {
    {"ge-to-gt", kLowered, "no arith.cmpf oge or arith.cmpi sge", geToGt},
    {"ordered-to-unordered", kLowered, "no ordered arith.cmpf",
     orderedToUnordered},
    {"drop-tail", kLowered, "no element loop", dropTail},
    {"off-by-one", kLowered, "no element loop", offByOne},
    {"f64-as-f32", kLowered, "no f64 arith or math op", f64AsF32},
    {"neg-as-sub", kLowered, "no arith.negf", negAsSub},
    {"bool-as-2", kLowered, "no stored i1", boolAs2},
    {"unwritten-output", kLowered, "no store through a kernel argument",
     unwrittenOutput},
    {"wrong-default", MutationStage::Ew, "no parameter with an ew.default",
     wrongDefault},
    {"max-as-maxnum", kLowered, "no arith.maximumf or arith.minimumf",
     maxAsMaxnum},
    {"swap-where", kLowered, "no arith.select", swapWhere},
    {"round-toward-zero", kLowered, "no arith.truncf", roundTowardZero},
    {"float8-saturate", kLowered, "no arith.truncf to an 8-bit float",
     float8Saturate},
    {"bitcast-as-convert", kLowered,
     "no arith.bitcast between f32 or f64 and an integer", bitcastAsConvert},
    {"round-half-away", kLowered, "no math.roundeven", roundHalfAway},
    {"swap-atan2", kLowered, "no math.atan2", swapAtan2},
    {"unsigned-as-signed", kLowered,
     "no unsigned arith op or compare on integers", unsignedAsSigned},
    {"stride-as-contiguous", kLowered, "no load from a kernel argument",
     strideAsContiguous},
    {"broadcast-wrong-dim", kLowered,
     "no broadcast load in a nest of two or more dimensions",
     broadcastWrongDim},
    {"swap-dims", kLowered, "no load with two or more indices", swapDims},
    {"drop-outer", kLowered, "no loop nest of two or more dimensions",
     dropOuter},
    {"merge-noncontiguous", kLowered,
     "no load from an input of two or more dimensions", mergeNoncontiguous},
    {"drop-first-element", kLowered, "no loop of a reduction or a scan",
     dropFirstElement},
    {"exclusive-scan", kLowered, "no loop of a scan or warp's scan",
     exclusiveScan},
    {"lane-tail-skipped", kLowered,
     "no team reduction (the GPU's rows schedule) with a tail loop",
     laneTailSkipped},
    {"half-butterfly", kLowered, "no gpu.shuffle xor of offset 1",
     halfButterfly},
    {"run-lane-repeated", kLowered,
     "no run of a row's elements read by one vector load", runLaneRepeated},
    {"warp-share-dropped", kLowered,
     "no loop over a team's warps' shared values", warpShareDropped},
    {"stale-prefix", kLowered,
     "no running value started from a constant inside a loop", stalePrefix},
    {"split-partial-dropped", kLowered,
     "no fold of partials across a columns tile's or a row's splits",
     splitPartialDropped},
    {"early-fold", kLowered, "no ticket of a columns tile", earlyFold},
    {"lookback-first-flag", kLowered, "no look-back of a scan split into tiles",
     lookbackFirstFlag, /*variantOnly=*/true},
    {"online-rescale-dropped", kLowered,
     "no online group (a max and its sums of exponentials in a team)",
     onlineRescaleDropped, /*variantOnly=*/true},
    {"resident-mask-dropped", kLowered,
     "no reduction of a resident row (the rows schedule's resident variant)",
     residentMaskDropped, /*variantOnly=*/true},
    {"amax-from-zero", MutationStage::Ew,
     "no float reduction or scan from -inf", amaxFromZero},
    {"philox-round-fewer", MutationStage::Ew,
     "no ew.rand, ew.randn or ew.randint", philoxRoundFewer},
    {"philox-seed-swap", MutationStage::Ew,
     "no ew.rand, ew.randn or ew.randint", philoxSeedSwap},
    {"philox-round-constant", kLowered,
     "no arith.mului_extended by Philox's 0xD2511F53", philoxRoundConstant},
    {"uniform-scale-ulp", kLowered,
     "no f32 constant 4.6566127342e-10 (rand's scale)", uniformScaleUlp},
};

const Mutation *lookupMutation(StringRef name) {
  const Mutation *found =
      llvm::find_if(kMutations, [&](const Mutation &mutation) {
        return mutation.name == name;
      });
  return found == std::end(kMutations) ? nullptr : found;
}

struct EwTestMutatePass
    : mlir::ew::test::impl::EwTestMutateBase<EwTestMutatePass> {
  using EwTestMutateBase::EwTestMutateBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // At the module's location only: module.emitError would append the whole
    // module to the message.
    Location loc = module.getLoc();
    const Mutation *found = lookupMutation(mutation);
    if (!found) {
      std::string names;
      for (const Mutation &known : kMutations)
        names += (names.empty() ? "" : ", ") + known.name.str();
      emitError(loc) << "ew-test-mutate: unknown mutation '" << mutation
                     << "' (known: " << names << ")";
      return signalPassFailure();
    }
    // A tool adds the pass at every point of its compile; it acts at the
    // mutation's. A variant compiled at its first launch is a module with one
    // kernel, where the mutation may find nothing (the others had it).
    bool variant = stage == "lowered-variant";
    if (!stage.empty()) {
      std::optional<MutationStage> at =
          llvm::StringSwitch<std::optional<MutationStage>>(stage)
              .Case("ew", MutationStage::Ew)
              .Cases({"lowered", "lowered-variant"}, MutationStage::Lowered)
              .Default(std::nullopt);
      if (!at) {
        emitError(loc) << "ew-test-mutate: unknown stage '" << stage
                       << "' (known: ew, lowered, lowered-variant)";
        return signalPassFailure();
      }
      if (*at != found->stage)
        return;
    }
    IRRewriter rewriter(&getContext());
    if (found->apply(module, rewriter) == 0 && requireChange && !variant &&
        !found->variantOnly) {
      emitError(loc) << "ew-test-mutate: mutation '" << mutation
                     << "' found nothing to change (" << found->target << ")";
      return signalPassFailure();
    }
  }
};

} // namespace

void mlir::ew::test::registerTestPasses() { registerEwTestPasses(); }
