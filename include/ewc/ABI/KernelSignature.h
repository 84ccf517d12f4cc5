//===- KernelSignature.h - The kernel ABI, described once -------*- C++ -*-===//
//
// What a compiled ew kernel takes and returns, and where each value goes in
// the argument array that cuLaunchKernel and the CPU JIT read (docs/abi.md):
//
//   k(in_0, ..., in_{p-1}, out_0, ..., out_{r-1}, i64 n)
//
// The lowerings (getKernelABIType), the driver's marshalling, ewc-run and the
// C and Python APIs all ask getABIArguments for that order instead of
// restating it. This library needs LLVM Support and the front end's DType
// only, so the MLIR side and the API side can both link it.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_KERNELSIGNATURE_H
#define EWC_ABI_KERNELSIGNATURE_H

#include "ewc/Frontend/DType.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ewc {
class Kernel;

/// A scalar value of one dtype, as a default or an argument. Integers and
/// bool live in `intValue`, floats in `floatValue` (f16 and bf16 too: they
/// are rounded when stored into the ABI's bytes).
struct ScalarValue {
  DType dtype = DType::F32;
  int64_t intValue = 0;
  double floatValue = 0;

  /// The value as a double (integers round beyond 2^53).
  double asDouble() const;
  /// Writes the value in the ABI's layout for `dtype` (getDTypeSize bytes;
  /// bool as one byte 0 or 1, f16/bf16 as their bit patterns, rounded to
  /// nearest-even) into `storage`.
  void toBytes(void *storage) const;
};

/// One parameter of a kernel.
struct ParamSignature {
  std::string name;
  DType dtype = DType::F32;
  /// A tensor `T[n]` (passed as a pointer) or a scalar `T` (by value).
  bool isTensor = false;
  /// The default of a scalar, if the kernel has one.
  std::optional<ScalarValue> defaultValue;
};

/// A kernel's name, parameters and results (every result is a tensor of n
/// elements).
struct KernelSignature {
  std::string name;
  std::vector<ParamSignature> params;
  std::vector<DType> results;

  /// The parameter named `name`, or null.
  const ParamSignature *lookupParam(llvm::StringRef paramName) const;
  /// How many entries the ABI's argument array has.
  size_t getNumABIArguments() const { return params.size() + results.size() + 1; }
  /// One line, e.g. "leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n]".
  std::string str() const;
};

/// One entry of the ABI's argument array.
struct ABIArgument {
  enum class Kind {
    /// Parameter `index`: a pointer for a tensor, the value for a scalar.
    Param,
    /// Result `index`: a pointer to the n elements the kernel writes.
    Result,
    /// The i64 element count n.
    NumElements,
  };
  Kind kind;
  unsigned index;
};

/// The symbol of the kernel `kernelName` in compiled code: its PTX `.entry`
/// and its function in the CPU JIT, `ew$` + the name. `$` is a character no
/// .ew, C or C++ identifier has, and none of libm's, libdevice's (`__nv_*`)
/// or MLIR's ExecutionEngine wrappers (`_mlir_` + symbol) has one, so no
/// kernel name can bind to a function the JIT or the PTX links: a kernel
/// called `exp` became libm's `exp` on the CPU and called itself. The `.ew`
/// name is what users see everywhere else.
std::string getKernelSymbol(llvm::StringRef kernelName);

/// The kernel name of a symbol made by getKernelSymbol, or std::nullopt for
/// a symbol that is no kernel's.
std::optional<llvm::StringRef> getKernelNameOfSymbol(llvm::StringRef symbol);

/// The ABI's argument order for a kernel with `numParams` parameters and
/// `numResults` results: the one place that says inputs, then outputs, then n.
std::vector<ABIArgument> getABIArguments(unsigned numParams,
                                         unsigned numResults);

/// The signature of a checked kernel of the AST, with the defaults as the
/// source spells them.
KernelSignature getKernelSignature(const Kernel &kernel);

} // namespace ewc

#endif // EWC_ABI_KERNELSIGNATURE_H
