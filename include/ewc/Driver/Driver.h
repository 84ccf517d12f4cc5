//===- Driver.h - Compile .ew sources to loaded kernels ---------*- C++ -*-===//
//
// What a program needs between a .ew source and a kernel it can call: the
// front end, MLIRGen, the named pipelines, and loading the result (PTX
// through the CUDA driver, LLVM IR through the CPU JIT); the signatures of
// the compiled kernels, with the defaults the compiled IR holds; and the
// marshalling of arguments into the ABI's array (ewc/ABI/KernelSignature.h).
// ewc-run, the C++ API (ewc/ewc.h) and the C API share it.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DRIVER_DRIVER_H
#define EWC_DRIVER_DRIVER_H

#include "ewc/ABI/KernelSignature.h"
#include "ewc/ABI/LaunchPlan.h"
#include "ewc/Frontend/DType.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/CudaJitLink.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/LogicalResult.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class MemoryBuffer;
class SourceMgr;
class raw_ostream;
} // namespace llvm
namespace mlir {
class ModuleOp;
class OpPassManager;
class PassManager;
class TimingScope;
} // namespace mlir

namespace ewc {
class CpuJit;
class KernelCache;
struct KernelCacheKey;
class ModuleDecl;

namespace driver {

struct TunedLaunch;

/// Where kernels run.
enum class Target {
  /// The CUDA device if the driver finds one, else the CPU.
  Auto,
  Cuda,
  Cpu,
};

/// The stages a compilation passes, in order; hooks may stop after any
/// (ewc-run --emit).
enum class Stage { MLIR, GPU, LLVM, PTX };

/// Where a hook may add passes: on the ew module right after MLIRGen, on the
/// lowered loops (GPU or CPU) of the module's default variants before they go
/// to LLVM, or on those of one kernel's variant that a launch compiles at its
/// first use (LaunchPlan.h), a module with that kernel alone.
enum class HookPoint { Ew, Lowered, LoweredVariant };

/// Which assembler turns the PTX into the device's cubin.
enum class PTXAssembler {
  /// The driver's JIT, or nvJitLink where CompileOptions::jitLink has a
  /// ptxas option (only nvJitLink takes those).
  Auto,
  /// The driver's JIT (CudaContext::assemblePTX).
  Driver,
  /// nvJitLink where it loads, else the driver's JIT (the notes say why).
  NvJitLink,
};

/// An error whose diagnostics were already printed to
/// CompileOptions::diagnostics; its message is empty. ewc-run exits on it
/// without printing more.
class ReportedError : public llvm::ErrorInfo<ReportedError> {
public:
  static char ID;
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
};

/// How to compile.
struct CompileOptions {
  /// Cuda or Cpu; compile() resolves Auto itself.
  Target target = Target::Auto;
  /// The GPU architecture (sm_XX). Empty: the device's, or sm_90 without one.
  std::string chip;
  /// The GPU whose primary context compile() loads into where it is given no
  /// context (its ordinal, as the driver numbers the visible devices).
  int device = 0;
  /// The CPU the JIT generates code for (CpuJitOptions::targetCpu).
  std::string cpuTarget = "host";
  /// convert-ew-to-gpu's vectors-per-thread (a hidden knob for measuring).
  std::optional<unsigned> vectorsPerThread;
  /// convert-ew-to-gpu's tile-size (a hidden knob for measuring).
  std::optional<unsigned> tileSize;
  /// convert-ew-to-gpu's rows-block-size (a hidden knob for measuring: the
  /// default variant's block; LaunchOptions::rowsBlockSize launches it).
  std::optional<unsigned> rowsBlockSize;
  /// Where located diagnostics go. Null: they are collected, and a failing
  /// compilation returns them as its error's message.
  llvm::raw_ostream *diagnostics = nullptr;
  /// Called on each PassManager that compile() runs, before its passes are
  /// added: a tool applies MLIR's registered command-line options here
  /// (mlir::applyPassManagerCLOptions: --mlir-print-ir-after-all, crash
  /// reproducers, statistics); a failure fails the compilation. May be empty.
  std::function<llvm::LogicalResult(mlir::PassManager &)> configurePassManager;
  /// The scope under which compile() times its stages (MLIRGen, each
  /// pipeline with its passes nested, the JIT or the PTX load), as
  /// ewc-run --timing and --mlir-timing print them. Null: untimed.
  mlir::TimingScope *timing = nullptr;
  /// Adds passes at `point` (ewc-run's test mutations); may be empty.
  std::function<void(mlir::OpPassManager &, HookPoint)> addPasses;
  /// Called after each stage; returning true stops compile() there, which
  /// then returns null (ewc-run --emit). May be empty. A kernel cache hit
  /// runs no stage and calls it never.
  std::function<bool(Stage, mlir::ModuleOp)> stopAfter;
  /// The on-disk cache of compiled code, the GPU's cubins and the CPU's
  /// objects. Empty: none. The library reads no environment; a tool passes
  /// the default, $EWC_CACHE_DIR, else $XDG_CACHE_HOME/ewc, else
  /// ~/.cache/ewc (tools/Support/Environment.h). CPU code is kept in the
  /// process's memory too (KernelMemoryCache), with or without a directory.
  std::string cacheDir;
  /// Neither read nor write the cache, on disk or in memory (the tools'
  /// EWC_NO_CACHE).
  bool noCache = false;
  /// The PTX assembler (hidden in the tools: EWC_PTX_ASSEMBLER). The driver's
  /// JIT is the default: it measured faster than nvJitLink on the H200
  /// (lib/Driver/CompiledModule.cpp has the numbers).
  PTXAssembler ptxAssembler = PTXAssembler::Auto;
  /// Which nvJitLink, and one more ptxas option for it (the tools'
  /// EWC_NVJITLINK, CUDA_HOME, CUDA_PATH and EWC_PTXAS_OPTIONS).
  JitLinkOptions jitLink;
  /// Hidden, for measuring compile time against kernel speed: LLVM's
  /// optimization level before NVPTX, 0 to 3 (ptxas optimizes the PTX
  /// again). None: the pipeline's (EwToPTXOptions). EWC_PTX_OPT_LEVEL.
  std::optional<unsigned> ptxOptLevel;
  /// Hidden, for measuring too: the LLVM IR passes before NVPTX, as
  /// ewc-opt's llvm-passes option (empty: LLVM's default<On>). None: the
  /// pipeline's short list. EWC_LLVM_PASSES.
  std::optional<std::string> llvmPasses;
  /// Hidden, for diagnosing ptxas: which PTX rewrites run (all, none or a
  /// list; Pipelines.h). None: all. EWC_PTXAS_WORKAROUNDS.
  std::optional<std::string> ptxasWorkarounds;
  /// Hidden, for measuring and diagnosing: how 8-bit floats convert on the
  /// GPU, "hardware" or "integer" (Pipelines.h). None: the pipeline's
  /// default, hardware. EWC_FLOAT8_CONVERSIONS.
  std::optional<std::string> float8Conversions;
  /// Where the CPU JIT prints its LLVM IR after LLVM's optimizer
  /// (CpuJitOptions::optimizedIR; ewc-run --emit llvm-ir). Null: nowhere.
  llvm::raw_ostream *optimizedIR = nullptr;
  /// Choose the launch parameters by measurement (lib/Driver/Autotune.h):
  /// at a kernel's first launch for a variant and size bucket, the
  /// candidates (the default first) run on scratch outputs within 50 ms and
  /// the fastest is kept, in the module and in the kernel cache (ewc-run
  /// --autotune). A launch that sets the parameters itself
  /// (LaunchOptions::blockSize, gridWaves, threads) is not tuned.
  bool autotune = false;
  /// Tiered compilation: a compilation that misses the cache makes its code
  /// quickly and returns (GPU: LLVM at O0 before NVPTX and ptxas at -O0;
  /// CPU: the JIT at -O0, 4-5 ms for LeakyReLU and GELU on the development
  /// machine, against 36-64 ms at -O3), while the optimized code is made on
  /// a thread of its own from the ew module's text and replaces the quick
  /// code at the launches after it is ready (GPU: one atomic store of the
  /// function a launch reads); only the optimized code is cached. Not on
  /// the GPU where a hidden knob for measuring (ptxOptLevel, llvmPasses, a
  /// ptxas option) names the code. Off for the tools, which check the code
  /// a program keeps (ewc-run --tiered checks both); on by default in the
  /// APIs.
  bool tiered = false;
  /// Where notes on the GPU code's way go (ewc-run --verbose and --timing):
  /// cache hits and misses, and which PTX compiler ran (nvJitLink, or the
  /// driver's JIT where nvJitLink is missing). Null: nowhere.
  llvm::raw_ostream *notes = nullptr;
};

/// A parsed and checked .ew source. Holds the SourceMgr every location
/// refers to.
class Source {
public:
  /// Parses and checks `buffer`, whose identifier is the file name in every
  /// message, under `binding` (the type parameters of generic kernels, by
  /// name: a module compiles the concrete kernels and the specializations
  /// the binding makes; Frontend.h). Diagnostics go to `diagnostics`, or
  /// into the error if null.
  static llvm::Expected<std::unique_ptr<Source>>
  parse(std::unique_ptr<llvm::MemoryBuffer> buffer,
        llvm::raw_ostream *diagnostics, const TypeBinding &binding = {});
  ~Source();

  const ModuleDecl &getAST() const { return *ast; }
  llvm::SourceMgr &getSourceMgr() { return *sourceMgr; }
  /// The front end's warnings, one located diagnostic each, where parse()
  /// was given no stream (with one, they were printed there).
  llvm::ArrayRef<std::string> getWarnings() const { return warnings; }

private:
  Source() = default;
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<ModuleDecl> ast;
  std::vector<std::string> warnings;
};

/// Options of one launch.
struct LaunchOptions {
  /// The CUstream to enqueue on (null: the default stream). CPU: ignored.
  void *stream = nullptr;
  /// Wait for the kernel and report its faults (GPU); a launch on a caller's
  /// stream returns once queued, as cuLaunchKernel does.
  bool synchronize = false;
  /// Launch shape overrides (ewc-run's hidden knobs): the elementwise
  /// schedule's grid and block, and the rows schedule's block, which
  /// launches a variant built for it (LaunchPlan::rowsBlockSize) instead of
  /// the one the longest row picks.
  std::optional<unsigned> gridWaves, blockSize, rowsBlockSize;
  /// The rows schedule's grid cap in blocks per multiprocessor instead of
  /// kRowsWaves waves (LaunchShape.h): a knob for measuring the L2's reuse.
  std::optional<unsigned> blocksPerSM;
  /// The elements of its row a lane of the rows schedule keeps in registers
  /// (a variant: LaunchPlan::rowsResident; RowAccess.h,
  /// kRowResidentElements); none or 0: the looping teams.
  std::optional<unsigned> rowsResident;
  /// The blocks a reduction or a scan is split across, instead of the
  /// runtime's choice: the columns schedule's splits per tile
  /// (ColumnAccess.h, at least 1), or the tiles per row of a scan along
  /// rows (ScanAccess.h: 1 for a warp per row, else at least as many as a
  /// row needs). A test's knob for many splits of few elements.
  std::optional<unsigned> splits;
  /// Extents by name of the dimensions no tensor has (ewc-run --dim).
  llvm::StringMap<int64_t> dims;
  /// Where notes on the launch go (ewc-run --verbose: the plan, a variant
  /// compiled); null: nowhere.
  llvm::raw_ostream *notes = nullptr;
  /// CPU: the threads a launch may use (0: one per hardware thread). A
  /// module's pool is sized by its first parallel launch.
  unsigned threads = 0;
  /// CPU: a launch whose results take at least this many bytes writes them
  /// with non-temporal stores (docs/runtime.md, "Streaming stores"; 0:
  /// every launch). Unset: getDefaultStreamingStoreBytes().
  std::optional<uint64_t> streamingStoreBytes;
};

/// A sixteenth of the host's last-level cache as the C library reports it, or
/// 8 MiB where it reports none: a launch writing more pushes most of its
/// share of the cache out anyway, so its results are not read back from
/// there (the measurement behind the fraction: Driver.cpp).
uint64_t getDefaultStreamingStoreBytes();

/// The CPU threads of a launch that asks for `requested` (0: one per
/// hardware thread).
unsigned getHostThreads(unsigned requested);

/// The fewest points a CPU thread gets: below 2 x this a launch runs on the
/// calling thread alone (waking a thread costs some microseconds, about what
/// 2^15 points of a simple kernel take).
constexpr int64_t kMinHostPointsPerThread = int64_t(1) << 15;

/// One parameter's argument of a launch: a tensor (device memory on the GPU,
/// host memory on the CPU), or a scalar's bytes in the ABI's layout
/// (ScalarValue::toBytes).
struct LaunchArg {
  const TensorArg *tensor = nullptr;
  const void *scalar = nullptr;

  static LaunchArg ofTensor(const TensorArg &tensor) {
    return {&tensor, nullptr};
  }
  static LaunchArg ofScalar(const void *bytes) { return {nullptr, bytes}; }
};

/// Compiled kernels loaded for one target.
class LoadedModule {
public:
  /// Lowers `source` for `options.target` (Cuda or Cpu: resolve Auto with
  /// resolveTarget first) and loads the result: every kernel in its default
  /// variant (LaunchPlan.h). On the GPU, `cuda` is the context to load into;
  /// null creates one, which the module then owns. Returns null if
  /// options.stopAfter stopped it.
  static llvm::Expected<std::unique_ptr<LoadedModule>>
  compile(Source &source, const CompileOptions &options,
          CudaContext *cuda = nullptr);
  ~LoadedModule();

  Target getTarget() const { return cuda ? Target::Cuda : Target::Cpu; }
  /// The kernels with the defaults the compiled IR holds (`ew.default`).
  llvm::ArrayRef<KernelSignature> getKernels() const { return signatures; }
  const KernelSignature *lookupKernel(llvm::StringRef name) const;
  /// The launch descriptor of a GPU kernel's default variant; null on the
  /// CPU or for a name that is no kernel's.
  const LaunchDescriptor *getLaunchDescriptor(llvm::StringRef kernel) const;
  CudaContext *getCudaContext() const { return cuda; }
  /// The loaded function of GPU kernel `kernel`'s default variant, or null
  /// on the CPU or for a name that is no kernel's.
  const CudaFunction *getCudaFunction(llvm::StringRef kernel) const;

  /// Plans (planLaunch) and launches `kernel`: `params` has one argument per
  /// parameter, `outputs` one tensor per result. A launch whose tensors need
  /// another variant than the default compiles it first, once (and caches
  /// it on disk like the module). On the CPU the kernel has run when this
  /// returns.
  llvm::Error launch(const KernelSignature &kernel,
                     llvm::ArrayRef<LaunchArg> params,
                     llvm::ArrayRef<TensorArg> outputs,
                     const LaunchOptions &launchOptions = {});

  /// Waits until the optimized code of a tiered compilation
  /// (CompileOptions::tiered) has replaced the quick code, as benchmarks
  /// do before they time; at once without tiering. Its error says why the
  /// optimized code could not be made (the quick code then stays, right
  /// but slower).
  llvm::Error waitForOptimized();
  /// Whether the launches run the optimized code: always without tiering.
  bool isOptimized() const;

  /// The plan `launch` would make, for callers that need its shapes (the
  /// benchmark) or want to check arguments without launching.
  llvm::Expected<LaunchPlan> plan(const KernelSignature &kernel,
                                  llvm::ArrayRef<LaunchArg> params,
                                  llvm::ArrayRef<TensorArg> outputs,
                                  const llvm::StringMap<int64_t> &dims) const;

  /// The compiled code of one variant of one kernel.
  struct Variant;

private:
  LoadedModule();
  /// Creates the context this module owns, on device `ordinal`.
  llvm::Error createCudaContext(int ordinal);
  /// Tiered compilation: makes the optimized default variants on a thread
  /// of their own (from the ew module's text, as a variant is made), then
  /// swaps them in and caches them.
  void startOptimizing();
  /// Makes every kernel's default variant record (its ABI order for a batch
  /// of one and its launch descriptor in `launches`).
  void prepareDefaults(const llvm::StringMap<LaunchDescriptor> &launches);
  /// Loads `cubin` (every kernel's default variant) into `context`.
  llvm::Error loadCubin(llvm::ArrayRef<char> cubin, CudaContext &context,
                        const llvm::StringMap<LaunchDescriptor> &launches);
  /// Takes the kernels and their code from `key`'s entry in the cache, a
  /// cubin loaded into `context` or, without one, a CPU image; false (and
  /// `whyMiss` says why) when there is none or it does not load. `where`
  /// says where the entry was (a file, or this process's memory).
  bool loadFromCache(const KernelCacheKey &key, CudaContext *context,
                     std::string &whyMiss, std::string &where);
  /// Fills `variant` of `kernel` from the cache entry under `key`, or says
  /// why not (no entry, or one that does not load).
  llvm::Error loadCachedVariant(const KernelCacheKey &key,
                                const KernelSignature &kernel,
                                Variant &variant);
  /// The variant of kernel `index` that `plan` needs, compiled (and
  /// cached) at its first use.
  llvm::Expected<Variant *> getVariant(size_t index, const LaunchPlan &plan,
                                       llvm::raw_ostream *notes);
  /// A CPU launch of `variant`: the plan split along a dimension among
  /// `threads` threads (0: one per hardware thread; splitLaunch), the parts
  /// run at once on the module's pool.
  llvm::Error launchOnHost(const KernelSignature &kernel, Variant &variant,
                           const LaunchPlan &plan,
                           llvm::ArrayRef<LaunchArg> params,
                           const LaunchOptions &launchOptions,
                           unsigned threads);
  /// Autotuning (CompileOptions::autotune): the launch parameters of
  /// `variant` of kernel `kernel` for `plan`, from this module, else the
  /// kernel cache, else measured now on scratch outputs (Autotune.h).
  llvm::Error getTunedLaunch(const KernelSignature &kernel, Variant &variant,
                             const LaunchPlan &plan,
                             llvm::ArrayRef<LaunchArg> params,
                             const LaunchOptions &launchOptions,
                             TunedLaunch &tuned);

  struct Impl;
  std::unique_ptr<Impl> impl;
  std::vector<KernelSignature> signatures;
  CudaContext *cuda = nullptr;
};

/// The launch descriptor (#ew.launch) of each gpu.func in `module` (after the
/// GPU stage), by kernel name.
llvm::StringMap<LaunchDescriptor> getLaunchDescriptors(mlir::ModuleOp module);

/// Cuda or Cpu for `target`: Auto is Cuda where CudaContext finds a device.
/// `whyNotCuda`, if not null, gets the reason Auto chose the CPU.
Target resolveTarget(Target target, std::string *whyNotCuda = nullptr);

} // namespace driver
} // namespace ewc

#endif // EWC_DRIVER_DRIVER_H
