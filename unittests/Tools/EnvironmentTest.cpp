//===- EnvironmentTest.cpp - The EWC_* variables as the tools' options ----===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// tools/Support/Environment.h over a made-up environment: each variable
// reaches its field, the command line's choices stay, and a value a variable
// does not take is an error that names it.
//
//===----------------------------------------------------------------------===//

#include "Support/Environment.h"

#include "llvm/ADT/StringMap.h"

#include <gtest/gtest.h>

using namespace ewc;

namespace {

/// A reader over `variables` alone.
struct FakeEnvironment {
  llvm::StringMap<std::string> variables;

  std::optional<std::string> operator()(llvm::StringRef name) const {
    auto it = variables.find(name);
    if (it == variables.end())
      return std::nullopt;
    return it->second;
  }
};

/// applyEnvironment's options for `variables`, or its error's text.
std::string apply(const FakeEnvironment &environment,
                  driver::CompileOptions &options) {
  if (llvm::Error error = tools::applyEnvironment(options, environment))
    return llvm::toString(std::move(error));
  return "";
}

TEST(EnvironmentTest, NothingSetChangesNothing) {
  driver::CompileOptions options;
  EXPECT_EQ(apply({}, options), "");
  EXPECT_EQ(options.cacheDir, "");
  EXPECT_FALSE(options.noCache);
  EXPECT_EQ(options.ptxAssembler, driver::PTXAssembler::Auto);
  EXPECT_EQ(options.jitLink.library, "");
  EXPECT_TRUE(options.jitLink.toolkitRoots.empty());
  EXPECT_EQ(options.jitLink.ptxasOption, "");
  EXPECT_FALSE(options.ptxOptLevel);
  EXPECT_FALSE(options.llvmPasses);
  EXPECT_FALSE(options.ptxasWorkarounds);
}

TEST(EnvironmentTest, CacheDirectoryInOrder) {
  FakeEnvironment environment{{{"HOME", "/home/u"}}};
  EXPECT_EQ(tools::getDefaultCacheDirectory(environment), "/home/u/.cache/ewc");
  environment.variables["XDG_CACHE_HOME"] = "/xdg";
  EXPECT_EQ(tools::getDefaultCacheDirectory(environment), "/xdg/ewc");
  environment.variables["EWC_CACHE_DIR"] = "/ewc";
  EXPECT_EQ(tools::getDefaultCacheDirectory(environment), "/ewc");
  // An empty variable counts as unset.
  environment.variables["EWC_CACHE_DIR"] = "";
  EXPECT_EQ(tools::getDefaultCacheDirectory(environment), "/xdg/ewc");
  EXPECT_EQ(tools::getDefaultCacheDirectory(FakeEnvironment{}), "");

  // The command line's --cache-dir wins.
  driver::CompileOptions options;
  options.cacheDir = "/command-line";
  EXPECT_EQ(apply(environment, options), "");
  EXPECT_EQ(options.cacheDir, "/command-line");
  options.cacheDir.clear();
  EXPECT_EQ(apply(environment, options), "");
  EXPECT_EQ(options.cacheDir, "/xdg/ewc");
}

TEST(EnvironmentTest, NoCacheUnlessEmptyOrZero) {
  for (auto [value, off] : {std::pair<const char *, bool>{"1", true},
                            {"yes", true},
                            {"0", false},
                            {"", false}}) {
    driver::CompileOptions options;
    EXPECT_EQ(apply({{{"EWC_NO_CACHE", value}}}, options), "");
    EXPECT_EQ(options.noCache, off) << "EWC_NO_CACHE=" << value;
  }
  // The command line's --no-cache stays on.
  driver::CompileOptions options;
  options.noCache = true;
  EXPECT_EQ(apply({{{"EWC_NO_CACHE", "0"}}}, options), "");
  EXPECT_TRUE(options.noCache);
}

TEST(EnvironmentTest, PTXAssemblerAndNvJitLink) {
  driver::CompileOptions options;
  EXPECT_EQ(apply({{{"EWC_PTX_ASSEMBLER", "nvjitlink"},
                    {"EWC_NVJITLINK", "/opt/libnvJitLink.so"},
                    {"CUDA_HOME", "/cuda-home"},
                    {"CUDA_PATH", "/cuda-path"},
                    {"EWC_PTXAS_OPTIONS", "-Xptxas=-O0"}}},
                  options),
            "");
  EXPECT_EQ(options.ptxAssembler, driver::PTXAssembler::NvJitLink);
  EXPECT_EQ(options.jitLink.library, "/opt/libnvJitLink.so");
  EXPECT_EQ(options.jitLink.toolkitRoots,
            (std::vector<std::string>{"/cuda-home", "/cuda-path"}));
  EXPECT_EQ(options.jitLink.ptxasOption, "-Xptxas=-O0");

  options = {};
  EXPECT_EQ(apply({{{"EWC_PTX_ASSEMBLER", "driver"}}}, options), "");
  EXPECT_EQ(options.ptxAssembler, driver::PTXAssembler::Driver);
  EXPECT_EQ(apply({{{"EWC_PTX_ASSEMBLER", "ptxas"}}}, options),
            "EWC_PTX_ASSEMBLER must be 'driver' or 'nvjitlink', not 'ptxas'");
}

TEST(EnvironmentTest, HiddenPTXKnobs) {
  driver::CompileOptions options;
  EXPECT_EQ(apply({{{"EWC_PTX_OPT_LEVEL", "0"},
                    {"EWC_LLVM_PASSES", ""},
                    {"EWC_PTXAS_WORKAROUNDS", "none"}}},
                  options),
            "");
  EXPECT_EQ(options.ptxOptLevel, 0u);
  // Set but empty: LLVM's default<On>, not the pipeline's own list.
  EXPECT_EQ(options.llvmPasses, std::optional<std::string>(""));
  EXPECT_EQ(options.ptxasWorkarounds, std::optional<std::string>("none"));
  for (const char *bad : {"4", "-1", "two", ""})
    EXPECT_EQ(apply({{{"EWC_PTX_OPT_LEVEL", bad}}}, options),
              "EWC_PTX_OPT_LEVEL must be 0, 1, 2 or 3, not '" +
                  std::string(bad) + "'");
}

TEST(EnvironmentTest, HeaderCubinChips) {
  EXPECT_EQ(tools::getHeaderCubinChips(FakeEnvironment{}),
            (std::vector<std::string>{"sm_90"}));
  EXPECT_EQ(tools::getHeaderCubinChips(
                FakeEnvironment{{{"EWC_HEADER_CUBINS", " sm_90, sm_100a "}}}),
            (std::vector<std::string>{"sm_90", "sm_100a"}));
  EXPECT_TRUE(tools::getHeaderCubinChips(
                  FakeEnvironment{{{"EWC_HEADER_CUBINS", "none"}}})
                  .empty());
  EXPECT_TRUE(
      tools::getHeaderCubinChips(FakeEnvironment{{{"EWC_HEADER_CUBINS", ""}}})
          .empty());
}

} // namespace
