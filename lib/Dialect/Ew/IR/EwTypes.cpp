//===- EwTypes.cpp - ew dialect types and attributes ----------------------===//
//
// !ew.tensor (NamedTensorType), #ew.blocked and #ew.launch: their helpers,
// verifiers and assembly, and the storage classes TableGen generates.
//
// A file of its own for a reason of the sanitized build (docs/fuzzing.md):
// the storage classes allocate through MLIR's BumpPtrAllocator, and an
// instrumented copy of its out-of-line AllocateSlow, which poisons the slab
// for ASan, would take the place of the uninstrumented one that Debian's
// MLIR libraries call (one definition per program), so MLIR's own
// uninstrumented allocations from that slab would read as use-after-poison.
// lib/Dialect/Ew/IR/CMakeLists.txt builds this file without
// -fsanitize=address; UBSan still checks it.
//
//===----------------------------------------------------------------------===//

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ew;

//===----------------------------------------------------------------------===//
// NamedTensorType
//===----------------------------------------------------------------------===//

std::optional<unsigned> NamedTensorType::getDimPosition(StringRef name) const {
  for (auto [position, dim] : llvm::enumerate(getDims()))
    if (dim.getValue() == name)
      return position;
  return std::nullopt;
}

NamedTensorType NamedTensorType::withElementType(Type elementType) const {
  return NamedTensorType::get(getDims(), elementType);
}

LogicalResult
NamedTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<StringAttr> dims, Type elementType) {
  if (dims.empty())
    return emitError() << "an ew tensor has at least one dimension (a scalar "
                          "is its element type)";
  for (auto [position, dim] : llvm::enumerate(dims)) {
    if (dim.getValue().empty())
      return emitError() << "dimension names are not empty";
    if (dim.getValue() == kBatchDim && position != 0)
      return emitError() << "'...' (the batch) can only be the first "
                            "dimension";
    if (llvm::is_contained(dims.take_front(position), dim))
      return emitError() << "dimension '" << dim.getValue()
                         << "' appears twice";
  }
  if (!isElementType(elementType))
    return emitError() << "element type must be i1, i8, i16, i32, i64 "
                          "(signless), ui8, ui16, ui32, ui64, f16, bf16, f32, "
                          "f64, f8E4M3FN or f8E5M2, got "
                       << elementType;
  return success();
}

/// `!ew.tensor<[m, n], f32>`, the batch spelled `...`.
Type NamedTensorType::parse(AsmParser &parser) {
  SmallVector<StringAttr> dims;
  auto parseDim = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalEllipsis())) {
      dims.push_back(parser.getBuilder().getStringAttr(kBatchDim));
      return success();
    }
    std::string name;
    if (parser.parseKeywordOrString(&name))
      return failure();
    dims.push_back(parser.getBuilder().getStringAttr(name));
    return success();
  };
  Type elementType;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim) ||
      parser.parseComma() || parser.parseType(elementType) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    dims, elementType);
}

void NamedTensorType::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getDims(), printer, [&](StringAttr dim) {
    if (dim.getValue() == kBatchDim)
      printer << kBatchDim;
    else
      printer.printKeywordOrString(dim.getValue());
  });
  printer << "], " << getElementType() << ">";
}

//===----------------------------------------------------------------------===//
// LaunchAttr
//===----------------------------------------------------------------------===//

LogicalResult LaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr schedule, unsigned blockSize,
                                 unsigned elementsPerThread,
                                 unsigned sharedMemory, ArrayAttr rowDims,
                                 unsigned workspace, ArrayAttr laneDims) {
  if (blockSize == 0)
    return emitError() << "a launch has a block of at least one thread";
  bool columns = schedule.getValue() == LaunchAttr::kColumnsSchedule;
  // The runtime sizes the workspace by it (ColumnAccess.h, ScanAccess.h).
  bool rows = schedule.getValue() == LaunchAttr::kRowsSchedule;
  if (workspace && !columns && !rows)
    return emitError() << "a workspace belongs to the 'columns' and 'rows' "
                          "schedules, not '"
                       << schedule.getValue() << "'";
  // A split scan's tiles are rows' (ScanAccess.h), a split row's blocks
  // share its reduced dimensions (RowAccess.h): one list in row_dims.
  if (workspace && rows && (!rowDims || rowDims.size() != 1))
    return emitError() << "a 'rows' schedule with a workspace names its "
                          "scanned or split dimensions: one list in row_dims";
  // The runtime reads the reduced extents by these names to choose the
  // splits (ColumnAccess.h).
  if (columns && (!rowDims || rowDims.size() != 1))
    return emitError() << "the 'columns' schedule names its reduced "
                          "dimensions: one list in row_dims";
  // The runtime reads the points' extent by these names to choose the
  // pass's variant (RowAccess.h, getLanePass).
  if (laneDims &&
      (!rows || laneDims.empty() || !llvm::all_of(laneDims, [](Attribute dim) {
        auto name = dyn_cast<StringAttr>(dim);
        return name && !name.getValue().empty();
      })))
    return emitError() << "lane_dims belong to the 'rows' schedule: a "
                          "non-empty list of dimension names";
  if (!rowDims)
    return success();
  // The runtime reads the rows' extents by these names to choose the
  // block (RowAccess.h); another schedule has no rows.
  if (!rows && !columns)
    return emitError() << "row_dims belong to the 'rows' and 'columns' "
                          "schedules, not '"
                       << schedule.getValue() << "'";
  for (Attribute row : rowDims) {
    auto dims = dyn_cast<ArrayAttr>(row);
    if (!dims || dims.empty() || !llvm::all_of(dims, [](Attribute dim) {
          auto name = dyn_cast<StringAttr>(dim);
          return name && !name.getValue().empty();
        }))
      return emitError() << "row_dims is a list of rows, each a non-empty "
                            "list of dimension names";
  }
  return success();
}

#define GET_TYPEDEF_CLASSES
#include "ewc/Dialect/Ew/IR/EwOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ewc/Dialect/Ew/IR/EwAttrDefs.cpp.inc"

void EwDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ewc/Dialect/Ew/IR/EwAttrDefs.cpp.inc"
      >();
}

void EwDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ewc/Dialect/Ew/IR/EwOpsTypes.cpp.inc"
      >();
}
