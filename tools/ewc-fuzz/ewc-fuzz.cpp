//===- ewc-fuzz.cpp - Random programs, checked against the reference ------===//
//
// Differential testing in one process: generates seeded random .ew programs
// (Generator.h), compiles each for the CPU, the GPU or both through the
// driver (EWCDriver, the code ewc-run and the C++ API share), runs every
// kernel on seeded inputs over the program's own shape (Shapes.h) and
// layouts, and checks each result with the reference, through the same
// library as ewc-run (EWCCheck). --jobs runs programs on several threads,
// each compiling in its own MLIRContext. A program that the front end
// rejects is a generator or front-end bug, one that fails to compile a
// compiler bug, one whose results differ a miscompilation (or a reference
// bug). Crashes and LLVM fatal errors are caught per program
// (llvm::CrashRecoveryContext) so that one bad program does not end a long
// run. docs/fuzzing.md, "Random programs", records the runs.
//
// Exit codes: 0 every program passed, 1 any failed, 2 a usage error.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"
#include "Reducer.h"
#include "Shapes.h"

#include "ewc/ABI/RowAccess.h"
#include "ewc/Check/KernelRunner.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"
#include "ewc/Driver/Driver.h"
#include "ewc/Driver/Version.h"
#include "ewc/Frontend/AST.h"
#include "ewc/Runtime/CudaContext.h"

#include "Support/Environment.h"
#include "Support/PassPlugins.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>

using namespace ewc;
namespace cl = llvm::cl;

namespace {

cl::opt<uint64_t> seedOpt("seed", cl::desc("seed of the run (default 0)"),
                          cl::init(0));
cl::opt<uint64_t> countOpt("count", cl::desc("programs to run (default 100)"),
                           cl::init(100));
cl::opt<uint64_t>
    firstOpt("first",
             cl::desc("index of the first program (default 0): "
                      "--first I --count 1 reruns program I alone"),
             cl::init(0));
cl::opt<unsigned> sizeOpt("size", cl::desc("size of the programs (default 4)"),
                          cl::init(4));
cl::opt<bool> reductionsOpt(
    "reductions",
    cl::desc("programs with reductions and scans too (sum, mean, amax, amin, "
             "any, all, cumsum, cummax, cummin)"));
cl::opt<bool> randomOpt(
    "random",
    cl::desc("programs with random numbers too (rand, randn, randint, "
             "index_flat)"));
cl::opt<bool> genericOpt(
    "generic",
    cl::desc("programs with generic kernels too: a type of each kernel's "
             "signature becomes a type parameter (float or int), checked by "
             "the front end under every type it admits and run at one drawn "
             "from them"));
cl::opt<int64_t>
    nOpt("n",
         cl::desc("the extent of a dimension that no --dim of the program's "
                  "shape sets (default 257; the generator's dimensions all "
                  "have drawn extents: --max-points)"),
         cl::init(257));
cl::opt<uint64_t> maxPointsOpt(
    "max-points",
    cl::desc("the most elements of any tensor: each program's extents, "
             "drawn from its seed, multiply to at most this (default 65536)"),
    cl::init(65536));
cl::opt<std::string>
    inputsOpt("inputs",
              cl::desc("normal|uniform|special|ints (default special)"),
              cl::init("special"));
cl::opt<std::string> layoutOpt(
    "layout",
    cl::desc("how the tensors lie in memory, as ewc-run --layout (default "
             "random: each tensor of each program its own, and every "
             "program's views start 0 to 3 elements into their storage)"),
    cl::init("random"));
cl::opt<std::string>
    saveOpt("save-failures",
            cl::desc("write each failing program and its commands into DIR"),
            cl::value_desc("DIR"));
cl::opt<bool>
    printOpt("print",
             cl::desc("print the programs, each after a line with its shape "
                      "(--dim, --batch), instead of running them"));
cl::opt<bool>
    reduceOpt("reduce",
              cl::desc("shrink each failing program to a smaller one that "
                       "fails the same way (Reducer.h)"));
cl::opt<double> timeLimitOpt(
    "time-limit",
    cl::desc("stop starting programs after this many seconds (0: no limit); "
             "the summary counts the programs that ran"),
    cl::init(0));
cl::opt<std::string> deviceOpt(
    "device",
    cl::desc("where the programs run: cpu (the default, the CPU JIT), cuda, "
             "or both (each program on both, each checked against the "
             "reference); or ptx: each program compiled for the GPU to PTX "
             "and not run, as its default variants and as one variant that "
             "GPU launches pick (by its seed), which needs no GPU"),
    cl::init("cpu"));
cl::opt<unsigned> jobsOpt(
    "jobs",
    cl::desc("programs run at once, on as many threads, each compiling in "
             "its own MLIRContext (default 1; with more, failures print in "
             "the order they are found)"),
    cl::init(1));
cl::opt<bool> verboseOpt("v", cl::desc("print a line for every program"));
cl::opt<bool> timingOpt(
    "timing",
    cl::desc("after the summary, the mean wall time of a program's compile "
             "and of its runs and checks, per device (each job's own time, "
             "so that time lost waiting on the others shows)"));
cl::opt<std::string>
    mutationOpt("test-mutation", cl::Hidden,
                cl::desc("compile with a deliberate miscompilation "
                         "(test/Mutations), to show that runs catch it; "
                         "needs --load-pass-plugin=EwcTestPasses.so"));
cl::list<std::string> passPluginsOpt(
    "load-pass-plugin", cl::value_desc("FILE"),
    cl::desc("load an MLIR pass plugin and register its passes (the test "
             "mutations come from <build>/lib/EwcTestPasses.so)"));

/// --test-mutation and the plugins it needs, as options of the commands that
/// rerun a program (empty without a mutation); starts with a space.
std::string getMutationArgs(llvm::StringRef separator) {
  if (mutationOpt.empty())
    return "";
  std::string args;
  for (const std::string &plugin : passPluginsOpt)
    args += " --load-pass-plugin" + separator.str() + plugin;
  return args + " --test-mutation" + separator.str() + mutationOpt;
}

/// What the EWC_* variables ask of every compilation (a rerun under other
/// PTX assembler settings, docs/fuzzing.md); set in main before any job
/// starts.
driver::CompileOptions environmentOptions;

enum class Verdict {
  Ok,
  Mismatch,
  Rejected,
  CompileError,
  RunError,
  Crash,
};
constexpr const char *kVerdictNames[] = {
    "OK", "MISMATCH", "REJECTED", "COMPILE-ERROR", "RUN-ERROR", "CRASH"};

struct Outcome {
  Verdict verdict = Verdict::Ok;
  std::string details;
  unsigned kernels = 0;
  /// Where the program failed first (ewc-run's --device of the reproducer).
  driver::Target device = driver::Target::Cpu;
};

llvm::StringRef getDeviceName(driver::Target target) {
  return target == driver::Target::Cuda ? "cuda" : "cpu";
}

/// The wall time that every job spent compiling, and running and checking,
/// per target (--timing), in microseconds: the time a program waits on
/// another job (a lock in the CUDA driver's JIT) counts, which is what tells
/// threads from processes apart (docs/fuzzing.md).
enum class Phase { Compile, RunAndCheck };
std::atomic<uint64_t> phaseMicros[2][2];

/// Adds the time since `start` to `phase` of `target`.
void addPhaseTime(driver::Target target, Phase phase,
                  std::chrono::steady_clock::time_point start) {
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  phaseMicros[target == driver::Target::Cuda][static_cast<int>(phase)] +=
      micros;
}

/// What every program runs on, and the CUDA context of one worker thread
/// (the device's primary context, current on that thread), if it runs on
/// the GPU.
struct Devices {
  std::vector<driver::Target> targets;
  CudaContext *cuda = nullptr;
  /// --device ptx: the GPU's compilation alone, to PTX (compileForPTX).
  bool ptxOnly = false;
};

/// A variant of the GPU's that only a launch asks for
/// (ewc/ABI/KernelVariant.h), which --device ptx compiles without one: resident
/// rows (with their team), the long rows' block, scans split into tiles, the
/// unaligned loops, a pass of the points on the lanes. Each program
/// compiles one of them, by its seed.
struct ForcedVariant {
  const char *name;
  void (*apply)(ewc::KernelVariant &);
};
const ForcedVariant &getForcedVariant(uint64_t programSeed) {
  using ewc::KernelVariant;
  static const ForcedVariant kVariants[] = {
      {"resident rows, 32 slots, teams of 1",
       [](KernelVariant &v) {
         v.rowsResident = ewc::kRowResidentElements;
         v.rowsTeam = 1;
       }},
      {"resident rows, 2 slots, teams of 4",
       [](KernelVariant &v) {
         v.rowsResident = 2;
         v.rowsTeam = 4;
       }},
      {"resident rows, 2 slots, teams of 128",
       [](KernelVariant &v) {
         v.rowsResident = 2;
         v.rowsTeam = 128;
       }},
      {"the long rows' block",
       [](KernelVariant &v) { v.rowsBlockSize = ewc::kRowsOnlineMinBlock; }},
      {"scans split into tiles", [](KernelVariant &v) { v.splitScans = true; }},
      {"unaligned", [](KernelVariant &v) { v.unaligned = true; }},
      {"the lanes' full pass",
       [](KernelVariant &v) { v.lanePass = ewc::kLanePassFull; }},
      {"the lanes' pass that fits",
       [](KernelVariant &v) { v.lanePass = ewc::kLanePassFits; }},
  };
  return kVariants[(programSeed * 0xd6e8feb86659fd93ull) >> 61];
}

/// Sets a ForcedVariant on every ew.kernel (what does not apply to a
/// kernel's schedule its lowering ignores, as the runtime's variants).
struct SetVariantPass
    : mlir::PassWrapper<SetVariantPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SetVariantPass)
  explicit SetVariantPass(const ForcedVariant &variant) : variant(variant) {}
  llvm::StringRef getArgument() const override {
    return "ewc-fuzz-set-variant";
  }
  void runOnOperation() override {
    getOperation().walk([&](mlir::ew::KernelOp kernel) {
      ewc::KernelVariant forced = mlir::ew::getKernelVariant(kernel);
      variant.apply(forced);
      mlir::ew::setKernelVariant(kernel, forced);
    });
  }
  const ForcedVariant &variant;
};

/// The shape that the program seeded with `programSeed` runs over.
fuzz::ProgramShape getShape(uint64_t programSeed) {
  return fuzz::drawProgramShape(programSeed, maxPointsOpt);
}

/// The inputs of the program seeded with `programSeed`: its seed, shape,
/// layouts and offset. The reproducers (getEwcRunArgs) say the same.
check::InputSpec getInputSpec(uint64_t programSeed, InputKind kind) {
  check::InputSpec spec;
  spec.n = nOpt;
  fuzz::ProgramShape shape = getShape(programSeed);
  for (const auto &[name, extent] : shape.dims)
    spec.dims[name] = extent;
  spec.batch = shape.batch;
  spec.seed = programSeed;
  spec.kind = kind;
  spec.layout = *check::parseLayoutName(layoutOpt);
  return spec;
}

/// The splits that a program's launches force (the CPU has none): the
/// runtime's, 2, 3 or 7, by its seed, as the columns schedule's splits per
/// tile (ewc/ABI/ColumnAccess.h) and a scan's tiles per row
/// (ewc/ABI/ScanAccess.h). The fuzzed reductions and scans are too short
/// for the runtime to split them (it wants 8 x 64 elements a split, and a
/// row longer than a block's tile), so without this the workspace, the
/// tickets, the fold and the look-back would meet no fuzzed program.
std::optional<unsigned> getSplits(uint64_t programSeed) {
  static constexpr unsigned kSplits[] = {0, 2, 3, 7};
  unsigned splits = kSplits[(programSeed * 0x9e3779b97f4a7c15ull) >> 62];
  return splits ? std::optional<unsigned>(splits) : std::nullopt;
}

/// The rows schedule's block that a program's launches force: the
/// runtime's, or for a quarter of the seeds that of the variant of long
/// rows, whose online groups (RowAccess.h, kRowsOnlineMinBlock) the fuzzed
/// rows, far shorter, would otherwise never meet.
std::optional<unsigned> getRowsBlockSize(uint64_t programSeed) {
  bool longRows = ((programSeed * 0xc2b2ae3d27d4eb4full) >> 62) == 1;
  return longRows ? std::optional<unsigned>(ewc::kRowsOnlineMinBlock)
                  : std::nullopt;
}

/// The elements of its row that a lane of the rows schedule keeps in
/// registers (RowAccess.h, kRowResidentElements), as a program's launches
/// force it: none (the runtime's looping teams) for half the seeds and for
/// every seed of the long rows' variant, whose online groups a resident row
/// does without; kRowResidentElements for a quarter (the fuzzed rows, short,
/// kept whole); two for the rest, so that most rows reach past their slots
/// and the resident row's loops over its rest run.
std::optional<unsigned> getRowsResident(uint64_t programSeed) {
  if (getRowsBlockSize(programSeed))
    return std::nullopt;
  switch ((programSeed * 0xff51afd7ed558ccdull) >> 62) {
  case 0:
    return ewc::kRowResidentElements;
  case 1:
    return 2u;
  default:
    return std::nullopt;
  }
}

/// Runs `kernel` of `module` and checks it; appends what failed to `out`,
/// each result's line starting with `label`.
llvm::Expected<Verdict> runKernel(const KernelDecl &kernel,
                                  driver::LoadedModule &module, uint64_t seed,
                                  InputKind kind, llvm::StringRef label,
                                  llvm::raw_ostream &out) {
  check::InputSpec spec = getInputSpec(seed, kind);
  // The three worst elements of each result are shown.
  // Exact comparison: the reference is exact but for the math functions,
  // whose error it carries as slack, so any other difference is a bug. With
  // torch's tolerances a literal one f32 ulp off passed (issue 14).
  CheckOptions options;
  options.numWorst = 3;
  options.rtol = options.atol = 0;
  check::LaunchConfig launch;
  launch.splits = getSplits(seed);
  launch.rowsBlockSize = getRowsBlockSize(seed);
  launch.rowsResident = getRowsResident(seed);
  llvm::Expected<check::KernelCheck> checked =
      check::runAndCheck(kernel, module, spec, options, launch);
  if (!checked)
    return checked.takeError();
  for (auto [index, result] : llvm::enumerate(checked->results)) {
    if (result.ok())
      continue;
    out << "  " << label << "kernel '" << kernel.getName() << "' result "
        << index << ": ";
    result.print(out);
    out << "\n";
    check::printMismatches(out, *checked, index, kernel, 3, "    ");
  }
  for (auto [index, stray] : llvm::enumerate(checked->strayWrites))
    if (stray.count)
      out << "  " << label << "kernel '" << kernel.getName() << "' result "
          << index << ": " << stray.count
          << " element(s) outside its view written, first at element "
          << stray.first << " of its storage\n";
  return checked->ok() ? Verdict::Ok : Verdict::Mismatch;
}

/// --device ptx: compiles `source` for the GPU to PTX, as its default
/// variants and with the ForcedVariant of `seed`, without a GPU (the
/// compilation stops before the PTX is assembled); nothing runs. A compile
/// error of either is the program's failure.
void compileForPTX(driver::Source &source, uint64_t seed, Outcome &outcome) {
  llvm::raw_string_ostream out(outcome.details);
  const ForcedVariant &forced = getForcedVariant(seed);
  for (bool withVariant : {false, true}) {
    driver::CompileOptions options = environmentOptions;
    options.target = driver::Target::Cuda;
    // Nothing is assembled, so nothing is cached (runOn says why not).
    options.noCache = true;
    options.stopAfter = [](driver::Stage stage, mlir::ModuleOp) {
      return stage == driver::Stage::PTX;
    };
    if (withVariant)
      options.addPasses = [&forced, mutation = environmentOptions.addPasses](
                              mlir::OpPassManager &pm,
                              driver::HookPoint point) {
        if (point == driver::HookPoint::Ew)
          pm.addPass(std::make_unique<SetVariantPass>(forced));
        if (mutation)
          mutation(pm, point);
      };
    auto compileStart = std::chrono::steady_clock::now();
    auto module = driver::LoadedModule::compile(source, options, nullptr);
    addPhaseTime(driver::Target::Cuda, Phase::Compile, compileStart);
    if (!module) {
      outcome.verdict = Verdict::CompileError;
      outcome.device = driver::Target::Cuda;
      out << "[ptx" << (withVariant ? ", " + std::string(forced.name) : "")
          << "] " << llvm::toString(module.takeError()) << "\n";
      return;
    }
  }
  outcome.kernels += source.getAST().getKernels().size();
}

/// Compiles, runs and checks one program on `target`; `seed` seeds its
/// inputs. Appends what failed to `outcome`.
void runOn(driver::Target target, driver::Source &source, CudaContext *cuda,
           uint64_t seed, InputKind kind, bool labelled, Outcome &outcome) {
  llvm::raw_string_ostream out(outcome.details);
  // With --device both, each line says which run it is about.
  std::string label =
      labelled ? ("[" + getDeviceName(target) + "] ").str() : "";
  // The first failure names the verdict, except that a run error outranks
  // a mismatch (as a reduction must keep it).
  auto fail = [&](Verdict verdict) {
    if (outcome.verdict != Verdict::Ok &&
        !(verdict == Verdict::RunError && outcome.verdict == Verdict::Mismatch))
      return;
    outcome.verdict = verdict;
    outcome.device = target;
  };
  driver::CompileOptions options = environmentOptions;
  options.target = target;
  // Each random program is compiled once: a cache would only fill the disk
  // (100,000 entries a run) and answer a rerun under other PTX assembler
  // settings with the first run's code.
  options.noCache = true;
  auto compileStart = std::chrono::steady_clock::now();
  auto module = driver::LoadedModule::compile(source, options, cuda);
  addPhaseTime(target, Phase::Compile, compileStart);
  if (!module || !*module) {
    fail(Verdict::CompileError);
    out << label;
    if (!module)
      out << llvm::toString(module.takeError()) << "\n";
    return;
  }
  auto runStart = std::chrono::steady_clock::now();
  llvm::scope_exit timeRuns(
      [&] { addPhaseTime(target, Phase::RunAndCheck, runStart); });
  for (const auto &kernel : source.getAST().getKernels()) {
    ++outcome.kernels;
    llvm::Expected<Verdict> verdict =
        runKernel(*kernel, **module, seed, kind, label, out);
    if (!verdict) {
      fail(Verdict::RunError);
      out << "  " << label << "kernel '" << kernel->getName()
          << "': " << llvm::toString(verdict.takeError()) << "\n";
    } else if (*verdict == Verdict::Mismatch) {
      fail(Verdict::Mismatch);
    }
  }
}

/// Compiles, runs and checks one program on every device; `seed` seeds its
/// inputs.
Outcome runProgram(const std::string &text, const std::string &name,
                   uint64_t seed, InputKind kind, const Devices &devices,
                   const std::string &binding) {
  Outcome outcome;
  std::string why;
  auto source =
      driver::Source::parse(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                            nullptr, parseTypeBinding(binding, why));
  if (!source) {
    outcome.verdict = Verdict::Rejected;
    outcome.details = llvm::toString(source.takeError());
    return outcome;
  }
  if (devices.ptxOnly) {
    compileForPTX(**source, seed, outcome);
    return outcome;
  }
  for (driver::Target target : devices.targets)
    runOn(target, **source, devices.cuda, seed, kind,
          devices.targets.size() > 1, outcome);
  return outcome;
}

/// The dimensions of the kernels of `text` (kBatchDimName for the batch),
/// or none if the front end rejects it (ewc-run then stops before it looks
/// at its --dim).
llvm::StringSet<> getKernelDims(const std::string &text) {
  llvm::StringSet<> dims;
  auto source = driver::Source::parse(
      llvm::MemoryBuffer::getMemBufferCopy(text, "program.ew"), nullptr);
  if (!source) {
    llvm::consumeError(source.takeError());
    return dims;
  }
  for (const auto &kernel : (*source)->getAST().getKernels())
    for (const std::string &dim : kernel->getDims())
      dims.insert(dim);
  return dims;
}

/// The shape that `text`, seeded with `programSeed`, runs over, as ewc-run's
/// options: --dim for each dimension that a kernel has (ewc-run refuses
/// others) and --batch if a kernel has the batch (`--batch ""` for rank 0),
/// so that nothing is left to --n. Each option starts with a space.
std::string getShapeArgs(uint64_t programSeed, const std::string &text) {
  llvm::StringSet<> kernelDims = getKernelDims(text);
  fuzz::ProgramShape shape = getShape(programSeed);
  std::string args;
  for (const auto &[name, extent] : shape.dims)
    if (kernelDims.contains(name))
      args += llvm::formatv(" --dim {0}={1}", name, extent).str();
  if (shape.batch && kernelDims.contains(kBatchDimName)) {
    std::string batch = fuzz::formatBatch(*shape.batch);
    args += " --batch " + (batch.empty() ? "\"\"" : batch);
  }
  return args;
}

/// The arguments of the ewc-run command that reruns `text`, seeded with
/// `programSeed`, from `file` on `device`: its shape, inputs, layouts (and
/// with them the tensors' offsets: check::getOffsetOf), and the exact
/// comparison.
std::string getEwcRunArgs(llvm::StringRef file, driver::Target device,
                          uint64_t programSeed, const std::string &text,
                          const std::string &binding) {
  std::optional<unsigned> splits = getSplits(programSeed);
  std::optional<unsigned> rowsBlock = getRowsBlockSize(programSeed);
  std::optional<unsigned> resident = getRowsResident(programSeed);
  bool cuda = device == driver::Target::Cuda;
  return llvm::formatv(
      "{0} --device {1} --n {2}{7} --inputs {3} --seed {4} "
      "--layout {6} --rtol 0 --atol 0{5}{8}{9}{10}{11}",
      file, getDeviceName(device), nOpt.getValue(), inputsOpt.getValue(),
      programSeed, getMutationArgs("="), layoutOpt.getValue(),
      getShapeArgs(programSeed, text),
      splits && cuda ? llvm::formatv(" --splits {0}", *splits).str()
                     : std::string(),
      rowsBlock && cuda
          ? llvm::formatv(" --rows-block-size {0}", *rowsBlock).str()
          : std::string(),
      resident && cuda ? llvm::formatv(" --rows-resident {0}", *resident).str()
                       : std::string(),
      binding.empty() ? std::string() : " --type " + binding);
}

/// The generator's options, from the command line.
fuzz::GeneratorOptions getGeneratorOptions() {
  return {/*size=*/sizeOpt.getValue(), /*reductions=*/reductionsOpt,
          /*random=*/randomOpt};
}

/// The commands that rerun program `index` (`text`, perhaps reduced) alone.
std::string getReproducers(uint64_t index, uint64_t programSeed,
                           const std::string &text, llvm::StringRef file,
                           driver::Target device, const std::string &binding) {
  std::string maxPoints =
      maxPointsOpt.getNumOccurrences()
          ? llvm::formatv(" --max-points {0}", maxPointsOpt.getValue()).str()
          : "";
  return llvm::formatv(
      "ewc-fuzz --seed {0} --first {1} --count 1 --size {2}{10}{11}{12} --n "
      "{3}{9} "
      "--inputs {4} --layout {8}{5}{6}\newc-run {7}\n",
      seedOpt.getValue(), index, sizeOpt.getValue(), nOpt.getValue(),
      inputsOpt.getValue(), deviceOpt == "cpu" ? "" : " --device " + deviceOpt,
      getMutationArgs(" "),
      getEwcRunArgs(file, device, programSeed, text, binding),
      layoutOpt.getValue(), maxPoints, reductionsOpt ? " --reductions" : "",
      randomOpt ? " --random" : "", genericOpt ? " --generic" : "");
}

/// Writes the failing program into --save-failures as a lit test: its
/// commands in comments, then a RUN line that expects what a correct
/// compiler prints (True), so the file fails until the bug is fixed and can
/// then join test/ as its regression test.
void saveFailure(uint64_t index, uint64_t programSeed, const std::string &text,
                 const std::string &binding, const Outcome &outcome,
                 llvm::StringRef suffix = "") {
  llvm::SmallString<128> path(saveOpt);
  llvm::sys::path::append(path, llvm::formatv("fuzz-{0}-{1}{2}.ew",
                                              seedOpt.getValue(), index, suffix)
                                    .str());
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "error: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return;
  }
  std::string commands =
      getReproducers(index, programSeed, text, path, outcome.device, binding);
  file << "# " << kVerdictNames[static_cast<int>(outcome.verdict)]
       << ", found by ewc-fuzz. Reproduce with:\n";
  llvm::SmallVector<llvm::StringRef, 2> lines;
  llvm::StringRef(commands).trim().split(lines, '\n');
  for (llvm::StringRef line : lines)
    file << "#   " << line << "\n";
  if (outcome.device == driver::Target::Cuda)
    file << "# REQUIRES: cuda\n";
  file << "# RUN: ewc-run "
       << getEwcRunArgs("%s", outcome.device, programSeed, text, binding)
       << " | FileCheck %s\n"
       << "# CHECK: {{^True$}}\n";
  file << text;
}

/// The text of the program seeded by `programSeed` and the binding to run
/// it under: with --generic, the program with type parameters
/// (fuzz::makeGeneric) where the front end takes it under every type they
/// admit, else the concrete program and no binding.
fuzz::GenericProgram makeProgram(uint64_t programSeed) {
  fuzz::GenericProgram program{
      fuzz::generateProgram(programSeed, getGeneratorOptions()), ""};
  if (!genericOpt)
    return program;
  fuzz::GenericProgram generic = fuzz::makeGeneric(program.text, programSeed);
  if (generic.binding.empty())
    return program;
  auto checked = driver::Source::parse(
      llvm::MemoryBuffer::getMemBufferCopy(generic.text, "program.ew"),
      nullptr);
  if (!checked) {
    llvm::consumeError(checked.takeError());
    return program;
  }
  return generic;
}

/// Where the run stands: the counts, and the order of what it prints.
struct Progress {
  std::mutex mutex;
  unsigned counts[std::size(kVerdictNames)] = {};
  uint64_t kernels = 0;
  uint64_t ran = 0;
  /// Programs run as generic kernels (--generic).
  uint64_t generic = 0;
};

/// Runs program `index` on `devices`, counts it, and prints, saves and
/// reduces it if it fails.
void fuzzOne(uint64_t index, InputKind kind, const Devices &devices,
             Progress &progress) {
  uint64_t programSeed = fuzz::deriveProgramSeed(seedOpt, index);
  std::string name =
      llvm::formatv("fuzz-{0}-{1}.ew", seedOpt.getValue(), index);
  auto [text, binding] = makeProgram(programSeed);
  auto runSafely = [&](const std::string &program) {
    Outcome outcome;
    llvm::CrashRecoveryContext crc;
    if (!crc.RunSafely([&] {
          outcome =
              runProgram(program, name, programSeed, kind, devices, binding);
        })) {
      outcome = Outcome();
      outcome.verdict = Verdict::Crash;
    }
    return outcome;
  };
  Outcome outcome = runSafely(text);
  std::string report;
  llvm::raw_string_ostream out(report);
  if (outcome.verdict == Verdict::Ok) {
    if (verboseOpt)
      out << "program " << index << ": OK\n";
  } else {
    out << "program " << index << ": "
        << kVerdictNames[static_cast<int>(outcome.verdict)] << "\n"
        << outcome.details;
    if (!llvm::StringRef(outcome.details).ends_with("\n"))
      out << "\n";
    out << text
        << getReproducers(index, programSeed, text, "FILE.ew", outcome.device,
                          binding);
    if (!saveOpt.empty())
      saveFailure(index, programSeed, text, binding, outcome);
    // A rejection is not reduced: any typo would reproduce it.
    if (reduceOpt && outcome.verdict != Verdict::Rejected) {
      // With --save-failures, the .reduced file holds the best program so
      // far, replaced by each smaller one as it is found: a reduction that
      // a time limit kills (a device call's) leaves what it had.
      auto saveReduced = [&](const std::string &program) {
        if (!saveOpt.empty())
          saveFailure(index, programSeed, program, binding, outcome,
                      ".reduced");
      };
      saveReduced(text);
      std::string reduced = fuzz::reduceProgram(
          text,
          [&](const std::string &candidate) {
            return runSafely(candidate).verdict == outcome.verdict;
          },
          fuzz::kMaxReduceAttempts, saveReduced);
      out << "reduced:\n" << reduced;
    }
  }
  std::lock_guard<std::mutex> lock(progress.mutex);
  ++progress.counts[static_cast<int>(outcome.verdict)];
  progress.generic += !binding.empty();
  progress.kernels += outcome.kernels;
  llvm::outs() << report;
  llvm::outs().flush();
}

/// The targets --device names; an error if the GPU is asked for alone and
/// there is none. With `both` and no GPU, a note says the CPU runs alone.
llvm::Expected<std::vector<driver::Target>> getTargets() {
  if (deviceOpt != "cpu" && deviceOpt != "cuda" && deviceOpt != "both" &&
      deviceOpt != "ptx")
    return llvm::createStringError("invalid --device '" + deviceOpt +
                                   "': expected cpu, cuda, both or ptx");
  // The GPU's compilation alone needs no GPU.
  if (deviceOpt == "ptx")
    return std::vector<driver::Target>{driver::Target::Cuda};
  if (deviceOpt == "cpu")
    return std::vector<driver::Target>{driver::Target::Cpu};
  std::string whyNot;
  if (CudaContext::isDeviceAvailable(&whyNot))
    return deviceOpt == "cuda"
               ? std::vector<driver::Target>{driver::Target::Cuda}
               : std::vector<driver::Target>{driver::Target::Cpu,
                                             driver::Target::Cuda};
  if (deviceOpt == "cuda")
    return llvm::createStringError("--device cuda: " + whyNot);
  llvm::errs() << "note: --device both: no CUDA device (" << whyNot
               << "); the programs run on the CPU only\n";
  return std::vector<driver::Target>{driver::Target::Cpu};
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help lists ewc-fuzz's own options, not the hundreds that LLVM's
  // libraries register.
  cl::OptionCategory category("ewc-fuzz options");
  for (cl::Option *option : std::initializer_list<cl::Option *>{
           &seedOpt,   &countOpt,   &firstOpt,   &sizeOpt,      &reductionsOpt,
           &randomOpt, &genericOpt, &nOpt,       &maxPointsOpt, &inputsOpt,
           &layoutOpt, &saveOpt,    &printOpt,   &reduceOpt,    &timeLimitOpt,
           &deviceOpt, &jobsOpt,    &verboseOpt, &timingOpt,    &mutationOpt})
    option->addCategory(category);
  passPluginsOpt.addCategory(category);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(driver::printVersion);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ewc-fuzz: random .ew programs, compiled for the CPU and/or the GPU "
      "and checked against the reference\n");
  std::optional<InputKind> kind = parseInputKindName(inputsOpt);
  if (!kind) {
    llvm::errs() << "error: invalid --inputs '" << inputsOpt
                 << "': expected normal, uniform, special or ints\n";
    return 2;
  }
  if (!check::parseLayoutName(layoutOpt)) {
    llvm::errs() << "error: invalid --layout '" << layoutOpt << "': expected "
                 << check::getLayoutNames() << "\n";
    return 2;
  }
  if (jobsOpt == 0) {
    llvm::errs() << "error: invalid --jobs 0: expected a positive number\n";
    return 2;
  }
  if (!(timeLimitOpt >= 0) || std::isinf(timeLimitOpt)) {
    llvm::errs() << llvm::formatv("error: invalid --time-limit {0}: expected "
                                  "seconds, 0 or more (0: no limit)\n",
                                  timeLimitOpt.getValue());
    return 2;
  }
  if (llvm::Error error = tools::applyEnvironment(environmentOptions)) {
    llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    return 2;
  }
  // The mutation hook, made once for every job (the pass comes from a
  // plugin: tools/Support/PassPlugins.h).
  if (llvm::Error error = tools::loadPassPlugins(std::vector<std::string>(
          passPluginsOpt.begin(), passPluginsOpt.end()))) {
    llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    return 2;
  }
  if (!mutationOpt.empty()) {
    auto hook = tools::getTestMutationHook(mutationOpt);
    if (!hook) {
      llvm::errs() << "error: " << llvm::toString(hook.takeError()) << "\n";
      return 2;
    }
    environmentOptions.addPasses = std::move(*hook);
  }
  if (printOpt) {
    // Each program after a line with its shape: "# program 3: --dim m=4".
    for (uint64_t index = firstOpt; index < firstOpt + countOpt; ++index) {
      uint64_t programSeed = fuzz::deriveProgramSeed(seedOpt, index);
      auto [text, binding] = makeProgram(programSeed);
      llvm::outs() << "# program " << index << ":"
                   << getShapeArgs(programSeed, text)
                   << (binding.empty() ? "" : " --type " + binding) << "\n"
                   << text << "\n";
    }
    return 0;
  }
  llvm::Expected<std::vector<driver::Target>> targets = getTargets();
  if (!targets) {
    llvm::errs() << "error: " << llvm::toString(targets.takeError()) << "\n";
    return 2;
  }
  bool ptxOnly = deviceOpt == "ptx";
  bool onGPU = llvm::is_contained(*targets, driver::Target::Cuda) && !ptxOnly;
  if (!saveOpt.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(saveOpt)) {
      llvm::errs() << "error: cannot create '" << saveOpt
                   << "': " << ec.message() << "\n";
      return 2;
    }

  // Crashes and fatal errors of one program end that program only.
  llvm::CrashRecoveryContext::Enable();
  Progress progress;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  // Each worker takes the next program until none is left or time is up.
  std::atomic<uint64_t> next = firstOpt.getValue();
  std::atomic<bool> setupFailed = false;
  auto work = [&] {
    Devices devices;
    devices.targets = *targets;
    devices.ptxOnly = ptxOnly;
    // The device's primary context, retained and current on this thread.
    std::unique_ptr<CudaContext> cuda;
    if (onGPU) {
      auto created = CudaContext::create();
      if (!created) {
        std::lock_guard<std::mutex> lock(progress.mutex);
        llvm::errs() << "error: " << llvm::toString(created.takeError())
                     << "\n";
        setupFailed = true;
        return;
      }
      cuda = std::move(*created);
      devices.cuda = cuda.get();
    }
    for (;;) {
      if (timeLimitOpt > 0 && elapsed() > timeLimitOpt)
        return;
      uint64_t index = next++;
      if (index >= firstOpt + countOpt)
        return;
      {
        std::lock_guard<std::mutex> lock(progress.mutex);
        ++progress.ran;
      }
      fuzzOne(index, *kind, devices, progress);
    }
  };
  if (jobsOpt == 1) {
    work();
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(jobsOpt));
    for (unsigned job = 0; job < jobsOpt; ++job)
      pool.async(work);
    pool.wait();
  }
  if (setupFailed)
    return 2;
  double seconds = elapsed();
  const unsigned *counts = progress.counts;
  uint64_t ran = progress.ran;
  uint64_t failures = ran - counts[0];
  llvm::outs() << llvm::formatv(
      "{0} programs, {1} ok, {2} mismatch, {3} rejected, {4} compile-error, "
      "{5} run-error, {6} crash ({7} kernels, {8:F1} s, {9:F1} "
      "programs/s){10}\n",
      ran, counts[0], counts[1], counts[2], counts[3], counts[4], counts[5],
      progress.kernels, seconds, ran / seconds,
      genericOpt ? llvm::formatv("; {0} generic", progress.generic).str()
                 : std::string());
  if (timingOpt && ran) {
    // Per program that reached the phase's target: a rejected program
    // compiles nowhere, which the mean over `ran` slightly understates.
    llvm::outs() << "mean per program, each job's wall time:";
    for (driver::Target target : *targets) {
      auto &micros = phaseMicros[target == driver::Target::Cuda];
      llvm::outs() << llvm::formatv(
          " {0} compile {1:F1} ms, run and check {2:F1} ms;",
          getDeviceName(target),
          micros[static_cast<int>(Phase::Compile)] / 1e3 / ran,
          micros[static_cast<int>(Phase::RunAndCheck)] / 1e3 / ran);
    }
    llvm::outs() << llvm::formatv(" {0} jobs\n", jobsOpt.getValue());
  }
  return failures ? 1 : 0;
}
