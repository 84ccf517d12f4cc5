//===- CpuCacheTest.cpp - The kernel cache of CPU code --------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// LoadedModule::compile on the CPU: the first compilation of a program in a
// process is a miss that stores the object, the second is answered from the
// process's memory and runs the same; noCache and a test hook bypass both
// layers; a directory gets the entry, so that another process finds it (lit's
// Integration/CPU/kernel-cache.test runs those processes). Each test's
// program carries a comment of its own: the process cache outlives a test.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/Driver.h"
#include "ewc/Runtime/KernelCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace ewc;

namespace {

/// A program with `tag` in a comment: the same text is the same entry.
std::unique_ptr<driver::Source> parse(llvm::StringRef tag) {
  std::string text = "# " + tag.str() + R"(
kernel scale(x: f32[n], k: f32 = 3.0) -> f32[n] {
  return x * k;
}
)";
  auto source = driver::Source::parse(
      llvm::MemoryBuffer::getMemBufferCopy(text, "cache.ew"), nullptr);
  EXPECT_TRUE(bool(source)) << llvm::toString(source.takeError());
  return source ? std::move(*source) : nullptr;
}

/// Compiles `source` for the CPU with `options`; the notes go to `notes`.
std::unique_ptr<driver::LoadedModule> compile(driver::Source &source,
                                              driver::CompileOptions options,
                                              std::string &notes) {
  notes.clear();
  llvm::raw_string_ostream os(notes);
  options.target = driver::Target::Cpu;
  options.notes = &os;
  auto module = driver::LoadedModule::compile(source, options);
  EXPECT_TRUE(bool(module)) << llvm::toString(module.takeError());
  return module ? std::move(*module) : nullptr;
}

/// scale(x) with its default k on 5 elements, through `module`.
std::vector<float> run(driver::LoadedModule &module) {
  std::vector<float> x = {1, -2, 0.5f, 4, 1e30f}, out(5, 0);
  TensorArg in{x.data(), {5}, {1}}, result{out.data(), {5}, {1}};
  const KernelSignature *kernel = module.lookupKernel("scale");
  EXPECT_NE(kernel, nullptr);
  if (!kernel || !kernel->params[1].defaultValue)
    return {};
  float k = float(kernel->params[1].defaultValue->floatValue);
  driver::LaunchArg args[] = {driver::LaunchArg::ofTensor(in),
                              driver::LaunchArg::ofScalar(&k)};
  llvm::Error error = module.launch(*kernel, args, {result});
  EXPECT_FALSE(bool(error)) << llvm::toString(std::move(error));
  return out;
}

// 1e30 * 3 rounds in f32: the product, not the literal 3e30.
const std::vector<float> kExpected = {3, -6, 1.5f, 12, 1e30f * 3.0f};

TEST(CpuCache, SecondCompilationInAProcessIsAHit) {
  auto source = parse("in process");
  ASSERT_TRUE(source);
  std::string notes;
  auto first = compile(*source, {}, notes);
  ASSERT_TRUE(first);
  EXPECT_EQ(notes, "note: kernel cache miss (no entry): compiling\n");
  EXPECT_EQ(run(*first), kExpected);
  auto second = compile(*source, {}, notes);
  ASSERT_TRUE(second);
  EXPECT_EQ(notes, "note: kernel cache hit: this process\n");
  // The signature, its default included, comes from the entry.
  EXPECT_EQ(run(*second), kExpected);
  // Both modules hold code of their own: the first outlives the second.
  second.reset();
  EXPECT_EQ(run(*first), kExpected);
}

TEST(CpuCache, NoCacheAndHooksBypassIt) {
  auto source = parse("bypassed");
  ASSERT_TRUE(source);
  std::string notes;
  driver::CompileOptions off;
  off.noCache = true;
  ASSERT_TRUE(compile(*source, off, notes));
  EXPECT_EQ(notes, "");
  // Nothing was stored: a compilation with the cache on misses.
  ASSERT_TRUE(compile(*source, {}, notes));
  EXPECT_EQ(notes, "note: kernel cache miss (no entry): compiling\n");
  // A hook changes the code: never answered from the entry made without it.
  driver::CompileOptions hooked;
  hooked.addPasses = [](mlir::OpPassManager &, driver::HookPoint) {};
  ASSERT_TRUE(compile(*source, hooked, notes));
  EXPECT_EQ(notes, "");
}

TEST(CpuCache, AnotherCpuIsAnotherEntry) {
  auto source = parse("per CPU");
  ASSERT_TRUE(source);
  std::string notes;
  ASSERT_TRUE(compile(*source, {}, notes));
  driver::CompileOptions baseline;
  baseline.cpuTarget = "x86-64";
  auto other = compile(*source, baseline, notes);
  ASSERT_TRUE(other);
  EXPECT_EQ(notes, "note: kernel cache miss (no entry): compiling\n");
  EXPECT_EQ(run(*other), kExpected);
}

TEST(CpuCache, DirectoryGetsTheEntry) {
  llvm::SmallString<128> directory;
  ASSERT_FALSE(
      llvm::sys::fs::createUniqueDirectory("ewc-cpu-cache", directory));
  auto source = parse("on disk");
  ASSERT_TRUE(source);
  driver::CompileOptions options;
  options.cacheDir = directory.str().str();
  std::string notes;
  ASSERT_TRUE(compile(*source, options, notes));
  EXPECT_EQ(notes, "note: kernel cache miss (no entry): compiling\n");
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec))
    entries += llvm::StringRef(it->path()).ends_with(".ewck");
  EXPECT_EQ(entries, 1);
  // Memory answers first, in this process.
  ASSERT_TRUE(compile(*source, options, notes));
  EXPECT_EQ(notes, "note: kernel cache hit: this process\n");
  llvm::sys::fs::remove_directories(directory);
}

} // namespace
