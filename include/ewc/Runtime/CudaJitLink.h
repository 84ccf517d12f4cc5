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

/// Whether nvJitLink could be loaded. When it returns false and `whyNot` is
/// not null, `*whyNot` says which libraries were tried and why they failed.
bool isJitLinkAvailable(std::string *whyNot = nullptr);

/// nvJitLink's version, e.g. "13.0", or an empty string without nvJitLink.
/// Part of the kernel cache's key: another ptxas may make other code.
std::string getJitLinkVersion();

/// EWC_PTXAS_OPTIONS (hidden, for diagnosing): one more option that
/// compilePTXToCubin passes to ptxas, e.g. -Xptxas=-O0; empty when unset.
/// It changes the cubin, so the kernel cache's key names it.
std::string getExtraPtxasOption();

/// Assembles `ptx` into a cubin for `chip` (sm_XX) with nvJitLink. The error
/// carries nvJitLink's error log, e.g. "nvJitLink failed:
/// NVJITLINK_ERROR_PTX_COMPILE\nptxas application ptx input, line 9; ...".
llvm::Expected<std::vector<char>> compilePTXToCubin(llvm::StringRef ptx,
                                                    llvm::StringRef chip);

} // namespace ewc

#endif // EWC_RUNTIME_CUDAJITLINK_H
