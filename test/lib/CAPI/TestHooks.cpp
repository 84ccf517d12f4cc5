//===- TestHooks.cpp - Test-only entry points of the C API ----------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// libewc-test.so is libewc.so's C API (the same CAPI.cpp over the same
// EWCDriver) plus the entry points below, which reach what no input reaches
// on purpose: an LLVM fatal error inside the driver's pass pipeline. Only
// tests link it (test/CAPI/fatal-error.c); the shipped libewc.so has no such
// hook.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/API.h"

#include "mlir/Pass/PassManager.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <cstring>

extern "C" {
/// Compiles `source` for the CPU with a pass hook that calls
/// report_fatal_error(`reason`) where the driver builds its pipeline, as
/// ewcCompile compiles; returns NULL where it compiled (it cannot) and else
/// the error, to be freed with ewcStringDestroy.
char *ewcTestCompileWithFatalError(const char *source, const char *name,
                                   const char *reason);
}

char *ewcTestCompileWithFatalError(const char *source, const char *name,
                                   const char *reason) {
  ewc::Options publicOptions;
  publicOptions.target = ewc::Target::Cpu;
  ewc::driver::CompileOptions options =
      ewc::driver::getCompileOptions(publicOptions);
  std::string why = reason ? reason : "";
  options.addPasses = [why](mlir::OpPassManager &, ewc::driver::HookPoint) {
    llvm::report_fatal_error(llvm::Twine(why), /*GenCrashDiag=*/false);
  };
  ewc::Result<ewc::Module> module = ewc::driver::compileModule(
      llvm::MemoryBuffer::getMemBufferCopy(source ? source : "",
                                           name ? name : "<source>"),
      options);
  if (module)
    return nullptr;
  char *error = static_cast<char *>(std::malloc(module.error().size() + 1));
  if (error)
    std::memcpy(error, module.error().c_str(), module.error().size() + 1);
  return error;
}
