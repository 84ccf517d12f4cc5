//===- KernelABI.h - The plain kernel ABI -----------------------*- C++ -*-===//
//
// The calling convention of every lowered ew kernel, on the GPU and the CPU
// alike (docs/abi.md):
//
//   k(in_0, ..., in_{p-1}, out_0, ..., out_{r-1}, i64 n)
//
// Tensor parameters and results are pointers to n contiguous elements; scalar
// parameters are passed by value; i1 elements are stored as one byte (0 or
// 1). The runtime builds one `void *args[]` array that serves cuLaunchKernel
// and the CPU JIT.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOARITH_KERNELABI_H
#define EWC_CONVERSION_EWTOARITH_KERNELABI_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {
class KernelOp;

/// The ABI function type of `kernel`, with tensor pointers in
/// `addressSpace` (1, global, on NVPTX; 0 on the CPU).
FunctionType getKernelABIType(KernelOp kernel, unsigned addressSpace);

/// The in-memory type of an element: i8 for i1, else the type itself.
Type getStorageType(Type elementType);

/// Loads element `index` (i64) of the array at `base` as `elementType`.
Value loadElement(OpBuilder &builder, Location loc, Value base, Value index,
                  Type elementType);

/// Stores `value` as element `index` (i64) of the array at `base`.
void storeElement(OpBuilder &builder, Location loc, Value value, Value base,
                  Value index);

/// Moves the body of `kernel` into the element loop `loop` of `func` (a
/// function with the ABI of getKernelABIType): loads every tensor parameter
/// at the loop's index, and stands those loads and the scalar parameters in
/// for the kernel's block arguments. The ew ops then convert element by
/// element through populateEwToArithPatterns.
void inlineKernelBody(ConversionPatternRewriter &rewriter, KernelOp kernel,
                      FunctionOpInterface func, Block *loopBody, Value index,
                      const TypeConverter &converter);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOARITH_KERNELABI_H
