//===- GPUImage.h - Loadable GPU code and its kernel cache entry -*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Driver. What LoadedModule::compile hands the CUDA driver (a
// cubin from nvJitLink, or PTX for the driver's JIT where nvJitLink is
// missing), and the kernel cache entry that keeps it with everything else
// LoadedModule needs, so that a cache hit runs no compiler stage at all: the
// compiled signatures (defaults included) and each kernel's elements per
// thread.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_DRIVER_GPUIMAGE_H
#define EWC_LIB_DRIVER_GPUIMAGE_H

#include "ewc/ABI/KernelSignature.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ewc {
namespace driver {

/// Code the driver loads.
struct GPUImage {
  enum class Kind { Cubin, PTX };
  Kind kind = Kind::PTX;
  /// The cubin's bytes, or the PTX text.
  std::string bytes;
};

/// `ptx` as a cubin for `deviceChip` from nvJitLink where it loads, else
/// the PTX itself for the driver's JIT; `notes`, if not null, hears which
/// and why. An nvJitLink failure on PTX that ewc produced is an error.
llvm::Expected<GPUImage> assembleForDevice(llvm::StringRef ptx,
                                           llvm::StringRef deviceChip,
                                           llvm::raw_ostream *notes);

/// What the PTX compiler adds to the cache key: "nvJitLink 13.0", or
/// "driver JIT" without nvJitLink (the driver's version is in the key too).
std::string getPTXCompilerName();

/// A kernel cache entry's payload.
struct CompiledGPUModule {
  GPUImage image;
  std::vector<KernelSignature> kernels;
  llvm::StringMap<unsigned> elementsPerThread;

  /// The payload: a JSON description, a NUL, then the image's bytes.
  std::string serialize() const;
  /// The inverse of serialize(); an error for anything it did not write.
  static llvm::Expected<CompiledGPUModule> deserialize(llvm::StringRef payload);
};

} // namespace driver
} // namespace ewc

#endif // EWC_LIB_DRIVER_GPUIMAGE_H
