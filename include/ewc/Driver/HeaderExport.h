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

/// One compiled module of a header: its PTX, the kernels it exports with
/// the name of each one's launch function, and their launch descriptors.
/// A header holds several for the specializations of generic kernels
/// (`ewc-run --emit header --type T=f16 --type T=bf16`), one module each.
struct HeaderImage {
  std::string ptx;
  std::vector<KernelSignature> kernels;
  /// The launch function of each of `kernels`, in its order: the kernel's
  /// name, with its types for a generic kernel's specialization
  /// (`leaky_relu_bf16`).
  std::vector<std::string> functionNames;
  llvm::StringMap<LaunchDescriptor> launches;
};

/// The header for `images`, each image's kernels compiled to its PTX (their
/// default variants) and launched as its launches[name] says; the functions
/// live in namespace `namespaceName`. `sourceName` is named in the header's
/// comment. Launch functions take, after the CUstream, for each tensor
/// parameter and then each result a device pointer (f16 and bf16 as
/// uint16_t bit patterns, bool as one byte), its extents and its strides,
/// and for each scalar its value, and return the CUresult of the launch;
/// kernels of one dimension also take bare pointers and n. Each image is
/// loaded into a context at the first launch of one of its kernels there,
/// each kernel's function looked up once per context; launches from several
/// threads and contexts are safe (a load takes a mutex, a launch none).
///
/// Beside the PTX the header embeds a cubin for each of `cubinChips` (ewc-run:
/// EWC_HEADER_CUBINS, else sm_90), assembled here by the nvJitLink that
/// `jitLink` names; its loader takes the cubin of the device's
/// chip where there is one (no JIT at run time), else JIT-compiles the PTX
/// (newer chips). Fails when a cubin cannot be made: nvJitLink missing, or a
/// chip it rejects.
llvm::Expected<std::string>
emitCudaHeader(llvm::ArrayRef<HeaderImage> images,
               llvm::StringRef namespaceName, llvm::StringRef sourceName,
               llvm::ArrayRef<std::string> cubinChips,
               const JitLinkOptions &jitLink = {});

} // namespace driver
} // namespace ewc

#endif // EWC_DRIVER_HEADEREXPORT_H
