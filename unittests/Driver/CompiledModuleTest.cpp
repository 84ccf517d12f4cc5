//===- CompiledModuleTest.cpp - Kernel cache entries of the driver ------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// A cache hit builds a LoadedModule from the entry alone, so the entry must
// give back exactly the signatures the compiler produced: names, dtypes,
// tensors, defaults (NaN, infinities and -0 included) and elements per
// thread, with the cubin's bytes untouched (a cubin holds NULs). Anything
// else is an error, never a module.
//
//===----------------------------------------------------------------------===//

#include "CompiledModule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ewc;
using namespace ewc::driver;

namespace {

CompiledModule makeModule() {
  CompiledModule module;
  module.code = std::string("\x7f"
                            "ELF\0\0\x01",
                            7);
  KernelSignature &leaky = module.kernels.emplace_back();
  leaky.name = "leaky_relu";
  leaky.params.push_back({"x", DType::BF16, true, {"...", "n"}, std::nullopt});
  leaky.params.push_back(
      {"slope", DType::F32, false, {}, ScalarValue{DType::F32, 0, 0.01}});
  leaky.params.push_back(
      {"bound",
       DType::F64,
       false,
       {},
       ScalarValue{DType::F64, 0, -std::numeric_limits<double>::infinity()}});
  leaky.params.push_back(
      {"fill",
       DType::F32,
       false,
       {},
       ScalarValue{DType::F32, 0, std::numeric_limits<double>::quiet_NaN()}});
  leaky.params.push_back(
      {"zero", DType::F16, false, {}, ScalarValue{DType::F16, 0, -0.0}});
  leaky.params.push_back({"k",
                          DType::I64,
                          false,
                          {},
                          ScalarValue{DType::I64, -(int64_t(1) << 62), 0}});
  leaky.params.push_back(
      {"on", DType::Bool, false, {}, ScalarValue{DType::Bool, 1, 0}});
  leaky.results = {{DType::BF16, {"...", "n"}}, {DType::Bool, {"n"}}};
  leaky.dims = {"...", "n"};
  leaky.pinnedDims = {"n"};
  module.launches["leaky_relu"] = {"elementwise", 256, 8, 0};
  KernelSignature &empty = module.kernels.emplace_back();
  empty.name = "nothing";
  empty.results = {{DType::I32, {"m", "k"}}};
  empty.dims = {"m", "k"};
  module.launches["nothing"] = {"rows", 128, 1, 0, {{"n"}, {"s", "d"}}};
  KernelSignature &columns = module.kernels.emplace_back();
  columns.name = "columns";
  columns.results = {{DType::F32, {"n"}}};
  columns.dims = {"m", "n"};
  module.launches["columns"] = {"columns", 256, 1, 0, {{"m"}}, 3};
  // What the other variants compile from, quotes and newlines included.
  module.ewModule = "module {\n  ew.kernel @leaky_relu(...) \"x\"\n}\n";
  return module;
}

TEST(CompiledModule, EntryRoundTrips) {
  CompiledModule module = makeModule();
  llvm::Expected<CompiledModule> back =
      CompiledModule::deserialize(module.serialize());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->code, module.code);
  EXPECT_EQ(back->ewModule, module.ewModule);
  ASSERT_EQ(back->kernels.size(), 3u);
  for (size_t k = 0; k < 3; ++k)
    EXPECT_EQ(back->kernels[k].str(), module.kernels[k].str());
  const std::vector<ParamSignature> &params = back->kernels[0].params;
  ASSERT_EQ(params.size(), 7u);
  EXPECT_TRUE(params[0].isTensor);
  EXPECT_FALSE(params[0].defaultValue);
  EXPECT_EQ(params[1].defaultValue->floatValue, 0.01);
  EXPECT_TRUE(std::isinf(params[2].defaultValue->floatValue));
  EXPECT_TRUE(std::isnan(params[3].defaultValue->floatValue));
  EXPECT_TRUE(std::signbit(params[4].defaultValue->floatValue));
  EXPECT_EQ(params[5].defaultValue->intValue, -(int64_t(1) << 62));
  EXPECT_EQ(params[6].defaultValue->dtype, DType::Bool);
  EXPECT_EQ(params[0].dims, (std::vector<std::string>{"...", "n"}));
  ASSERT_EQ(back->kernels[0].results.size(), 2u);
  EXPECT_EQ(back->kernels[0].results[1].dtype, DType::Bool);
  EXPECT_EQ(back->kernels[0].results[1].dims, std::vector<std::string>{"n"});
  EXPECT_EQ(back->kernels[0].dims, (std::vector<std::string>{"...", "n"}));
  EXPECT_EQ(back->kernels[0].pinnedDims, std::vector<std::string>{"n"});
  EXPECT_EQ(back->kernels[1].results[0].dims,
            (std::vector<std::string>{"m", "k"}));
  const LaunchDescriptor &launch = back->launches.lookup("leaky_relu");
  EXPECT_EQ(launch.schedule, "elementwise");
  EXPECT_EQ(launch.blockSize, 256u);
  EXPECT_EQ(launch.elementsPerThread, 8u);
  EXPECT_EQ(back->launches.lookup("nothing").elementsPerThread, 1u);
  EXPECT_TRUE(launch.rowDims.empty());
  EXPECT_EQ(back->launches.lookup("nothing").rowDims,
            (std::vector<std::vector<std::string>>{{"n"}, {"s", "d"}}));
  EXPECT_EQ(launch.workspace, 0u);
  const LaunchDescriptor &columns = back->launches.lookup("columns");
  EXPECT_EQ(columns.schedule, "columns");
  EXPECT_EQ(columns.workspace, 3u);
  EXPECT_EQ(columns.rowDims, (std::vector<std::vector<std::string>>{{"m"}}));
}

TEST(CompiledModule, DamagedDescriptionsAreErrors) {
  std::string payload = makeModule().serialize();
  std::string description = payload.substr(0, payload.find('\0'));
  auto fails = [](llvm::StringRef text) {
    llvm::Expected<CompiledModule> back = CompiledModule::deserialize(text);
    if (back)
      return false;
    llvm::consumeError(back.takeError());
    return true;
  };
  EXPECT_TRUE(fails(description)) << "no NUL before the cubin";
  EXPECT_TRUE(fails(llvm::StringRef("{}\0", 3)));
  EXPECT_TRUE(fails(llvm::StringRef("[1]\0", 4)));
  auto edited = [&](llvm::StringRef from, llvm::StringRef to) {
    std::string text = payload;
    size_t at = text.find(from.str());
    EXPECT_NE(at, std::string::npos) << from.str();
    return text.replace(at, from.size(), to.str());
  };
  EXPECT_TRUE(fails(edited("\"dtype\":\"bf16\"", "\"dtype\":\"f8\"")));
  EXPECT_TRUE(fails(edited("\"elementsPerThread\":8", "\"perThread\":8")));
  EXPECT_TRUE(fails(edited("\"rowDims\":[[\"n\"]", "\"rowDims\":[[1]")));
  EXPECT_TRUE(fails(edited("\"rowDims\":[]", "\"rows\":[]")));
  EXPECT_TRUE(fails(edited("\"workspace\":3", "\"workspace\":\"3\"")));
  EXPECT_TRUE(fails(edited("\"kernels\":", "\"kernel\":")));
  EXPECT_TRUE(fails(edited("\"dims\":[\"n\"],\"dtype\":\"bool\"",
                           "\"dims\":[\"n\"],\"dtype\":\"x\"")));
  EXPECT_TRUE(fails(edited("\"pinnedDims\":[\"n\"]", "\"pinnedDims\":[1]")));
  EXPECT_TRUE(fails(edited("\"bits\":", "\"bytes\":")));
  EXPECT_TRUE(fails(edited("\"tensor\":true", "\"tensor\":1")));
  EXPECT_TRUE(fails(edited("\"schedule\":", "\"plan\":")));
}

} // namespace
