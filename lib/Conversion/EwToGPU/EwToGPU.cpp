//===- EwToGPU.cpp - ew kernels to GPU kernels ----------------------------===//
//
// Each ew.kernel becomes a gpu.func kernel with the kernel ABI (KernelABI.h)
// whose body is one grid-stride loop per loop nest, over the nest's points in
// row-major order (the flat index):
//
//   for (f = blockIdx.x * blockDim.x + threadIdx.x; f < points;
//        f += gridDim.x * blockDim.x) {
//     (i0, ..., ik) = delinearize(f, extents);
//     out[i0, ..., ik] = element(in[its coordinates], ...);
//   }
//
// so the runtime may pick any grid, and empty or ragged extents need no
// special case. The element code comes from EwToArith. Each loop carries the
// thread-to-element layout it is to have (#ew.blocked; ew-vectorize-gpu-loops
// realizes it) and the kernel its launch descriptor (#ew.launch).
//
// A nest with reductions along a tensor's contiguous dimension (getRowSplit)
// is a loop of teams over its rows instead, the rows schedule
// (ewc/ABI/RowAccess.h, RowLoops.cpp): each team, of one lane to a block by
// the row's length, computes its row's reductions together, lane-strided and
// combined with shuffles (and across its warps through shared memory), then
// shares the row's points. A kernel whose one nest reduces across rows (a
// column sum) gets the columns schedule (ewc/ABI/ColumnAccess.h,
// ColumnLoops.cpp): tiles of 32 of its points, each tile's reductions split
// across blocks that meet in a workspace. Other nests with reductions keep
// the grid-stride loop, each thread combining its point's elements in order.
//
// In the GPU's tiled variant (ew.tiled_tensors, ewc/ABI/TiledAccess.h) the
// nest that reads those tensors is a grid-stride loop over square tiles of
// its two innermost dimensions instead (#ew.tiled): the tensors are staged
// through shared memory along their own contiguous dimension, a barrier, and
// the points are computed along the results' (buildTiledLoop).
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToGPU/EwToGPU.h"

#include "RowLoops.h"

#include "ewc/ABI/ColumnAccess.h"
#include "ewc/ABI/KernelSignature.h"
#include "ewc/ABI/RowAccess.h"
#include "ewc/ABI/TiledAccess.h"
#include "ewc/Conversion/EwToArith/EwToArith.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_CONVERTEWTOGPU
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

/// NVPTX's global address space: loads and stores through it become
/// ld.global/st.global instead of generic accesses.
static constexpr unsigned kGlobalAddressSpace = 1;

namespace {

/// A kernel on its way to a gpu.func, as in EwToLoops.
struct PendingKernel {
  gpu::GPUFuncOp func;
  std::string elementName;
  KernelAccess access;
  KernelVariant variant;
};

/// The grid-stride loop of one nest, with the element code at its point.
scf::ForOp buildLoop(OpBuilder &builder, Location loc,
                     const PendingKernel &kernel, func::FuncOp element,
                     const LoopNest &nest,
                     const llvm::StringMap<Value> &extents) {
  SmallVector<Value> basis;
  Value points = arith::ConstantIndexOp::create(builder, loc, 1);
  for (const std::string &dim : nest.dims) {
    basis.push_back(extents.lookup(dim));
    points = arith::MulIOp::create(builder, loc, points, basis.back());
  }
  // index is 64-bit (convert-gpu-to-nvvm's index-bitwidth): the points may
  // exceed 2^31.
  Value blockId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value blockDim = gpu::BlockDimOp::create(builder, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
  Value start = arith::AddIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, blockId, blockDim),
      threadId);
  Value step = arith::MulIOp::create(builder, loc, gridDim, blockDim);
  auto loop = scf::ForOp::create(builder, loc, start, points, step);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  SmallVector<Value> coords;
  if (basis.size() == 1)
    coords.push_back(loop.getInductionVar());
  else
    coords = affine::AffineDelinearizeIndexOp::create(
                 builder, loc, loop.getInductionVar(), basis,
                 /*hasOuterBound=*/true)
                 .getResults();
  emitElement(builder, loc, kernel.access, element, kernel.func, nest, coords,
              extents);
  return loop;
}

/// Static shared memory a kernel may use without opting in to more (the
/// limit ptxas enforces for `.shared` arrays on every NVIDIA GPU; a 128 x
/// 128 f32 tile failed with "uses too much shared data" on the H200).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// The parameters whose elements the results of `nest` read: the element
/// function's arguments that they depend on.
llvm::SmallBitVector getParamsRead(func::FuncOp element, const LoopNest &nest,
                                   unsigned numParams) {
  auto ret = cast<func::ReturnOp>(element.getBody().front().getTerminator());
  SmallVector<Value> roots;
  for (unsigned r : nest.results)
    roots.push_back(ret.getOperand(r));
  return getParamsReadBy(element, roots, numParams);
}

/// The tensor parameters of `nest` that the variant stages (ABI argument
/// positions): those of `tiledTensors` that the nest's results read, of the
/// nest's dimensions only, with both its innermost dimensions (a nest of two
/// or more), as many as the static shared memory holds (the others are read
/// as the scalar loop reads them: correct, not fast). A tensor that no
/// result of the nest reads would be staged for nothing, and one with a
/// dimension the nest lacks has no index at its points (ewc-fuzz, seed 23:
/// five crashes on the H200 before this check).
SmallVector<unsigned> getStagedArgs(const KernelAccess &access,
                                    func::FuncOp element, const LoopNest &nest,
                                    ArrayRef<int64_t> tiledTensors,
                                    unsigned tileSize) {
  SmallVector<unsigned> staged;
  if (nest.dims.size() < 2 || tiledTensors.empty())
    return staged;
  ArrayRef<std::string> inner = ArrayRef(nest.dims).take_back(2);
  llvm::SmallBitVector read = getParamsRead(element, nest, access.numParams);
  int64_t bytes = 0;
  unsigned tensor = 0;
  for (unsigned arg = 0; arg < access.numParams; ++arg) {
    if (!access.argIsTensor[arg])
      continue;
    ArrayRef<std::string> dims = access.argDims[arg];
    if (!llvm::is_contained(tiledTensors, tensor++) || !read.test(arg) ||
        !llvm::is_contained(dims, inner[0]) ||
        !llvm::is_contained(dims, inner[1]) ||
        !llvm::all_of(dims, [&](const std::string &dim) {
          return llvm::is_contained(nest.dims, dim);
        }))
      continue;
    Type storage = getStorageType(access.argElementTypes[arg]);
    int64_t buffer = int64_t(tileSize) * (tileSize + 1) *
                     (storage.getIntOrFloatBitWidth() / 8);
    if (bytes + buffer > kMaxStaticSharedBytes)
      continue;
    bytes += buffer;
    staged.push_back(arg);
  }
  return staged;
}

/// The tiled loop of one nest (#ew.tiled, TiledAccess.h), for a block of
/// layout.getThreads() threads:
///
///   for (tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
///     (o..., tr, tc) = delinearize(tile, outer extents..., row tiles,
///                                  column tiles);
///     for k < tile / rowsPerPass:          // staging, per staged tensor t
///       buffer_t[ty + k rowsPerPass][tx] = t[o..., r0 + tx, c0 + ty + ...];
///     barrier;
///     for k < tile / rowsPerPass:          // the points
///       (r, c) = (r0 + ty + k rowsPerPass, c0 + tx);
///       out[o..., r, c] = element(buffer_t[tx][ty + ...], other[...]);
///     barrier;                             // before the next staging
///   }
///
/// with tx = threadIdx.x mod tile, ty = threadIdx.x / tile. A full tile runs
/// unguarded (its loads all in flight); a tile at an edge tests each point.
/// The loop over tiles is uniform in a block, so every thread reaches the
/// barriers.
scf::ForOp buildTiledLoop(OpBuilder &builder, Location loc,
                          const PendingKernel &kernel, func::FuncOp element,
                          const LoopNest &nest,
                          const llvm::StringMap<Value> &extents,
                          ArrayRef<unsigned> staged, TiledLayoutAttr layout) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  gpu::GPUFuncOp func = kernel.func;
  unsigned rank = nest.dims.size();
  unsigned tileSize = layout.getTile();
  unsigned rowsPerPass = layout.getRowsPerPass();
  Value tile = constant(tileSize);
  Value rowExtent = extents.lookup(nest.dims[rank - 2]);
  Value columnExtent = extents.lookup(nest.dims[rank - 1]);
  SmallVector<Value> basis;
  Value tiles = constant(1);
  for (unsigned d = 0; d + 2 < rank; ++d)
    basis.push_back(extents.lookup(nest.dims[d]));
  basis.push_back(arith::CeilDivUIOp::create(builder, loc, rowExtent, tile));
  basis.push_back(arith::CeilDivUIOp::create(builder, loc, columnExtent, tile));
  for (Value extent : basis)
    tiles = arith::MulIOp::create(builder, loc, tiles, extent);

  // One buffer per staged tensor, a row of one more element than the tile:
  // the second phase reads a column, whose elements then fall in distinct
  // banks.
  auto workgroup = gpu::AddressSpaceAttr::get(builder.getContext(),
                                              gpu::AddressSpace::Workgroup);
  SmallVector<Value> buffers;
  for (unsigned arg : staged) {
    Type storage =
        cast<MemRefType>(func.getArgument(arg).getType()).getElementType();
    buffers.push_back(func.addWorkgroupAttribution(
        MemRefType::get({tileSize, tileSize + 1}, storage, AffineMap(),
                        workgroup),
        loc));
  }

  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value tx = arith::RemUIOp::create(builder, loc, threadId, tile);
  Value ty = arith::DivUIOp::create(builder, loc, threadId, tile);
  Value blockId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value gridDim = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
  auto loop = scf::ForOp::create(builder, loc, blockId, tiles, gridDim);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  SmallVector<Value> coords =
      affine::AffineDelinearizeIndexOp::create(
          builder, loc, loop.getInductionVar(), basis, /*hasOuterBound=*/true)
          .getResults();
  Value rowStart = arith::MulIOp::create(builder, loc, coords[rank - 2], tile);
  Value columnStart =
      arith::MulIOp::create(builder, loc, coords[rank - 1], tile);
  auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b).getResult();
  };
  auto isBelow = [&](Value value, Value bound) {
    return compare(arith::CmpIPredicate::ult, value, bound);
  };
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddIOp::create(builder, loc, a, b);
  };
  Value full = arith::AndIOp::create(
      builder, loc,
      compare(arith::CmpIPredicate::ule, add(rowStart, tile), rowExtent),
      compare(arith::CmpIPredicate::ule, add(columnStart, tile), columnExtent));

  // One phase over the tile: at each of the thread's points (given the tile
  // row and column, relative, and the nest's coordinates) `load` reads what
  // the point needs, then `use` consumes it. A full tile issues every
  // point's loads before the first use: the stores of `use` may alias the
  // tensors (the compiler cannot move a load above them), and in point order
  // each point's loads would wait for the previous point's store, one memory
  // latency per point. At an edge, each point inside the extents in turn.
  using Values = SmallVector<Value>;
  auto phase =
      [&](bool transposed,
          function_ref<Values(Value row, Value column, ArrayRef<Value> point)>
              load,
          function_ref<void(Value row, Value column, ArrayRef<Value> point,
                            ArrayRef<Value>)>
              use) {
        struct Point {
          Value row, column;
          SmallVector<Value> coords;
        };
        SmallVector<Point> points;
        for (unsigned k = 0; k < tileSize / rowsPerPass; ++k) {
          Value pass = add(ty, constant(k * rowsPerPass));
          // The staging walks the tensor's contiguous dimension (the nest's
          // rows) across the threads; the points walk the results' (columns).
          Point &point = points.emplace_back();
          point.row = transposed ? tx : pass;
          point.column = transposed ? pass : tx;
          point.coords.assign(coords.begin(), coords.end() - 2);
          point.coords.push_back(add(rowStart, point.row));
          point.coords.push_back(add(columnStart, point.column));
        }
        auto ifOp = scf::IfOp::create(builder, loc, full, /*withElse=*/true);
        OpBuilder::InsertionGuard inner(builder);
        builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        SmallVector<Values> loaded;
        for (const Point &point : points)
          loaded.push_back(load(point.row, point.column, point.coords));
        for (auto [point, values] : llvm::zip(points, loaded))
          use(point.row, point.column, point.coords, values);
        builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
        for (const Point &point : points) {
          Value inside = arith::AndIOp::create(
              builder, loc, isBelow(point.coords[rank - 2], rowExtent),
              isBelow(point.coords[rank - 1], columnExtent));
          auto guard = scf::IfOp::create(builder, loc, inside);
          OpBuilder::InsertionGuard inGuard(builder);
          builder.setInsertionPoint(guard.thenBlock()->getTerminator());
          use(point.row, point.column, point.coords,
              load(point.row, point.column, point.coords));
        }
      };

  auto indicesOf = [&](unsigned arg, ArrayRef<Value> point) {
    SmallVector<Value> indices;
    for (const std::string &dim : kernel.access.argDims[arg])
      indices.push_back(point[llvm::find(nest.dims, dim) - nest.dims.begin()]);
    return indices;
  };
  phase(
      /*transposed=*/true,
      [&](Value, Value, ArrayRef<Value> point) {
        Values values;
        for (unsigned arg : staged)
          values.push_back(memref::LoadOp::create(
              builder, loc, func.getArgument(arg), indicesOf(arg, point)));
        return values;
      },
      [&](Value row, Value column, ArrayRef<Value>, ArrayRef<Value> values) {
        for (auto [value, buffer] : llvm::zip(values, buffers))
          memref::StoreOp::create(builder, loc, value, buffer,
                                  ValueRange{column, row});
      });
  gpu::BarrierOp::create(builder, loc);
  // The second phase reads every tensor the nest's results need itself (the
  // staged ones from their buffers), so that emitElement only computes and
  // stores.
  llvm::SmallBitVector read =
      getParamsRead(element, nest, kernel.access.numParams);
  phase(
      /*transposed=*/false,
      [&](Value row, Value column, ArrayRef<Value> point) {
        Values elements(kernel.access.numParams);
        for (auto [arg, buffer] : llvm::zip(staged, buffers))
          elements[arg] =
              loadElement(builder, loc, buffer, ValueRange{column, row},
                          kernel.access.argElementTypes[arg]);
        for (unsigned arg = 0; arg < kernel.access.numParams; ++arg)
          if (kernel.access.argIsTensor[arg] && read.test(arg) &&
              !elements[arg])
            elements[arg] = loadElement(builder, loc, func.getArgument(arg),
                                        indicesOf(arg, point),
                                        kernel.access.argElementTypes[arg]);
        return elements;
      },
      [&](Value, Value, ArrayRef<Value> point, ArrayRef<Value> elements) {
        emitElement(builder, loc, kernel.access, element, kernel.func, nest,
                    point, extents, elements);
      });
  gpu::BarrierOp::create(builder, loc);
  return loop;
}

/// Whole warps, a slot per warp, at most the hardware's block: the blocks
/// the rows schedule can be built for.
static bool isRowsBlockSize(unsigned threads) {
  return llvm::isPowerOf2_32(threads) && threads >= ewc::kRowWarpThreads &&
         threads <= 1024;
}

struct ConvertEwToGPUPass
    : mlir::ew::impl::ConvertEwToGPUBase<ConvertEwToGPUPass> {
  using ConvertEwToGPUBase::ConvertEwToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.getOps<KernelOp>().empty())
      return;
    // A warp-wide tile row at least, and a pass of the block at least one
    // tile row (the descriptor's tile is its square root: TiledAccess.h).
    if (tileSize &&
        (!llvm::isPowerOf2_32(tileSize) || tileSize < 16 || tileSize > 128)) {
      module.emitError("tile-size must be a power of two from 16 to 128, not ")
          << static_cast<unsigned>(tileSize);
      return signalPassFailure();
    }
    if (rowsBlockSize && !isRowsBlockSize(rowsBlockSize)) {
      module.emitError(
          "rows-block-size must be a power of two from 32 to 1024, not ")
          << static_cast<unsigned>(rowsBlockSize);
      return signalPassFailure();
    }

    // All kernels of a file go into one gpu.module: one PTX module to load.
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(builder, module.getLoc(), gpuModuleName);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    Attribute global = builder.getI64IntegerAttr(kGlobalAddressSpace);
    std::vector<PendingKernel> kernels;
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      builder.setInsertionPointToEnd(gpuModule.getBody());
      auto func = gpu::GPUFuncOp::create(
          builder, kernel.getLoc(), ewc::getKernelSymbol(kernel.getSymName()),
          getKernelABIType(kernel, global));
      func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                    builder.getUnitAttr());
      KernelVariant variant = getKernelVariant(kernel);
      if (variant.unaligned)
        func->setAttr(kUnalignedAttrName, builder.getUnitAttr());
      if (Attribute shifted = kernel->getAttr(kShiftedTensorsAttrName))
        func->setAttr(kShiftedTensorsAttrName, shifted);
      Block &entry = func.getBody().front();
      for (BlockArgument arg : kernel.getBody().getArguments())
        entry.getArgument(arg.getArgNumber()).setLoc(arg.getLoc());
      kernels.push_back({func, getElementFunctionName(kernel),
                         KernelAccess::get(kernel), std::move(variant)});
    }

    ElementTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateEwToGPUPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<EwDialect>();
    addElementFormLegality(target);
    target.addLegalDialect<
        affine::AffineDialect, arith::ArithDialect, func::FuncDialect,
        gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
        memref::MemRefDialect, scf::SCFDialect, ub::UBDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      signalPassFailure();
      return;
    }

    for (PendingKernel &kernel : kernels) {
      auto element = module.lookupSymbol<func::FuncOp>(kernel.elementName);
      Location loc = kernel.func.getLoc();
      OpBuilder body = OpBuilder::atBlockBegin(&kernel.func.getBody().front());
      llvm::StringMap<Value> extents =
          getExtents(body, loc, kernel.access, kernel.func);
      // One point per thread and step: the scalar loop, which
      // ew-vectorize-gpu-loops widens into the layout that pays
      // (VectorizeGPULoops.h).
      auto layout = BlockedLayoutAttr::get(&getContext(), kBlockSize, 1, 1);
      auto tiled = TiledLayoutAttr::get(&getContext(), ewc::kTileBlockSize,
                                        tileSize ? tileSize : ewc::kTileSize);
      ArrayRef<int64_t> tiledTensors = kernel.variant.tiledTensors;
      bool anyTiled = false, anyRows = false;
      bool combines = hasCombines(element);
      // The rows schedule's block: the variant's (the runtime's choice by
      // the longest row, RowAccess.h), else the pass's, else the default.
      unsigned rowsBlock = kernel.variant.rowsBlockSize
                               ? kernel.variant.rowsBlockSize
                           : rowsBlockSize ? unsigned(rowsBlockSize)
                                           : ewc::kRowsBlockSize;
      if (kernel.variant.rowsBlockSize &&
          !isRowsBlockSize(kernel.variant.rowsBlockSize)) {
        kernel.func.emitError()
            << kRowsBlockSizeAttrName
            << " must be a power of two from 32 to 1024, not "
            << kernel.variant.rowsBlockSize;
        return signalPassFailure();
      }
      RowKernel rowKernel{kernel.access, element,
                          kernel.func,   extents,
                          rowsBlock,     getNarrowestBytes(kernel.access)};
      // Runs of a row's consecutive elements by vectors but in the
      // unaligned variant (RowAccess.h, kRowVectorBytes).
      rowKernel.rowVectors = !kernel.variant.unaligned;
      // The row kept in registers: the variant's, else the pass's.
      rowKernel.resident = kernel.variant.rowsResident
                               ? kernel.variant.rowsResident
                               : unsigned(rowsResident);
      rowKernel.team = kernel.variant.rowsTeam ? kernel.variant.rowsTeam
                                               : unsigned(rowsTeam);
      if (rowKernel.team && (!llvm::isPowerOf2_32(rowKernel.team) ||
                             rowKernel.team > rowsBlock)) {
        kernel.func.emitError()
            << "rows-team must be a power of two up to the block (" << rowsBlock
            << "), not " << rowKernel.team;
        return signalPassFailure();
      }
      if (rowKernel.resident > ewc::kRowsMaxResident) {
        kernel.func.emitError()
            << "rows-resident must be at most " << ewc::kRowsMaxResident
            << ", not " << rowKernel.resident;
        return signalPassFailure();
      }
      // Each rows nest's row, by the dimensions its team reads along: the
      // runtime's input for the block (#ew.launch's row_dims).
      SmallVector<Attribute> rowDims;
      auto addRow = [&](ArrayRef<std::string> dims) {
        SmallVector<Attribute> names;
        for (const std::string &dim : dims)
          names.push_back(StringAttr::get(&getContext(), dim));
        rowDims.push_back(ArrayAttr::get(&getContext(), names));
      };
      // One nest reducing across rows: the columns schedule, its workspace
      // a pointer after the ABI's arguments (the runtime's for more than
      // one split). With more nests the runtime would not know this one's
      // points (the grid's tiles).
      // The scans of a nest whose rows may be split (#ew.launch's
      // `workspace` for the rows schedule: ScanAccess.h).
      unsigned scanSlots = 0;
      SmallVector<Attribute> laneNames;
      // The words of a lane's state where rows split across blocks meet.
      unsigned laneWords = 0;
      // The workspace through which blocks meet, a pointer after the ABI's
      // arguments, or null where inserting it failed.
      auto addWorkspace = [&]() -> Value {
        unsigned index = kernel.func.getNumArguments();
        auto pointer =
            LLVM::LLVMPointerType::get(&getContext(), kGlobalAddressSpace);
        if (failed(kernel.func.insertArgument(index, pointer, DictionaryAttr(),
                                              loc)))
          return nullptr;
        return kernel.func.getArgument(index);
      };
      std::optional<ColumnSplit> columns;
      if (combines && kernel.access.nests.size() == 1)
        columns =
            getColumnSplit(kernel.access, element, kernel.access.nests.front());
      if (columns) {
        Value workspace = addWorkspace();
        if (!workspace)
          return signalPassFailure();
        buildColumnsLoop(body, loc, rowKernel, kernel.access.nests.front(),
                         *columns, workspace);
        addRow(columns->reducedDims);
      }
      for (const LoopNest &nest :
           columns ? ArrayRef<LoopNest>() : ArrayRef(kernel.access.nests)) {
        std::optional<RowSplit> split =
            combines ? getRowSplit(kernel.access, element, nest) : std::nullopt;
        if (split) {
          // The points on the lanes of the kernel's first such nest name
          // the pass's variant (getLanePass); another such nest has all
          // three passes.
          RowKernel nestKernel = rowKernel;
          if (!split->laneDims.empty() && laneNames.empty()) {
            for (const std::string &dim : split->laneDims)
              laneNames.push_back(StringAttr::get(&getContext(), dim));
            nestKernel.lanePass = kernel.variant.lanePass;
            // Its rows may be split across blocks that meet in a workspace
            // (RowAccess.h), a pointer after the ABI's arguments, where the
            // runtime knows its rows: the kernel's one nest.
            if (split->blocksMeet && kernel.access.nests.size() == 1) {
              nestKernel.workspace = addWorkspace();
              if (!nestKernel.workspace)
                return signalPassFailure();
            }
          }
          FailureOr<unsigned> words =
              buildRowsLoop(body, loc, nestKernel, nest, *split);
          if (failed(words))
            return signalPassFailure();
          laneWords += *words;
          addRow(split->reducedDims);
          anyRows = true;
          continue;
        }
        if (combines) {
          LoopNest ordered = nest;
          ordered.dims = getCombineLoopOrder(kernel.access, element, nest);
          if (std::optional<CarriedScans> scans =
                  getRowScans(kernel.access, element, ordered)) {
            // One nest of scans only: its rows may be split into tiles
            // that meet in a workspace (ScanAccess.h), a pointer after the
            // ABI's arguments, in a variant of its own (the runtime's, for
            // few long rows); the default variant, a warp per row, ignores
            // it. With more nests the runtime would not know this one's
            // rows (the grid's tiles).
            if (kernel.access.nests.size() == 1 &&
                isSplitScanNest(element, *scans)) {
              Value workspace = addWorkspace();
              if (!workspace)
                return signalPassFailure();
              if (kernel.variant.splitScans)
                buildSplitScanLoop(body, loc, rowKernel, ordered, *scans,
                                   workspace);
              else
                buildScanRowsLoop(body, loc, rowKernel, ordered, *scans);
              scanSlots = scans->scans.size();
            } else {
              buildScanRowsLoop(body, loc, rowKernel, ordered, *scans);
            }
            addRow(ArrayRef(ordered.dims).take_back());
            anyRows = true;
            continue;
          }
        }
        // A nest with reductions stages nothing: its points read beyond
        // their own coordinates (CombineLoops.cpp).
        SmallVector<unsigned> staged =
            combines ? SmallVector<unsigned>()
                     : getStagedArgs(kernel.access, element, nest, tiledTensors,
                                     tiled.getTile());
        if (staged.empty()) {
          scf::ForOp loop =
              buildLoop(body, loc, kernel, element, nest, extents);
          // The vector loop takes a point's elements at the point alone; a
          // combining point stays the scalar loop.
          if (!combines)
            loop->setAttr(kLayoutAttrName, layout);
          continue;
        }
        scf::ForOp loop = buildTiledLoop(body, loc, kernel, element, nest,
                                         extents, staged, tiled);
        loop->setAttr(kLayoutAttrName, tiled);
        anyTiled = true;
      }
      gpu::ReturnOp::create(body, loc);
      // A tiled nest takes its block to be exactly the layout's threads
      // (each tile row a warp's): the runtime launches the descriptor's
      // block size, and NVVM makes this a .maxntid, so that a larger block
      // fails the launch.
      if (anyTiled) {
        kernel.func.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(
            &getContext(), {int32_t(tiled.getThreads()), 1, 1}));
      }
      // A rows nest takes its block to be whole warps; a launch of another
      // size fails (.maxntid, as above).
      if (anyRows) {
        kernel.func.setKnownBlockSizeAttr(
            DenseI32ArrayAttr::get(&getContext(), {int32_t(rowsBlock), 1, 1}));
      }
      if (columns)
        kernel.func.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(
            &getContext(), {int32_t(ewc::kColumnsBlockSize), 1, 1}));
      kernel.func->setAttr(
          kLaunchAttrName,
          columns ? LaunchAttr::get(
                        &getContext(),
                        StringAttr::get(&getContext(), kColumnsSchedule),
                        ewc::kColumnsBlockSize, 1, 0,
                        ArrayAttr::get(&getContext(), rowDims),
                        columns->reductions.size(), ArrayAttr())
          : anyRows
              ? LaunchAttr::get(&getContext(),
                                StringAttr::get(&getContext(), kRowsSchedule),
                                rowsBlock, 1, 0,
                                ArrayAttr::get(&getContext(), rowDims),
                                scanSlots + laneWords,
                                laneNames.empty()
                                    ? ArrayAttr()
                                    : ArrayAttr::get(&getContext(), laneNames))
          : anyTiled
              ? LaunchAttr::get(
                    &getContext(),
                    StringAttr::get(&getContext(), kTiledSchedule),
                    tiled.getThreads(),
                    tiled.getTile() * tiled.getTile() / tiled.getThreads(), 0)
              : LaunchAttr::get(
                    &getContext(),
                    StringAttr::get(&getContext(), kElementwiseSchedule),
                    kBlockSize, layout.getElementsPerThread(), 0));
      element.erase();
      // The loads and placeholders that no result of a nest needs.
      if (failed(applyPatternsGreedily(kernel.func,
                                       RewritePatternSet(&getContext()))))
        return signalPassFailure();
    }
  }
};

} // namespace

void mlir::ew::populateEwToGPUPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  populateEwToArithPatterns(converter, patterns);
}
