//===- EwToLoops.cpp - ew kernels to CPU loops ----------------------------===//
//
// Each ew.kernel becomes a func.func with the kernel ABI (KernelABI.h: its
// tensors as strided memrefs) whose body is one loop nest per set of result
// dimensions,
//
//   for (i0 = 0; i0 < extent0; ++i0) ... for (ik ...)
//     out[i0, ..., ik] = element(in[its coordinates], ...);
//
// outermost first in the first result's declared order. The element code
// comes from EwToArith; LLVM vectorizes the innermost loop, along which a
// tensor of the default variant is contiguous.
//
// In the variant with streaming stores (ew.streaming_stores, for launches
// that write more than the caches keep) the innermost loop of a nest whose
// results are all contiguous along it becomes three: the points before the
// first result's first 64-byte line, blocks of kStreamBlockPoints points,
// and the rest. A block computes its points into a buffer on the stack in a
// loop that LLVM vectorizes as before, then copies the buffer to the results
// with aligned 64-byte non-temporal stores: a plain store reads the line for
// ownership before writing it (3 bytes of traffic per 2 counted for a copy),
// a non-temporal one writes the line whole. LLVM's loop vectorizer cannot
// be asked for them: it refuses non-temporal stores that are not aligned to
// the vector (isLegalNTStore), and the scalar store it widens is aligned to
// its element only. The copies are llvm.load and llvm.store of a vector at
// the addresses the alignment check computes anyway: vector.load/store would
// need convert-vector-to-llvm, whose pass library links four more dialects
// (ArmNeon, ArmSVE, AMX, X86Vector) into ewc.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToLoops/EwToLoops.h"

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Conversion/EwToArith/EwToArith.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_CONVERTEWTOLOOPS
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

namespace {

/// A kernel on its way to a loop nest: its ABI function, made before the
/// conversion turns the kernel into its element function, and what the
/// nests need to know of it.
struct PendingKernel {
  func::FuncOp func;
  std::string elementName;
  KernelAccess access;
  KernelVariant variant;
  /// Whether the kernel has reductions or scans (CombineLoops.cpp).
  bool combines = false;
};
} // namespace

/// The bytes of one streaming store, and the alignment it needs: a cache
/// line, so that every store writes a whole line and one address check per
/// row aligns them all. AVX-512 stores it as one vector, AVX2 and SSE2 as
/// two or four aligned ones.
constexpr int64_t kStreamBytes = 64;
/// Points per block of the streaming loop: 4 KiB of buffer per f32 result
/// (8 KiB for f64), well inside a 32 KiB L1 data cache, and a multiple of a
/// line for every element size down to a byte (bool).
constexpr int64_t kStreamBlockPoints = 1024;

/// The bytes of one element of `type` in memory (KernelABI.h's storage).
static int64_t getStorageBytes(Type type) {
  return getStorageType(type).getIntOrFloatBitWidth() / 8;
}

/// Whether `nest`'s innermost loop can stream: the variant asks for it, and
/// every result of the nest is contiguous along the nest's innermost
/// dimension (a result in another order of the same dimensions is not).
static bool canStream(const PendingKernel &kernel, const LoopNest &nest) {
  if (!kernel.variant.streamingStores || nest.dims.empty() || kernel.combines)
    return false;
  const KernelAccess &access = kernel.access;
  for (unsigned r : nest.results) {
    unsigned arg = access.numParams + r;
    unsigned tensor =
        llvm::count(ArrayRef<bool>(access.argIsTensor).take_front(arg), true);
    if (kernel.variant.isStrided(tensor) ||
        access.argDims[arg].back() != nest.dims.back())
      return false;
  }
  return true;
}

namespace {
/// Builds the innermost loop of a nest at the builder's point, the outer
/// coordinates given.
class RowBuilder {
public:
  RowBuilder(OpBuilder &builder, Location loc, const PendingKernel &kernel,
             func::FuncOp element, const LoopNest &nest,
             const llvm::StringMap<Value> &extents, ValueRange outer, Value one)
      : builder(builder), loc(loc), kernel(kernel), element(element),
        nest(nest), extents(extents), outer(outer), one(one) {}

  /// The plain loop over the points [lo, hi) of the row.
  void buildPlain(Value lo, Value hi) {
    OpBuilder::InsertionGuard guard(builder);
    auto loop = scf::ForOp::create(builder, loc, lo, hi, one);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    emitPoint(loop.getInductionVar());
  }

  /// The whole row with streaming stores (the file's comment), each block
  /// computed into `buffers` (one per result of the nest).
  void buildStreaming(ArrayRef<Value> buffers);

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  void emitPoint(Value inner,
                 llvm::function_ref<void(unsigned, Value)> storeResult = {}) {
    SmallVector<Value> coords(outer);
    coords.push_back(inner);
    emitElement(builder, loc, kernel.access, element, kernel.func, nest, coords,
                extents, /*elements=*/{}, storeResult);
  }
  /// The memref of result `r`.
  Value getResult(unsigned r) {
    func::FuncOp func = kernel.func;
    return func.getArgument(kernel.access.numParams + r);
  }
  /// The indices of result `r`'s point whose innermost coordinate is `inner`.
  SmallVector<Value> getIndices(unsigned r, Value inner) {
    llvm::StringMap<Value> coordOf;
    for (auto [dim, coord] : llvm::zip(nest.dims, outer))
      coordOf[dim] = coord;
    coordOf[nest.dims.back()] = inner;
    SmallVector<Value> indices;
    for (const std::string &dim :
         kernel.access.argDims[kernel.access.numParams + r])
      indices.push_back(coordOf.lookup(dim));
    return indices;
  }
  /// `address` (an index) as an !llvm.ptr.
  Value toPointer(Value address) {
    Value bits = arith::IndexCastUIOp::create(builder, loc,
                                              builder.getI64Type(), address);
    return LLVM::IntToPtrOp::create(
        builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), bits);
  }
  /// The address of result `r`'s first point of the row, as an index.
  Value getRowAddress(unsigned r) {
    Value memref = getResult(r);
    auto metadata =
        memref::ExtractStridedMetadataOp::create(builder, loc, memref);
    SmallVector<Value> indices = getIndices(r, index(0));
    Value linear = metadata.getOffset();
    for (auto [coord, stride] : llvm::zip(indices, metadata.getStrides()))
      linear = arith::AddIOp::create(
          builder, loc, linear,
          arith::MulIOp::create(builder, loc, coord, stride));
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
    Value bytes = index(getStorageBytes(
        kernel.access.argElementTypes[kernel.access.numParams + r]));
    return arith::AddIOp::create(
        builder, loc, base, arith::MulIOp::create(builder, loc, linear, bytes));
  }

  OpBuilder &builder;
  Location loc;
  const PendingKernel &kernel;
  func::FuncOp element;
  const LoopNest &nest;
  const llvm::StringMap<Value> &extents;
  SmallVector<Value> outer;
  Value one;
};
} // namespace

void RowBuilder::buildStreaming(ArrayRef<Value> buffers) {
  const KernelAccess &access = kernel.access;
  Value n = extents.lookup(nest.dims.back());
  Value line = index(kStreamBytes);
  auto bytesOf = [&](unsigned r) {
    return getStorageBytes(access.argElementTypes[access.numParams + r]);
  };
  auto isAligned = [&](Value address) {
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, address, line), index(0));
  };
  // The points before the first result's first line start: `lo`, if every
  // result starts a line there (they may have other alignments or element
  // sizes), else the whole row, which then runs the plain loop alone.
  unsigned first = nest.results.front();
  SmallVector<Value> rowAddresses;
  for (unsigned r : nest.results)
    rowAddresses.push_back(getRowAddress(r));
  Value gap = arith::RemUIOp::create(
      builder, loc,
      arith::SubIOp::create(
          builder, loc, line,
          arith::RemUIOp::create(builder, loc, rowAddresses.front(), line)),
      line);
  Value firstBytes = index(bytesOf(first));
  Value lo = arith::MinUIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, gap, firstBytes), n);
  Value aligned = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(builder, loc, gap, firstBytes), index(0));
  for (auto [r, address] : llvm::zip(nest.results, rowAddresses)) {
    Value at = arith::AddIOp::create(
        builder, loc, address,
        arith::MulIOp::create(builder, loc, lo, index(bytesOf(r))));
    aligned = arith::AndIOp::create(builder, loc, aligned, isAligned(at));
  }
  lo = arith::SelectOp::create(builder, loc, aligned, lo, n);
  Value block = index(kStreamBlockPoints);
  Value hi = arith::AddIOp::create(
      builder, loc, lo,
      arith::MulIOp::create(
          builder, loc,
          arith::DivUIOp::create(
              builder, loc, arith::SubIOp::create(builder, loc, n, lo), block),
          block));

  buildPlain(index(0), lo);
  {
    OpBuilder::InsertionGuard guard(builder);
    auto blocks = scf::ForOp::create(builder, loc, lo, hi, block);
    builder.setInsertionPoint(blocks.getBody()->getTerminator());
    Value start = blocks.getInductionVar();
    {
      OpBuilder::InsertionGuard guard(builder);
      auto points = scf::ForOp::create(builder, loc, index(0), block, one);
      builder.setInsertionPoint(points.getBody()->getTerminator());
      Value j = points.getInductionVar();
      emitPoint(arith::AddIOp::create(builder, loc, start, j),
                [&](unsigned r, Value value) {
                  unsigned slot =
                      llvm::find(nest.results, r) - nest.results.begin();
                  storeElement(builder, loc, value, buffers[slot], j);
                });
    }
    for (auto [slot, r] : llvm::enumerate(nest.results)) {
      OpBuilder::InsertionGuard guard(builder);
      int64_t bytes = bytesOf(r);
      Value source = memref::ExtractAlignedPointerAsIndexOp::create(
          builder, loc, buffers[slot]);
      Value target = arith::AddIOp::create(
          builder, loc, rowAddresses[slot],
          arith::MulIOp::create(builder, loc, start, index(bytes)));
      auto copies = scf::ForOp::create(builder, loc, index(0),
                                       index(kStreamBlockPoints * bytes),
                                       index(kStreamBytes));
      builder.setInsertionPoint(copies.getBody()->getTerminator());
      Value offset = copies.getInductionVar();
      // The bytes as integers of the element's width: a copy needs no more,
      // and LLVM has no type for an 8-bit float.
      auto vectorType = VectorType::get({kStreamBytes / bytes},
                                        builder.getIntegerType(bytes * 8));
      Value vector = LLVM::LoadOp::create(
          builder, loc, vectorType,
          toPointer(arith::AddIOp::create(builder, loc, source, offset)),
          kStreamBytes);
      LLVM::StoreOp::create(
          builder, loc, vector,
          toPointer(arith::AddIOp::create(builder, loc, target, offset)),
          kStreamBytes, /*isVolatile=*/false, /*isNonTemporal=*/true);
    }
  }
  buildPlain(hi, n);
}

/// The loop nest of a kernel with reductions or scans: its dimensions in
/// getCombineLoopOrder's order, each reduction emitted at the outermost loop
/// where its dimensions are bound (once per row for softmax), the rest at
/// the innermost point.
static void buildCombiningNest(OpBuilder &builder, Location loc,
                               const PendingKernel &kernel,
                               func::FuncOp element, const LoopNest &nest,
                               const llvm::StringMap<Value> &extents) {
  LoopNest ordered = nest;
  ordered.dims = getCombineLoopOrder(kernel.access, element, nest);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  OpBuilder::InsertionGuard guard(builder);
  llvm::StringMap<Value> coordOf;
  KnownValues known;
  CarriedScans carried = CarriedScans::get(kernel.access, element, ordered);
  for (auto [d, dim] : llvm::enumerate(ordered.dims)) {
    emitHoistedCombines(builder, loc, kernel.access, element, kernel.func,
                        ordered, coordOf, extents, known);
    // The innermost loop carries the running values of its scans.
    SmallVector<Value> inits;
    if (d + 1 == ordered.dims.size())
      for (TypedAttr init : carried.inits)
        inits.push_back(arith::ConstantOp::create(builder, loc, init));
    auto loop =
        scf::ForOp::create(builder, loc, zero, extents.lookup(dim), one, inits);
    coordOf[dim] = loop.getInductionVar();
    if (!inits.empty()) {
      carried.running.assign(loop.getRegionIterArgs().begin(),
                             loop.getRegionIterArgs().end());
      builder.setInsertionPointToStart(loop.getBody());
    } else {
      builder.setInsertionPoint(loop.getBody()->getTerminator());
    }
  }
  emitCombiningElement(builder, loc, kernel.access, element, kernel.func,
                       ordered, coordOf, extents, known, {},
                       carried.scans.empty() ? nullptr : &carried);
  if (!carried.scans.empty())
    scf::YieldOp::create(builder, loc, carried.next);
}

/// One loop nest over `nest`'s dimensions, outermost first, every loop from
/// 0 to the extent with step 1; the element code at the innermost point.
/// Returns whether the innermost loop streams its stores.
static bool buildLoopNest(OpBuilder &builder, Location loc,
                          const PendingKernel &kernel, func::FuncOp element,
                          const LoopNest &nest,
                          const llvm::StringMap<Value> &extents) {
  if (kernel.combines) {
    buildCombiningNest(builder, loc, kernel, element, nest, extents);
    return false;
  }
  bool streaming = canStream(kernel, nest);
  // The buffers of a block's results, at the top of the function: LLVM
  // allocates them once, in the frame.
  SmallVector<Value> buffers;
  if (streaming)
    for (unsigned r : nest.results) {
      Type storage = getStorageType(
          kernel.access.argElementTypes[kernel.access.numParams + r]);
      buffers.push_back(memref::AllocaOp::create(
          builder, loc, MemRefType::get({kStreamBlockPoints}, storage),
          builder.getI64IntegerAttr(kStreamBytes)));
    }
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> coords;
  OpBuilder::InsertionGuard guard(builder);
  for (const std::string &dim : ArrayRef(nest.dims).drop_back()) {
    auto loop =
        scf::ForOp::create(builder, loc, zero, extents.lookup(dim), one);
    coords.push_back(loop.getInductionVar());
    builder.setInsertionPoint(loop.getBody()->getTerminator());
  }
  if (nest.dims.empty()) {
    emitElement(builder, loc, kernel.access, element, kernel.func, nest, {},
                extents);
    return false;
  }
  RowBuilder row(builder, loc, kernel, element, nest, extents, coords, one);
  if (streaming)
    row.buildStreaming(buffers);
  else
    row.buildPlain(zero, extents.lookup(nest.dims.back()));
  return streaming;
}

namespace {

struct ConvertEwToLoopsPass
    : mlir::ew::impl::ConvertEwToLoopsBase<ConvertEwToLoopsPass> {
  using ConvertEwToLoopsBase::ConvertEwToLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<PendingKernel> kernels;
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      OpBuilder builder(kernel);
      auto func = func::FuncOp::create(
          builder, kernel.getLoc(), ewc::getKernelSymbol(kernel.getSymName()),
          getKernelABIType(kernel, /*memorySpace=*/nullptr));
      Block *entry = func.addEntryBlock();
      for (BlockArgument arg : kernel.getBody().getArguments())
        entry->getArgument(arg.getArgNumber()).setLoc(arg.getLoc());
      kernels.push_back({func, getElementFunctionName(kernel),
                         KernelAccess::get(kernel), getKernelVariant(kernel),
                         hasCombines(kernel)});
    }

    ElementTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateEwToLoopsPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<EwDialect>();
    addElementFormLegality(target);
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           LLVM::LLVMDialect, math::MathDialect,
                           memref::MemRefDialect, scf::SCFDialect,
                           ub::UBDialect>();
    // bf16 <-> f32 conversions become integer code: on an x86 CPU without
    // AVX512-BF16, LLVM calls __truncsfbf2 for them, which Debian 12's
    // libgcc does not have (docs/pipeline.md). The element patterns convert
    // every other bf16 conversion through f32.
    auto involvesBF16 = [](Operation *op) {
      return op->getOperand(0).getType().isBF16() ||
             op->getResult(0).getType().isBF16();
    };
    target.addDynamicallyLegalOp<arith::ExtFOp, arith::TruncFOp>(
        [&](Operation *op) { return !involvesBF16(op); });
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      signalPassFailure();
      return;
    }

    for (PendingKernel &kernel : kernels) {
      auto element = module.lookupSymbol<func::FuncOp>(kernel.elementName);
      Location loc = kernel.func.getLoc();
      OpBuilder builder =
          OpBuilder::atBlockBegin(&kernel.func.getBody().front());
      llvm::StringMap<Value> extents =
          getExtents(builder, loc, kernel.access, kernel.func);
      bool streamed = false;
      for (const LoopNest &nest : kernel.access.nests)
        streamed |= buildLoopNest(builder, loc, kernel, element, nest, extents);
      // Non-temporal stores are weakly ordered: a later plain store (a
      // mutex's release is one on x86) may become visible before them.
      // SFENCE is what the x86 manuals name for ordering them; LLVM's
      // `fence seq_cst` became a locked OR on the stack for -mcpu=znver4,
      // which Linux's barriers do not trust for non-temporal stores (they
      // use MFENCE there). One per part, against the 2^15 points or more of
      // a part (docs/runtime.md, "Streaming stores"); x86 only, as the
      // runtime's choice of the variant.
      if (streamed)
        LLVM::CallIntrinsicOp::create(
            builder, loc, builder.getStringAttr("llvm.x86.sse.sfence"),
            ValueRange());
      func::ReturnOp::create(builder, loc);
      element.erase();
      // The loads and placeholders that no result of a nest needs.
      if (failed(applyPatternsGreedily(kernel.func,
                                       RewritePatternSet(&getContext()))))
        return signalPassFailure();
    }
  }
};

} // namespace

void mlir::ew::populateEwToLoopsPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  populateEwToArithPatterns(converter, patterns);
}
