//===- BF16AsI16.cpp - bf16 memory accesses as i16 on the CPU -------------===//
//
// ew-cpu-bf16-as-i16 (Passes.td has an example): every llvm.load and
// llvm.store of a bf16 (or a vector of them) moves an i16 instead, with a
// bitcast on the other side where the value is not a bitcast already, and
// every bf16 argument of a function (a kernel's scalar parameter) is an i16.
// After convert-ew-to-loops' integer code for the f32 <-> bf16 conversions, a
// bf16 kernel keeps no bfloat value at all.
//
// Why: LLVM's x86 back end without AVX512-BF16 (every host of ewc's JIT,
// CpuJit.cpp) scalarizes a vector select of bfloat, and InstCombine makes
// one out of the rounding's `select i1 %nan, i16 0x7FC0, i16 %rounded`
// followed by the bitcast to bfloat that the store needed (it folds the
// cast into the select's constant arm). LeakyReLU in bf16 then moved each
// of its 32 lanes through a general register, with spills, and ran at
// 12-21% of a memcpy; storing the i16 leaves the select on <N x i16>.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToLoops/EwToLoops.h"
#include "ewc/Conversion/StageCheck.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_EWCPUBF16ASI16
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;

/// i16 for bf16 and a vector of i16 for a vector of bf16; null otherwise.
static Type getBitsType(Type type) {
  if (type.isBF16())
    return IntegerType::get(type.getContext(), 16);
  if (auto vector = dyn_cast<VectorType>(type))
    if (vector.getElementType().isBF16())
      return vector.clone(IntegerType::get(type.getContext(), 16));
  return nullptr;
}

/// `value` as `type`: the source of a bitcast that produced it from `type`,
/// else a new bitcast at the builder's point.
static Value castTo(OpBuilder &builder, Value value, Type type) {
  if (auto cast = value.getDefiningOp<LLVM::BitcastOp>())
    if (cast.getArg().getType() == type)
      return cast.getArg();
  return LLVM::BitcastOp::create(builder, value.getLoc(), type, value);
}

/// `llvm.load %p : bf16` -> `llvm.load %p : i16`, with a bitcast to bf16
/// for the users that are not bitcasts back to i16.
static void loadAsBits(OpBuilder &builder, LLVM::LoadOp load, Type bitsType) {
  // Every attribute (alignment, volatile, nontemporal, aliasing) stays: only
  // the type of the loaded value changes.
  Type type = load.getType();
  load.getResult().setType(bitsType);
  Value asBF16;
  for (OpOperand &use : llvm::make_early_inc_range(load->getUses())) {
    auto cast = dyn_cast<LLVM::BitcastOp>(use.getOwner());
    if (cast && cast.getType() == bitsType) {
      cast.replaceAllUsesWith(load.getResult());
      cast.erase();
      continue;
    }
    if (!asBF16) {
      builder.setInsertionPointAfter(load);
      asBF16 = LLVM::BitcastOp::create(builder, load.getLoc(), type,
                                       load.getResult());
    }
    use.set(asBF16);
  }
}

/// `llvm.store %v : bf16` -> `llvm.store %bits : i16`, where %bits is what
/// %v was bitcast from, else a bitcast of %v.
static void storeAsBits(OpBuilder &builder, LLVM::StoreOp store,
                        Type bitsType) {
  Value value = store.getValue();
  builder.setInsertionPoint(store);
  store.getValueMutable().assign(castTo(builder, value, bitsType));
  if (Operation *def = value.getDefiningOp())
    if (isa<LLVM::BitcastOp>(def) && def->use_empty())
      def->erase();
}

/// A bf16 argument of `func` (a kernel's scalar parameter) -> an i16 one,
/// with a bitcast to bf16 for the users that are not bitcasts back to i16.
/// The JIT's packed wrapper loads each argument from memory as the
/// argument's type: an i16 load of a bf16's bytes is the same bits. No
/// bfloat value then reaches the x86 back end from the arguments either,
/// where `and (bitcast bfloat %p to i16), 0x7FFF`, which InstCombine makes
/// an llvm.fabs.bf16, lost the sign that the same bitcast gave an `or`
/// (bitcast(p, f16) of a bf16 p = -0.25 gave +1.625: ewc-fuzz --seed 49,
/// program 1541).
static void argumentsAsBits(OpBuilder &builder, LLVM::LLVMFuncOp func) {
  if (func.isExternal())
    return;
  Block &entry = func.getBody().front();
  auto type = func.getFunctionType();
  SmallVector<Type> params(type.getParams());
  bool changed = false;
  for (BlockArgument arg : entry.getArguments()) {
    Type bitsType = getBitsType(arg.getType());
    if (!bitsType)
      continue;
    Type bf16 = arg.getType();
    arg.setType(bitsType);
    params[arg.getArgNumber()] = bitsType;
    changed = true;
    Value asBF16;
    for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
      auto cast = dyn_cast<LLVM::BitcastOp>(use.getOwner());
      if (cast && cast.getType() == bitsType) {
        cast.replaceAllUsesWith(arg);
        cast.erase();
        continue;
      }
      if (!asBF16) {
        builder.setInsertionPointToStart(&entry);
        asBF16 = LLVM::BitcastOp::create(builder, arg.getLoc(), bf16, arg);
      }
      use.set(asBF16);
    }
  }
  if (changed)
    func.setFunctionType(LLVM::LLVMFunctionType::get(type.getReturnType(),
                                                     params, type.isVarArg()));
}

namespace {

struct EwCPUBF16AsI16Pass
    : mlir::ew::impl::EwCPUBF16AsI16Base<EwCPUBF16AsI16Pass> {
  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(getOperation(), getArgument(),
                                      "the LLVM dialect of ew-to-cpu",
                                      "--ew-to-cpu")))
      return signalPassFailure();
    // Collected first: the rewrites erase bitcasts next to the accesses. Not
    // the greedy driver, which would also fold the rest of the module (the
    // memref descriptors' insertvalue and extractvalue).
    SmallVector<LLVM::LoadOp> loads;
    SmallVector<LLVM::StoreOp> stores;
    SmallVector<LLVM::LLVMFuncOp> funcs;
    getOperation()->walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op))
        loads.push_back(load);
      else if (auto store = dyn_cast<LLVM::StoreOp>(op))
        stores.push_back(store);
      else if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
        funcs.push_back(func);
    });
    OpBuilder builder(&getContext());
    for (LLVM::LLVMFuncOp func : funcs)
      argumentsAsBits(builder, func);
    for (LLVM::LoadOp load : loads)
      if (Type bits = getBitsType(load.getType()))
        loadAsBits(builder, load, bits);
    for (LLVM::StoreOp store : stores)
      if (Type bits = getBitsType(store.getValue().getType()))
        storeAsBits(builder, store, bits);
  }
};

} // namespace
