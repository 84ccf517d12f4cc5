//===- ApiTest.cpp - The C++ API (ewc/ewc.h) on the CPU -------------------===//
//
// Compiles kernels from strings, reads their signatures, launches them on
// host arrays, and checks that every kind of bad input comes back as an
// error value with its text; and that the options reach the driver.
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include "ewc/Driver/API.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

namespace {

const char *kLeakyRelu = R"(
kernel leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n] {
  return where(x >= 0.0, x, slope * x);
}
kernel scale(x: f64[n], k: i32) -> (f64[n], bool[n]) {
  return x * f64(k), x > 0.0;
}
)";

ewc::Options cpu() {
  ewc::Options options;
  options.target = ewc::Target::Cpu;
  return options;
}

TEST(ApiTest, Signatures) {
  ewc::Result<ewc::Module> mod = ewc::compile(kLeakyRelu, cpu(), "k.ew");
  ASSERT_TRUE(mod) << mod.error();
  EXPECT_EQ(mod->target(), ewc::Target::Cpu);
  ASSERT_EQ(mod->kernels().size(), 2u);
  const ewc::Kernel *leaky = mod->kernel("leaky_relu");
  ASSERT_NE(leaky, nullptr);
  EXPECT_EQ(leaky->signature,
            "leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n]");
  ASSERT_EQ(leaky->params.size(), 2u);
  EXPECT_EQ(leaky->params[0].name, "x");
  EXPECT_TRUE(leaky->params[0].isTensor);
  EXPECT_EQ(leaky->params[1].type, ewc::ElementType::F32);
  ASSERT_TRUE(leaky->params[1].defaultValue);
  EXPECT_FLOAT_EQ(leaky->params[1].defaultValue->floatValue, 0.01f);
  const ewc::Kernel *scale = mod->kernel("scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->results,
            (std::vector<ewc::ElementType>{ewc::ElementType::F64,
                                           ewc::ElementType::Bool}));
  EXPECT_FALSE(scale->params[1].defaultValue);
  EXPECT_EQ(mod->kernel("nope"), nullptr);
}

TEST(ApiTest, LaunchOnHostArrays) {
  ewc::Result<ewc::Module> mod = ewc::compile(kLeakyRelu, cpu());
  ASSERT_TRUE(mod) << mod.error();
  std::vector<float> x = {-2, -1, 0, 3}, y(4, NAN);
  ewc::Status status = mod->launch(
      "leaky_relu", {ewc::Arg::tensor(x.data()), ewc::Arg::number(0.5)},
      {y.data()}, 4);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(y, (std::vector<float>{-1, -0.5, 0, 3}));
  // The default, as the compiled kernel has it.
  status = mod->launch("leaky_relu",
                       {ewc::Arg::tensor(x.data()), ewc::Arg::byDefault()},
                       {y.data()}, 4);
  ASSERT_TRUE(status) << status.error();
  EXPECT_FLOAT_EQ(y[0], -0.02f);

  std::vector<double> d = {-1.5, 2};
  std::vector<double> scaled(2);
  std::vector<uint8_t> positive(2, 7);
  status = mod->launch("scale",
                       {ewc::Arg::tensor(d.data()), ewc::Arg::integer(3)},
                       {scaled.data(), positive.data()}, 2);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(scaled, (std::vector<double>{-4.5, 6}));
  EXPECT_EQ(positive, (std::vector<uint8_t>{0, 1}));
}

TEST(ApiTest, CompileErrorIsLocated) {
  ewc::Result<ewc::Module> mod = ewc::compile(
      "kernel k(x: f32[n]) -> f32[n] {\n  return y;\n}\n", cpu(), "bad.ew");
  ASSERT_FALSE(mod);
  EXPECT_NE(mod.error().find("bad.ew:2:10: error:"), std::string::npos)
      << mod.error();
  ewc::Result<ewc::Module> missing =
      ewc::compileFile("/nonexistent/k.ew", cpu());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("cannot read '/nonexistent/k.ew'"),
            std::string::npos);
}

TEST(ApiTest, BadLaunchesAreErrors) {
  ewc::Result<ewc::Module> mod = ewc::compile(kLeakyRelu, cpu());
  ASSERT_TRUE(mod) << mod.error();
  std::vector<float> x(4), y(4);
  auto error = [&](const std::string &kernel, std::vector<ewc::Arg> args,
                   std::vector<void *> outputs) {
    ewc::Status status = mod->launch(kernel, args, outputs, 4);
    EXPECT_FALSE(status);
    return status.error();
  };
  EXPECT_EQ(error("nope", {}, {}), "no kernel named 'nope'");
  EXPECT_NE(error("leaky_relu", {ewc::Arg::tensor(x.data())}, {y.data()})
                .find("takes 2 argument(s), got 1"),
            std::string::npos);
  EXPECT_NE(error("leaky_relu",
                  {ewc::Arg::number(1), ewc::Arg::number(1)}, {y.data()})
                .find("is a tensor f32"),
            std::string::npos);
  EXPECT_NE(error("scale", {ewc::Arg::tensor(x.data()), ewc::Arg::byDefault()},
                  {y.data(), y.data()})
                .find("has no default"),
            std::string::npos);
  EXPECT_NE(error("leaky_relu",
                  {ewc::Arg::tensor(x.data()), ewc::Arg::byDefault()}, {})
                .find("output(s)"),
            std::string::npos);
}

} // namespace

namespace {

// Where no CUDA driver is installed (the dev and CI machines), asking for the
// GPU is an error value, not an abort; where one is, the module runs there.
TEST(ApiTest, CudaTargetWithoutDriverIsAnError) {
  ewc::Options options;
  options.target = ewc::Target::Cuda;
  ewc::Result<ewc::Module> mod = ewc::compile(kLeakyRelu, options);
  if (mod)
    EXPECT_EQ(mod->target(), ewc::Target::Cuda);
  else
    EXPECT_NE(mod.error().find("CUDA"), std::string::npos) << mod.error();
}

} // namespace

namespace {

// Every public option reaches the driver's CompileOptions (what the driver
// does with the cache is tested with the cache).
TEST(ApiTest, OptionsReachTheDriver) {
  ewc::Options options;
  options.target = ewc::Target::Cpu;
  options.chip = "sm_100";
  options.cacheDir = "/tmp/ewc-cache-test";
  options.noCache = true;
  ewc::driver::CompileOptions driverOptions =
      ewc::driver::getCompileOptions(options);
  EXPECT_EQ(driverOptions.target, ewc::driver::Target::Cpu);
  EXPECT_EQ(driverOptions.chip, "sm_100");
  EXPECT_EQ(driverOptions.cacheDir, "/tmp/ewc-cache-test");
  EXPECT_TRUE(driverOptions.noCache);
  // The defaults: the default cache, used.
  driverOptions = ewc::driver::getCompileOptions(cpu());
  EXPECT_EQ(driverOptions.cacheDir, "");
  EXPECT_FALSE(driverOptions.noCache);
}

} // namespace
