//===- CudaJitLink.h - PTX to cubin in process with nvJitLink ---*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// nvJitLink is the CUDA toolkit's linker and PTX assembler as a library
// (libnvJitLink.so.13). ewc uses it to turn PTX into a cubin for one chip in
// process, with no GPU and no driver: for the kernel cache (a cubin loads
// without a JIT), and for headers that embed cubins (`ewc-run --emit
// header`). Like the driver it is opened with dlopen on first use, so ewc
// starts where it is missing; callers then fall back to the driver's JIT.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_CUDAJITLINK_H
#define EWC_RUNTIME_CUDAJITLINK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ewc {

/// Which nvJitLink to load and what to pass to its ptxas. Like every ewc
/// library this reads no environment: the tools fill it from EWC_NVJITLINK,
/// CUDA_HOME, CUDA_PATH and EWC_PTXAS_OPTIONS (docs/runtime.md).
struct JitLinkOptions {
  /// The library to load instead of searching for one (a path or a soname);
  /// "none": no nvJitLink, so that callers take the driver's JIT (for
  /// measuring one against the other). Empty: libnvJitLink.so.13 and .so.12
  /// by soname, then each of `toolkitRoots`, then /usr/local/cuda.
  std::string library;
  /// CUDA toolkits whose lib64/libnvJitLink.so.13 is tried after the
  /// sonames: the toolkit installs it without registering it with the
  /// loader on every machine.
  std::vector<std::string> toolkitRoots;
  /// One more option that compilePTXToCubin passes to ptxas, e.g.
  /// -Xptxas=-O0 (hidden, for diagnosing); empty: none. It changes the
  /// cubin, so the kernel cache's key names it.
  std::string ptxasOption;
};

/// Whether the nvJitLink that `options` names could be loaded (each choice
/// is loaded once per process and never closed). When it returns false and
/// `whyNot` is not null, `*whyNot` says which libraries were tried and why
/// they failed.
bool isJitLinkAvailable(const JitLinkOptions &options = {},
                        std::string *whyNot = nullptr);

/// That nvJitLink's version, e.g. "13.0", or an empty string without one.
/// Part of the kernel cache's key: another ptxas may make other code.
std::string getJitLinkVersion(const JitLinkOptions &options = {});

/// Assembles `ptx` into a cubin for `chip` (sm_XX) with nvJitLink. The error
/// carries nvJitLink's error log, e.g. "nvJitLink failed:
/// NVJITLINK_ERROR_PTX_COMPILE\nptxas application ptx input, line 9; ...".
llvm::Expected<std::vector<char>>
compilePTXToCubin(llvm::StringRef ptx, llvm::StringRef chip,
                  const JitLinkOptions &options = {});

} // namespace ewc

#endif // EWC_RUNTIME_CUDAJITLINK_H
