//===- HeaderExport.h - Ahead-of-time export as a C++ header ----*- C++ -*-===//
//
// `ewc-run --emit header`: a self-contained C++ header with the PTX of a
// module embedded and one typed launch function per kernel, so that an
// application runs ewc's kernels with nothing but the CUDA driver API
// (cuda.h, libcuda) at build and run time: no LLVM, MLIR or ewc.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DRIVER_HEADEREXPORT_H
#define EWC_DRIVER_HEADEREXPORT_H

#include "ewc/ABI/KernelSignature.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace ewc {
namespace driver {

/// The header for `kernels`, compiled to `ptx`, each kernel handling
/// elementsPerThread[name] elements per thread and loop iteration; its
/// functions live in namespace `namespaceName`. `sourceName` is named in the
/// header's comment. Launch functions take, in the ABI's order, a device
/// pointer per tensor (f16 and bf16 as uint16_t bit patterns, bool as one
/// byte), a value per scalar, a pointer per result and n, after the
/// CUstream, and return the CUresult of the launch.
std::string emitCudaHeader(llvm::StringRef ptx,
                           llvm::ArrayRef<KernelSignature> kernels,
                           const llvm::StringMap<unsigned> &elementsPerThread,
                           llvm::StringRef namespaceName,
                           llvm::StringRef sourceName);

} // namespace driver
} // namespace ewc

#endif // EWC_DRIVER_HEADEREXPORT_H
