//===- VectorizeGPULoops.cpp - The layouts of GPU loop nests --------------===//
//
// ew-vectorize-gpu-loops (Passes.td has the shape of its result): turns each
// scalar grid-stride loop of convert-ew-to-gpu into chunks of the
// #ew.blocked layout, with vector accesses along the innermost dimension of
// the nest where the kernel's checks find the tensors aligned, and the
// original loop for the tail; or, in the unaligned variant that the runtime
// launches where they would fail (ewc/ABI/VectorAccess.h), a coalesced
// unrolled scalar loop and the tail. It works on the loop before any lowering,
// where a point is `affine.delinearize_index` of the flat index, `memref.load`s
// at the coordinates, the element code and `memref.store`s: it clones the
// element code once per point of a thread's chunk, so the element lowering
// (EwToArith) stays scalar, and feeds the copies from explicit vector loads
// instead of leaving the merging of scalar accesses to LLVM's load-store
// vectorizer, which can only merge what it can prove 16-byte aligned.
//
// Atoms are 16 bytes of the widest vectorized output, and as many points of
// every other tensor: a shorter vector of a narrower one (4 bools beside
// f32), several contiguous 16-byte vectors of a wider input (4 f32 vectors
// beside 16 bools). So every warp-wide store is contiguous (512 bytes for
// the widest outputs); a wider input's vectors are strided across the warp,
// but each 32-byte sector is read whole, the rest from L1. Measured on the
// H200 with the pointer-based vectorizer of 1-D kernels that this pass
// replaces (docs/performance.md, "Atoms"): with atoms of the narrowest
// tensor, f32 stores beside a bool output spanned 2 KB per warp-wide
// instruction and leaky_relu_mask ran at 70% of the copy; with atoms of the
// widest tensor, in_range's bool stores shrank to 4 bytes and it fell from
// 99.7% to 91.1%.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToGPU/VectorizeGPULoops.h"
#include "ewc/Conversion/StageCheck.h"

#include "PointLoop.h"

#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_EWVECTORIZEGPULOOPS
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

namespace {

/// A tensor that moves by vectors (one per memref, loaded or stored).
struct VectorTensor {
  Value memref;
  unsigned bytes = 0;
  /// Stored by the point code (an output).
  bool isOutput = false;
  /// In the shifted variant, how many elements past an aligned address this
  /// input's element sits where the outputs are aligned (0: aligned too).
  unsigned shift = 0;
  /// Elements per vector access: the atom, or 16 bytes of a wider tensor.
  unsigned lanes = 0;
  /// The address alignment its vector accesses need.
  unsigned getAlignment() const { return lanes * bytes; }
};

/// What the pass chose for one loop.
struct Plan {
  unsigned atom = 0, atoms = 0;
  SmallVector<VectorTensor> tensors;
  unsigned getElementsPerThread() const { return atom * atoms; }
};

} // namespace

//===----------------------------------------------------------------------===//
// Choices
//===----------------------------------------------------------------------===//

/// True for an operation of one point's code that takes a long dependent
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

/// Vectors per thread for the point code of `loop` (kVectorsPerThreadByCost).
static unsigned chooseVectorsPerThread(const PointLoop &loop) {
  unsigned longLatency = 0;
  bool random = false;
  scf::ForOp forOp = loop.loop;
  forOp.getBody()->walk([&](Operation *op) {
    if (isLongLatency(op))
      ++longLatency;
    random |= isa<arith::MulUIExtendedOp>(op);
  });
  // Random numbers (Philox's ten rounds of dependent products a point: rand,
  // randn, randint) make the nest compute-bound, and what counts then is the
  // points a thread has in flight, not its bytes (kPointsPerThreadRandom).
  unsigned widest = 0;
  for (const Access &access : loop.accesses)
    if (access.kind == AccessKind::Vector)
      widest = std::max(widest, access.bytes);
  if (random && widest)
    return std::clamp<unsigned>(
        kPointsPerThreadRandom * widest / ewc::kVectorBytes, 1,
        kVectorsPerThreadByCost[std::size(kVectorsPerThreadByCost) - 1]);
  // A nest of several dimensions (VectorizeGPULoops.h, below
  // kVectorsPerThreadByCost).
  if (loop.getRank() > 1)
    longLatency += widest && widest <= 2 ? 2 : 1;
  unsigned vectors = kVectorsPerThreadByCost[std::min<size_t>(
      longLatency, std::size(kVectorsPerThreadByCost) - 1)];
  // Loads from DRAM: of a tensor with every dimension of the nest. One
  // without some dimension is read again along it (b[n] of an outer sum
  // once per row), from L1 or L2 (VectorizeGPULoops.h).
  unsigned rank = loop.getRank();
  bool waitsForDRAM = llvm::any_of(loop.accesses, [&](const Access &access) {
    return !access.isStore() && access.kind != AccessKind::Broadcast &&
           access.coords.size() == rank;
  });
  if (!waitsForDRAM)
    vectors = std::max(vectors, kVectorsPerThreadStoreOnly);
  return vectors;
}

/// The layout of the vector loop of `loop`: atoms of 16 bytes of the widest
/// vectorized output (of the widest vectorized input where no output is
/// vectorized; the file comment says why), and E points per thread:
/// `vectorsPerThread` 16-byte vectors of the widest vectorized tensor, in
/// whole atoms.
static Plan choosePlan(const PointLoop &loop, unsigned vectorsPerThread) {
  unsigned widestOutput = 0, widestInput = 0;
  for (const Access &access : loop.accesses) {
    if (access.kind != AccessKind::Vector)
      continue;
    unsigned &widest = access.isStore() ? widestOutput : widestInput;
    widest = std::max(widest, access.bytes);
  }
  Plan plan;
  plan.atom = ewc::getVectorAtom(widestOutput, widestInput);
  unsigned widest = std::max(widestOutput, widestInput);
  if (vectorsPerThread == 0)
    vectorsPerThread = chooseVectorsPerThread(loop);
  unsigned elements = llvm::alignTo(
      std::max(plan.atom, vectorsPerThread * ewc::kVectorBytes / widest),
      plan.atom);
  plan.atoms = elements / plan.atom;
  for (const Access &access : loop.accesses)
    if (access.kind == AccessKind::Vector &&
        llvm::none_of(plan.tensors, [&](const VectorTensor &tensor) {
          return tensor.memref == access.memref;
        }))
      plan.tensors.push_back({access.memref, access.bytes, access.isStore(),
                              /*shift=*/0,
                              ewc::getVectorLanes(plan.atom, access.bytes)});
  return plan;
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

namespace {

/// Builds the versions of one loop before it and turns it into the tail.
class LoopVectorizer {
public:
  LoopVectorizer(PointLoop &loop, const Plan &plan, BlockedLayoutAttr layout)
      : point(loop), plan(plan), proposed(layout), b(loop.loop),
        loc(loop.loop.getLoc()) {}

  /// Rewrites the loop into the vector versions, or (`unaligned`) into the
  /// coalesced unrolled scalar loop; either way the original is the tail.
  void run(bool unaligned);

private:
  // Index arithmetic, all on non-negative values below the number of points
  // (or an address), so none of it wraps.
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, constant(y)) : x; }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) { return y == 1 ? x : mul(x, constant(y)); }
  Value both(Value x, Value y) {
    return x ? arith::AndIOp::create(b, loc, x, y).getResult() : y;
  }
  /// `x` is a multiple of the power of two `alignment`.
  Value isAligned(Value x, unsigned alignment) {
    Value low = arith::AndIOp::create(b, loc, x, constant(alignment - 1));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low,
                                 constant(0));
  }

  /// The coordinates of flat index `flat`: unsigned division and remainder,
  /// exact for the non-negative values here, where affine.delinearize_index
  /// expands to floor division with fix-ups for negative values.
  SmallVector<Value> delinearize(Value flat);
  /// The coordinates `offset` points after `coords`, given the digits of
  /// `offset` (delinearize(offset)): digit-wise addition with a carry. Every
  /// coordinate and digit but the outermost is below its extent, so a sum
  /// is below twice the extent and one subtraction brings it back.
  SmallVector<Value> addCoords(ArrayRef<Value> coords, ArrayRef<Value> digits);
  /// The coordinates of `count` points `spacing` apart from the point at
  /// `first`, with two divisions in all (delinearize(first) and
  /// delinearize(spacing)) and additions in a tree of depth log2(count).
  SmallVector<SmallVector<Value>> spacedCoords(Value first, Value spacing,
                                               unsigned count);
  /// `coords` with the innermost coordinate `offset` further.
  SmallVector<Value> shiftInner(ArrayRef<Value> coords, int64_t offset);
  /// The indices of `access` at `coords`.
  SmallVector<Value> getIndices(const Access &access, ArrayRef<Value> coords);
  const VectorTensor &getTensor(Value memref) const;

  /// One copy of the point code at flat index `flat` and `coords`, with
  /// `loaded` for the results of the loads (one per access; null for a
  /// store); returns the values stored (one per access, null for a load).
  SmallVector<Value> emitPoint(Value flat, ArrayRef<Value> coords,
                               ArrayRef<Value> loaded);

  /// A grid-stride loop over `chunks` chunks, one per block and step, with
  /// `body` for one chunk and `layout` as its ew.layout.
  void buildChunkLoop(Value chunks, BlockedLayoutAttr layout,
                      function_ref<void(Value)> body);
  /// One chunk of the vector loop, the first point at `first` + chunk x
  /// chunk size; `oneRow` when every outer coordinate is 0.
  void emitVectorChunk(Value chunk, Value first, bool oneRow);
  /// The vector of `tensor` at `coords` (the first lane's), by one aligned
  /// load, or in the shifted variant by the two aligned vectors around it
  /// and a shuffle of their lanes shift ... shift + lanes - 1. Both loads
  /// lie within the points the vector loop of a shifted variant covers
  /// (run() keeps shift points before it and lanes after it).
  Value loadVector(const Access &access, const VectorTensor &tensor,
                   VectorType type, ArrayRef<Value> coords);
  /// One chunk of the coalesced unrolled scalar loop.
  void emitScalarChunk(Value chunk);
  /// The scalar loop over [0, end) (the prologue), as the original.
  void emitPrologue(Value end);

  PointLoop &point;
  const Plan &plan;
  BlockedLayoutAttr proposed;
  OpBuilder b;
  Location loc;
  SmallVector<Value> extents;
  Value blockDim, threadId, blockId, gridDim, chunkSize;
  /// threadId x atom; k x blockDim x atom (vector loop) and k x blockDim
  /// (scalar loop), per k: the offsets of a thread's atoms and points.
  Value threadOffset;
  SmallVector<Value> atomStrides, pointStrides;
};

} // namespace

SmallVector<Value> LoopVectorizer::delinearize(Value flat) {
  unsigned rank = point.getRank();
  SmallVector<Value> coords(rank);
  for (unsigned d = rank - 1; d > 0; --d) {
    coords[d] = arith::RemUIOp::create(b, loc, flat, extents[d]);
    flat = arith::DivUIOp::create(b, loc, flat, extents[d]);
  }
  // The outer bound: the flat index is below the number of points.
  coords[0] = flat;
  return coords;
}

SmallVector<Value> LoopVectorizer::addCoords(ArrayRef<Value> coords,
                                             ArrayRef<Value> digits) {
  unsigned rank = coords.size();
  SmallVector<Value> sum(rank);
  Value carry;
  for (unsigned d = rank - 1; d > 0; --d) {
    Value s = add(coords[d], digits[d]);
    if (carry)
      s = add(s, carry);
    Value wraps =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, s, extents[d]);
    Value wrapped = arith::SubIOp::create(b, loc, s, extents[d]);
    sum[d] = arith::SelectOp::create(b, loc, wraps, wrapped, s);
    carry = arith::SelectOp::create(b, loc, wraps, constant(1), constant(0));
  }
  // The outermost coordinate has no bound to wrap at.
  sum[0] = add(coords[0], digits[0]);
  if (carry)
    sum[0] = add(sum[0], carry);
  return sum;
}

SmallVector<SmallVector<Value>>
LoopVectorizer::spacedCoords(Value first, Value spacing, unsigned count) {
  // A division per point, as delinearize(first + k x spacing) would make,
  // costs more than its instructions: the bypass of a 64-bit division keeps
  // its slow software path beside the 32-bit one, live for each point. The
  // unaligned variant's loop of bias_add f32 with 4 / 8 / 16 points per
  // thread needs 40 / 56 / 96 registers with these additions, where a kernel
  // with a division per point had 56 / 90 / 168 (ptxas -v, 2026-12-02).
  SmallVector<SmallVector<Value>> coords{delinearize(first)};
  if (count == 1)
    return coords;
  // Point k = point k - 2^j plus the digits of 2^j x spacing, the largest
  // power of two below k.
  SmallVector<Value> digits = delinearize(spacing);
  for (unsigned step = 1; step < count; step *= 2) {
    for (unsigned k = step; k < std::min(count, 2 * step); ++k)
      coords.push_back(addCoords(coords[k - step], digits));
    if (2 * step < count)
      digits = addCoords(digits, digits);
  }
  return coords;
}

SmallVector<Value> LoopVectorizer::shiftInner(ArrayRef<Value> coords,
                                              int64_t offset) {
  SmallVector<Value> shifted(coords);
  shifted.back() = add(shifted.back(), offset);
  return shifted;
}

SmallVector<Value> LoopVectorizer::getIndices(const Access &access,
                                              ArrayRef<Value> coords) {
  return llvm::map_to_vector(access.coords,
                             [&](unsigned coord) { return coords[coord]; });
}

const VectorTensor &LoopVectorizer::getTensor(Value memref) const {
  return *llvm::find_if(plan.tensors, [&](const VectorTensor &tensor) {
    return tensor.memref == memref;
  });
}

SmallVector<Value> LoopVectorizer::emitPoint(Value flat, ArrayRef<Value> coords,
                                             ArrayRef<Value> loaded) {
  IRMapping mapping;
  mapping.map(point.loop.getInductionVar(), flat);
  if (point.delinearize)
    mapping.map(point.delinearize.getResults(), coords);
  for (auto [access, value] : llvm::zip(point.accesses, loaded))
    if (!access.isStore())
      mapping.map(access.op->getResult(0), value);
  for (Operation &op : point.loop.getBody()->without_terminator())
    if (&op != point.delinearize.getOperation() &&
        !isa<memref::LoadOp, memref::StoreOp>(op))
      b.clone(op, mapping);
  SmallVector<Value> stored;
  for (const Access &access : point.accesses)
    stored.push_back(access.isStore()
                         ? mapping.lookupOrDefault(
                               cast<memref::StoreOp>(access.op).getValue())
                         : Value());
  return stored;
}

void LoopVectorizer::buildChunkLoop(Value chunks, BlockedLayoutAttr layout,
                                    function_ref<void(Value)> body) {
  auto loop = scf::ForOp::create(b, loc, blockId, chunks, gridDim);
  loop->setAttr(kLayoutAttrName, layout);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

void LoopVectorizer::emitVectorChunk(Value chunk, Value first, bool oneRow) {
  unsigned atom = plan.atom, elements = plan.getElementsPerThread();
  // Thread t's atom k starts at chunk offset (k x blockDim + t) x atom.
  Value base = add(add(first, mul(chunk, chunkSize)), threadOffset);
  SmallVector<Value> atomStarts;
  SmallVector<SmallVector<Value>> atomCoords;
  for (unsigned k = 0; k < plan.atoms; ++k) {
    Value start = k == 0 ? base : add(base, atomStrides[k]);
    atomStarts.push_back(start);
    if (oneRow) {
      SmallVector<Value> coords(point.getRank() - 1, constant(0));
      coords.push_back(start);
      atomCoords.push_back(std::move(coords));
    }
  }
  if (!oneRow)
    atomCoords = spacedCoords(base, mul(blockDim, atom), plan.atoms);

  // All loads first: every access of every point in flight at once.
  // loaded[point][access], the point p = k x atom + w.
  SmallVector<SmallVector<Value>> loaded(
      elements, SmallVector<Value>(point.accesses.size()));
  for (auto [position, access] : llvm::enumerate(point.accesses)) {
    if (access.isStore())
      continue;
    for (unsigned k = 0; k < plan.atoms; ++k) {
      ArrayRef<Value> coords = atomCoords[k];
      switch (access.kind) {
      case AccessKind::Broadcast: {
        Value value = memref::LoadOp::create(b, loc, access.memref,
                                             getIndices(access, coords));
        for (unsigned w = 0; w < atom; ++w)
          loaded[k * atom + w][position] = value;
        break;
      }
      case AccessKind::Scalar:
        for (unsigned w = 0; w < atom; ++w)
          loaded[k * atom + w][position] = memref::LoadOp::create(
              b, loc, access.memref, getIndices(access, shiftInner(coords, w)));
        break;
      case AccessKind::Vector: {
        const VectorTensor &tensor = getTensor(access.memref);
        auto type = VectorType::get(
            {tensor.lanes},
            cast<MemRefType>(access.memref.getType()).getElementType());
        for (unsigned v = 0; v < atom / tensor.lanes; ++v) {
          Value vector = loadVector(access, tensor, type,
                                    shiftInner(coords, v * tensor.lanes));
          for (unsigned l = 0; l < tensor.lanes; ++l)
            loaded[k * atom + v * tensor.lanes + l][position] =
                vector::ExtractOp::create(b, loc, vector, l);
        }
        break;
      }
      }
    }
  }

  // The point code once per point.
  SmallVector<SmallVector<Value>> stored;
  for (unsigned p = 0; p < elements; ++p) {
    unsigned k = p / atom, w = p % atom;
    stored.push_back(emitPoint(add(atomStarts[k], w),
                               shiftInner(atomCoords[k], w), loaded[p]));
  }

  // The stores: the results gathered into vectors.
  for (auto [position, access] : llvm::enumerate(point.accesses)) {
    if (!access.isStore())
      continue;
    for (unsigned k = 0; k < plan.atoms; ++k) {
      ArrayRef<Value> coords = atomCoords[k];
      if (access.kind == AccessKind::Scalar) {
        for (unsigned w = 0; w < atom; ++w)
          memref::StoreOp::create(b, loc, stored[k * atom + w][position],
                                  access.memref,
                                  getIndices(access, shiftInner(coords, w)));
        continue;
      }
      const VectorTensor &tensor = getTensor(access.memref);
      for (unsigned v = 0; v < atom / tensor.lanes; ++v) {
        SmallVector<Value> lanes;
        for (unsigned l = 0; l < tensor.lanes; ++l)
          lanes.push_back(stored[k * atom + v * tensor.lanes + l][position]);
        auto type = VectorType::get({tensor.lanes}, lanes.front().getType());
        Value vector = vector::FromElementsOp::create(b, loc, type, lanes);
        vector::StoreOp::create(
            b, loc, vector, access.memref,
            getIndices(access, shiftInner(coords, v * tensor.lanes)),
            /*nontemporal=*/false, llvm::Align(tensor.getAlignment()));
      }
    }
  }
}

Value LoopVectorizer::loadVector(const Access &access,
                                 const VectorTensor &tensor, VectorType type,
                                 ArrayRef<Value> coords) {
  auto load = [&](int64_t offset) -> Value {
    return vector::LoadOp::create(
        b, loc, type, access.memref,
        getIndices(access, shiftInner(coords, offset)),
        /*nontemporal=*/false, llvm::Align(tensor.getAlignment()));
  };
  if (tensor.shift == 0)
    return load(0);
  int64_t shift = tensor.shift, lanes = tensor.lanes;
  Value low = load(-shift), high = load(lanes - shift);
  SmallVector<int64_t> mask;
  for (int64_t lane = 0; lane < lanes; ++lane)
    mask.push_back(shift + lane);
  return vector::ShuffleOp::create(b, loc, low, high, mask);
}

void LoopVectorizer::emitScalarChunk(Value chunk) {
  unsigned elements = plan.getElementsPerThread();
  // Thread t's point k is at chunk offset k x blockDim + t: each warp-wide
  // access touches consecutive elements, as torch's unrolled kernel for
  // misaligned tensors does.
  Value base = add(mul(chunk, chunkSize), threadId);
  SmallVector<Value> flats;
  for (unsigned k = 0; k < elements; ++k)
    flats.push_back(k == 0 ? base : add(base, pointStrides[k]));
  SmallVector<SmallVector<Value>> coords;
  if (point.getRank() == 1)
    for (Value flat : flats)
      coords.push_back({flat});
  else
    coords = spacedCoords(base, blockDim, elements);
  SmallVector<SmallVector<Value>> loaded(
      elements, SmallVector<Value>(point.accesses.size()));
  for (auto [position, access] : llvm::enumerate(point.accesses))
    if (!access.isStore())
      for (unsigned k = 0; k < elements; ++k)
        loaded[k][position] = memref::LoadOp::create(
            b, loc, access.memref, getIndices(access, coords[k]));
  SmallVector<SmallVector<Value>> stored;
  for (unsigned k = 0; k < elements; ++k)
    stored.push_back(emitPoint(flats[k], coords[k], loaded[k]));
  for (auto [position, access] : llvm::enumerate(point.accesses))
    if (access.isStore())
      for (unsigned k = 0; k < elements; ++k)
        memref::StoreOp::create(b, loc, stored[k][position], access.memref,
                                getIndices(access, coords[k]));
}

void LoopVectorizer::emitPrologue(Value end) {
  auto prologue = cast<scf::ForOp>(b.clone(*point.loop));
  prologue.getUpperBoundMutable().assign(end);
  prologue->removeAttr(kLayoutAttrName);
}

void LoopVectorizer::run(bool unaligned) {
  scf::ForOp loop = point.loop;
  unsigned rank = point.getRank();
  for (OpFoldResult extent : point.extents)
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, extent));
  Value points = loop.getUpperBound();
  Value inner = extents.back();
  blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  blockDim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  gridDim = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  chunkSize = mul(blockDim, plan.getElementsPerThread());
  threadOffset = mul(threadId, plan.atom);
  for (unsigned k = 0; k < plan.getElementsPerThread(); ++k) {
    if (k < plan.atoms)
      atomStrides.push_back(mul(blockDim, k * plan.atom));
    pointStrides.push_back(mul(blockDim, k));
  }

  auto vectorLayout = BlockedLayoutAttr::get(
      b.getContext(), proposed.getThreads(), plan.atom, plan.atoms);
  auto scalarLayout = BlockedLayoutAttr::get(
      b.getContext(), proposed.getThreads(), 1, plan.getElementsPerThread());
  Type indexType = b.getIndexType();

  // Where the tail starts.
  Value done;
  if (unaligned) {
    // The variant for addresses that allow no vector access (x[1:] beside a
    // fresh output, a row length that is no multiple of the atom): the
    // coalesced unrolled scalar loop with the same E, not vector stores
    // beside scalar loads in the vector layout: each of its warp-wide
    // accesses is 32 consecutive elements (one 128-byte line for f32) used
    // whole, as in torch's unrolled kernel for misaligned tensors, where a
    // scalar load in the vector layout spans 512 bytes and leaves three
    // quarters of each line to L1; and it is one loop for every
    // misalignment, not one per set of tensors that share the outputs'.
    // Reasoned, not measured. No address is checked: the runtime chose this
    // variant from them (ewc/ABI/VectorAccess.h).
    Value chunks = arith::DivUIOp::create(b, loc, points, chunkSize);
    buildChunkLoop(chunks, scalarLayout,
                   [&](Value chunk) { emitScalarChunk(chunk); });
    done = mul(chunks, chunkSize);
  } else {
    // The address of each vectorized tensor's element 0 (the ABI aligns every
    // allocation to its element size, a view's offset counts elements).
    SmallVector<Value> addresses;
    SmallVector<memref::ExtractStridedMetadataOp> metadata;
    for (const VectorTensor &tensor : plan.tensors) {
      metadata.push_back(
          memref::ExtractStridedMetadataOp::create(b, loc, tensor.memref));
      Value pointer =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, tensor.memref);
      addresses.push_back(
          add(pointer, mul(metadata.back().getOffset(), tensor.bytes)));
    }

    // One row: the peel is the points of the tensor with the most lanes up to
    // its next aligned address; any peel that aligned every tensor would be
    // congruent to it modulo those lanes, hence modulo every tensor's (powers
    // of two), and would align every tensor too. So if this one does not, no
    // peel does.
    //
    // In the shifted variant the peel aligns the outputs, the vectorized
    // output with the most lanes the reference (VectorAccess.h,
    // getVectorShifts), and each shifted input is checked for its shift.
    bool shifted = llvm::any_of(
        plan.tensors, [](const VectorTensor &t) { return t.shift != 0; });
    unsigned reference = 0;
    auto isCandidate = [&](const VectorTensor &t) {
      return !shifted || t.isOutput;
    };
    while (!isCandidate(plan.tensors[reference]))
      ++reference;
    for (auto [position, tensor] : llvm::enumerate(plan.tensors))
      if (isCandidate(tensor) && tensor.lanes > plan.tensors[reference].lanes)
        reference = position;
    const VectorTensor &ref = plan.tensors[reference];
    Value mask = constant(ref.getAlignment() - 1);
    Value misalignment =
        arith::AndIOp::create(b, loc, addresses[reference], mask);
    Value toBoundary = arith::AndIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, constant(ref.getAlignment()),
                              misalignment),
        mask);
    Value peel =
        arith::DivUIOp::create(b, loc, toBoundary, constant(ref.bytes));
    Value oneRowAligned;
    for (auto [tensor, address] : llvm::zip(plan.tensors, addresses)) {
      Value at = add(address, mul(peel, tensor.bytes));
      Value fits =
          tensor.shift == 0
              ? isAligned(at, tensor.getAlignment())
              : arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::eq,
                    arith::AndIOp::create(b, loc, at,
                                          constant(tensor.getAlignment() - 1)),
                    constant(tensor.shift * tensor.bytes));
      oneRowAligned = both(oneRowAligned, fits);
    }
    if (rank > 1)
      oneRowAligned = both(
          oneRowAligned, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                               points, inner));
    // A shifted input's first vector starts `shift` points before the
    // vector loop's first point, which must be one of the tensor's: where
    // the peel is shorter, one atom more (the outputs stay aligned). Its
    // last vector ends lanes - shift points after the loop's last point.
    unsigned maxShift = 0, maxShiftedLanes = 0;
    for (const VectorTensor &tensor : plan.tensors)
      if (tensor.shift) {
        maxShift = std::max(maxShift, tensor.shift);
        maxShiftedLanes = std::max(maxShiftedLanes, tensor.lanes);
      }
    if (maxShift) {
      Value short_ = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           peel, constant(maxShift));
      peel =
          arith::SelectOp::create(b, loc, short_, add(peel, plan.atom), peel);
    }
    peel = arith::MinUIOp::create(b, loc, peel, points);

    // Several rows: every row of every vectorized tensor starts aligned, and
    // atoms (which start at multiples of the atom) do not cross rows. An outer
    // dimension of extent 1 has one row whatever its stride (the launch plan
    // leaves such a dimension where it merged two).
    Value rowsAligned;
    if (rank > 1 && !shifted) {
      rowsAligned = isAligned(inner, plan.atom);
      for (auto [tensor, address, meta] :
           llvm::zip(plan.tensors, addresses, metadata)) {
        unsigned alignment = tensor.getAlignment();
        rowsAligned = both(rowsAligned, isAligned(address, alignment));
        for (auto [extent, stride] : llvm::zip(meta.getSizes().drop_back(),
                                               meta.getStrides().drop_back())) {
          // Built in this order on purpose: operands that create ops are
          // evaluated in an order C++ leaves to the compiler (GCC and Clang
          // differ), and the IR must not.
          Value single = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                               extent, constant(1));
          Value strideAligned = isAligned(mul(stride, tensor.bytes), alignment);
          rowsAligned = both(
              rowsAligned, arith::OrIOp::create(b, loc, strideAligned, single));
        }
      }
    }

    // The runtime takes this variant where one of the checks holds
    // (ewc/ABI/VectorAccess.h). Where neither does (a kernel launched
    // through the exported header, a second loop nest of other tensors),
    // the tail does every point: correct, and as fast as the scalar loop
    // of one point per thread.
    auto oneRow = scf::IfOp::create(b, loc, indexType, oneRowAligned,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(oneRow.thenBlock());
    emitPrologue(peel);
    Value available = arith::SubIOp::create(b, loc, points, peel);
    if (maxShiftedLanes) {
      // The points after the vector loop that a shifted input's last vector
      // reads (none where there are too few points).
      Value room = constant(maxShiftedLanes);
      Value enough = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                           available, room);
      available = arith::SelectOp::create(
          b, loc, enough, arith::SubIOp::create(b, loc, available, room),
          constant(0));
    }
    Value chunks = arith::DivUIOp::create(b, loc, available, chunkSize);
    buildChunkLoop(chunks, vectorLayout, [&](Value chunk) {
      emitVectorChunk(chunk, peel, /*oneRow=*/true);
    });
    scf::YieldOp::create(b, loc, add(peel, mul(chunks, chunkSize)));

    b.setInsertionPointToStart(oneRow.elseBlock());
    // The shifted variant is for one row only (getVectorShifts): the rows
    // version would read a shifted input before each row.
    if (rank == 1 || shifted) {
      scf::YieldOp::create(b, loc, constant(0));
    } else {
      auto rows = scf::IfOp::create(b, loc, indexType, rowsAligned,
                                    /*withElseRegion=*/true);
      scf::YieldOp::create(b, loc, rows.getResult(0));
      b.setInsertionPointToStart(rows.thenBlock());
      Value rowChunks = arith::DivUIOp::create(b, loc, points, chunkSize);
      buildChunkLoop(rowChunks, vectorLayout, [&](Value chunk) {
        emitVectorChunk(chunk, constant(0), /*oneRow=*/false);
      });
      scf::YieldOp::create(b, loc, mul(rowChunks, chunkSize));
      b.setInsertionPointToStart(rows.elseBlock());
      scf::YieldOp::create(b, loc, constant(0));
    }
    done = oneRow.getResult(0);
  }

  // The tail: the original loop from the end of the whole chunks. It keeps
  // no layout: it is no nest's loop any more, and a second run of the pass
  // leaves it alone.
  loop.getLowerBoundMutable().assign(add(loop.getLowerBound(), done));
  loop->removeAttr(kLayoutAttrName);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The shifts of `func`'s shifted variant (kShiftedTensorsAttrName, by ABI
/// tensor position: the memref arguments in order) on `plan`'s vectorized
/// inputs. None where the plan has no vectorized output to align: the
/// runtime picks the variant only where it has one.
static void applyShifts(Plan &plan, gpu::GPUFuncOp func) {
  SmallVector<std::pair<int64_t, int64_t>> shifts = getShiftedTensors(func);
  if (shifts.empty() || llvm::none_of(plan.tensors, [](const VectorTensor &t) {
        return t.isOutput;
      }))
    return;
  SmallVector<Value> tensorArgs;
  // The kernel's own arguments, not the workgroup buffers after them.
  for (BlockArgument arg :
       func.getArguments().take_front(func.getFunctionType().getNumInputs()))
    if (isa<MemRefType>(arg.getType()))
      tensorArgs.push_back(arg);
  for (auto [position, shift] : shifts) {
    if (position < 0 || position >= int64_t(tensorArgs.size()))
      continue;
    for (VectorTensor &tensor : plan.tensors)
      if (tensor.memref == tensorArgs[position] && !tensor.isOutput &&
          shift > 0 && shift < int64_t(tensor.lanes))
        tensor.shift = shift;
  }
}

namespace {

struct EwVectorizeGPULoopsPass
    : mlir::ew::impl::EwVectorizeGPULoopsBase<EwVectorizeGPULoopsPass> {
  using EwVectorizeGPULoopsBase::EwVectorizeGPULoopsBase;

  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(getOperation(), getArgument(),
                                      "the gpu.module of convert-ew-to-gpu",
                                      "--convert-ew-to-gpu")))
      return signalPassFailure();
    SmallVector<gpu::GPUFuncOp> funcs;
    getOperation().walk([&](gpu::GPUFuncOp func) { funcs.push_back(func); });
    for (gpu::GPUFuncOp func : funcs)
      if (failed(vectorizeFunc(func)))
        return signalPassFailure();
  }

  LogicalResult vectorizeFunc(gpu::GPUFuncOp func) {
    Block *entry = &func.getBody().front();
    // The loops still to realize: those with the scalar layout that
    // convert-ew-to-gpu proposes (a realized layout has more points).
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      auto layout = loop->getAttrOfType<BlockedLayoutAttr>(kLayoutAttrName);
      if (layout && layout.isScalar())
        loops.push_back(loop);
      if (loop->getAttrOfType<TiledLayoutAttr>(kLayoutAttrName))
        loop.emitRemark("loop left as it is: its layout is #ew.tiled (its "
                        "tensors are staged through shared memory)");
    });
    if (loops.empty())
      return success();

    // The kernel's launch takes the points per thread of the nest with the
    // most dimensions (the first of them), which is the largest nest in all
    // but contrived kernels: the grid covers the largest nest's points.
    std::optional<unsigned> launchElements;
    unsigned launchRank = 0;
    for (scf::ForOp loop : loops) {
      auto layout = loop->getAttrOfType<BlockedLayoutAttr>(kLayoutAttrName);
      unsigned rank = getNestRank(loop), elements = 1;
      std::string why;
      FailureOr<PointLoop> point = analyzePointLoop(loop, entry, why);
      if (failed(point)) {
        loop.emitRemark("loop left scalar: ") << why;
      } else {
        Plan plan = choosePlan(*point, vectorsPerThread);
        applyShifts(plan, func);
        elements = plan.getElementsPerThread();
        LoopVectorizer(*point, plan, layout)
            .run(func->hasAttr(kUnalignedAttrName));
      }
      if (!launchElements || rank > launchRank) {
        launchElements = elements;
        launchRank = rank;
      }
    }

    // The tiled schedule's grid is its tiles, whatever the other nests do.
    auto launch = func->getAttrOfType<LaunchAttr>(kLaunchAttrName);
    if (launch && launch.getSchedule() == kElementwiseSchedule)
      func->setAttr(kLaunchAttrName,
                    LaunchAttr::get(func.getContext(), launch.getSchedule(),
                                    launch.getBlockSize(), *launchElements,
                                    launch.getSharedMemory()));
    // The copies of the point code that nothing uses (the coordinates of
    // points that read no coordinate, extracts of lanes no point reads), the
    // additions of 0, and the same index arithmetic made for each version.
    if (failed(
            applyPatternsGreedily(func, RewritePatternSet(func.getContext()))))
      return failure();
    IRRewriter rewriter(func.getContext());
    DominanceInfo dominance(func);
    eliminateCommonSubExpressions(rewriter, dominance, func);
    return success();
  }
};

} // namespace
