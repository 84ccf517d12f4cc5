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
#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace ew {

/// The LLVM passes that gpu-module-to-ptx runs before NVPTX by default.
/// ewc's kernels reach LLVM already vectorized, with one loop per part
/// (prologue, 16-byte body, tail); what LLVM still has to do is inline
/// libdevice's functions (all always-inline), fold its __nvvm_reflect
/// queries, simplify what that leaves, rotate the loops so that each
/// iteration ends in one branch, and drop the unused libdevice globals.
/// LLVM's default<O2> does that and much more: for the 21 kernels in
/// kernels/ it gives the same PTX, up to register numbers and the order of
/// a few index computations (docs/performance.md, "Compile time").
inline constexpr llvm::StringLiteral kKernelLLVMPasses =
    "always-inline,nvvm-reflect,"
    "function(instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa(licm),loop-"
    "rotate),"
    "globaldce";

#define GEN_PASS_DECL_GPUMODULETOPTX
#define GEN_PASS_DECL_PTXASWORKAROUNDS
#include "ewc/Conversion/Passes.h.inc"

/// The libdevice bitcode embedded at build time (CMake's EWC_LIBDEVICE), or
/// an empty array if the build found none.
ArrayRef<char> getEmbeddedLibdevice();

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_GPUTOPTX_GPUTOPTX_H
