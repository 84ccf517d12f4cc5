//===- EwDialect.cpp - The ew dialect -------------------------------------===//
//
// Registers the ew types and ops and materializes folded constants as
// ew.constant.
//
//===----------------------------------------------------------------------===//

#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

using namespace mlir;
using namespace mlir::ew;

#include "ewc/Dialect/Ew/IR/EwOpsDialect.cpp.inc"

void EwDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "ewc/Dialect/Ew/IR/EwOps.cpp.inc"
      >();
}

Operation *EwDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  // ew.constant holds scalars only; a folder never produces a tensor value
  // because a tensor result of an ew op always depends on a tensor input.
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type || isTensor(type))
    return nullptr;
  return ConstantOp::create(builder, loc, typed);
}
