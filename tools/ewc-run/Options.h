//===- Options.h - ewc-run command line -------------------------*- C++ -*-===//
//
// The command line of ewc-run, parsed by llvm::cl together with MLIR's
// registered options (--mlir-timing, --mlir-print-ir-after-all, crash
// reproducers, --mlir-print-debuginfo); every mistake is one `error: ...`
// line and exit code 2, as for any other bad input.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TOOLS_EWCRUN_OPTIONS_H
#define EWC_TOOLS_EWCRUN_OPTIONS_H

#include "ewc/Check/Inputs.h"
#include "ewc/Frontend/DType.h"
#include "ewc/Reference/RandomInput.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ewc {

enum class DeviceChoice { Auto, Cuda, Cpu };

/// The stage that --emit prints (then ewc-run exits).
enum class EmitStage { AST, MLIR, GPU, LLVM, LLVMIR, PTX, Header };

struct RunOptions {
  std::string file;
  /// The extent of every dimension no --dim or --input sets.
  int64_t n = 1024;
  /// --dim NAME=N, checked against the kernels later.
  llvm::StringMap<int64_t> dims;
  /// --batch: the shape of `...`.
  std::optional<std::vector<int64_t>> batch;
  /// --layout: how tensors lie in memory.
  check::Layout layout = check::Layout::Contiguous;
  /// --arg NAME=VALUE, checked against the kernels later.
  std::vector<check::ScalarArg> args;
  DeviceChoice device = DeviceChoice::Auto;
  uint64_t seed = 0;
  std::optional<EmitStage> emit;
  /// Run only this kernel (default: every kernel of the file).
  std::string kernel;
  /// --type: the specializations of generic kernels to run, each a binding
  /// of type parameters (none: every binding they admit).
  std::vector<TypeBinding> types;
  /// GPU architecture; empty means the device's own, or sm_90 without one.
  std::string chip;
  /// Tolerances that replace the per-dtype defaults.
  std::optional<double> rtol, atol;
  /// Print the worst elements of a mismatch.
  bool verbose = false;
  /// --autotune: driver::CompileOptions::autotune.
  bool autotune = false;
  /// --tiered: driver::CompileOptions::tiered.
  bool tiered = false;
  /// The CPU that the JIT compiles for: "host" or an LLVM CPU name.
  std::string cpuTarget = "host";
  /// What the random inputs look like.
  InputKind inputs = InputKind::Normal;
  /// Tensor parameters read from .npy files.
  std::vector<check::NamedFile> inputFiles;
  /// Results (out0, out1, ...) written to .npy files.
  std::vector<check::NamedFile> saveFiles;
  /// Time each kernel (CUDA events) and a device copy of the same bytes
  /// instead of checking it (lib/Runtime/Bench.h).
  bool bench = false;
  /// With --bench: one JSON object per kernel on stdout.
  bool json = false;
  /// Every tensor's view starts this many elements past the start of its
  /// allocation (aligned): misaligned inputs and outputs.
  uint64_t offset = 0;
  /// --offset NAME=K: tensor NAME (a parameter, or out0, out1, ...) K
  /// elements further.
  llvm::StringMap<int64_t> tensorOffsets;
  /// Hidden, for measuring the launch shape and code generation's choices:
  /// the grid cap in waves and the block size (LaunchShape.h),
  /// ew-vectorize-gpu-loops's vectors-per-thread and convert-ew-to-gpu's
  /// tile-size (the tiled variant's tiles).
  std::optional<unsigned> gridWaves, blockSize, vectorsPerThread, tileSize;
  /// rows-block-size (the rows schedule's block, a hidden knob).
  std::optional<unsigned> rowsBlockSize;
  /// blocks-per-sm (the rows schedule's grid cap, a hidden knob).
  std::optional<unsigned> blocksPerSM;
  /// rows-resident (the rows schedule's elements a lane keeps in registers,
  /// 0 for none; a hidden knob).
  std::optional<unsigned> rowsResident;
  /// splits (the columns schedule's splits per tile, a scan's tiles per
  /// row: driver::LaunchOptions::splits; a hidden knob).
  std::optional<unsigned> splits;
  /// --cpu-threads: the CPU's threads per launch (0: one per hardware thread).
  unsigned threads = 0;
  /// --cpu-streaming-stores-above: the result bytes from which a CPU launch
  /// writes with non-temporal stores (unset: the driver's default).
  std::optional<uint64_t> streamingStoreBytes;
  /// Hidden, for test/Mutations: the ew-test-mutate mutation to compile with.
  std::string testMutation;
  /// --load-pass-plugin: the MLIR pass plugins to load before compiling.
  std::vector<std::string> passPlugins;
  /// Print the wall time of every stage (--timing), through the same
  /// mlir::DefaultTimingManager as --mlir-timing.
  bool timing = false;
  /// --no-cache and --cache-dir (driver::CompileOptions).
  bool noCache = false;
  std::string cacheDir;
};

/// Registers MLIR's command-line options, parses argv (--help prints the
/// options and exits) and checks the values; the error says what was wrong
/// in one line.
llvm::Expected<RunOptions> parseRunOptions(int argc, char **argv);

} // namespace ewc

#endif // EWC_TOOLS_EWCRUN_OPTIONS_H
