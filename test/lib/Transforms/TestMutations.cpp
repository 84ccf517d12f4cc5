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

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLExtras.h"

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

/// The element loops of the lowered kernels: an scf.for directly in a
/// function whose upper bound is the function's last argument, n (the ABI).
static SmallVector<scf::ForOp> getElementLoops(ModuleOp module) {
  return collect<scf::ForOp>(module, [](scf::ForOp loop) {
    auto func = dyn_cast<FunctionOpInterface>(loop->getParentOp());
    return func && func.getNumArguments() > 0 &&
           loop.getUpperBound() == func.getArgument(func.getNumArguments() - 1);
  });
}

/// Replaces the upper bound n of every element loop by `bound(n)`.
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

static unsigned dropTail(ModuleOp module, IRRewriter &rewriter) {
  return changeLoopBound(
      module, rewriter, [](OpBuilder &builder, Location loc, Value n) -> Value {
        Value mask =
            arith::ConstantIntOp::create(builder, loc, n.getType(), -8);
        return arith::AndIOp::create(builder, loc, n, mask);
      });
}

static unsigned offByOne(ModuleOp module, IRRewriter &rewriter) {
  return changeLoopBound(
      module, rewriter, [](OpBuilder &builder, Location loc, Value n) -> Value {
        Value one = arith::ConstantIntOp::create(builder, loc, n.getType(), 1);
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
  auto ops =
      collect<arith::SelectOp>(module, [](arith::SelectOp) { return true; });
  for (arith::SelectOp op : ops) {
    Value onTrue = op.getTrueValue(), onFalse = op.getFalseValue();
    rewriter.modifyOpInPlace(op, [&] {
      op.getTrueValueMutable().assign(onFalse);
      op.getFalseValueMutable().assign(onTrue);
    });
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

/// The function argument that `store` writes through (`llvm.store %v,
/// getelementptr %arg[%i]`), or null.
static BlockArgument getStoredArgument(LLVM::StoreOp store) {
  auto address = store.getAddr().getDefiningOp<LLVM::GEPOp>();
  return address ? dyn_cast<BlockArgument>(address.getBase()) : nullptr;
}

static unsigned boolAs2(ModuleOp module, IRRewriter &rewriter) {
  // The ABI stores an i1 as the byte `extui %b`: stored as it is (scalar
  // loops), or gathered into a vector of bytes first (the GPU's vectorized
  // main loop, VectorizeElementLoop.cpp).
  auto widenings = collect<arith::ExtUIOp>(module, [](arith::ExtUIOp widen) {
    return widen.getIn().getType().isInteger(1) &&
           widen.getType().isInteger(8) && !widen->use_empty() &&
           llvm::all_of(widen->getUsers(), [](Operation *user) {
             return isa<LLVM::StoreOp, LLVM::InsertElementOp>(user);
           });
  });
  for (arith::ExtUIOp widen : widenings) {
    Location loc = widen.getLoc();
    rewriter.setInsertionPoint(widen);
    Value two = arith::ConstantIntOp::create(rewriter, loc, widen.getType(), 2);
    Value zero =
        arith::ConstantIntOp::create(rewriter, loc, widen.getType(), 0);
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
    SmallVector<LLVM::StoreOp> stores;
    func.walk([&](LLVM::StoreOp store) {
      BlockArgument arg = getStoredArgument(store);
      if (arg && arg.getOwner()->getParentOp() == func)
        stores.push_back(store);
    });
    if (stores.empty())
      return;
    unsigned first = getStoredArgument(stores.front()).getArgNumber();
    for (LLVM::StoreOp store : stores)
      first = std::min(first, getStoredArgument(store).getArgNumber());
    for (LLVM::StoreOp store : stores) {
      if (getStoredArgument(store).getArgNumber() != first)
        continue;
      rewriter.eraseOp(store);
      ++erased;
    }
  });
  return erased;
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

struct Mutation {
  StringLiteral name;
  MutationStage stage;
  /// What the mutation rewrites, for the error when there is none.
  StringLiteral target;
  /// Applies the mutation; returns the number of places changed.
  unsigned (*apply)(ModuleOp, IRRewriter &);
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
    IRRewriter rewriter(&getContext());
    if (found->apply(module, rewriter) == 0) {
      emitError(loc) << "ew-test-mutate: mutation '" << mutation
                     << "' found nothing to change (" << found->target << ")";
      return signalPassFailure();
    }
  }
};

} // namespace

void mlir::ew::test::registerTestPasses() { registerEwTestPasses(); }

void mlir::ew::test::addTestMutation(OpPassManager &pm, StringRef mutation,
                                     MutationStage stage) {
  const Mutation *found = lookupMutation(mutation);
  if (found && found->stage != stage)
    return;
  EwTestMutateOptions options;
  options.mutation = mutation.str();
  pm.addPass(createEwTestMutate(options));
}
