//===- Workspace.cpp - Words of a kernel's workspace ----------------------===//
//
// Workspace.h: the words through which blocks meet.
//
//===----------------------------------------------------------------------===//

#include "Workspace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::ew;

Value mlir::ew::drawLastTicket(OpBuilder &builder, Location loc,
                               Value workspace, Value ticket, Value count) {
  Type i64 = builder.getI64Type();
  LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acq_rel,
                        kDeviceScope);
  Value address = getWordAddress(builder, loc, workspace, ticket);
  Value one = arith::ConstantIntOp::create(builder, loc, i64, 1);
  Value drawn = LLVM::AtomicRMWOp::create(
      builder, loc, LLVM::AtomicBinOp::add, address, one,
      LLVM::AtomicOrdering::acq_rel, kDeviceScope);
  LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acq_rel,
                        kDeviceScope);
  Value last = arith::SubIOp::create(
      builder, loc, count, arith::ConstantIndexOp::create(builder, loc, 1));
  return arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, drawn,
      arith::IndexCastOp::create(builder, loc, i64, last));
}

Value mlir::ew::getWordAddress(OpBuilder &builder, Location loc,
                               Value workspace, Value index) {
  Value offset =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
  return LLVM::GEPOp::create(builder, loc, workspace.getType(),
                             builder.getI64Type(), workspace,
                             ValueRange{offset});
}

Value mlir::ew::toWord(OpBuilder &builder, Location loc, Value value) {
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Value word = isa<FloatType>(type)
                   ? arith::BitcastOp::create(
                         builder, loc, builder.getIntegerType(bits), value)
                         .getResult()
                   : value;
  return bits == 64
             ? word
             : arith::ExtUIOp::create(builder, loc, builder.getI64Type(), word)
                   .getResult();
}

Value mlir::ew::fromWord(OpBuilder &builder, Location loc, Value word,
                         Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  Value value =
      bits == 64 ? word
                 : arith::TruncIOp::create(builder, loc,
                                           builder.getIntegerType(bits), word)
                       .getResult();
  return isa<FloatType>(type)
             ? arith::BitcastOp::create(builder, loc, type, value).getResult()
             : value;
}
