//===- CpuJitTest.cpp - The CPU JIT on a baseline and on the host CPU -----===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// JIT-compiles loops of f16/bf16 conversions for a baseline x86-64 CPU, where
// each conversion becomes a call of a soft-float helper, and for the host.
// Every f16/bf16 pattern is widened and the rounding patterns of
// FloatPatterns.h are narrowed; results must equal llvm::APFloat's bit for
// bit. This checks what SoftFloatTest cannot: that the JIT resolves the
// helpers, and that the registers LLVM passes values in are the ones the
// helpers read.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/CpuJit.h"

#include "FloatPatterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

using namespace ewc;
using ewc::test::convertWithAPFloat;
using ewc::test::makeRoundingPatterns;
using llvm::APFloat;

namespace {

/// One conversion: the LLVM dialect op, the MLIR element types, the APFloat
/// semantics and sizes of both sides.
struct Conversion {
  const char *name;
  const char *op;
  const char *fromType;
  const char *toType;
  const llvm::fltSemantics &(*from)();
  const llvm::fltSemantics &(*to)();
};

const Conversion kConversions[] = {
    {"f16_to_f32", "llvm.fpext", "f16", "f32", APFloat::IEEEhalf,
     APFloat::IEEEsingle},
    {"f16_to_f64", "llvm.fpext", "f16", "f64", APFloat::IEEEhalf,
     APFloat::IEEEdouble},
    {"bf16_to_f32", "llvm.fpext", "bf16", "f32", APFloat::BFloat,
     APFloat::IEEEsingle},
    {"bf16_to_f64", "llvm.fpext", "bf16", "f64", APFloat::BFloat,
     APFloat::IEEEdouble},
    {"f32_to_f16", "llvm.fptrunc", "f32", "f16", APFloat::IEEEsingle,
     APFloat::IEEEhalf},
    {"f64_to_f16", "llvm.fptrunc", "f64", "f16", APFloat::IEEEdouble,
     APFloat::IEEEhalf},
    {"f32_to_bf16", "llvm.fptrunc", "f32", "bf16", APFloat::IEEEsingle,
     APFloat::BFloat},
    {"f64_to_bf16", "llvm.fptrunc", "f64", "bf16", APFloat::IEEEdouble,
     APFloat::BFloat},
};

/// `name(in, out, n)`: out[i] = convert(in[i]) for i < n.
std::string makeLoop(const Conversion &c) {
  return llvm::formatv(R"mlir(
  llvm.func @{0}(%in: !llvm.ptr, %out: !llvm.ptr, %n: i64) {
    %zero = llvm.mlir.constant(0 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    llvm.br ^head(%zero : i64)
  ^head(%i: i64):
    %done = llvm.icmp "sge" %i, %n : i64
    llvm.cond_br %done, ^exit, ^body
  ^body:
    %p = llvm.getelementptr %in[%i] : (!llvm.ptr, i64) -> !llvm.ptr, {2}
    %x = llvm.load %p : !llvm.ptr -> {2}
    %y = {1} %x : {2} to {3}
    %q = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, {3}
    llvm.store %y, %q : {3}, !llvm.ptr
    %next = llvm.add %i, %one : i64
    llvm.br ^head(%next : i64)
  ^exit:
    llvm.return
  }
)mlir",
                       c.name, c.op, c.fromType, c.toType)
      .str();
}

bool isNaN(uint64_t bits, const llvm::fltSemantics &sem) {
  return llvm::APFloat(sem,
                       llvm::APInt(llvm::APFloat::getSizeInBits(sem), bits))
      .isNaN();
}

class CpuJitConversions : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    context.loadDialect<mlir::LLVM::LLVMDialect>();
    std::string source = "module {\n";
    for (const Conversion &c : kConversions)
      source += makeLoop(c);
    source += "}\n";
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    ASSERT_TRUE(module) << source;
  }

  /// Runs conversion `c` on `inputs` (bit patterns of c.from) and checks
  /// every result against APFloat.
  void check(CpuJit &jit, const Conversion &c,
             const std::vector<uint64_t> &inputs) {
    unsigned fromSize = APFloat::getSizeInBits(c.from()) / 8;
    unsigned toSize = APFloat::getSizeInBits(c.to()) / 8;
    std::vector<uint8_t> in(inputs.size() * fromSize);
    std::vector<uint8_t> out(inputs.size() * toSize);
    for (size_t i = 0; i < inputs.size(); ++i)
      std::memcpy(&in[i * fromSize], &inputs[i], fromSize); // Little-endian.
    void *inPtr = in.data(), *outPtr = out.data();
    int64_t n = inputs.size();
    void *args[] = {&inPtr, &outPtr, &n};
    ASSERT_FALSE(llvm::errorToBool(jit.invoke(c.name, args)));
    bool widening = toSize > fromSize;
    unsigned failures = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      uint64_t got = 0;
      std::memcpy(&got, &out[i * toSize], toSize);
      uint64_t expected = convertWithAPFloat(inputs[i], c.from(), c.to());
      // LLVM widens bf16 with a shift, which leaves a signaling NaN
      // signaling where APFloat quiets it: a NaN either way, so ignore the
      // quiet bit of widened NaNs.
      if (widening && isNaN(expected, c.to())) {
        uint64_t quietBit = uint64_t(1)
                            << (llvm::APFloat::semanticsPrecision(c.to()) - 2);
        got |= quietBit;
      }
      if (got != expected && ++failures <= 5)
        ADD_FAILURE() << c.name << "(0x" << std::hex << inputs[i] << ") = 0x"
                      << got << ", expected 0x" << expected;
    }
    EXPECT_EQ(failures, 0u) << c.name << " on " << inputs.size() << " inputs";
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_P(CpuJitConversions, MatchAPFloat) {
  CpuJitOptions options;
  options.targetCpu = GetParam();
  llvm::Expected<std::unique_ptr<CpuJit>> jit =
      CpuJit::create(*module, options);
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());

  std::vector<uint64_t> every16(1 << 16);
  for (uint64_t bits = 0; bits < every16.size(); ++bits)
    every16[bits] = bits;
  std::vector<uint64_t> floats = makeRoundingPatterns(8, 23, 20000);
  std::vector<uint64_t> doubles = makeRoundingPatterns(11, 52, 20000);
  for (const Conversion &c : kConversions) {
    unsigned fromBits = APFloat::getSizeInBits(c.from());
    check(**jit, c,
          fromBits == 16   ? every16
          : fromBits == 32 ? floats
                           : doubles);
  }
}

/// "x86-64" has SSE2 only: every f16/bf16 conversion is a libcall (LLVM 22
/// widens bf16 with a shift). The host has whatever it has; on a CPU with
/// F16C and AVX512-BF16 this compares the instructions with APFloat too.
INSTANTIATE_TEST_SUITE_P(Cpus, CpuJitConversions,
                         ::testing::Values("x86-64", CpuJitOptions::kHostCpu),
                         [](const auto &info) {
                           return std::string(info.param) == "x86-64"
                                      ? std::string("Baseline")
                                      : std::string("Host");
                         });

/// A module of one function, `scale(x, k) = x * k` on i64.
mlir::OwningOpRef<mlir::ModuleOp> parseScale(mlir::MLIRContext &context) {
  context.loadDialect<mlir::LLVM::LLVMDialect>();
  return mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
  llvm.func @scale(%x: i64, %k: i64) -> i64 {
    %r = llvm.mul %x, %k : i64
    llvm.return %r : i64
  }
  )mlir",
                                                 &context);
}

/// scale(x, k) through `jit`'s packed wrapper.
int64_t callScale(CpuJit &jit, int64_t x, int64_t k) {
  int64_t result = 0;
  void *args[] = {&x, &k, &result};
  llvm::Error error = jit.invoke("scale", args);
  EXPECT_FALSE(bool(error)) << llvm::toString(std::move(error));
  return result;
}

TEST(CpuJit, ImageLoadsAgain) {
  mlir::MLIRContext context;
  auto module = parseScale(context);
  ASSERT_TRUE(module);
  llvm::Expected<std::unique_ptr<CpuJit>> jit = CpuJit::create(*module);
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  EXPECT_EQ(callScale(**jit, 6, 7), 42);
  std::string image = (*jit)->getImage().str();
  EXPECT_EQ(image.rfind("ewc-cpu-image 1\ntriple ", 0), 0u);
  // The module and the first JIT gone, the image alone runs.
  module = nullptr;
  jit->reset();
  llvm::Expected<std::unique_ptr<CpuJit>> loaded = CpuJit::load(image);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(callScale(**loaded, -3, 5), -15);
  // The argument count travels with the image.
  void *two[] = {nullptr, nullptr};
  llvm::Error error = (*loaded)->invoke("scale", two);
  EXPECT_EQ(llvm::toString(std::move(error)),
            "function 'scale' takes 3 arguments, not 2");
  // The same module makes the same image.
  mlir::MLIRContext again;
  auto other = parseScale(again);
  llvm::Expected<std::unique_ptr<CpuJit>> second = CpuJit::create(*other);
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_EQ((*second)->getImage(), image);
}

TEST(CpuJit, BadImagesAreErrors) {
  auto message = [](llvm::StringRef image) {
    llvm::Expected<std::unique_ptr<CpuJit>> jit = CpuJit::load(image);
    return jit ? std::string("loaded") : llvm::toString(jit.takeError());
  };
  EXPECT_EQ(message("\x7f"
                    "ELF"),
            "not a CPU image of this ewc: its first "
            "line is not 'ewc-cpu-image 1'");
  EXPECT_EQ(message("ewc-cpu-image 1\n"),
            "not a CPU image of this ewc: no target triple");
  EXPECT_EQ(message("ewc-cpu-image 1\ntriple x\nfunction f\n\nbytes"),
            "not a CPU image of this ewc: a header line is 'function f'");
  EXPECT_EQ(message("ewc-cpu-image 1\ntriple x\nfunction f 2\n"),
            "not a CPU image of this ewc: it ends in its header");
  std::string host = llvm::sys::getProcessTriple();
  EXPECT_EQ(message("ewc-cpu-image 1\ntriple " + host + "\n\n"),
            "not a CPU image of this ewc: it has no object file");

  // Code for another architecture is refused before it is linked.
  mlir::MLIRContext context;
  auto module = parseScale(context);
  ASSERT_TRUE(module);
  llvm::Expected<std::unique_ptr<CpuJit>> jit = CpuJit::create(*module);
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  std::string image = (*jit)->getImage().str();
  llvm::Triple other(host);
  other.setArch(other.getArch() == llvm::Triple::aarch64
                    ? llvm::Triple::x86_64
                    : llvm::Triple::aarch64);
  size_t at = image.find(host);
  ASSERT_NE(at, std::string::npos) << image.substr(0, 80);
  image.replace(at, host.size(), other.str());
  EXPECT_EQ(message(image).rfind("the image is code for " + other.str() +
                                     ", and this process runs on ",
                                 0),
            0u)
      << message(image);
}

TEST(CpuJit, TargetDescriptionNamesTheCpu) {
  CpuJitOptions baseline;
  baseline.targetCpu = "x86-64";
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    GTEST_SKIP() << "x86-64 names an x86 CPU";
  llvm::Expected<std::string> named = CpuJit::getTargetDescription(baseline);
  ASSERT_TRUE(bool(named)) << llvm::toString(named.takeError());
  EXPECT_NE(named->find(" cpu=x86-64 "), std::string::npos) << *named;
  EXPECT_NE(named->find(" O3"), std::string::npos) << *named;
  llvm::Expected<std::string> host = CpuJit::getTargetDescription({});
  ASSERT_TRUE(bool(host)) << llvm::toString(host.takeError());
  EXPECT_NE(*host, *named);
  // The host's features, without the bf16 conversions left out of its code.
  EXPECT_NE(host->find("-avx512bf16"), std::string::npos) << *host;
  baseline.optLevel = 2;
  EXPECT_NE(CpuJit::getTargetDescription(baseline)->find(" O2"),
            std::string::npos);
  baseline.targetCpu = "pentium-9000";
  llvm::Expected<std::string> unknown = CpuJit::getTargetDescription(baseline);
  ASSERT_FALSE(bool(unknown));
  EXPECT_NE(llvm::toString(unknown.takeError()).find("unknown CPU"),
            std::string::npos);
}

TEST(CpuJit, UnknownCpu) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::LLVM::LLVMDialect>();
  auto module = mlir::parseSourceString<mlir::ModuleOp>("module {}", &context);
  ASSERT_TRUE(module);
  CpuJitOptions options;
  options.targetCpu = "pentium-9000";
  llvm::Expected<std::unique_ptr<CpuJit>> jit =
      CpuJit::create(*module, options);
  ASSERT_FALSE(bool(jit));
  std::string message = llvm::toString(jit.takeError());
  EXPECT_EQ(message.rfind("unknown CPU 'pentium-9000' for " +
                              llvm::sys::getProcessTriple(),
                          0),
            0u)
      << message;
}

} // namespace
