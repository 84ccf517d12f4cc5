//===- KernelABI.cpp - The kernel ABI and the access layer ----------------===//
//
// Signature, element access and loop-nest placement shared by the GPU and
// CPU lowerings. A tensor is a strided memref of its own dimensions, so a
// tensor lacking some of a loop nest's dimensions is read at the point's
// coordinates of the dimensions it has: broadcasting by name costs nothing
// at this level.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToArith/KernelABI.h"

#include "ewc/ABI/RowAccess.h"

#include "ewc/Conversion/EwToArith/EwToArith.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ew;

SmallVector<std::pair<int64_t, int64_t>>
mlir::ew::getShiftedTensors(Operation *op) {
  SmallVector<std::pair<int64_t, int64_t>> shifted;
  if (auto pairs =
          op->getAttrOfType<DenseI64ArrayAttr>(kShiftedTensorsAttrName))
    for (int64_t i = 0; i + 1 < pairs.size(); i += 2)
      shifted.push_back({pairs[i], pairs[i + 1]});
  return shifted;
}

KernelVariant mlir::ew::getKernelVariant(KernelOp kernel) {
  KernelVariant variant;
  if (auto rank = kernel->getAttrOfType<IntegerAttr>(kBatchRankAttrName))
    variant.batchRank = rank.getInt();
  if (auto strided =
          kernel->getAttrOfType<DenseI64ArrayAttr>(kStridedTensorsAttrName))
    variant.stridedTensors.assign(strided.asArrayRef().begin(),
                                  strided.asArrayRef().end());
  variant.unaligned = kernel->hasAttr(kUnalignedAttrName);
  variant.streamingStores = kernel->hasAttr(kStreamingStoresAttrName);
  if (auto tiled =
          kernel->getAttrOfType<DenseI64ArrayAttr>(kTiledTensorsAttrName))
    variant.tiledTensors.assign(tiled.asArrayRef().begin(),
                                tiled.asArrayRef().end());
  SmallVector<std::pair<int64_t, int64_t>> shifted = getShiftedTensors(kernel);
  variant.shiftedTensors.assign(shifted.begin(), shifted.end());
  if (auto block = kernel->getAttrOfType<IntegerAttr>(kRowsBlockSizeAttrName))
    variant.rowsBlockSize = block.getInt();
  variant.splitScans = kernel->hasAttr(kSplitScansAttrName);
  if (auto resident = kernel->getAttrOfType<IntegerAttr>(kRowsResidentAttrName))
    variant.rowsResident = resident.getInt();
  if (auto team = kernel->getAttrOfType<IntegerAttr>(kRowsTeamAttrName))
    variant.rowsTeam = team.getInt();
  if (auto pass = kernel->getAttrOfType<IntegerAttr>(kLanePassAttrName))
    variant.lanePass = pass.getInt();
  variant.wideBatch = kernel->hasAttr(kWideBatchAttrName);
  return variant;
}

void mlir::ew::setKernelVariant(KernelOp kernel, const KernelVariant &variant) {
  Builder builder(kernel.getContext());
  auto setUnit = [&](StringRef name, bool on) {
    if (on)
      kernel->setAttr(name, builder.getUnitAttr());
  };
  auto setInt = [&](StringRef name, unsigned value) {
    if (value)
      kernel->setAttr(name, builder.getI64IntegerAttr(value));
  };
  auto setArray = [&](StringRef name, ArrayRef<int64_t> values) {
    if (!values.empty())
      kernel->setAttr(name, builder.getDenseI64ArrayAttr(values));
  };
  kernel->setAttr(kBatchRankAttrName,
                  builder.getI64IntegerAttr(variant.batchRank));
  setArray(kStridedTensorsAttrName, variant.stridedTensors);
  setUnit(kUnalignedAttrName, variant.unaligned);
  setArray(kTiledTensorsAttrName, variant.tiledTensors);
  SmallVector<int64_t> pairs;
  for (auto [tensor, shift] : variant.shiftedTensors)
    pairs.append({tensor, shift});
  setArray(kShiftedTensorsAttrName, pairs);
  setUnit(kStreamingStoresAttrName, variant.streamingStores);
  setInt(kRowsBlockSizeAttrName, variant.rowsBlockSize);
  setUnit(kSplitScansAttrName, variant.splitScans);
  setInt(kRowsResidentAttrName, variant.rowsResident);
  setInt(kRowsTeamAttrName, variant.rowsTeam);
  setInt(kLanePassAttrName, variant.lanePass);
  setUnit(kWideBatchAttrName, variant.wideBatch);
}

std::string mlir::ew::getBatchDimName(unsigned index) {
  return (NamedTensorType::kBatchDim + llvm::Twine(index)).str();
}

bool mlir::ew::readsBatchPosition(KernelOp kernel) {
  return kernel
      .walk([](IndexOp index) {
        return index.getDim() == NamedTensorType::kBatchDim
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

SmallVector<std::string> mlir::ew::getMemRefDims(NamedTensorType type,
                                                 unsigned batchRank) {
  SmallVector<std::string> dims;
  for (StringAttr dim : type.getDims()) {
    if (dim.getValue() != NamedTensorType::kBatchDim) {
      dims.push_back(dim.str());
      continue;
    }
    for (unsigned i = 0; i < batchRank; ++i)
      dims.push_back(getBatchDimName(i));
  }
  return dims;
}

Type mlir::ew::getSignlessType(Type elementType) {
  auto integer = dyn_cast<IntegerType>(elementType);
  if (!integer || integer.isSignless())
    return elementType;
  return IntegerType::get(elementType.getContext(), integer.getWidth());
}

Type mlir::ew::getStorageType(Type elementType) {
  // LLVM stores i1 in a byte anyway; making it explicit fixes the layout the
  // runtime fills (one byte, 0 or 1) instead of leaving it to the target.
  if (elementType.isInteger(1))
    return IntegerType::get(elementType.getContext(), 8);
  return getSignlessType(elementType);
}

MemRefType mlir::ew::getTensorMemRefType(NamedTensorType type,
                                         unsigned batchRank, bool stridedInner,
                                         Attribute memorySpace) {
  unsigned rank = getMemRefDims(type, batchRank).size();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  // A rank-0 batch alone (f32[...] of a scalar tensor) has no dimension.
  if (rank && !stridedInner)
    strides.back() = 1;
  auto layout =
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides);
  return MemRefType::get(shape, getStorageType(type.getElementType()), layout,
                         memorySpace);
}

FunctionType mlir::ew::getKernelABIType(KernelOp kernel,
                                        Attribute memorySpace) {
  KernelVariant variant = getKernelVariant(kernel);
  SmallVector<Type> args;
  unsigned tensor = 0;
  auto add = [&](Type type) {
    auto named = dyn_cast<NamedTensorType>(type);
    if (!named) {
      args.push_back(getSignlessType(type));
      return;
    }
    args.push_back(getTensorMemRefType(named, variant.batchRank,
                                       variant.isStrided(tensor), memorySpace));
    ++tensor;
  };
  // The order is the ABI's (ewc/ABI/KernelSignature.h), which the runtime
  // marshals by: parameters, then results.
  for (Type type : kernel.getArgumentTypes())
    add(type);
  for (Type type : kernel.getResultTypes())
    add(type);
  return FunctionType::get(kernel.getContext(), args, {});
}

Value mlir::ew::loadElement(OpBuilder &builder, Location loc, Value memref,
                            ValueRange indices, Type elementType) {
  elementType = getSignlessType(elementType);
  Value value = memref::LoadOp::create(builder, loc, memref, indices);
  if (value.getType() != elementType)
    value = arith::TruncIOp::create(builder, loc, elementType, value);
  return value;
}

void mlir::ew::storeElement(OpBuilder &builder, Location loc, Value value,
                            Value memref, ValueRange indices) {
  Type storage = getStorageType(value.getType());
  if (storage != value.getType())
    value = arith::ExtUIOp::create(builder, loc, storage, value);
  memref::StoreOp::create(builder, loc, value, memref, indices);
}

bool mlir::ew::hasUnitInnerStride(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || type.getRank() == 0)
    return false;
  auto [strides, offset] = type.getStridesAndOffset();
  return strides.back() == 1;
}

SmallVector<Value> mlir::ew::loadElements(OpBuilder &builder, Location loc,
                                          Value memref, ValueRange indices,
                                          unsigned lanes, Type elementType,
                                          unsigned alignment) {
  elementType = getSignlessType(elementType);
  auto memrefType = cast<MemRefType>(memref.getType());
  auto type = VectorType::get({lanes}, memrefType.getElementType());
  Value vector =
      vector::LoadOp::create(builder, loc, type, memref, indices,
                             /*nontemporal=*/false, llvm::Align(alignment));
  SmallVector<Value> elements;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    Value value = vector::ExtractOp::create(builder, loc, vector,
                                            ArrayRef<int64_t>{lane});
    if (value.getType() != elementType)
      value = arith::TruncIOp::create(builder, loc, elementType, value);
    elements.push_back(value);
  }
  return elements;
}

void mlir::ew::storeElements(OpBuilder &builder, Location loc,
                             ValueRange values, Value memref,
                             ValueRange indices, unsigned alignment) {
  SmallVector<Value> stored;
  for (Value value : values) {
    Type storage = getStorageType(value.getType());
    stored.push_back(
        storage == value.getType()
            ? value
            : arith::ExtUIOp::create(builder, loc, storage, value).getResult());
  }
  auto type =
      VectorType::get({int64_t(stored.size())}, stored.front().getType());
  Value vector = vector::FromElementsOp::create(builder, loc, type, stored);
  vector::StoreOp::create(builder, loc, vector, memref, indices,
                          /*nontemporal=*/false, llvm::Align(alignment));
}

/// Whether the builder's point follows `def` (in its block or a region
/// nested there), so that `def`'s results may be used there.
static bool isAfter(Operation *def, OpBuilder &builder) {
  Block *block = builder.getInsertionBlock();
  Block::iterator point = builder.getInsertionPoint();
  while (block) {
    if (block == def->getBlock())
      return point == block->end() || def->isBeforeInBlock(&*point);
    Operation *parent = block->getParentOp();
    if (!parent || !parent->getBlock())
      return false;
    point = Block::iterator(parent);
    block = parent->getBlock();
  }
  return false;
}

ElementRun::ElementRun(OpBuilder &builder, Location loc, StringRef dim,
                       Value first, unsigned lanes)
    : dim(dim), flats{first} {
  for (unsigned v = 1; v < lanes; ++v)
    flats.push_back(arith::AddIOp::create(
        builder, loc, first, arith::ConstantIndexOp::create(builder, loc, v)));
}

Value ElementRun::getElement(OpBuilder &builder, Location loc, unsigned arg,
                             Value memref, ArrayRef<std::string> argDims,
                             ValueRange indices, Type elementType) {
  if (argDims.empty() || argDims.back() != dim || indices.empty() ||
      !hasUnitInnerStride(memref))
    return nullptr;
  const auto *at = llvm::find(flats, indices.back());
  if (at == flats.end())
    return nullptr;
  auto [it, inserted] = loads.try_emplace(arg);
  Loaded &loaded = it->second;
  if (inserted) {
    loaded.indices.assign(indices.begin(), indices.end());
    loaded.indices.back() = flats.front();
    unsigned bytes = cast<MemRefType>(memref.getType())
                         .getElementType()
                         .getIntOrFloatBitWidth() /
                     8;
    unsigned alignment = std::min<unsigned>(ewc::kRowVectorBytes,
                                            std::max(1u, bytes) * flats.size());
    loaded.elements = loadElements(builder, loc, memref, loaded.indices,
                                   flats.size(), elementType, alignment);
  }
  if (!llvm::equal(indices.drop_back(), ArrayRef(loaded.indices).drop_back()) ||
      !isAfter(loaded.elements.front().getDefiningOp(), builder))
    return nullptr;
  return loaded.elements[at - flats.begin()];
}

//===----------------------------------------------------------------------===//
// Loop nests
//===----------------------------------------------------------------------===//

KernelAccess KernelAccess::get(KernelOp kernel) {
  KernelAccess access;
  KernelVariant variant = getKernelVariant(kernel);
  access.wideBatch = variant.wideBatch;
  unsigned batchRank = variant.batchRank;
  auto add = [&](Type type) {
    auto named = dyn_cast<NamedTensorType>(type);
    access.argIsTensor.push_back(bool(named));
    access.argElementTypes.push_back(getElementType(type));
    access.argDims.push_back(named ? getMemRefDims(named, batchRank)
                                   : SmallVector<std::string>());
  };
  for (Type type : kernel.getArgumentTypes())
    add(type);
  access.numParams = kernel.getNumArguments();
  for (Type type : kernel.getResultTypes())
    add(type);
  for (StringAttr dim : kernel.getDims())
    if (dim.getValue() != NamedTensorType::kBatchDim ||
        readsBatchPosition(kernel))
      access.namedDims.push_back(dim.str());

  // Results with the same set of dimensions share a nest, whatever their
  // orders; it loops in the order of the first of them.
  auto sorted = [](ArrayRef<std::string> dims) {
    SmallVector<std::string> result(dims);
    llvm::sort(result);
    return result;
  };
  for (unsigned r = 0; r < kernel.getNumResults(); ++r) {
    ArrayRef<std::string> dims = access.argDims[access.numParams + r];
    LoopNest *nest = llvm::find_if(access.nests, [&](const LoopNest &other) {
      return sorted(other.dims) == sorted(dims);
    });
    if (nest == access.nests.end()) {
      access.nests.push_back({{}, SmallVector<std::string>(dims)});
      nest = &access.nests.back();
    }
    nest->results.push_back(r);
  }
  return access;
}

llvm::StringMap<Value> mlir::ew::getExtents(OpBuilder &builder, Location loc,
                                            const KernelAccess &access,
                                            FunctionOpInterface func) {
  llvm::StringMap<Value> extents;
  for (auto [arg, dims] : llvm::enumerate(access.argDims))
    for (auto [position, dim] : llvm::enumerate(dims))
      if (!extents.count(dim))
        extents[dim] = memref::DimOp::create(builder, loc,
                                             func.getArgument(arg), position);
  return extents;
}

void mlir::ew::emitElement(
    OpBuilder &builder, Location loc, const KernelAccess &access,
    func::FuncOp element, FunctionOpInterface func, const LoopNest &nest,
    ValueRange coords, const llvm::StringMap<Value> &extents,
    ArrayRef<Value> elements,
    llvm::function_ref<void(unsigned result, Value value)> storeResult) {
  llvm::StringMap<Value> coordOf;
  for (auto [dim, coord] : llvm::zip(nest.dims, coords))
    coordOf[dim] = coord;
  // A reduction or a scan is not a function of the point's elements alone.
  // (Sema rejects index_flat() beside them: no batch position here.)
  if (hasCombines(element)) {
    assert(elements.empty() && "no staged elements for reductions");
    emitCombiningElement(builder, loc, access, element, func, nest, coordOf,
                         extents, KnownValues(), storeResult);
    return;
  }
  // The position in the batch, row-major over its dimensions as the launch
  // left them (it drops those of extent 1 and merges only neighbours in
  // order, which keep every point's position; it merges none with a named
  // dimension where the position is read: KernelSignature::pinnedDims).
  llvm::StringMap<Value> withBatch;
  if (llvm::is_contained(access.namedDims, NamedTensorType::kBatchDim)) {
    withBatch = extents;
    Value position, count;
    bool complete = true;
    for (unsigned i = 0; extents.count(getBatchDimName(i)); ++i) {
      Value extent = extents.lookup(getBatchDimName(i));
      Value coord = coordOf.lookup(getBatchDimName(i));
      count =
          count ? arith::MulIOp::create(builder, loc, count, extent) : extent;
      complete &= bool(coord);
      if (!complete)
        continue;
      position =
          position ? arith::AddIOp::create(
                         builder, loc,
                         arith::MulIOp::create(builder, loc, position, extent),
                         coord)
                   : coord;
    }
    if (!complete)
      position = Value();
    // Below 2^32 positions (every variant but the wide one), the position
    // is a 32-bit value to what it feeds (kWideBatchAttrName says why).
    if (position && !access.wideBatch)
      position = arith::AndIOp::create(
          builder, loc, position,
          arith::ConstantIndexOp::create(builder, loc, 0xffffffffll));
    if (position)
      coordOf[NamedTensorType::kBatchDim] = position;
    withBatch[NamedTensorType::kBatchDim] =
        count ? count : arith::ConstantIndexOp::create(builder, loc, 1);
  }
  const llvm::StringMap<Value> &dimExtents =
      withBatch.empty() ? extents : withBatch;
  // The indices of `arg` at this point, or nothing when the nest lacks one of
  // its dimensions: then no result of the nest needs it (a result's value
  // has only dimensions the result has), and it stands in as poison, which
  // the dead code it feeds takes away.
  auto indicesOf = [&](unsigned arg) -> std::optional<SmallVector<Value>> {
    SmallVector<Value> indices;
    for (const std::string &dim : access.argDims[arg]) {
      Value coord = coordOf.lookup(dim);
      if (!coord)
        return std::nullopt;
      indices.push_back(coord);
    }
    return indices;
  };

  Block &body = element.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  // Only what this nest's results need: another nest's results may read
  // tensors this nest does not load, and their code must not be here at all
  // (fed placeholders, a call of libdevice's logf inlined into a branch on
  // them let LLVM drop the whole nest: ewc-fuzz, seed 16, program 552).
  llvm::SmallPtrSet<Operation *, 32> needed;
  SmallVector<Operation *> worklist;
  for (unsigned r : nest.results)
    if (Operation *def = ret.getOperand(r).getDefiningOp())
      worklist.push_back(def);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!needed.insert(op).second)
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
  }
  // What stands for a value this nest has no coordinates for (a tensor or a
  // coordinate that only other nests read): a zero, never ub.poison, so that
  // no undefined value can reach code even if the slice above missed it.
  // Signless, as a loaded element is (loadElement): arith has no ui8.
  auto placeholder = [&](Type type) -> Value {
    type = getSignlessType(type);
    return arith::ConstantOp::create(builder, loc, type,
                                     builder.getZeroAttr(type));
  };
  IRMapping mapping;
  for (unsigned p = 0; p < access.numParams; ++p) {
    Value arg = func.getArgument(p);
    Type type = access.argElementTypes[p];
    Value value;
    if (!access.argIsTensor[p])
      value = arg;
    else if (!elements.empty() && elements[p])
      value = elements[p];
    else if (std::optional<SmallVector<Value>> indices = indicesOf(p))
      value = loadElement(builder, loc, arg, *indices, type);
    else
      value = placeholder(type);
    mapping.map(body.getArgument(p), value);
  }
  // The coordinates and extents of the named dimensions (EwToArith.h).
  unsigned next = access.numParams;
  for (const std::string &dim : access.namedDims) {
    Value coord = coordOf.lookup(dim);
    mapping.map(body.getArgument(next++),
                coord ? coord : placeholder(builder.getIndexType()));
  }
  for (const std::string &dim : access.namedDims)
    mapping.map(body.getArgument(next++), dimExtents.lookup(dim));

  for (Operation &op : body.without_terminator())
    if (needed.contains(&op))
      builder.clone(op, mapping);
  for (unsigned r : nest.results) {
    Value value = mapping.lookup(ret.getOperand(r));
    if (storeResult) {
      storeResult(r, value);
      continue;
    }
    unsigned arg = access.numParams + r;
    storeElement(builder, loc, value, func.getArgument(arg), *indicesOf(arg));
  }
}
