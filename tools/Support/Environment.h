//===- Environment.h - The EWC_* variables as the tools' options -*- C++
//-*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// For tools only (ewc-run, ewc-fuzz): libraries read no environment, so the
// EWC_* variables users set reach the compiler through the options structs,
// and this is the one place that translates one into the other. The table of
// the variables is in docs/runtime.md. libewc.so does not link it; the
// Python package reads the cache variables itself (python/ewc/__init__.py).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TOOLS_SUPPORT_ENVIRONMENT_H
#define EWC_TOOLS_SUPPORT_ENVIRONMENT_H

#include "ewc/Driver/Driver.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace ewc {
namespace tools {

/// Reads one variable: its value, or none where it is unset.
using VariableReader =
    llvm::function_ref<std::optional<std::string>(llvm::StringRef)>;

/// The process's environment (std::getenv).
std::optional<std::string> getProcessVariable(llvm::StringRef name);

/// The kernel cache's default directory: $EWC_CACHE_DIR, else
/// $XDG_CACHE_HOME/ewc, else $HOME/.cache/ewc; empty (no cache) where none
/// of them is set or all are empty.
std::string getDefaultCacheDirectory(VariableReader get = getProcessVariable);

/// Fills `options` from the variables, after the tool's command line has set
/// its own: cacheDir where it is empty (getDefaultCacheDirectory); noCache
/// turned on by EWC_NO_CACHE set to anything but "" or "0"; ptxAssembler
/// from EWC_PTX_ASSEMBLER ("driver" or "nvjitlink"); jitLink from
/// EWC_NVJITLINK, CUDA_HOME, CUDA_PATH and EWC_PTXAS_OPTIONS; ptxOptLevel,
/// llvmPasses, ptxasWorkarounds and float8Conversions from
/// EWC_PTX_OPT_LEVEL, EWC_LLVM_PASSES, EWC_PTXAS_WORKAROUNDS and
/// EWC_FLOAT8_CONVERSIONS where set (an empty EWC_LLVM_PASSES too: it means
/// LLVM's default<On>). A value a variable does not take is an error
/// that names it, e.g. "EWC_PTX_OPT_LEVEL must be 0, 1, 2 or 3, not '9'".
llvm::Error applyEnvironment(driver::CompileOptions &options,
                             VariableReader get = getProcessVariable);

/// The chips (sm_XX) whose cubins `ewc-run --emit header` embeds:
/// $EWC_HEADER_CUBINS, a comma-separated list ("none" or empty: PTX only),
/// else sm_90, the H200's.
std::vector<std::string>
getHeaderCubinChips(VariableReader get = getProcessVariable);

} // namespace tools
} // namespace ewc

#endif // EWC_TOOLS_SUPPORT_ENVIRONMENT_H
