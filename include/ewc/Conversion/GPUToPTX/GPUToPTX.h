//===- GPUToPTX.h - gpu.module to PTX with libdevice ------------*- C++ -*-===//
//
// Serializes gpu.modules (NVVM and LLVM dialects) to PTX in a gpu.binary, as
// upstream's gpu-module-to-binary does, but links the libdevice bitcode that
// is built into ewc instead of looking for a CUDA toolkit, so that math
// functions compile on machines without one.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_GPUTOPTX_GPUTOPTX_H
#define EWC_CONVERSION_GPUTOPTX_GPUTOPTX_H

#include "mlir/Pass/Pass.h"

#include "llvm/ADT/ArrayRef.h"

namespace mlir {
namespace ew {

#define GEN_PASS_DECL_GPUMODULETOPTX
#define GEN_PASS_DECL_PTXASWORKAROUNDS
#include "ewc/Conversion/Passes.h.inc"

/// The libdevice bitcode embedded at build time (CMake's EWC_LIBDEVICE), or
/// an empty array if the build found none.
ArrayRef<char> getEmbeddedLibdevice();

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_GPUTOPTX_GPUTOPTX_H
