//===- PointLoop.cpp - The loops ew-vectorize-gpu-loops reads -------------===//
//
// Matches the loop convert-ew-to-gpu builds for one nest (EwToGPU.cpp):
// the grid-stride loop over the flat index, its delinearization by the
// nest's extents, memref.load/memref.store of kernel arguments at the
// coordinates, and point code without other memory effects. Anything else
// is a reason to leave the loop alone, which the pass reports.
//
//===----------------------------------------------------------------------===//

#include "PointLoop.h"

#include "ewc/Conversion/EwToGPU/VectorizeGPULoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ew;

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

/// True for the id `OpTy` (gpu.block_id, ...) along x.
template <typename OpTy> static bool isIdX(Value value) {
  auto op = value.getDefiningOp<OpTy>();
  return op && op.getDimension() == gpu::Dimension::x;
}

/// True for `a op b` or `b op a` with `isA(a)` and `isB(b)`.
template <typename OpTy>
static bool matchCommutative(Value value, function_ref<bool(Value)> isA,
                             function_ref<bool(Value)> isB) {
  auto op = value.getDefiningOp<OpTy>();
  return op && ((isA(op.getLhs()) && isB(op.getRhs())) ||
                (isA(op.getRhs()) && isB(op.getLhs())));
}

/// True for blockIdx.x * blockDim.x + threadIdx.x.
static bool isGlobalThreadId(Value value) {
  return matchCommutative<arith::AddIOp>(
      value,
      [](Value v) {
        return matchCommutative<arith::MulIOp>(v, isIdX<gpu::BlockIdOp>,
                                               isIdX<gpu::BlockDimOp>);
      },
      isIdX<gpu::ThreadIdOp>);
}

/// True for gridDim.x * blockDim.x.
static bool isGridSize(Value value) {
  return matchCommutative<arith::MulIOp>(value, isIdX<gpu::GridDimOp>,
                                         isIdX<gpu::BlockDimOp>);
}

bool mlir::ew::isSqrtCall(Operation *op) {
  auto call = dyn_cast<LLVM::CallIntrinsicOp>(op);
  return call && call.getIntrin().starts_with("llvm.sqrt.");
}

bool mlir::ew::isPureIntrinsicCall(Operation *op) {
  auto call = dyn_cast<LLVM::CallIntrinsicOp>(op);
  return call && (call.getIntrin().starts_with("llvm.sqrt.") ||
                  call.getIntrin().starts_with("llvm.trunc."));
}

/// Bytes of an element that vectors can move: a power of two up to 16.
static std::optional<unsigned> getVectorElementBytes(Type type) {
  if (!type.isIntOrFloat())
    return std::nullopt;
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits % 8 || !ewc::isVectorElementSize(bits / 8))
    return std::nullopt;
  return bits / 8;
}

FailureOr<PointLoop> mlir::ew::analyzePointLoop(scf::ForOp loop, Block *entry,
                                                std::string &why) {
  PointLoop result;
  result.loop = loop;
  Value flat = loop.getInductionVar();
  if (!flat.getType().isIndex() || loop.getNumRegionIterArgs() != 0 ||
      !isGlobalThreadId(loop.getLowerBound()) || !isGridSize(loop.getStep())) {
    // The chunks below partition the points among the grid's threads as the
    // grid-stride loop does; another loop would mean another partition.
    why = "it is not a grid-stride loop over the points";
    return failure();
  }
  for (Operation *user : flat.getUsers()) {
    auto delinearize = dyn_cast<affine::AffineDelinearizeIndexOp>(user);
    if (!delinearize)
      continue;
    if (result.delinearize || delinearize->getBlock() != loop.getBody() ||
        !delinearize.hasOuterBound() ||
        !llvm::all_of(delinearize.getDynamicBasis(), [&](Value extent) {
          return loop.isDefinedOutsideOfLoop(extent);
        })) {
      why = "the point index is not delinearized once by the nest's extents";
      return failure();
    }
    result.delinearize = delinearize;
  }
  if (result.delinearize) {
    result.extents = result.delinearize.getMixedBasis();
    llvm::append_range(result.coords, result.delinearize.getResults());
  } else {
    result.extents.push_back(loop.getUpperBound());
    result.coords.push_back(flat);
  }
  unsigned inner = result.getRank() - 1;

  for (Operation &op : loop.getBody()->without_terminator()) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indices = store.getIndices();
    } else if (&op == result.delinearize.getOperation() ||
               isPureIntrinsicCall(&op) || isMemoryEffectFree(&op)) {
      continue;
    } else {
      why = ("'" + op.getName().getStringRef() + "' accesses memory").str();
      return failure();
    }
    Access access{&op, memref, {}};
    auto arg = dyn_cast<BlockArgument>(memref);
    for (Value index : indices) {
      auto *coord = llvm::find(result.coords, index);
      if (coord == result.coords.end())
        break;
      access.coords.push_back(coord - result.coords.begin());
    }
    if (!arg || arg.getOwner() != entry ||
        access.coords.size() != indices.size()) {
      why = "an access is not of a kernel argument at the point's coordinates";
      return failure();
    }
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)))
      strides.assign(indices.size(), ShapedType::kDynamic);
    std::optional<unsigned> bytes =
        getVectorElementBytes(type.getElementType());
    unsigned innerCount = llvm::count(access.coords, inner);
    if (innerCount == 0) {
      if (access.isStore()) {
        why = indices.empty() ? "the nest has no dimension"
                              : "a result does not have the innermost "
                                "dimension";
        return failure();
      }
      access.kind = AccessKind::Broadcast;
    } else if (innerCount == 1 && access.coords.back() == inner && bytes &&
               !strides.empty() && strides.back() == 1) {
      access.kind = AccessKind::Vector;
      access.bytes = *bytes;
    }
    result.accesses.push_back(std::move(access));
  }

  // A tensor both read and written would be read by one thread after another
  // wrote it, in another order than the scalar loop's; each result is stored
  // once per point.
  for (const Access &store : result.accesses) {
    if (!store.isStore())
      continue;
    for (const Access &other : result.accesses)
      if (&other != &store && other.memref == store.memref) {
        why = "a tensor is accessed more than once per point";
        return failure();
      }
  }
  if (!llvm::any_of(result.accesses,
                    [](const Access &access) { return access.isStore(); })) {
    why = "it stores nothing";
    return failure();
  }
  if (!llvm::any_of(result.accesses, [](const Access &access) {
        return access.kind == AccessKind::Vector;
      })) {
    why = "no tensor has the innermost dimension with a unit stride";
    return failure();
  }
  return result;
}

unsigned mlir::ew::getNestRank(scf::ForOp loop) {
  unsigned rank = 0;
  loop.walk([&](memref::StoreOp store) {
    rank = std::max<unsigned>(rank, store.getIndices().size());
  });
  return rank;
}
