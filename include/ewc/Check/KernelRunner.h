//===- KernelRunner.h - Run a compiled kernel and check it ------*- C++ -*-===//
//
// One validation run of one kernel, wherever the driver loaded it: bind the
// dimensions and make the inputs (Inputs.h), poison the outputs, launch (on
// the GPU through device copies of every tensor's whole storage, on the CPU
// on the host storage itself), compare every result element with the
// reference, and check that the kernel wrote nothing in an output's storage
// outside its view. ewc-run and ewc-fuzz are thin layers over it; each stage
// is timed under the caller's mlir::TimingScope.
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
  /// GPU launch shape overrides (LaunchShape.h; the rows schedule's block:
  /// driver::LaunchOptions::rowsBlockSize).
  std::optional<unsigned> gridWaves, blockSize, rowsBlockSize;
  /// The rows schedule's blocks per multiprocessor
  /// (driver::LaunchOptions::blocksPerSM).
  std::optional<unsigned> blocksPerSM;
  /// The rows schedule's elements a lane keeps in registers
  /// (driver::LaunchOptions::rowsResident).
  std::optional<unsigned> rowsResident;
  /// The splits of a reduction or scan across blocks
  /// (driver::LaunchOptions::splits).
  std::optional<unsigned> splits;
  /// CPU: the threads of a launch (0: one per hardware thread).
  unsigned threads = 0;
  /// CPU: the result bytes from which a launch streams its stores (unset:
  /// the driver's default; driver::LaunchOptions::streamingStoreBytes).
  std::optional<uint64_t> streamingStoreBytes;
  /// Where the driver's notes on the launch go (its plan, a variant
  /// compiled); null: nowhere.
  llvm::raw_ostream *notes = nullptr;
};

/// What one run of a kernel produced.
struct KernelRun {
  /// The extents of the kernel's dimensions.
  DimBindings bindings;
  /// The reference's inputs, one per parameter (makeInputs).
  std::vector<StridedArray> inputs;
  /// What the kernel wrote, one per result: the whole storage, as it was
  /// after the launch.
  std::vector<StridedArray> outputs;
};

/// Elements of an output's storage outside its view that the kernel wrote
/// (they held the poison pattern before the launch).
struct StrayWrites {
  int64_t count = 0;
  /// The first such storage element.
  int64_t first = -1;
};

/// A run with its verdict.
struct KernelCheck {
  KernelRun run;
  /// One per result.
  std::vector<CompareResult> results;
  std::vector<StrayWrites> strayWrites;

  bool ok() const {
    return llvm::all_of(results,
                        [](const CompareResult &r) { return r.ok(); }) &&
           llvm::all_of(strayWrites,
                        [](const StrayWrites &s) { return s.count == 0; });
  }
};

/// Makes the inputs of `kernel` (which passed sema) as `spec` says, launches
/// the compiled kernel of the same name in `module` over poisoned outputs
/// (the second pattern if `secondPoison`) and waits for it. Timed under
/// `timing` if not null: inputs, copy to device, launch, copy to host.
llvm::Expected<KernelRun>
runKernel(const KernelDecl &kernel, driver::LoadedModule &module,
          const InputSpec &spec, const LaunchConfig &launch = {},
          mlir::TimingScope *timing = nullptr, bool secondPoison = false);

/// Compares every result of `run` with the reference (evaluated and compared
/// a block at a time, timed as one stage, "reference and compare"), and
/// looks for stray writes.
llvm::Expected<KernelCheck> checkRun(const KernelDecl &kernel, KernelRun run,
                                     const CheckOptions &options,
                                     mlir::TimingScope *timing = nullptr);

/// The stray writes of `output` (KernelRun::outputs).
StrayWrites findStrayWrites(const StridedArray &output);

/// Where a float result of `check` (from runKernel with the first poison)
/// has elements that still hold the poison pattern, which a bitcast can
/// write as a value (bitcast(u16, f16) of 0x7D5A), runs the kernel again
/// with the second pattern: an element the kernel writes holds the same
/// bits both times and an unwritten one each time its poison, so a result
/// with no poison element in the second run was written whole, and its
/// second verdict (which checked every element) replaces the first. Does
/// nothing where no float result has a poison element.
llvm::Error recheckPoisoned(const KernelDecl &kernel,
                            driver::LoadedModule &module, const InputSpec &spec,
                            const CheckOptions &options,
                            const LaunchConfig &launch, KernelCheck &check);

/// runKernel, checkRun, then recheckPoisoned.
llvm::Expected<KernelCheck> runAndCheck(const KernelDecl &kernel,
                                        driver::LoadedModule &module,
                                        const InputSpec &spec,
                                        const CheckOptions &options,
                                        const LaunchConfig &launch = {},
                                        mlir::TimingScope *timing = nullptr);

/// Prints up to `count` of the worst mismatches of result `result` of
/// `check`, one line each after `indent`: the point, every parameter's
/// input there (each tensor's element at the point's coordinates in its own
/// dimensions), what the kernel wrote and what the reference expects, e.g.
/// "[2, 17] x=-1.5 b=0.25 slope=0.01: got -1.5, expected -0.015".
void printMismatches(llvm::raw_ostream &os, const KernelCheck &check,
                     unsigned result, const KernelDecl &kernel, unsigned count,
                     llvm::StringRef indent);

/// The same lines for any elements of result `result` (its samples, its
/// largest error within the tolerance).
void printElements(llvm::raw_ostream &os, const KernelCheck &check,
                   unsigned result, const KernelDecl &kernel,
                   llvm::ArrayRef<Mismatch> elements, llvm::StringRef indent);

} // namespace check
} // namespace ewc

#endif // EWC_CHECK_KERNELRUNNER_H
