//===- CompileFuzzer.cpp - libFuzzer target: generated programs to PTX ----===//
//
// Structure-aware: the input's bytes seed ewc-fuzz's generator
// (tools/ewc-fuzz/Generator.h), which writes a valid .ew program, and the
// program is compiled the way ewc-run compiles it (the driver), for the GPU
// through all of ew-to-ptx to PTX text, and for the CPU to the LLVM dialect
// (the JIT's code generation is LLVM's, and slow). No GPU is needed: the
// driver stops after the PTX stage, before it loads the CUDA driver.
//
// Bytes 0-7 are the seed (little-endian; missing bytes are zero), byte 8
// the size (1 to 8; ewc-fuzz's default is 4), so libFuzzer's mutations pick
// new programs, and it keeps the seeds whose programs reach new code. Every
// generated program is valid: a rejection, a failed compilation, a crash or
// a sanitizer report stops the fuzzer.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "ewc/Driver/Driver.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace ewc;

static void fail(uint64_t seed, unsigned size, const std::string &program,
                 const llvm::Twine &what, llvm::Error error) {
  llvm::errs() << "fuzz-compile: program of seed " << seed << " size " << size
               << " " << what << ":\n"
               << llvm::toString(std::move(error)) << "\n"
               << program;
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint64_t seed = 0;
  for (size_t i = 0; i < 8 && i < size; ++i)
    seed |= uint64_t(data[i]) << (8 * i);
  fuzz::GeneratorOptions generatorOptions;
  generatorOptions.size = size > 8 ? 1 + data[8] % 8 : 4;
  std::string program = fuzz::generateProgram(seed, generatorOptions);

  auto source = driver::Source::parse(
      llvm::MemoryBuffer::getMemBufferCopy(program, "fuzz.ew"),
      /*diagnostics=*/nullptr);
  if (!source)
    fail(seed, generatorOptions.size, program, "was rejected",
         source.takeError());

  // Both stop at their last stage (the driver returns null there), before
  // anything is loaded.
  std::pair<driver::Target, driver::Stage> targets[] = {
      {driver::Target::Cuda, driver::Stage::PTX},
      {driver::Target::Cpu, driver::Stage::LLVM}};
  for (auto [target, last] : targets) {
    driver::CompileOptions options;
    options.target = target;
    options.chip = "sm_90";
    options.stopAfter = [last = last](driver::Stage stage, mlir::ModuleOp) {
      return stage == last;
    };
    auto loaded = driver::LoadedModule::compile(**source, options);
    if (!loaded)
      fail(seed, generatorOptions.size, program,
           target == driver::Target::Cuda ? "failed to compile to PTX"
                                          : "failed to compile for the CPU",
           loaded.takeError());
  }
  return 0;
}
