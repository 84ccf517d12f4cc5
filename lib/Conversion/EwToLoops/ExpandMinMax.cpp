//===- ExpandMinMax.cpp - minimum/maximum as compares on the CPU ----------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// ew-cpu-expand-minmax (Passes.td has the example and the reason): each
// llvm.intr.minimum and llvm.intr.maximum becomes compares and selects with
// the same meaning (NaN if either operand is NaN, signed zeros ordered), so
// that LLVM 22's x86 lowering of the intrinsics, which returns the other
// operand for a signaling NaN where it knows one operand is never NaN,
// never sees them.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToLoops/EwToLoops.h"
#include "ewc/Conversion/StageCheck.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_EWCPUEXPANDMINMAX
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;

/// The integer type of `type`'s width (a vector of them for a vector).
static Type getBitsType(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  Type element = vector ? vector.getElementType() : type;
  Type bits =
      IntegerType::get(type.getContext(), element.getIntOrFloatBitWidth());
  return vector ? Type(vector.clone(bits)) : bits;
}

/// minimum(a, b) (or maximum) as compares and selects, before `op`.
static Value expand(OpBuilder &builder, Operation *op, bool isMin) {
  Location loc = op->getLoc();
  Value a = op->getOperand(0), b = op->getOperand(1);
  Type type = a.getType(), bits = getBitsType(type);
  auto order = isMin ? LLVM::FCmpPredicate::olt : LLVM::FCmpPredicate::ogt;
  Value unordered =
      LLVM::FCmpOp::create(builder, loc, LLVM::FCmpPredicate::uno, a, b);
  // Either operand's NaN, quiet: the sum.
  Value nan = LLVM::FAddOp::create(builder, loc, a, b);
  Value aFirst = LLVM::FCmpOp::create(builder, loc, order, a, b);
  Value bFirst = LLVM::FCmpOp::create(builder, loc, order, b, a);
  // Equal: the OR of the bits takes -0 over +0 for the minimum, the AND +0
  // over -0 for the maximum; equal nonzero values have equal bits.
  Value aBits = LLVM::BitcastOp::create(builder, loc, bits, a);
  Value bBits = LLVM::BitcastOp::create(builder, loc, bits, b);
  Value tieBits = isMin
                      ? Value(LLVM::OrOp::create(builder, loc, aBits, bBits))
                      : Value(LLVM::AndOp::create(builder, loc, aBits, bBits));
  Value tie = LLVM::BitcastOp::create(builder, loc, type, tieBits);
  Value ordered = LLVM::SelectOp::create(
      builder, loc, aFirst, a,
      LLVM::SelectOp::create(builder, loc, bFirst, b, tie));
  return LLVM::SelectOp::create(builder, loc, unordered, nan, ordered);
}

namespace {

struct EwCPUExpandMinMaxPass
    : mlir::ew::impl::EwCPUExpandMinMaxBase<EwCPUExpandMinMaxPass> {
  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(getOperation(), getArgument(),
                                      "the LLVM dialect of ew-to-cpu",
                                      "--ew-to-cpu")))
      return signalPassFailure();
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<LLVM::MinimumOp, LLVM::MaximumOp>(op))
        ops.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (Operation *op : ops) {
      builder.setInsertionPoint(op);
      op->getResult(0).replaceAllUsesWith(
          expand(builder, op, isa<LLVM::MinimumOp>(op)));
      op->erase();
    }
  }
};

} // namespace
