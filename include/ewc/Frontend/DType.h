//===- DType.h - Element types of the ew language ---------------*- C++ -*-===//
//
// The element types a kernel can compute on. They are shared by the front end,
// the reference evaluator and the driver, so they live here with no MLIR in
// sight; MLIRGen is the one place that maps them onto MLIR types.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_DTYPE_H
#define EWC_FRONTEND_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace llvm {
struct fltSemantics;
} // namespace llvm

namespace ewc {

/// An element type, in the order of the language reference. Its facts are
/// one row each of DTypes.def.
enum class DType {
#define EWC_DTYPE(ENUM, NAME, BYTES, IS_FLOAT, INT_BITS, IS_UNSIGNED,          \
                  CXX_TYPE, NPY_DESCR)                                         \
  ENUM,
#include "ewc/Frontend/DTypes.def"
};

/// Returns the source spelling of `dtype` ("bool", "i32", ..., "f64").
llvm::StringRef getDTypeName(DType dtype);

/// Parses a source spelling; std::nullopt if `name` is not an element type.
std::optional<DType> parseDTypeName(llvm::StringRef name);

/// Returns the size in bytes of one element in memory (bool is one byte).
unsigned getDTypeSize(DType dtype);

/// True for f16, bf16, f32 and f64.
bool isFloat(DType dtype);

/// The type a value of `dtype` is computed in: f32 for f16 and bf16 (as
/// PyTorch's "opmath" does), else `dtype` itself. Values are rounded to
/// their own type only where they are returned or cast.
DType getComputeDType(DType dtype);

/// True for f8e4m3 and f8e5m2.
bool isFloat8(DType dtype);

/// True for i8 ... i64 and u8 ... u64 (bool is not an integer type in the
/// language).
bool isInteger(DType dtype);

/// True for the unsigned integer types u8, u16, u32 and u64.
bool isUnsignedInteger(DType dtype);

/// Returns the width in bits of an integer type (8, 16, 32 or 64).
unsigned getIntegerBitWidth(DType dtype);

/// Every element type, in DType's order.
llvm::ArrayRef<DType> getAllDTypes();

/// The C++ type of an element in the exported header (DTypes.def).
llvm::StringRef getDTypeCxxType(DType dtype);

/// The .npy descriptor of an element type (DTypes.def), e.g. "<f4".
llvm::StringRef getDTypeNpyDescr(DType dtype);

/// Returns the llvm::APFloat semantics of a floating-point type.
const llvm::fltSemantics &getFloatSemantics(DType dtype);

/// The element types of a specialization of generic kernels, by type
/// parameter name (`kernel f<T: float>`): a module's binding applies to
/// every kernel with a parameter of that name (`ewc-run --type T=bf16`).
/// Ordered, so that it formats (and keys the kernel cache) the same way
/// whatever order it was built in.
using TypeBinding = std::map<std::string, DType, std::less<>>;

/// "T=bf16,U=i32" (names in order), "" for no binding: the spelling of
/// ewc-run's --type and of the kernel cache's key.
std::string formatTypeBinding(const TypeBinding &binding);

/// Parses formatTypeBinding's spelling, "T=bf16" or "T=bf16,U=i32"; the
/// error says what is wrong ("" and the binding on success).
TypeBinding parseTypeBinding(llvm::StringRef text, std::string &error);

} // namespace ewc

#endif // EWC_FRONTEND_DTYPE_H
