//===- CheckTest.cpp - Marshalling and checking of validation runs --------===//
//
// The pieces of EWCCheck that lit reaches only through ewc-run's output:
// scalar text to ABI bytes, which inputs a run makes, which values a launch
// takes (compiled defaults versus given ones), and that a run on the CPU
// JIT is checked element by element, a corrupted output included.
//
//===----------------------------------------------------------------------===//

#include "ewc/Check/KernelRunner.h"

#include "ewc/Driver/Driver.h"
#include "ewc/Frontend/AST.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cmath>

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
)";

/// The parsed program and its kernels compiled for the CPU.
struct Compiled {
  std::unique_ptr<driver::Source> source;
  std::unique_ptr<driver::LoadedModule> module;

  const Kernel &kernel(llvm::StringRef name) const {
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
            "invalid value '2147483648' for --arg k: expected a 32-bit "
            "integer");
  EXPECT_TRUE(bool(parseScalar(DType::I64, "2147483648", "k")));
  EXPECT_EQ(errorText(parseScalar(DType::Bool, "yes", "k").takeError()),
            "invalid value 'yes' for --arg k: expected true or false");
}

TEST(InputsTest, DefaultsArgsAndRandomTensors) {
  Compiled compiled = compile();
  const Kernel &leaky = compiled.kernel("leaky_relu");
  InputSpec spec;
  spec.n = 100;
  auto inputs = makeInputs(leaky, spec);
  ASSERT_TRUE(bool(inputs)) << errorText(inputs.takeError());
  ASSERT_EQ(inputs->size(), 2u);
  EXPECT_EQ((*inputs)[0].size(), 100);
  EXPECT_EQ((*inputs)[1].size(), 1);
  EXPECT_FLOAT_EQ((*inputs)[1].getAsDouble(0), 0.01f);
  // The same seed, the same tensor; a given scalar replaces the default.
  spec.args = {{"slope", "0.5"}};
  auto again = makeInputs(leaky, spec);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ((*again)[0].toDoubles(), (*inputs)[0].toDoubles());
  EXPECT_EQ((*again)[1].getAsDouble(0), 0.5);
}

TEST(InputsTest, Errors) {
  Compiled compiled = compile();
  InputSpec spec;
  EXPECT_EQ(errorText(makeInputs(compiled.kernel("scale"), spec).takeError()),
            "scalar parameter 'k' of kernel 'scale' has no default; pass "
            "--arg k=VALUE");
  spec.args = {{"x", "1"}};
  EXPECT_EQ(
      errorText(makeInputs(compiled.kernel("leaky_relu"), spec).takeError()),
      "--arg x: 'x' is a tensor parameter; only scalar parameters take "
      "values");
  EXPECT_TRUE(
      errorText(checkHostMemory(compiled.kernel("leaky_relu"), int64_t(1) << 60))
          .find("GiB of host memory for kernel 'leaky_relu'") !=
      std::string::npos);
  EXPECT_FALSE(checkHostMemory(compiled.kernel("leaky_relu"), 1024));
}

TEST(LaunchValuesTest, CompiledDefaultUnlessGiven) {
  Compiled compiled = compile();
  const Kernel &leaky = compiled.kernel("leaky_relu");
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
  EXPECT_EQ(values->params[1]->getAsDouble(0), 0.25);
  EXPECT_FLOAT_EQ((*inputs)[1].getAsDouble(0), 0.01f);
  // Given on the command line, the value is the same for both.
  std::vector<ScalarArg> args = {{"slope", "2"}};
  values = getLaunchValues(leaky, signature, *inputs, args);
  ASSERT_TRUE(bool(values));
  EXPECT_EQ(values->params[1], &(*inputs)[1]);
  // A compiled kernel without the default is an error, not a guess.
  signature.params[1].defaultValue.reset();
  EXPECT_EQ(errorText(getLaunchValues(leaky, signature, *inputs, {})
                          .takeError()),
            "the compiled kernel 'leaky_relu' has no default for parameter "
            "'slope'");
}

TEST(KernelRunnerTest, RunsAndChecksOnTheCpu) {
  Compiled compiled = compile();
  const Kernel &scale = compiled.kernel("scale");
  InputSpec spec;
  spec.n = 1003;
  spec.args = {{"k", "-3"}};
  auto checked = runAndCheck(scale, *compiled.module, spec, CheckOptions());
  ASSERT_TRUE(bool(checked)) << errorText(checked.takeError());
  EXPECT_TRUE(checked->ok());
  ASSERT_EQ(checked->results.size(), 1u);
  EXPECT_EQ(checked->results[0].size, 1003);
  const KernelRun &run = checked->run;
  EXPECT_EQ(run.outputs[0].getAsInt(7), run.inputs[0].getAsInt(7) * -3);
}

TEST(KernelRunnerTest, FindsAWrongAndAnUnwrittenElement) {
  Compiled compiled = compile();
  const Kernel &leaky = compiled.kernel("leaky_relu");
  InputSpec spec;
  spec.n = 64;
  auto run = runKernel(leaky, *compiled.module, spec);
  ASSERT_TRUE(bool(run)) << errorText(run.takeError());
  run->outputs[0].setFromDouble(5, run->outputs[0].getAsDouble(5) + 1);
  HostArray poison(DType::F32, 1);
  poison.fillPoison();
  std::memcpy(static_cast<float *>(run->outputs[0].data()) + 9, poison.data(),
              sizeof(float));
  CheckOptions options;
  options.numWorst = 2;
  auto results = checkRun(leaky, *run, spec.n, options);
  ASSERT_TRUE(bool(results));
  ASSERT_EQ(results->size(), 1u);
  const CompareResult &result = (*results)[0];
  EXPECT_EQ(result.numMismatches, 2);
  EXPECT_EQ(result.numUnwritten, 1);
  EXPECT_EQ(result.first.index, 5);
  std::string text;
  llvm::raw_string_ostream os(text);
  printMismatches(os, result, leaky, run->inputs, 1, "  ");
  // The worst first: the unwritten element, with the inputs at its index.
  EXPECT_EQ(text.rfind("  [9] x=", 0), 0u) << text;
  EXPECT_NE(text.find("slope=0.00999999978: got unwritten"), std::string::npos)
      << text;
}

} // namespace
