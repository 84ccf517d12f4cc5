//===- KernelRunner.h - Run a compiled kernel and check it ------*- C++ -*-===//
//
// One validation run of one kernel, wherever the driver loaded it: make the
// inputs (Inputs.h), poison the outputs, launch (on the GPU through device
// copies, on the CPU on the host arrays themselves), and compare every
// result element with the reference. ewc-run and ewc-fuzz are thin layers
// over it; each stage is timed under the caller's mlir::TimingScope.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CHECK_KERNELRUNNER_H
#define EWC_CHECK_KERNELRUNNER_H

#include "ewc/Check/Inputs.h"
#include "ewc/Reference/Compare.h"
#include "ewc/Reference/Evaluator.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir {
class TimingScope;
} // namespace mlir

namespace ewc {
namespace driver {
class LoadedModule;
} // namespace driver

namespace check {

/// How a run launches.
struct LaunchConfig {
  /// GPU: every tensor starts this many elements past an aligned device
  /// allocation (misaligned base pointers).
  uint64_t offset = 0;
  /// GPU launch shape overrides (LaunchShape.h).
  std::optional<unsigned> gridWaves, blockSize;
};

/// What one run of a kernel produced.
struct KernelRun {
  /// The reference's inputs, one per parameter (makeInputs).
  std::vector<HostArray> inputs;
  /// What the kernel wrote, one per result.
  std::vector<HostArray> outputs;
};

/// A run with its verdict.
struct KernelCheck {
  KernelRun run;
  /// One per result.
  std::vector<CompareResult> results;

  bool ok() const {
    return llvm::all_of(results, [](const CompareResult &r) { return r.ok(); });
  }
};

/// Makes the inputs of `kernel` (which passed sema) as `spec` says, launches
/// the compiled kernel of the same name in `module` over poisoned outputs
/// and waits for it. Timed under `timing` if not null: inputs, copy to
/// device, launch, copy to host.
llvm::Expected<KernelRun> runKernel(const Kernel &kernel,
                                    driver::LoadedModule &module,
                                    const InputSpec &spec,
                                    const LaunchConfig &launch = {},
                                    mlir::TimingScope *timing = nullptr);

/// Compares every result of `run` with the reference (evaluated and compared
/// a block at a time, timed as one stage, "reference and compare").
llvm::Expected<std::vector<CompareResult>>
checkRun(const Kernel &kernel, const KernelRun &run, int64_t n,
         const CheckOptions &options, mlir::TimingScope *timing = nullptr);

/// runKernel, then checkRun.
llvm::Expected<KernelCheck> runAndCheck(const Kernel &kernel,
                                        driver::LoadedModule &module,
                                        const InputSpec &spec,
                                        const CheckOptions &options,
                                        const LaunchConfig &launch = {},
                                        mlir::TimingScope *timing = nullptr);

/// Prints up to `count` of the worst mismatches of `result`, one line each
/// after `indent`: the index, every parameter's input there, what the kernel
/// wrote and what the reference expects, e.g.
/// "[17] x=-1.5 slope=0.01: got -1.5, expected -0.015".
void printMismatches(llvm::raw_ostream &os, const CompareResult &result,
                     const Kernel &kernel, llvm::ArrayRef<HostArray> inputs,
                     unsigned count, llvm::StringRef indent);

} // namespace check
} // namespace ewc

#endif // EWC_CHECK_KERNELRUNNER_H
