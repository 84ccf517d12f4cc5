//===- KernelABI.cpp - The plain kernel ABI -------------------------------===//
//
// Signature, element access and body placement shared by the GPU and CPU
// lowerings. Elements are addressed with llvm.getelementptr on plain
// pointers: a memref argument would lower to a five-field descriptor, and
// MLIR's bare-pointer convention accepts static shapes only.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/EwToArith/KernelABI.h"

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::ew;
using ewc::ABIArgument;

FunctionType mlir::ew::getKernelABIType(KernelOp kernel,
                                        unsigned addressSpace) {
  MLIRContext *context = kernel.getContext();
  Type pointer = LLVM::LLVMPointerType::get(context, addressSpace);
  ArrayRef<Type> inputs = kernel.getArgumentTypes();
  SmallVector<Type> params;
  // The order is the ABI's (ewc/ABI/KernelSignature.h), which the runtime
  // marshals by.
  for (ABIArgument argument :
       ewc::getABIArguments(inputs.size(), kernel.getNumResults())) {
    switch (argument.kind) {
    case ABIArgument::Kind::Param:
      params.push_back(isTensor(inputs[argument.index]) ? pointer
                                                        : inputs[argument.index]);
      break;
    case ABIArgument::Kind::Result:
      params.push_back(pointer);
      break;
    case ABIArgument::Kind::NumElements:
      params.push_back(IntegerType::get(context, 64));
      break;
    }
  }
  return FunctionType::get(context, params, {});
}

Type mlir::ew::getStorageType(Type elementType) {
  // LLVM stores i1 in a byte anyway; making it explicit fixes the layout the
  // runtime fills (one byte, 0 or 1) instead of leaving it to the target.
  if (elementType.isInteger(1))
    return IntegerType::get(elementType.getContext(), 8);
  return elementType;
}

/// The address of element `index` of the array at `base`.
static Value getElementAddress(OpBuilder &builder, Location loc, Value base,
                               Value index, Type storageType) {
  // inbounds: every index the loop visits is below n, inside the array.
  return LLVM::GEPOp::create(builder, loc, base.getType(), storageType, base,
                             ValueRange{index}, LLVM::GEPNoWrapFlags::inbounds);
}

Value mlir::ew::loadElement(OpBuilder &builder, Location loc, Value base,
                            Value index, Type elementType) {
  Type storage = getStorageType(elementType);
  Value address = getElementAddress(builder, loc, base, index, storage);
  Value value = LLVM::LoadOp::create(builder, loc, storage, address);
  if (storage != elementType)
    value = arith::TruncIOp::create(builder, loc, elementType, value);
  return value;
}

void mlir::ew::storeElement(OpBuilder &builder, Location loc, Value value,
                            Value base, Value index) {
  Type storage = getStorageType(value.getType());
  if (storage != value.getType())
    value = arith::ExtUIOp::create(builder, loc, storage, value);
  Value address = getElementAddress(builder, loc, base, index, storage);
  LLVM::StoreOp::create(builder, loc, value, address);
}

void mlir::ew::inlineKernelBody(ConversionPatternRewriter &rewriter,
                                KernelOp kernel, FunctionOpInterface func,
                                Block *loopBody, Value index,
                                const TypeConverter &converter) {
  Block *body = &kernel.getBody().front();
  rewriter.setInsertionPointToStart(loopBody);
  TypeConverter::SignatureConversion signature(body->getNumArguments());
  for (BlockArgument arg : body->getArguments()) {
    Value param = func.getArgument(arg.getArgNumber());
    Value element = isTensor(arg.getType())
                        ? loadElement(rewriter, arg.getLoc(), param, index,
                                      getElementType(arg.getType()))
                        : param;
    signature.remapInput(arg.getArgNumber(), element);
  }
  Block *converted =
      rewriter.applySignatureConversion(body, signature, &converter);
  // The loop body ends in scf.yield; the kernel's ops (ending in ew.return,
  // which becomes the stores) go before it.
  rewriter.inlineBlockBefore(converted, loopBody->getTerminator());
}
