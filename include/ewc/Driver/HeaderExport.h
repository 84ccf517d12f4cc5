//===- HeaderExport.h - Ahead-of-time export as a C++ header ----*- C++ -*-===//
//
// `ewc-run --emit header`: a self-contained C++ header with a module's PTX
// and cubins for chosen chips embedded, and one typed launch function per
// kernel, so that an application runs ewc's kernels with nothing but the CUDA
// driver API (cuda.h, libcuda) at build and run time: no LLVM, MLIR or ewc.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DRIVER_HEADEREXPORT_H
#define EWC_DRIVER_HEADEREXPORT_H

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Runtime/CudaJitLink.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ewc {
namespace driver {

/// The header for `kernels`, compiled to `ptx` (their default variants),
/// each launched as launches[name] says; its functions live in namespace
/// `namespaceName`. `sourceName` is named in the header's comment. Launch
/// functions take, after the CUstream, for each tensor parameter and then
/// each result a device pointer (f16 and bf16 as uint16_t bit patterns,
/// bool as one byte), its extents and its strides, and for each scalar its
/// value, and return the CUresult of the launch; kernels of one dimension
/// also take bare pointers and n.
///
/// Beside the PTX the header embeds a cubin for each of `cubinChips` (ewc-run:
/// EWC_HEADER_CUBINS, else sm_90), assembled here by the nvJitLink that
/// `jitLink` names; its loader takes the cubin of the device's
/// chip where there is one (no JIT at run time), else JIT-compiles the PTX
/// (newer chips). Fails when a cubin cannot be made: nvJitLink missing, or a
/// chip it rejects.
llvm::Expected<std::string>
emitCudaHeader(llvm::StringRef ptx, llvm::ArrayRef<KernelSignature> kernels,
               const llvm::StringMap<LaunchDescriptor> &launches,
               llvm::StringRef namespaceName, llvm::StringRef sourceName,
               llvm::ArrayRef<std::string> cubinChips,
               const JitLinkOptions &jitLink = {});

} // namespace driver
} // namespace ewc

#endif // EWC_DRIVER_HEADEREXPORT_H
