//===- VectorizeElementLoop.cpp - 16-byte accesses for GPU kernels --------===//
//
// Vectorizes the element loop of a lowered GPU kernel (see the header for the
// shape of the result). It works on the loop after conversion, where each
// element is a load of `gep %arg[%i]` per input, element code, and a store to
// `gep %out[%i]` per result: it clones that element code once per element of
// a thread's vectors, so the element lowering (EwToArith) stays scalar and
// unchanged, and feeds the copies from explicit vector loads instead of
// leaving the merging of scalar accesses to LLVM's load-store vectorizer,
// which can only merge what it can prove 16-byte aligned.
//
// Element layout of the main loop, for a chunk starting at element c0, a
// block of B threads, and `atom` = 16 bytes' worth of the widest output:
// thread t owns, for each a in [0, E / atom), the atom
//   c0 + a * B * atom + t * atom ... + atom - 1,
// and moves it as one 16-byte vector of the widest outputs, a shorter vector
// of a narrower tensor (4 bools beside f32), or several contiguous 16-byte
// vectors of a wider input (4 f32 vectors beside 16 bools). So every
// warp-wide store is contiguous (512 bytes for the widest outputs); a wider
// input's vectors are strided across the warp, but each 32-byte sector is
// read whole, the rest from L1. Measured on the H200 (docs/performance.md,
// "Atoms"): with atoms of the narrowest tensor, f32 stores beside a bool
// output spanned 2 KB per warp-wide instruction and leaky_relu_mask ran at
// 70% of the copy; with atoms of the widest tensor, in_range's bool stores
// shrank to 4 bytes and it fell from 99.7% to 91.1%.
//
//===----------------------------------------------------------------------===//

#include "VectorizeElementLoop.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ew;

namespace {

/// A kernel argument that the loop reads or writes element by element.
struct Tensor {
  BlockArgument base;
  /// The storage type of its elements (i8 for bools).
  Type type;
  /// Bytes per element, a power of two at most kVectorBytes.
  unsigned size = 0;
};

/// What the element loop does with memory.
struct LoopAccesses {
  /// Every load of element %i of an argument, and the argument.
  SmallVector<std::pair<LLVM::LoadOp, unsigned>> loads;
  /// Every store of element %i of an argument, and the argument.
  SmallVector<std::pair<LLVM::StoreOp, unsigned>> stores;
  /// Inputs and outputs, each once (inputs first, in the loop's order).
  SmallVector<Tensor> inputs, outputs;
};

} // namespace

/// The kernel argument whose element `index` `address` points to
/// (`llvm.getelementptr %arg[%index]`), or null.
static BlockArgument matchElementAddress(Value address, Value index,
                                         Block *entry, Type accessType) {
  auto gep = address.getDefiningOp<LLVM::GEPOp>();
  if (!gep || gep.getRawConstantIndices().size() != 1 ||
      gep.getRawConstantIndices()[0] != LLVM::GEPOp::kDynamicIndex ||
      gep.getDynamicIndices().front() != index ||
      gep.getElemType() != accessType)
    return nullptr;
  auto base = dyn_cast<BlockArgument>(gep.getBase());
  return base && base.getOwner() == entry ? base : nullptr;
}

/// Adds `base` with elements of `type` to `tensors` (once) and returns its
/// position, or nullopt when the type does not suit 16-byte vectors or the
/// argument was seen with another type.
static std::optional<unsigned> addTensor(SmallVectorImpl<Tensor> &tensors,
                                         BlockArgument base, Type type) {
  for (auto [index, tensor] : llvm::enumerate(tensors))
    if (tensor.base == base)
      return tensor.type == type ? std::optional<unsigned>(index)
                                 : std::nullopt;
  if (!type.isIntOrFloat())
    return std::nullopt;
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits % 8 || !llvm::isPowerOf2_32(bits / 8) || bits / 8 > kVectorBytes)
    return std::nullopt;
  tensors.push_back({base, type, bits / 8});
  return tensors.size() - 1;
}

/// True for EwToArith's correctly rounded square root: a call of llvm.sqrt
/// by name (EwToArith/Math.cpp says why not math.sqrt).
static bool isSqrtCall(Operation *op) {
  auto call = dyn_cast<LLVM::CallIntrinsicOp>(op);
  return call && call.getIntrin().starts_with("llvm.sqrt.");
}

/// Collects the loop's accesses; fails on any other memory access, or one in
/// a nested region.
static FailureOr<LoopAccesses> analyzeLoop(scf::ForOp loop, Block *entry) {
  LoopAccesses accesses;
  Value index = loop.getInductionVar();
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      BlockArgument base =
          matchElementAddress(load.getAddr(), index, entry, load.getType());
      std::optional<unsigned> position =
          base && op->getBlock() == loop.getBody() && !load.getVolatile_()
              ? addTensor(accesses.inputs, base, load.getType())
              : std::nullopt;
      if (!position)
        return WalkResult::interrupt();
      accesses.loads.push_back({load, *position});
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      Type type = store.getValue().getType();
      BlockArgument base =
          matchElementAddress(store.getAddr(), index, entry, type);
      size_t before = accesses.outputs.size();
      std::optional<unsigned> position =
          base && op->getBlock() == loop.getBody() && !store.getVolatile_()
              ? addTensor(accesses.outputs, base, type)
              : std::nullopt;
      // Each result is stored once per element.
      if (!position || accesses.outputs.size() == before)
        return WalkResult::interrupt();
      accesses.stores.push_back({store, *position});
      return WalkResult::advance();
    }
    // A CallIntrinsicOp declares no memory effects, but llvm.sqrt has none.
    if (isSqrtCall(op))
      return WalkResult::advance();
    // Anything else that touches memory is beyond this rewrite.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if ((effects && !effects.hasNoEffect()) ||
        (!effects && !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
         !isa<scf::YieldOp>(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || accesses.stores.empty())
    return failure();
  // An argument both read and written would be read by one thread after
  // another wrote it, in another order than the scalar loop's.
  for (const Tensor &input : accesses.inputs)
    for (const Tensor &output : accesses.outputs)
      if (input.base == output.base)
        return failure();
  return accesses;
}

/// True for an operation of one element's code that takes a long dependent
/// chain of instructions on the GPU (kVectorsPerThreadByCost).
static bool isLongLatency(Operation *op) {
  if (isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
          arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return true;
  if (isSqrtCall(op))
    return true;
  // The math ops that stay instructions; every other one is libdevice code.
  if (isa<math::AbsFOp, math::AbsIOp, math::FmaOp, math::CopySignOp,
          math::FloorOp, math::CeilOp, math::TruncOp, math::RoundOp,
          math::RoundEvenOp>(op))
    return false;
  return isa<math::MathDialect>(op->getDialect());
}

/// Vectors per thread for the element code of `loop` (kVectorsPerThreadByCost).
static unsigned chooseVectorsPerThread(scf::ForOp loop,
                                       const LoopAccesses &accesses) {
  unsigned longLatency = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (isLongLatency(op))
      ++longLatency;
  });
  unsigned vectors = kVectorsPerThreadByCost[std::min<size_t>(
      longLatency, std::size(kVectorsPerThreadByCost) - 1)];
  if (accesses.inputs.empty())
    vectors = std::max(vectors, kVectorsPerThreadStoreOnly);
  return vectors;
}

unsigned mlir::ew::vectorizeElementLoop(gpu::GPUFuncOp func,
                                        unsigned vectorsPerThread) {
  Block *entry = &func.getBody().front();
  auto loops = llvm::to_vector(entry->getOps<scf::ForOp>());
  if (loops.size() != 1)
    return 1;
  scf::ForOp loop = loops.front();
  FailureOr<LoopAccesses> analyzed = analyzeLoop(loop, entry);
  if (failed(analyzed))
    return 1;
  LoopAccesses &accesses = *analyzed;
  SmallVector<Tensor> tensors(accesses.inputs);
  tensors.append(accesses.outputs);

  unsigned narrowest = kVectorBytes, widest = 1, widestOutput = 1;
  const Tensor *narrowestTensor = nullptr;
  for (const Tensor &tensor : tensors) {
    if (tensor.size < narrowest || !narrowestTensor) {
      narrowest = tensor.size;
      narrowestTensor = &tensor;
    }
    widest = std::max(widest, tensor.size);
  }
  for (const Tensor &output : accesses.outputs)
    widestOutput = std::max(widestOutput, output.size);
  // An atom is one 16-byte vector of the widest output, and as many elements
  // of every other tensor: a shorter vector of a narrower one (4 bools beside
  // f32), several contiguous 16-byte vectors of a wider input (4 f32 vectors
  // beside 16 bools). Stores are what must be contiguous across a warp; an
  // input's strided vectors are read whole from L1 (docs/performance.md,
  // "Atoms"). A thread moves E elements per iteration: vectorsPerThread
  // 16-byte vectors of the widest tensor, in whole atoms.
  unsigned atom = kVectorBytes / widestOutput;
  if (vectorsPerThread == 0)
    vectorsPerThread = chooseVectorsPerThread(loop, accesses);
  unsigned elementsPerThread =
      std::max(atom, vectorsPerThread * kVectorBytes / widest);
  unsigned atoms = elementsPerThread / atom;

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type i64 = b.getI64Type();
  // Index constants, each made once at the top of the kernel.
  OpBuilder constants = OpBuilder::atBlockBegin(entry);
  llvm::SmallDenseMap<int64_t, Value> constantValues;
  auto constant = [&](int64_t value) -> Value {
    Value &known = constantValues[value];
    if (!known)
      known = arith::ConstantIntOp::create(constants, loc, i64, value);
    return known;
  };
  auto toI64 = [&](Value v) -> Value {
    return arith::IndexCastUIOp::create(b, loc, i64, v);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  auto addConstant = [&](Value x, int64_t value) -> Value {
    return value == 0 ? x : add(x, constant(value));
  };
  Value n = loop.getUpperBound();
  Value zero = constant(0);

  // The peel: elements of the narrowest tensor up to its next 16-byte
  // boundary (the ABI aligns every pointer to its element size, so the
  // distance is whole elements), at most n.
  llvm::SmallDenseMap<Value, Value> addresses;
  auto address = [&](Value pointer) -> Value {
    Value &known = addresses[pointer];
    if (!known)
      known = LLVM::PtrToIntOp::create(b, loc, i64, pointer);
    return known;
  };
  // Ops made one statement each: the order in which a call's arguments are
  // evaluated differs between compilers (g++ right to left, clang left to
  // right), and with it the order of the IR.
  Value mask = constant(kVectorBytes - 1);
  Value misalignment =
      arith::AndIOp::create(b, loc, address(narrowestTensor->base), mask);
  Value elementBytes = constant(narrowest);
  Value toBoundary =
      arith::SubIOp::create(b, loc, constant(kVectorBytes), misalignment);
  Value peel = arith::DivUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, toBoundary, mask), elementBytes);
  peel = arith::MinSIOp::create(b, loc, peel, n);
  // Every tensor 16-byte aligned after the peel? (With inputs and outputs
  // offset alike from aligned allocations, as slices of them are, yes.)
  Value aligned;
  for (const Tensor &tensor : tensors) {
    Value end = add(address(tensor.base), mul(peel, constant(tensor.size)));
    Value isAligned = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, end, constant(kVectorBytes - 1)), zero);
    aligned =
        aligned ? arith::AndIOp::create(b, loc, aligned, isAligned) : isAligned;
  }
  peel = arith::SelectOp::create(b, loc, aligned, peel, zero);

  Value blockDim = toI64(gpu::BlockDimOp::create(b, loc, gpu::Dimension::x));
  Value chunk = mul(blockDim, constant(elementsPerThread));
  Value chunks = arith::SelectOp::create(
      b, loc, aligned,
      arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, n, peel),
                             chunk),
      zero);
  Value tailStart = add(peel, mul(chunks, chunk));

  // Prologue: the original loop over [0, peel).
  auto prologue = cast<scf::ForOp>(b.clone(*loop));
  prologue.getUpperBoundMutable().assign(peel);

  // Main loop: one chunk per block and iteration.
  Value blockId = toI64(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  Value gridDim = toI64(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
  Value threadId = toI64(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value atomStride = mul(blockDim, constant(atom));
  Value threadOffset = mul(threadId, constant(atom));
  auto main = scf::ForOp::create(b, loc, blockId, chunks, gridDim);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(main.getBody());
    Value base =
        add(add(peel, mul(main.getInductionVar(), chunk)), threadOffset);
    SmallVector<Value> atomBases;
    for (unsigned a = 0; a < atoms; ++a)
      atomBases.push_back(a == 0   ? base
                          : a == 1 ? add(base, atomStride)
                                   : add(base, mul(atomStride, constant(a))));
    // A tensor's atom is `perAtom` vectors of `length` elements each, at
    // most 16 bytes; vector v of atom a starts at atomBases[a] + v * length
    // and is aligned to its size.
    auto length = [&](const Tensor &tensor) {
      return std::min(atom, kVectorBytes / tensor.size);
    };
    auto perAtom = [&](const Tensor &tensor) { return atom / length(tensor); };
    auto vectorAddress = [&](const Tensor &tensor, unsigned a,
                             unsigned v) -> Value {
      return LLVM::GEPOp::create(
          b, loc, tensor.base.getType(), tensor.type, tensor.base,
          ValueRange{addConstant(atomBases[a], v * length(tensor))},
          LLVM::GEPNoWrapFlags::inbounds);
    };
    auto vectorType = [&](const Tensor &tensor) {
      return VectorType::get({length(tensor)}, tensor.type);
    };
    llvm::SmallDenseMap<unsigned, Value> lanes;
    auto lane = [&](unsigned position) -> Value {
      Value &known = lanes[position];
      if (!known)
        known = LLVM::ConstantOp::create(constants, loc, constants.getI32Type(),
                                         position);
      return known;
    };

    // All loads first: every vector of every input in flight at once.
    // vectors[input][a * perAtom + v].
    SmallVector<SmallVector<Value>> inputVectors;
    for (const Tensor &input : accesses.inputs) {
      SmallVector<Value> &vectors = inputVectors.emplace_back();
      for (unsigned a = 0; a < atoms; ++a)
        for (unsigned v = 0; v < perAtom(input); ++v)
          vectors.push_back(LLVM::LoadOp::create(b, loc, vectorType(input),
                                                 vectorAddress(input, a, v),
                                                 length(input) * input.size));
    }

    // The element code once per element, fed by extracts.
    SmallVector<SmallVector<Value>> outputValues(accesses.outputs.size());
    for (unsigned k = 0; k < elementsPerThread; ++k) {
      unsigned a = k / atom, w = k % atom;
      IRMapping mapping;
      mapping.map(loop.getInductionVar(), addConstant(atomBases[a], w));
      for (auto [load, position] : accesses.loads) {
        const Tensor &input = accesses.inputs[position];
        Value vector =
            inputVectors[position][a * perAtom(input) + w / length(input)];
        mapping.map(load.getResult(),
                    LLVM::ExtractElementOp::create(b, loc, input.type, vector,
                                                   lane(w % length(input))));
      }
      for (Operation &op : loop.getBody()->without_terminator()) {
        // The scalar loads are replaced by the extracts, and their addresses
        // (used by nothing else) by the vectors'.
        if (isa<LLVM::LoadOp>(op) ||
            (isa<LLVM::GEPOp>(op) &&
             llvm::all_of(op.getUsers(), [](Operation *user) {
               return isa<LLVM::LoadOp, LLVM::StoreOp>(user);
             })))
          continue;
        if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
          auto it = llvm::find_if(accesses.stores, [&](auto &entry) {
            return entry.first == store;
          });
          outputValues[it->second].push_back(
              mapping.lookupOrDefault(store.getValue()));
          continue;
        }
        b.clone(op, mapping);
      }
    }

    // Stores: the outputs' values gathered into vectors.
    for (auto [position, output] : llvm::enumerate(accesses.outputs))
      for (unsigned a = 0; a < atoms; ++a)
        for (unsigned v = 0; v < perAtom(output); ++v) {
          Value vector = LLVM::PoisonOp::create(b, loc, vectorType(output));
          for (unsigned l = 0; l < length(output); ++l)
            vector = LLVM::InsertElementOp::create(
                b, loc, vectorType(output), vector,
                outputValues[position][a * atom + v * length(output) + l],
                lane(l));
          LLVM::StoreOp::create(b, loc, vector, vectorAddress(output, a, v),
                                length(output) * output.size);
        }
  }

  // Tail: the original loop, from the end of the last whole chunk.
  b.setInsertionPoint(loop);
  Value tailFirst = add(tailStart, loop.getLowerBound());
  loop.getLowerBoundMutable().assign(tailFirst);

  return elementsPerThread;
}
