//===- CpuJit.h - Run LLVM-dialect kernels on the CPU -----------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Compiles a module that the ew-to-cpu pipeline has already lowered to the
// LLVM dialect to an object file for this host, and runs its kernels in this
// process, through ORC's LLJIT. The object travels as an image (getImage(),
// load()), so that a kernel cache can keep it: a fresh compilation and a
// cached one take the same load path. The kernels take the same arguments on
// the CPU as on the GPU (host pointers instead of device pointers), so one
// argument array built by a driver serves both CpuJit::invoke and
// CudaContext::launch.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_CPUJIT_H
#define EWC_RUNTIME_CPUJIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace llvm {
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace ewc {

/// How CpuJit compiles.
struct CpuJitOptions {
  /// The targetCpu that means this machine's CPU with its features, except
  /// those whose results differ from IEEE (x86's f32 -> bf16 instructions
  /// flush subnormals).
  static constexpr const char *kHostCpu = "host";

  /// 0-3, for both the IR passes and code generation.
  unsigned optLevel = 3;
  /// The CPU to generate code for: kHostCpu, or an LLVM CPU name of the
  /// host's architecture ("x86-64", "skylake", ...) with only the features
  /// that CPU has. A baseline CPU shows what a machine without F16C or
  /// AVX512-BF16 would run, whatever this one has.
  std::string targetCpu = kHostCpu;
  /// Where to print the module's LLVM IR once LLVM's optimizer has run on it
  /// (what the code generator gets: the place to see the loops vectorized).
  /// Null: nowhere.
  llvm::raw_ostream *optimizedIR = nullptr;
};

/// The JIT-compiled functions of one LLVM-dialect module.
class CpuJit {
public:
  /// Translates `llvmDialectModule` to LLVM IR, adds each function's packed
  /// wrapper (`_mlir_` + name, as MLIR's ExecutionEngine names them),
  /// optimizes it for `options.targetCpu` at `options.optLevel`, compiles it
  /// to an object file and loads that as load() does. The module is only
  /// read, and may be destroyed once this returns. create() itself registers
  /// the builtin and LLVM dialect translations on the module's context
  /// (registering twice is harmless), so callers need not. On failure the
  /// error carries the translation's diagnostics, or names an unknown CPU.
  static llvm::Expected<std::unique_ptr<CpuJit>>
  create(mlir::ModuleOp llvmDialectModule, const CpuJitOptions &options = {});
  /// create() for the host CPU at `optLevel`.
  static llvm::Expected<std::unique_ptr<CpuJit>>
  create(mlir::ModuleOp llvmDialectModule, unsigned optLevel);

  /// The functions of an image that getImage() returned, in this process or
  /// another one on a machine of the same architecture. Calls of the C
  /// library (libm) resolve to this process's, and the calls that LLVM emits
  /// for f16/bf16 conversions to ewc's helpers (SoftFloat.h), on any host.
  /// An error for anything getImage() did not write, or an image of another
  /// target triple.
  static llvm::Expected<std::unique_ptr<CpuJit>> load(llvm::StringRef image);

  /// What the code create() makes with `options` depends on besides the
  /// module and the compiler: the target triple, the CPU (the host's by
  /// name) with its features, and the optimization level, as one line. Part
  /// of a kernel cache's key; an error names an unknown CPU.
  static llvm::Expected<std::string>
  getTargetDescription(const CpuJitOptions &options);

  /// The compiled code with what load() needs to call it: a short header
  /// (format, target triple, each function's packed argument count), then
  /// the object file's bytes.
  llvm::StringRef getImage() const { return image; }

  CpuJit(const CpuJit &) = delete;
  CpuJit &operator=(const CpuJit &) = delete;
  ~CpuJit();

  /// Calls the function named `kernel` through the engine's packed interface:
  /// element i of `args` points to the value of parameter i, in the kernel
  /// ABI's order (inputs, one pointer per result, the i64 element count), as
  /// for cuLaunchKernel. Fails without calling anything when the module has no
  /// such function or `args` has the wrong length.
  llvm::Error invoke(llvm::StringRef kernel,
                     llvm::MutableArrayRef<void *> args);

  /// A function's packed wrapper, checked to take `numArgs` arguments: the
  /// pointer may be called from any number of threads at once (lookup and
  /// invoke themselves share a cache: one thread at a time).
  using Function = void (*)(void **);
  llvm::Expected<Function> lookup(llvm::StringRef kernel, size_t numArgs);

private:
  CpuJit(std::unique_ptr<llvm::orc::LLJIT> jit,
         llvm::StringMap<unsigned> packedArgCounts, std::string image);

  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// For each function defined in the module, how many pointers its packed
  /// wrapper reads: one per parameter, plus one for a non-void result. Checked
  /// before each call, since a short array would be read past its end.
  llvm::StringMap<unsigned> packedArgCounts;
  /// The packed wrappers invoke() has looked up, by name.
  llvm::StringMap<void (*)(void **)> packedFunctions;
  std::string image;
};

} // namespace ewc

#endif // EWC_RUNTIME_CPUJIT_H
