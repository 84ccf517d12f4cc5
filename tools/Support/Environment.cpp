//===- Environment.cpp - The EWC_* variables as the tools' options --------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Each variable's parsing and checks, as lib/ had them before the options
// moved into the structs; the messages are the ones the tests know.
//
//===----------------------------------------------------------------------===//

#include "Support/Environment.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>

using namespace ewc;
using namespace ewc::tools;

std::optional<std::string> tools::getProcessVariable(llvm::StringRef name) {
  if (const char *value = std::getenv(name.str().c_str()))
    return std::string(value);
  return std::nullopt;
}

std::string tools::getDefaultCacheDirectory(VariableReader get) {
  auto nonEmpty = [&](llvm::StringRef name) {
    std::optional<std::string> value = get(name);
    return value && !value->empty() ? value : std::nullopt;
  };
  if (std::optional<std::string> dir = nonEmpty("EWC_CACHE_DIR"))
    return *dir;
  if (std::optional<std::string> cacheHome = nonEmpty("XDG_CACHE_HOME"))
    return *cacheHome + "/ewc";
  if (std::optional<std::string> home = nonEmpty("HOME"))
    return *home + "/.cache/ewc";
  return {};
}

llvm::Error tools::applyEnvironment(driver::CompileOptions &options,
                                    VariableReader get) {
  if (options.cacheDir.empty())
    options.cacheDir = getDefaultCacheDirectory(get);
  if (std::optional<std::string> off = get("EWC_NO_CACHE");
      off && !off->empty() && *off != "0")
    options.noCache = true;

  if (std::optional<std::string> chosen = get("EWC_PTX_ASSEMBLER");
      chosen && !chosen->empty()) {
    if (*chosen == "driver")
      options.ptxAssembler = driver::PTXAssembler::Driver;
    else if (*chosen == "nvjitlink")
      options.ptxAssembler = driver::PTXAssembler::NvJitLink;
    else
      return llvm::createStringError(
          "EWC_PTX_ASSEMBLER must be 'driver' or 'nvjitlink', not '" + *chosen +
          "'");
  }
  if (std::optional<std::string> library = get("EWC_NVJITLINK"))
    options.jitLink.library = *library;
  for (llvm::StringRef variable : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> root = get(variable); root && !root->empty())
      options.jitLink.toolkitRoots.push_back(*root);
  if (std::optional<std::string> extra = get("EWC_PTXAS_OPTIONS"))
    options.jitLink.ptxasOption = *extra;

  if (std::optional<std::string> level = get("EWC_PTX_OPT_LEVEL")) {
    unsigned value = 0;
    if (llvm::StringRef(*level).getAsInteger(10, value) || value > 3)
      return llvm::createStringError(
          "EWC_PTX_OPT_LEVEL must be 0, 1, 2 or 3, not '" + *level + "'");
    options.ptxOptLevel = value;
  }
  if (std::optional<std::string> passes = get("EWC_LLVM_PASSES"))
    options.llvmPasses = *passes;
  if (std::optional<std::string> workarounds = get("EWC_PTXAS_WORKAROUNDS"))
    options.ptxasWorkarounds = *workarounds;
  if (std::optional<std::string> float8 = get("EWC_FLOAT8_CONVERSIONS"))
    options.float8Conversions = *float8;
  return llvm::Error::success();
}

std::vector<std::string> tools::getHeaderCubinChips(VariableReader get) {
  std::optional<std::string> list = get("EWC_HEADER_CUBINS");
  if (!list)
    return {"sm_90"};
  std::vector<std::string> chips;
  for (llvm::StringRef chip : llvm::split(*list, ','))
    if (!chip.trim().empty() && chip.trim() != "none")
      chips.push_back(chip.trim().str());
  return chips;
}
