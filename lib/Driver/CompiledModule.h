//===- CompiledModule.h - Loadable code and its kernel cache entry -*- C++
//-*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Driver. The cubin LoadedModule::compile hands the CUDA
// driver (assembled by the driver's JIT, or by nvJitLink where asked for),
// and the kernel cache entry that keeps compiled code, a cubin or a CPU
// image (CpuJit::getImage), with everything else LoadedModule needs, so that
// a cache hit runs no compiler stage at all: the compiled signatures
// (defaults included) and each kernel's launch descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_DRIVER_GPUIMAGE_H
#define EWC_LIB_DRIVER_GPUIMAGE_H

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Driver/Driver.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ewc {
namespace driver {

/// `ptx` as a cubin for `cuda`'s device: from the driver's own JIT
/// (CudaContext::assemblePTX), or from nvJitLink (the toolkit's) where
/// options.ptxAssembler or a ptxas option in options.jitLink asks for it and
/// it loads. `notes`, if not null, hears which and why; a ptxas option that
/// cannot reach nvJitLink is an error. `quick`: ptxas at -O0, a tiered
/// compilation's quick code.
llvm::Expected<std::vector<char>>
assembleForDevice(llvm::StringRef ptx, CudaContext &cuda,
                  const CompileOptions &options, llvm::raw_ostream *notes,
                  bool quick = false);

/// A kernel cache entry's payload.
struct CompiledModule {
  /// The code: a cubin for the GPU, CpuJit's image for the CPU.
  std::string code;
  std::vector<KernelSignature> kernels;
  llvm::StringMap<LaunchDescriptor> launches;
  /// The module's ew IR after MLIRGen and the ew hooks (empty in a variant's
  /// entry): what the other variants of its kernels are compiled from, so
  /// that a module loaded from the cache can still compile them.
  std::string ewModule;

  /// The payload: a JSON description, a NUL, then the code's bytes.
  std::string serialize() const;
  /// The inverse of serialize(); an error for anything it did not write.
  static llvm::Expected<CompiledModule> deserialize(llvm::StringRef payload);
};

} // namespace driver
} // namespace ewc

#endif // EWC_LIB_DRIVER_GPUIMAGE_H
