//===- CheckTest.cpp - Marshalling and checking of validation runs --------===//
//
// The pieces of EWCCheck that lit reaches only through ewc-run's output:
// scalar text to ABI bytes, how a run binds its dimensions, which inputs it
// makes and how it lays them out, which values a launch takes (compiled
// defaults versus given ones), and that a run on the CPU JIT is checked
// element by element, a corrupted output and a stray write included.
//
//===----------------------------------------------------------------------===//

#include "ewc/Check/KernelRunner.h"

#include "ewc/Driver/Driver.h"
#include "ewc/Frontend/AST.h"
#include "ewc/Reference/Evaluator.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace ewc;
using namespace ewc::check;

namespace {

const char *kProgram = R"(
kernel leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n] {
  return where(x >= 0.0, x, slope * x);
}
kernel scale(x: i32[n], k: i32) -> i32[n] {
  return x * k;
}
kernel bias_add(x: f32[..., m, n], b: f32[n]) -> f32[..., m, n] {
  return x + b;
}
kernel fill(v: f32 = 0.5) -> f32[n] {
  return v;
}
)";

/// makeInputs under the dimensions bindRunDims gives for `spec`.
llvm::Expected<std::vector<StridedArray>> makeInputs(const KernelDecl &kernel,
                                                     const InputSpec &spec) {
  llvm::Expected<DimBindings> bindings = bindRunDims(kernel, spec);
  if (!bindings)
    return bindings.takeError();
  return check::makeInputs(kernel, spec, *bindings);
}

/// The parsed program and its kernels compiled for the CPU.
struct Compiled {
  std::unique_ptr<driver::Source> source;
  std::unique_ptr<driver::LoadedModule> module;

  const KernelDecl &kernel(llvm::StringRef name) const {
    for (const auto &kernel : source->getAST().getKernels())
      if (kernel->getName() == name)
        return *kernel;
    llvm_unreachable("no such kernel");
  }
};

Compiled compile(const char *text = kProgram) {
  Compiled compiled;
  auto source = driver::Source::parse(
      llvm::MemoryBuffer::getMemBufferCopy(text, "test.ew"), nullptr);
  EXPECT_TRUE(bool(source)) << llvm::toString(source.takeError());
  compiled.source = std::move(*source);
  driver::CompileOptions options;
  options.target = driver::Target::Cpu;
  auto module = driver::LoadedModule::compile(*compiled.source, options);
  EXPECT_TRUE(bool(module)) << llvm::toString(module.takeError());
  compiled.module = std::move(*module);
  return compiled;
}

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(ParseScalarTest, EveryKind) {
  auto f32 = parseScalar(DType::F32, "-inf", "k");
  ASSERT_TRUE(bool(f32));
  EXPECT_EQ(f32->getAsDouble(0), -INFINITY);
  auto f16 = parseScalar(DType::F16, "0.1", "k");
  ASSERT_TRUE(bool(f16));
  EXPECT_EQ(f16->getAsDouble(0), roundToFloatType(0.1, DType::F16));
  auto i64 = parseScalar(DType::I64, "0x10", "k");
  ASSERT_TRUE(bool(i64));
  EXPECT_EQ(i64->getAsInt(0), 16);
  auto boolean = parseScalar(DType::Bool, "true", "k");
  ASSERT_TRUE(bool(boolean));
  EXPECT_EQ(*static_cast<const uint8_t *>(boolean->data()), 1);
}

TEST(ParseScalarTest, Errors) {
  EXPECT_EQ(errorText(parseScalar(DType::F32, "fast", "k").takeError()),
            "invalid value 'fast' for --arg k: expected a number");
  EXPECT_EQ(errorText(parseScalar(DType::F32, "", "k").takeError()),
            "invalid value '' for --arg k: expected a number");
  EXPECT_EQ(errorText(parseScalar(DType::I32, "2147483648", "k").takeError()),
            "invalid value '2147483648' for --arg k: expected an integer of "
            "i32 (-2147483648 to 2147483647)");
  EXPECT_TRUE(bool(parseScalar(DType::I64, "2147483648", "k")));
  // Each type's range: u8 takes 255 and not 256 or -1; u64 takes 2^64 - 1
  // (held as its bits).
  EXPECT_EQ(errorText(parseScalar(DType::U8, "256", "k").takeError()),
            "invalid value '256' for --arg k: expected an integer of u8 (0 to "
            "255)");
  EXPECT_FALSE(bool(parseScalar(DType::U8, "-1", "k")));
  EXPECT_FALSE(bool(parseScalar(DType::I8, "-129", "k")));
  llvm::Expected<HostArray> top =
      parseScalar(DType::U64, "18446744073709551615", "k");
  ASSERT_TRUE(bool(top));
  EXPECT_EQ(top->getAsInt(0), -1);
  EXPECT_EQ(errorText(parseScalar(DType::Bool, "yes", "k").takeError()),
            "invalid value 'yes' for --arg k: expected true or false");
}

TEST(InputsTest, DefaultsArgsAndRandomTensors) {
  Compiled compiled = compile();
  const KernelDecl &leaky = compiled.kernel("leaky_relu");
  InputSpec spec;
  spec.n = 100;
  auto inputs = makeInputs(leaky, spec);
  ASSERT_TRUE(bool(inputs)) << errorText(inputs.takeError());
  ASSERT_EQ(inputs->size(), 2u);
  EXPECT_EQ((*inputs)[0].shape, (std::vector<int64_t>{100}));
  EXPECT_EQ((*inputs)[0].storage.size(), 100);
  EXPECT_EQ((*inputs)[1].storage.size(), 1);
  EXPECT_TRUE((*inputs)[1].shape.empty());
  EXPECT_FLOAT_EQ((*inputs)[1].storage.getAsDouble(0), 0.01f);
  // The same seed, the same tensor; a given scalar replaces the default.
  spec.args = {{"slope", "0.5"}};
  auto again = makeInputs(leaky, spec);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ((*again)[0].storage.toDoubles(), (*inputs)[0].storage.toDoubles());
  EXPECT_EQ((*again)[1].storage.getAsDouble(0), 0.5);
}

TEST(InputsTest, ScalarWithoutDefaultDrawsFromTheSeed) {
  Compiled compiled = compile();
  const KernelDecl &scale = compiled.kernel("scale");
  InputSpec spec;
  spec.seed = 7;
  auto first = makeInputs(scale, spec);
  auto again = makeInputs(scale, spec);
  ASSERT_TRUE(first && again);
  EXPECT_EQ((*first)[1].storage.getAsInt(0), (*again)[1].storage.getAsInt(0));
  spec.args = {{"k", "-3"}};
  auto given = makeInputs(scale, spec);
  ASSERT_TRUE(bool(given));
  EXPECT_EQ((*given)[1].storage.getAsInt(0), -3);
}

TEST(InputsTest, BindsDimensions) {
  Compiled compiled = compile();
  const KernelDecl &bias = compiled.kernel("bias_add");
  InputSpec spec;
  spec.n = 5;
  spec.dims = {{"m", 3}};
  // --n for n, --dim for m, no batch by default where named dimensions are.
  auto bound = bindRunDims(bias, spec);
  ASSERT_TRUE(bool(bound)) << errorText(bound.takeError());
  EXPECT_EQ(bound->extents.lookup("m"), 3);
  EXPECT_EQ(bound->extents.lookup("n"), 5);
  EXPECT_TRUE(bound->batchShape.empty());
  spec.batch = std::vector<int64_t>{2, 4};
  bound = bindRunDims(bias, spec);
  ASSERT_TRUE(bool(bound));
  EXPECT_EQ(bound->batchShape, (std::vector<int64_t>{2, 4}));
  // A file's shape binds its dimensions and beats --n; --dim disagreeing
  // with it is an error naming both.
  InputArrays files;
  files["x"] = NpyArray{HostArray(DType::F32, 2 * 3 * 7), {2, 3, 7}, false};
  spec.files = &files;
  spec.batch.reset();
  spec.dims.clear();
  bound = bindRunDims(bias, spec);
  ASSERT_TRUE(bool(bound)) << errorText(bound.takeError());
  EXPECT_EQ(bound->extents.lookup("n"), 7);
  EXPECT_EQ(bound->extents.lookup("m"), 3);
  EXPECT_EQ(bound->batchShape, (std::vector<int64_t>{2}));
  spec.dims = {{"n", 6}};
  EXPECT_EQ(errorText(bindRunDims(bias, spec).takeError()),
            "--dim n=6 disagrees with --input x, which has n = 7");
  // A dimension only the result has takes --n like the others.
  InputSpec fillSpec;
  fillSpec.n = 9;
  bound = bindRunDims(compiled.kernel("fill"), fillSpec);
  ASSERT_TRUE(bool(bound));
  EXPECT_EQ(bound->extents.lookup("n"), 9);
}

TEST(InputsTest, Layouts) {
  // Every layout holds the same logical elements; only where they lie
  // differs, and the gaps are poisoned.
  Compiled compiled = compile();
  const KernelDecl &bias = compiled.kernel("bias_add");
  InputSpec spec;
  spec.n = 5;
  spec.dims = {{"m", 3}};
  spec.seed = 3;
  auto contiguous = makeInputs(bias, spec);
  ASSERT_TRUE(bool(contiguous));
  const StridedArray &dense = (*contiguous)[0];
  EXPECT_EQ(dense.strides, (std::vector<int64_t>{5, 1}));
  struct Expected {
    Layout layout;
    std::vector<int64_t> strides;
    int64_t storage;
  };
  for (const Expected &expected :
       {Expected{Layout::Padded, {8, 1}, 2 + 2 * 8 + 5},
        Expected{Layout::Transposed, {1, 3}, 2 + 15},
        Expected{Layout::Strided, {10, 2}, 2 + 2 * 10 + 4 * 2 + 1}}) {
    spec.layout = expected.layout;
    spec.offset = 2;
    auto inputs = makeInputs(bias, spec);
    ASSERT_TRUE(bool(inputs));
    const StridedArray &x = (*inputs)[0];
    SCOPED_TRACE(getLayoutName(expected.layout).str());
    EXPECT_EQ(x.strides, expected.strides);
    EXPECT_EQ(x.offset, 2);
    EXPECT_EQ(x.storage.size(), expected.storage);
    EXPECT_TRUE(x.storage.isPoison(0));
    for (int64_t i = 0; i < 15; ++i)
      EXPECT_EQ(x.storage.getAsDouble(x.getElement(i)),
                dense.storage.getAsDouble(i));
    EXPECT_EQ(x.toContiguous().toDoubles(), dense.storage.toDoubles());
  }
  EXPECT_EQ(parseLayoutName("transposed"), Layout::Transposed);
  EXPECT_EQ(parseLayoutName("sideways"), std::nullopt);
  // Random draws per tensor from the seed: not all tensors alike for every
  // seed.
  spec.layout = Layout::Random;
  bool differs = false;
  for (uint64_t seed = 0; seed < 16 && !differs; ++seed) {
    spec.seed = seed;
    differs = getLayoutOf(spec, 0) != getLayoutOf(spec, 1);
  }
  EXPECT_TRUE(differs);
  EXPECT_NE(getLayoutOf(spec, 0), Layout::Random);
  // So does each tensor's offset: 0 to 3 past spec.offset, the same for the
  // same seed and tensor, and not one offset for all tensors.
  spec.offset = 1;
  bool offsetsDiffer = false;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    spec.seed = seed;
    for (unsigned tensor = 0; tensor < 3; ++tensor) {
      int64_t offset = getOffsetOf(spec, tensor);
      EXPECT_GE(offset, 1);
      EXPECT_LE(offset, 4);
      EXPECT_EQ(offset, getOffsetOf(spec, tensor));
    }
    offsetsDiffer |= getOffsetOf(spec, 0) != getOffsetOf(spec, 1);
  }
  EXPECT_TRUE(offsetsDiffer);
  spec.layout = Layout::Padded;
  EXPECT_EQ(getOffsetOf(spec, 2), 1);
}

TEST(InputsTest, Errors) {
  Compiled compiled = compile();
  InputSpec spec;
  spec.args = {{"x", "1"}};
  EXPECT_EQ(
      errorText(makeInputs(compiled.kernel("leaky_relu"), spec).takeError()),
      "--arg x: 'x' is a tensor parameter; only scalar parameters take "
      "values");
  DimBindings huge;
  huge.extents["n"] = int64_t(1) << 60;
  EXPECT_TRUE(
      errorText(checkHostMemory(compiled.kernel("leaky_relu"), spec, huge))
          .find("kernel 'leaky_relu' with n = 1152921504606846976 needs") !=
      std::string::npos);
  DimBindings small;
  small.extents["n"] = 1024;
  EXPECT_FALSE(checkHostMemory(compiled.kernel("leaky_relu"), spec, small));
}

TEST(LaunchValuesTest, CompiledDefaultUnlessGiven) {
  Compiled compiled = compile();
  const KernelDecl &leaky = compiled.kernel("leaky_relu");
  KernelSignature signature = *compiled.module->lookupKernel("leaky_relu");
  // A compiler that got the default wrong: the launch takes its value, the
  // reference's inputs keep the source's.
  signature.params[1].defaultValue->floatValue = 0.25;
  InputSpec spec;
  spec.n = 4;
  auto inputs = makeInputs(leaky, spec);
  ASSERT_TRUE(bool(inputs));
  auto values = getLaunchValues(leaky, signature, *inputs, spec.args);
  ASSERT_TRUE(bool(values)) << errorText(values.takeError());
  ASSERT_EQ(values->params.size(), 2u);
  EXPECT_EQ(values->params[0], &(*inputs)[0]);
  EXPECT_EQ(values->params[1]->storage.getAsDouble(0), 0.25);
  EXPECT_FLOAT_EQ((*inputs)[1].storage.getAsDouble(0), 0.01f);
  // Given on the command line, the value is the same for both.
  std::vector<ScalarArg> args = {{"slope", "2"}};
  values = getLaunchValues(leaky, signature, *inputs, args);
  ASSERT_TRUE(bool(values));
  EXPECT_EQ(values->params[1], &(*inputs)[1]);
  // A compiled kernel without the default is an error, not a guess.
  signature.params[1].defaultValue.reset();
  EXPECT_EQ(
      errorText(getLaunchValues(leaky, signature, *inputs, {}).takeError()),
      "the compiled kernel 'leaky_relu' has no default for parameter "
      "'slope'");
}

TEST(KernelRunnerTest, RunsAndChecksOnTheCpu) {
  Compiled compiled = compile();
  const KernelDecl &scale = compiled.kernel("scale");
  InputSpec spec;
  spec.n = 1003;
  spec.args = {{"k", "-3"}};
  auto checked = runAndCheck(scale, *compiled.module, spec, CheckOptions());
  ASSERT_TRUE(bool(checked)) << errorText(checked.takeError());
  EXPECT_TRUE(checked->ok());
  ASSERT_EQ(checked->results.size(), 1u);
  EXPECT_EQ(checked->results[0].size, 1003);
  const KernelRun &run = checked->run;
  EXPECT_EQ(run.outputs[0].storage.getAsInt(7),
            run.inputs[0].storage.getAsInt(7) * -3);
}

TEST(KernelRunnerTest, ViewsOfEveryLayout) {
  // bias_add over a batch, every tensor in its own layout, misaligned.
  Compiled compiled = compile();
  const KernelDecl &bias = compiled.kernel("bias_add");
  InputSpec spec;
  spec.n = 33;
  spec.dims = {{"m", 5}};
  spec.batch = std::vector<int64_t>{2, 3};
  spec.layout = Layout::Random;
  spec.offset = 1;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    spec.seed = seed;
    auto checked = runAndCheck(bias, *compiled.module, spec, CheckOptions());
    ASSERT_TRUE(bool(checked)) << errorText(checked.takeError());
    EXPECT_TRUE(checked->ok()) << seed;
    EXPECT_EQ(checked->results[0].size, 2 * 3 * 5 * 33);
    EXPECT_EQ(checked->run.outputs[0].shape,
              (std::vector<int64_t>{2, 3, 5, 33}));
  }
}

TEST(KernelRunnerTest, FindsAStrayWrite) {
  Compiled compiled = compile();
  const KernelDecl &bias = compiled.kernel("bias_add");
  InputSpec spec;
  spec.n = 4;
  spec.dims = {{"m", 3}};
  spec.layout = Layout::Padded;
  auto run = runKernel(bias, *compiled.module, spec);
  ASSERT_TRUE(bool(run)) << errorText(run.takeError());
  // Rows of 4 at a pitch of 7: element 5 lies in the first row's padding.
  StridedArray &output = run->outputs[0];
  ASSERT_EQ(output.strides, (std::vector<int64_t>{7, 1}));
  EXPECT_EQ(findStrayWrites(output).count, 0);
  output.storage.setFromDouble(5, 1.0);
  output.storage.setFromDouble(13, 1.0);
  StrayWrites stray = findStrayWrites(output);
  EXPECT_EQ(stray.count, 2);
  EXPECT_EQ(stray.first, 5);
  auto checked = checkRun(bias, std::move(*run), CheckOptions());
  ASSERT_TRUE(bool(checked));
  EXPECT_TRUE(checked->results[0].ok());
  EXPECT_FALSE(checked->ok());

  // A wrong element at point [1, 2] (storage element 9) prints with x's
  // and b's elements there.
  StridedArray &written = checked->run.outputs[0];
  float x = checked->run.inputs[0].storage.getAsDouble(
      checked->run.inputs[0].getElement(1 * 4 + 2));
  float b = checked->run.inputs[1].storage.getAsDouble(2);
  written.storage.setFromDouble(9, 1000.0);
  auto rechecked = checkRun(bias, std::move(checked->run), CheckOptions());
  ASSERT_TRUE(bool(rechecked));
  EXPECT_EQ(rechecked->results[0].numMismatches, 1);
  std::string text;
  llvm::raw_string_ostream os(text);
  printMismatches(os, *rechecked, 0, bias, 1, "");
  EXPECT_EQ(text,
            llvm::formatv("[1, 2] x={0} b={1}: got 1000, expected {2}\n",
                          llvm::format("%.9g", x), llvm::format("%.9g", b),
                          rechecked->results[0].first.expected)
                .str());
}

TEST(KernelRunnerTest, FindsAWrongAndAnUnwrittenElement) {
  Compiled compiled = compile();
  const KernelDecl &leaky = compiled.kernel("leaky_relu");
  InputSpec spec;
  spec.n = 64;
  auto run = runKernel(leaky, *compiled.module, spec);
  ASSERT_TRUE(bool(run)) << errorText(run.takeError());
  HostArray &output = run->outputs[0].storage;
  output.setFromDouble(5, output.getAsDouble(5) + 1);
  HostArray poison(DType::F32, 1);
  poison.fillPoison();
  std::memcpy(static_cast<float *>(output.data()) + 9, poison.data(),
              sizeof(float));
  CheckOptions options;
  options.numWorst = 2;
  auto checked = checkRun(leaky, std::move(*run), options);
  ASSERT_TRUE(bool(checked));
  ASSERT_EQ(checked->results.size(), 1u);
  const CompareResult &result = checked->results[0];
  EXPECT_EQ(result.numMismatches, 2);
  EXPECT_EQ(result.numUnwritten, 1);
  EXPECT_EQ(result.first.index, 5);
  std::string text;
  llvm::raw_string_ostream os(text);
  printMismatches(os, *checked, 0, leaky, 1, "  ");
  // The worst first: the unwritten element, with the inputs at its index.
  EXPECT_EQ(text.rfind("  [9] x=", 0), 0u) << text;
  EXPECT_NE(text.find("slope=0.00999999978: got unwritten"), std::string::npos)
      << text;
}

/// exp(x) in f32 (correctly rounded but for double's own rounding).
float expf32(float x) { return static_cast<float>(std::exp(double(x))); }

/// A row a < m < M for which exp(a - m) exp(m - M) is farthest from
/// exp(a - M) (found by a search over random ones): 66.9 ulps.
constexpr float kLow = -53.8134079f, kMiddle = -15.8186588f,
                kMax = 0.151460394f;

/// The one kernel of `text`, parsed (the reference needs no compilation);
/// `source` keeps it.
const KernelDecl *parseKernel(const char *text,
                              std::unique_ptr<driver::Source> &source) {
  auto parsed = driver::Source::parse(
      llvm::MemoryBuffer::getMemBufferCopy(text, "test.ew"), nullptr);
  EXPECT_TRUE(bool(parsed)) << errorText(parsed.takeError());
  if (!parsed)
    return nullptr;
  source = std::move(*parsed);
  return source->getAST().getKernels().front().get();
}

/// Exact comparison: only the reference's slack.
CheckOptions slackOnly() {
  CheckOptions options;
  options.rtol = 0;
  options.atol = 0;
  return options;
}

/// The mismatches of `got` as the one result of `kernel` (x and w of one
/// row of 3 each), by the reference's slack alone.
int64_t checkRow(const KernelDecl &kernel, const HostArray &x,
                 const HostArray &w, double got) {
  HostArray out(x.getDType(), 1);
  out.setFromDouble(0, got);
  auto checked =
      checkKernel(kernel, {ArrayView::of(x, {1, 3}), ArrayView::of(w, {1, 3})},
                  {ArrayView::of(out, {1})}, slackOnly());
  EXPECT_TRUE(bool(checked)) << errorText(checked.takeError());
  return checked ? (*checked)[0].numMismatches : -1;
}

// The GPU's online groups (docs/design.md, "Online groups") take a row's
// sum of exp(x - max) * w in parts: a part's terms against its own max m,
// its sum then rescaled by exp(m - M) when it meets a part with a larger
// max M (a lane's next elements, other lanes, other blocks). An element's
// term is then exp(a - m) exp(m - M), where the reference computes
// exp(a - M): two subtractions rounded apart and two exponentials. Here
// the row is a, m, M with the weight on a alone, split as (a, m) and (M):
// 66.9 ulps off, which the reference allowed as 6 (ewc-fuzz --seed 9146
// on an H100: a sum of this kind split across 2 blocks was 8 ulps off
// where it allowed 7.8). Its slack now holds it; a dropped rescale (the
// mutation online-rescale-dropped) is still far outside.
TEST(ReferenceTest, OnlineRescalesAreWithinTheSlack) {
  std::unique_ptr<driver::Source> source;
  const KernelDecl *kernel = parseKernel(R"(
kernel weighted(x: f32[m, n], w: f32[m, n]) -> f32[m] {
  return sum(exp(x - amax(x, n)) * w, n);
}
)",
                                         source);
  ASSERT_TRUE(kernel);
  HostArray x(DType::F32, 3), w(DType::F32, 3);
  for (auto [k, v] : llvm::enumerate(std::vector<float>{kLow, kMiddle, kMax}))
    x.setFromDouble(k, v);
  w.setFromDouble(0, 1);
  auto check = [&](float got) { return checkRow(*kernel, x, w, got); };
  // The part (a, m): its max m, its sum exp(a - m) * 1 + exp(0) * 0; the
  // part (M): exp(0) * 0. They meet at M's max.
  float part = expf32(kLow - kMiddle);
  EXPECT_EQ(check(part * expf32(kMiddle - kMax) + 0.0f), 0);
  // The reference's own order, and the rescale dropped.
  EXPECT_EQ(check(expf32(kLow - kMax)), 0);
  EXPECT_EQ(check(part + 0.0f), 1);
}

// An online group's partial sums hold its terms against a running max that
// may be below the row's: exp(a - m) up to 1 where the reference has
// exp(a - M). Two terms of -DBL_MAX weight at x = 0 meet before the row's
// max 10 comes: -inf, where the reference's sum is -2 DBL_MAX e^-10 (ewc-fuzz
// --seed 9158 on an H100, program 1200000185, a row split 7 ways). The sum
// may then be anything; with weights of -DBL_MAX / 4 no order overflows,
// and neither does a sum of the same terms that is no online group.
TEST(ReferenceTest, OnlineGroupsMayOverflowBeforeTheRowsMax) {
  std::unique_ptr<driver::Source> source;
  const KernelDecl *online = parseKernel(R"(
kernel weighted(x: f64[m, n], w: f64[m, n]) -> f64[m] {
  return sum(exp(x - amax(x, n)) * w, n);
}
)",
                                         source);
  std::unique_ptr<driver::Source> plainSource;
  const KernelDecl *plain = parseKernel(R"(
kernel weighted(x: f64[m, n], w: f64[m, n]) -> f64[m] {
  return sum(exp(x - 10.0) * w, n);
}
)",
                                        plainSource);
  ASSERT_TRUE(online && plain);
  double max = std::numeric_limits<double>::max();
  HostArray x(DType::F64, 3), w(DType::F64, 3);
  for (auto [k, v] : llvm::enumerate(std::vector<double>{0, 0, 10}))
    x.setFromDouble(k, v);
  auto check = [&](const KernelDecl &kernel, double weight, double got) {
    w.setFromDouble(0, weight);
    w.setFromDouble(1, weight);
    w.setFromDouble(2, 0);
    return checkRow(kernel, x, w, got);
  };
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(check(*online, -max, 2 * (-max * std::exp(-10.0))), 0);
  EXPECT_EQ(check(*online, -max, -inf), 0);
  EXPECT_EQ(check(*online, -max / 4, -inf), 1);
  EXPECT_EQ(check(*plain, -max, -inf), 1);
}

// Outside a sum over the max's dimensions nothing rescales: softmax's
// exp(x - max) at its points keeps the slack of one exponential, and a
// value 16 ulps off (inside the rescales' slack) is wrong there.
TEST(ReferenceTest, NoRescaleSlackOutsideTheSum) {
  std::unique_ptr<driver::Source> source;
  const KernelDecl *kernel = parseKernel(R"(
kernel points(x: f32[m, n]) -> f32[m, n] {
  return exp(x - amax(x, n));
}
)",
                                         source);
  ASSERT_TRUE(kernel);
  HostArray x(DType::F32, 3), out(DType::F32, 3);
  for (auto [k, v] : llvm::enumerate(std::vector<float>{kLow, kMiddle, kMax})) {
    x.setFromDouble(k, v);
    out.setFromDouble(k, expf32(v - kMax));
  }
  float off = expf32(kLow - kMax);
  for (int i = 0; i < 16; ++i)
    off = std::nextafter(off, INFINITY);
  out.setFromDouble(0, off);
  auto checked = checkKernel(*kernel, {ArrayView::of(x, {1, 3})},
                             {ArrayView::of(out, {1, 3})}, slackOnly());
  ASSERT_TRUE(bool(checked)) << errorText(checked.takeError());
  EXPECT_EQ((*checked)[0].numMismatches, 1);
  EXPECT_EQ((*checked)[0].first.index, 0);
}

} // namespace
