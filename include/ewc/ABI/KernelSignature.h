//===- KernelSignature.h - The kernel ABI, described once -------*- C++ -*-===//
//
// What a compiled ew kernel takes and returns, and where each value goes in
// the argument array that cuLaunchKernel and the CPU JIT read (docs/abi.md):
//
//   k(param_0, ..., param_{p-1}, result_0, ..., result_{r-1})
//
// where a scalar is its value and a tensor (parameter or result) is MLIR's
// strided memref descriptor of its dimensions, expanded into its fields:
//
//   allocated pointer, aligned pointer, offset, extent_0..extent_{k-1},
//   stride_0..stride_{k-1}          (i64 offset, extents and strides)
//
// with k the tensor's dimensions, the batch `...` counting as the variant's
// batch rank (LaunchPlan.h). The lowerings (getKernelABIType), the driver's
// marshalling, the exported header and the C and Python APIs all ask
// getABIArguments for that order instead of restating it. This library
// needs LLVM Support and the front end's DType only, so the MLIR side and
// the API side can both link it.
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
class KernelDecl;

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

/// How a signature names the batch `...` among a tensor's dimensions.
constexpr llvm::StringLiteral kBatchDim = "...";

/// One parameter of a kernel.
struct ParamSignature {
  std::string name;
  DType dtype = DType::F32;
  /// A tensor (passed as a memref descriptor) or a scalar (by value).
  bool isTensor = false;
  /// A tensor's dimensions in its declared (memory) order; "..." first for
  /// the batch.
  std::vector<std::string> dims;
  /// The default of a scalar, if the kernel has one.
  std::optional<ScalarValue> defaultValue;
};

/// One result of a kernel: a tensor.
struct ResultSignature {
  DType dtype = DType::F32;
  std::vector<std::string> dims;
};

/// A kernel's name, parameters, results and dimensions.
struct KernelSignature {
  std::string name;
  std::vector<ParamSignature> params;
  std::vector<ResultSignature> results;
  /// The kernel's dimensions: "..." first where a tensor has the batch, then
  /// the names in the order of their first appearance.
  std::vector<std::string> dims;
  /// The dimensions whose coordinates or extents the kernel reads (index,
  /// size): a launch never merges them with another (LaunchPlan.h).
  std::vector<std::string> pinnedDims;

  /// The parameter named `name`, or null.
  const ParamSignature *lookupParam(llvm::StringRef paramName) const;
  /// The number of tensors (tensor parameters and results).
  unsigned getNumTensors() const;
  /// The dimensions of tensor `tensor` (tensor parameters, then results).
  const std::vector<std::string> &getTensorDims(unsigned tensor) const;
  bool hasBatch() const { return !dims.empty() && dims.front() == kBatchDim; }
  /// One line, e.g.
  /// "bias_add(x: f32[m, n], b: f32[n], s: f32 = 0.5) -> f32[m, n]".
  std::string str() const;
};

/// One entry of the ABI's argument array.
struct ABIArgument {
  enum class Kind {
    /// Scalar parameter `param`: its value.
    Scalar,
    /// Of tensor `tensor` (its position among the tensor parameters and the
    /// results, in order): the allocated pointer, the aligned pointer (both
    /// the address of the tensor's element at index 0), the offset (0), and
    /// extent `dim` and stride `dim` (in elements), as MLIR's descriptor.
    AllocatedPointer,
    AlignedPointer,
    Offset,
    Extent,
    Stride,
  };
  Kind kind;
  /// The parameter of a Scalar.
  unsigned param = 0;
  /// The tensor of the other kinds.
  unsigned tensor = 0;
  /// The dimension of an Extent or a Stride.
  unsigned dim = 0;
};

/// How a compiled GPU kernel is launched: the lowering's launch descriptor
/// (#ew.launch on the gpu.func), which the runtime, the kernel cache and the
/// exported header take as they are instead of restating the policy. Blocks
/// of `blockSize` threads with `sharedMemory` bytes of dynamic shared
/// memory; for the schedule "elementwise", a grid of one block per
/// blockSize x elementsPerThread points of the kernel's largest loop nest
/// (any grid is correct: every nest is a grid-stride loop).
struct LaunchDescriptor {
  std::string schedule = "elementwise";
  unsigned blockSize = 128;
  unsigned elementsPerThread = 1;
  unsigned sharedMemory = 0;
  /// The schedule "rows": each rows nest's row, the dimensions its teams
  /// read along (RowAccess.h: the launch's longest row picks the block);
  /// the schedule "columns": one list, the dimensions its nest reduces
  /// (ColumnAccess.h: their extents bound the splits).
  std::vector<std::vector<std::string>> rowDims;
  /// The schedule "columns": the partials per split and point (its nest's
  /// reductions) of the workspace that a launch of more than one split
  /// passes after the ABI's arguments (ColumnAccess.h); 0 for none.
  unsigned workspace = 0;
  /// The schedule "rows" with the row's points on the lanes (decode
  /// attention's head): their dimensions, whose extent picks the pass's
  /// variant (RowAccess.h, getLanePass); empty for none.
  std::vector<std::string> laneDims = {};
};

/// The memref rank of every tensor (tensor parameters, then results) of
/// `kernel` with a batch of `batchRank` dimensions.
std::vector<unsigned> getTensorRanks(const KernelSignature &kernel,
                                     unsigned batchRank);

/// The ABI's argument order for `kernel` with a batch of `batchRank`
/// dimensions: the one place that says parameters, then results, and what a
/// tensor's descriptor holds.
std::vector<ABIArgument> getABIArguments(const KernelSignature &kernel,
                                         unsigned batchRank);

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

/// The signature of a checked kernel of the AST, with the defaults as the
/// source spells them.
KernelSignature getKernelSignature(const KernelDecl &kernel);

} // namespace ewc

#endif // EWC_ABI_KERNELSIGNATURE_H
