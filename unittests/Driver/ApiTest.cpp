//===- ApiTest.cpp - The C++ API (ewc/ewc.h) on the CPU -------------------===//
//
// Compiles kernels from strings, reads their signatures, launches them on
// host arrays (contiguous, broadcast by name, strided views, a batch), and
// checks that every kind of bad input comes back as an error value with its
// text; and that the options reach the driver.
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include "ewc/Driver/API.h"
#include "ewc/Frontend/DType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

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
kernel bias_add(x: f32[..., m, n], b: f32[n]) -> f32[..., m, n] {
  return x + b;
}
kernel iota(start: i64) -> i64[n] {
  return start + index(n);
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
  ASSERT_EQ(mod->kernels().size(), 4u);
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
  ASSERT_EQ(scale->results.size(), 2u);
  EXPECT_EQ(scale->results[0].type, ewc::ElementType::F64);
  EXPECT_EQ(scale->results[1].type, ewc::ElementType::Bool);
  EXPECT_EQ(scale->results[1].dims, std::vector<std::string>{"n"});
  EXPECT_FALSE(scale->params[1].defaultValue);
  const ewc::Kernel *bias = mod->kernel("bias_add");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(bias->params[0].dims, (std::vector<std::string>{"...", "m", "n"}));
  EXPECT_EQ(bias->dims, (std::vector<std::string>{"...", "m", "n"}));
  EXPECT_EQ(bias->signature,
            "bias_add(x: f32[..., m, n], b: f32[n]) -> f32[..., m, n]");
  EXPECT_EQ(mod->kernel("nope"), nullptr);
}

// The comment block right above a kernel is its doc; a blank line, code or
// a comment at the end of a code line ends it. Warnings of a compilation that
// succeeds come back one located diagnostic each.
TEST(ApiTest, DocCommentsAndWarnings) {
  const char *good = R"(# File header, not a doc.

# Adds one.
#   (indented text keeps its indentation)
#
# Last line.
kernel add_one(x: f32[n]) -> f32[n] {
  let unused = x * 2.0;
  return x + 1.0;
}
kernel no_doc(x: f32[n]) -> f32[n] { return x; }  # trailing
    # indented, still a doc
kernel indented(x: f32[n]) -> f32[n] { return x; }
)";
  ewc::Result<ewc::Module> mod = ewc::compile(good, cpu(), "d.ew");
  ASSERT_TRUE(mod) << mod.error();
  EXPECT_EQ(mod->kernel("add_one")->doc,
            "Adds one.\n  (indented text keeps its indentation)\n\nLast "
            "line.");
  EXPECT_EQ(mod->kernel("no_doc")->doc, "");
  EXPECT_EQ(mod->kernel("indented")->doc, "indented, still a doc");
  ASSERT_EQ(mod->warnings().size(), 1u);
  EXPECT_EQ(mod->warnings()[0], "d.ew:8:7: warning: unused let 'unused'\n"
                                "  let unused = x * 2.0;\n"
                                "      ^~~~~~");
  // A module without warnings has none (nothing left over from another).
  ewc::Result<ewc::Module> clean = ewc::compile(kLeakyRelu, cpu(), "k.ew");
  ASSERT_TRUE(clean) << clean.error();
  EXPECT_TRUE(clean->warnings().empty());
  EXPECT_EQ(clean->kernel("leaky_relu")->doc, "");
}

TEST(ApiTest, Version) {
  llvm::StringRef version = ewc::getVersion();
  llvm::SmallVector<llvm::StringRef> parts;
  version.split(parts, '.');
  ASSERT_EQ(parts.size(), 3u) << version.str();
  for (llvm::StringRef part : parts) {
    unsigned number;
    EXPECT_FALSE(part.getAsInteger(10, number)) << version.str();
  }
  llvm::StringRef revision = ewc::getRevision();
  if (revision != "unknown") {
    revision.consume_back("+");
    EXPECT_EQ(revision.size(), 12u);
    EXPECT_TRUE(llvm::all_of(revision, llvm::isHexDigit)) << revision.str();
  }
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
  status =
      mod->launch("scale", {ewc::Arg::tensor(d.data()), ewc::Arg::integer(3)},
                  {scaled.data(), positive.data()}, 2);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(scaled, (std::vector<double>{-4.5, 6}));
  EXPECT_EQ(positive, (std::vector<uint8_t>{0, 1}));
}

TEST(ApiTest, LaunchOnViews) {
  ewc::Result<ewc::Module> mod = ewc::compile(kLeakyRelu, cpu());
  ASSERT_TRUE(mod) << mod.error();
  // x: 2 x 3, read transposed out of a 3 x 2 buffer; b: every other element.
  std::vector<float> xT = {0, 10, 1, 11, 2, 12}, b = {100, -1, 200, -1, 300};
  std::vector<float> y(6, NAN);
  ewc::Status status =
      mod->launch("bias_add",
                  {ewc::Arg::tensor({xT.data(), {2, 3}, {1, 2}}),
                   ewc::Arg::tensor({b.data(), {3}, {2}})},
                  {ewc::Tensor{y.data(), {2, 3}, {}}});
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(y, (std::vector<float>{100, 201, 302, 110, 211, 312}));
  // A batch of 2 over a column of one: shapes [2, 1, 3].
  std::vector<float> x3 = {1, 2, 3, 4, 5, 6}, y3(6);
  status = mod->launch("bias_add",
                       {ewc::Arg::tensor({x3.data(), {2, 1, 3}, {}}),
                        ewc::Arg::tensor({b.data(), {3}, {2}})},
                       {ewc::Tensor{y3.data(), {2, 1, 3}, {}}});
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(y3, (std::vector<float>{101, 202, 303, 104, 205, 306}));
  // The shapes of the results, from the arguments and the dims.
  auto shapes = mod->resultShapes("bias_add",
                                  {ewc::Arg::tensor({x3.data(), {4, 2, 3}, {}}),
                                   ewc::Arg::tensor({b.data(), {3}, {}})});
  ASSERT_TRUE(shapes) << shapes.error();
  EXPECT_EQ(*shapes, (std::vector<std::vector<int64_t>>{{4, 2, 3}}));
  ewc::LaunchOptions options;
  options.dims = {{"n", 4}};
  auto iotaShapes = mod->resultShapes("iota", {ewc::Arg::integer(5)}, options);
  ASSERT_TRUE(iotaShapes) << iotaShapes.error();
  EXPECT_EQ(*iotaShapes, (std::vector<std::vector<int64_t>>{{4}}));
  // A dimension only the result has comes from the output.
  std::vector<int64_t> counted(4);
  status = mod->launch("iota", {ewc::Arg::integer(5)},
                       {ewc::Tensor{counted.data(), {4}, {}}});
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(counted, (std::vector<int64_t>{5, 6, 7, 8}));
  // Disagreeing extents name the dimension and both tensors.
  status = mod->launch("bias_add",
                       {ewc::Arg::tensor({xT.data(), {2, 3}, {}}),
                        ewc::Arg::tensor({b.data(), {2}, {}})},
                       {ewc::Tensor{y.data(), {2, 3}, {}}});
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error(), "'b' has n = 2 but 'x' has n = 3");
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
  EXPECT_NE(error("leaky_relu", {ewc::Arg::number(1), ewc::Arg::number(1)},
                  {y.data()})
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
  // The types: the front end's binding (a repeated name, the last).
  options.types = {{"U", ewc::ElementType::I64},
                   {"T", ewc::ElementType::BF16},
                   {"U", ewc::ElementType::I32}};
  EXPECT_EQ(ewc::formatTypeBinding(ewc::driver::getTypeBinding(options)),
            "T=bf16,U=i32");
  EXPECT_TRUE(ewc::driver::getTypeBinding(cpu()).empty());
}

TEST(ApiTest, TypeBindingSpelling) {
  std::string error;
  ewc::TypeBinding binding = ewc::parseTypeBinding("U=i64, T=f16", error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(ewc::formatTypeBinding(binding), "T=f16,U=i64");
  for (const char *bad :
       {"T", "=f32", "T=", "T=f17", "T=f32,", "T=f32,T=f64"}) {
    ewc::parseTypeBinding(bad, error);
    EXPECT_NE(error, "") << bad;
  }
  EXPECT_EQ(ewc::formatTypeBinding({}), "");
}

TEST(ApiTest, GenericKernels) {
  const char *source = "kernel g<T: any, U: int>(x: T[n], k: U[n], s: T = 1) "
                       "-> T[n] {\n  return x * s + T(k);\n}\n";
  ewc::Result<ewc::Module> mod = ewc::compile(source, cpu(), "g.ew");
  ASSERT_TRUE(mod) << mod.error();
  EXPECT_TRUE(mod->kernels().empty());
  ASSERT_EQ(mod->genericKernels().size(), 1u);
  const ewc::GenericKernel &g = mod->genericKernels()[0];
  EXPECT_EQ(g.signature,
            "g<T: any, U: int>(x: T[n], k: U[n], s: T = 1) -> T[n]");
  ASSERT_EQ(g.typeParams.size(), 2u);
  EXPECT_EQ(g.typeParams[1].constraint, "int");
  EXPECT_EQ(g.typeParams[1].admits,
            (std::vector<ewc::ElementType>{ewc::ElementType::I32,
                                           ewc::ElementType::I64}));
  EXPECT_EQ(g.typeParams[0].admits.size(), 6u);
  ASSERT_EQ(g.params.size(), 3u);
  EXPECT_EQ(g.params[1].typeParam, 1);
  EXPECT_EQ(g.params[2].typeParam, 0);
  EXPECT_FALSE(g.params[2].defaultValue); // of T: no one value
  EXPECT_EQ(g.resultTypeParams, std::vector<int>{0});
  float x[2] = {1, 2}, y[2];
  ewc::Status status =
      mod->launch("g", {ewc::Arg::tensor(x)}, std::vector<void *>{y}, 2);
  EXPECT_NE(status.error().find("kernel 'g<T: any, U: int>' is generic"),
            std::string::npos)
      << status.error();

  // Every binding of the 6 x 2 that sema checked compiles and runs.
  for (ewc::ElementType t : g.typeParams[0].admits)
    for (ewc::ElementType u : g.typeParams[1].admits) {
      ewc::Options options = cpu();
      options.types = {{"T", t}, {"U", u}};
      ewc::Result<ewc::Module> bound = ewc::compile(source, options, "g.ew");
      ASSERT_TRUE(bound) << bound.error();
      ASSERT_NE(bound->kernel("g"), nullptr);
      EXPECT_EQ(bound->kernel("g")->params[0].type, t);
      EXPECT_EQ(bound->kernel("g")->params[1].type, u);
      EXPECT_TRUE(bound->genericKernels().empty());
    }
}

TEST(ApiTest, GenericTypesFromTensors) {
  const char *source = "kernel g<T: float, U: int>(x: T[n], k: U[n], y: T[n], "
                       "s: f32 = 2) -> T[n] {\n  return x * T(s) + T(k) + y;"
                       "\n}\n";
  using ewc::ElementType;
  ewc::Result<ewc::Module> mod = ewc::compile(source, cpu(), "g.ew");
  ASSERT_TRUE(mod) << mod.error();
  ASSERT_NE(mod->genericKernel("g"), nullptr);
  EXPECT_EQ(mod->genericKernel("f"), nullptr);

  // Read from the tensors' element types, the scalar's left out.
  auto types = mod->inferTypes(
      "g", {ElementType::F64, ElementType::I64, ElementType::F64, {}});
  ASSERT_TRUE(types) << types.error();
  EXPECT_EQ(*types, (std::vector<std::pair<std::string, ElementType>>{
                        {"T", ElementType::F64}, {"U", ElementType::I64}}));
  // Disagreeing tensors, a type no tensor gives, a type not admitted.
  auto expectError = [&](std::vector<std::optional<ElementType>> argTypes,
                         const std::string &message) {
    auto inferred = mod->inferTypes("g", argTypes);
    ASSERT_FALSE(inferred);
    EXPECT_EQ(inferred.error(), message);
  };
  expectError({ElementType::F32, ElementType::I32, ElementType::F16},
              "g: T is f32 from 'x' but f16 from 'y'");
  expectError({ElementType::F32}, "g: no argument gives the type of U; pass "
                                  "it to specialize");
  expectError({ElementType::I32, ElementType::I32},
              "g: 'x' has i32 elements, but T: float admits f16, bf16, f32, "
              "f64");
  expectError({{}, {}, {}, {}, {}}, "g: 5 argument types for 4 parameters");
  EXPECT_FALSE(mod->inferTypes("h", {}));

  // specialize: the source again with the types, the other options kept.
  ewc::Result<ewc::Module> spec = mod->specialize(*types);
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_EQ(spec->target(), ewc::Target::Cpu);
  ASSERT_NE(spec->kernel("g"), nullptr);
  EXPECT_EQ(spec->kernel("g")->params[0].type, ElementType::F64);
  EXPECT_EQ(spec->kernel("g")->params[1].type, ElementType::I64);
  double x[3] = {1, -2, 0.5}, y[3] = {10, 20, 30}, out[3];
  int64_t k[3] = {1, 2, 3};
  ewc::Status status =
      spec->launch("g",
                   {ewc::Arg::tensor(x), ewc::Arg::tensor(k),
                    ewc::Arg::tensor(y), ewc::Arg::byDefault()},
                   std::vector<void *>{out}, 3);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(out[0], 13.0);
  EXPECT_EQ(out[1], 18.0);
  EXPECT_EQ(out[2], 34.0);
  // Partly bound: the rest later, from the partial module.
  ewc::Result<ewc::Module> partial = mod->specialize({{"T", ElementType::F32}});
  ASSERT_TRUE(partial) << partial.error();
  EXPECT_EQ(partial->kernel("g"), nullptr);
  ASSERT_NE(partial->genericKernel("g"), nullptr);
  ewc::Result<ewc::Module> full =
      partial->specialize({{"U", ElementType::I32}});
  ASSERT_TRUE(full) << full.error();
  ASSERT_NE(full->kernel("g"), nullptr);
  EXPECT_EQ(full->kernel("g")->params[0].type, ElementType::F32);
  ewc::Result<ewc::Module> clash =
      partial->specialize({{"T", ElementType::F64}});
  ASSERT_FALSE(clash);
  EXPECT_EQ(clash.error(),
            "type parameter 'T' is f32 in this module already, not f64");
  ewc::Result<ewc::Module> bad = mod->specialize({{"T", ElementType::I32}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("cannot take T = i32"), std::string::npos)
      << bad.error();
}

} // namespace
