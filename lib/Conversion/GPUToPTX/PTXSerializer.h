//===- PTXSerializer.h - One gpu.module to PTX text -------------*- C++ -*-===//
//
// Upstream's NVVM serializer (SerializeGPUModuleBase) with two choices made
// by ewc instead of upstream: which bitcode is linked (only the libdevice
// embedded in ewc, and only when the module calls it; upstream also loads a
// CUDA toolkit's libdevice for every module), and which LLVM passes run
// before NVPTX (ewc's short pipeline for its kernels; upstream always runs
// LLVM's default<On>, most of the compile time of a small kernel).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_CONVERSION_GPUTOPTX_PTXSERIALIZER_H
#define EWC_LIB_CONVERSION_GPUTOPTX_PTXSERIALIZER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <optional>
#include <string>

namespace mlir {
namespace ew {

/// The PTX text of `module` for `target`, linked with `libraries` (bitcode
/// attributes, e.g. a DenseResourceElementsAttr) and optimized by the LLVM
/// pass pipeline `llvmPasses` (opt's -passes syntax; empty: LLVM's
/// default<On> for the target's O). Errors are emitted on `module`.
std::optional<std::string> serializeToPTX(gpu::GPUModuleOp module,
                                          NVVM::NVVMTargetAttr target,
                                          ArrayRef<Attribute> libraries,
                                          StringRef llvmPasses);

} // namespace ew
} // namespace mlir

#endif // EWC_LIB_CONVERSION_GPUTOPTX_PTXSERIALIZER_H
