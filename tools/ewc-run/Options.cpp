//===- Options.cpp - ewc-run command line ---------------------------------===//
//
// llvm::cl parses the words (`--opt VALUE`, `--opt=VALUE`, unknown options,
// --help); the values are taken as text and checked here, so that each
// mistake names the flag and the form it expects, as the lit tests under
// test/Tools/ewc-run pin. MLIR's own options register alongside, so
// --mlir-timing, --mlir-print-ir-after-all and
// --mlir-pass-pipeline-crash-reproducer work as in ewc-opt.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "ewc/ABI/RowAccess.h"
#include "ewc/Conversion/Passes.h"
#include "ewc/Driver/Version.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Reference/Compare.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace ewc;
using llvm::StringRef;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("ewc-run options");

// Options with a value are strings: their checks below give each mistake
// ewc-run's own message (cl's typed parsers would say "'abc' value invalid
// for integer argument!" and accept -5 for a count).
cl::list<std::string> files(cl::Positional, cl::desc("FILE.ew"),
                            cl::cat(category));
cl::opt<std::string>
    nOpt("n", cl::value_desc("N"), cl::cat(category),
         cl::desc("the extent of every dimension that no --dim or --input\n"
                  "sets (default 1024); for a kernel over '...' only, the\n"
                  "leading dimensions' one extent"));
cl::list<std::string>
    dimOpt("dim", cl::value_desc("NAME=N"), cl::cat(category),
           cl::desc("the extent of dimension NAME (default: --n, or the\n"
                    "--input files' shape)"));
cl::opt<std::string> batchOpt(
    "batch", cl::value_desc("AxBx..."), cl::cat(category),
    cl::desc("the shape of the leading dimensions '...' (e.g. 4x3; an\n"
             "empty value for none; default: the --input files', else\n"
             "none, or [N] for a kernel over '...' only)"));
cl::opt<std::string> layoutOpt(
    "layout", cl::value_desc("NAME"), cl::cat(category),
    cl::desc("how every tensor (inputs and results) lies in memory:\n"
             "  contiguous  row-major and dense (the default)\n"
             "  padded      rows 3 elements longer than their extent\n"
             "  transposed  column-major (the strides of a .T)\n"
             "  strided     every stride doubled (x[..., ::2])\n"
             "  random      each tensor one of those, drawn from --seed\n"
             "elements outside a result's view must stay unwritten"));
cl::list<std::string>
    argOpt("arg", cl::value_desc("NAME=VALUE"), cl::cat(category),
           cl::desc("value of scalar parameter NAME (default: its default)"));
cl::opt<std::string>
    deviceOpt("device", cl::value_desc("auto|cuda|cpu"), cl::cat(category),
              cl::desc("where to run (default auto: CUDA if a device is "
                       "present)"));
cl::opt<std::string> cpuTargetOpt(
    "cpu-target", cl::value_desc("NAME"), cl::init("host"), cl::cat(category),
    cl::desc("the CPU that the CPU JIT compiles for: host (the default: this\n"
             "machine's CPU and features, except x86's f32->bf16\n"
             "instructions, which flush subnormals) or an LLVM CPU name such\n"
             "as x86-64 (SSE2 only: f16/bf16 conversions become calls of\n"
             "ewc's own helpers)"));
cl::opt<std::string> seedOpt("seed", cl::value_desc("S"), cl::cat(category),
                             cl::desc("seed of the random inputs (default 0)"));
cl::opt<std::string> inputsOpt(
    "inputs", cl::value_desc("normal|uniform|special|ints"), cl::cat(category),
    cl::desc(
        "what the random inputs are (bools are always fair coin flips;\n"
        "scalars without a default draw alike):\n"
        "  normal   floats standard normal, integers uniform in [-100, 100]\n"
        "           (the default)\n"
        "  uniform  floats uniform in [-1, 1), integers in [-100, 100]\n"
        "  special  floats mix NaN, +-inf, +-0, subnormals, the type's\n"
        "           extremes (+-max, least normal, least subnormal), values\n"
        "           next to +-1 and ordinary values; integers mix min, max,\n"
        "           0, +-1 and full-width values (arithmetic wraps); at about\n"
        "           1 index in 8 every tensor input holds the same value (0,\n"
        "           -0, +-1, inf, NaN, ...): exact ties\n"
        "  ints     floats and integers uniform over the integers in [-8, 8]"));
cl::list<std::string> inputOpt(
    "input", cl::value_desc("NAME=FILE.npy"), cl::cat(category),
    cl::desc("read tensor parameter NAME from a NumPy file: any shape\n"
             "(which binds its dimensions), C or Fortran order,\n"
             "little-endian, the parameter's dtype (bool |b1, i32 <i4, i64\n"
             "<i8, f16 <f2, bf16 <u2 holding the bit patterns, f32 <f4, f64\n"
             "<f8)"));
cl::list<std::string> saveOpt(
    "save", cl::value_desc("NAME=FILE.npy"), cl::cat(category),
    cl::desc("write result NAME (out0, out1, ... in the order of the\n"
             "kernel's results) to a NumPy file of the result's shape, in C\n"
             "order, as --input reads it; needs a single kernel (see\n"
             "--kernel)"));
cl::opt<std::string> emitOpt(
    "emit", cl::value_desc("ast|mlir|gpu|llvm|llvm-ir|ptx|header"),
    cl::cat(category),
    cl::desc("print one stage and exit: the checked AST, the ew IR, the\n"
             "gpu.func kernels, the LLVM dialect (NVVM, or the CPU's with\n"
             "--device cpu), the CPU JIT's LLVM IR after LLVM's optimizer\n"
             "(llvm-ir: the CPU only, for --cpu-target's CPU), the PTX, or a\n"
             "C++ header with the PTX and a typed launch function per kernel\n"
             "that needs only the CUDA driver (docs/api.md);\n"
             "--mlir-print-debuginfo adds locations"));
cl::list<std::string> typeOpt(
    "type", cl::value_desc("T=TYPE,..."), cl::cat(category),
    cl::desc("the specialization of generic kernels to compile and check\n"
             "(e.g. T=bf16, or T=f32,U=i64 for two type parameters); may\n"
             "be repeated, one specialization each (default: every type\n"
             "each type parameter admits)"));
cl::opt<std::string> kernelOpt("kernel", cl::value_desc("NAME"),
                               cl::cat(category),
                               cl::desc("run only kernel NAME"));
cl::opt<std::string>
    chipOpt("chip", cl::value_desc("sm_XX"), cl::cat(category),
            cl::desc("GPU architecture (default: the device's, else sm_90)"));
// The defaults' help, from the tolerance table (Tolerances.def).
const std::string rtolHelp =
    "relative tolerance of the comparison, for every float result\n"
    "(default: torch.testing.assert_close's per dtype: " +
    describeDefaultTolerances(/*relative=*/true) +
    ";\nintegers and bools exact)";
const std::string atolHelp = "absolute tolerance, likewise (default: " +
                             describeDefaultTolerances(/*relative=*/false) +
                             ")";
cl::opt<std::string> rtolOpt("rtol", cl::value_desc("R"), cl::cat(category),
                             cl::desc(rtolHelp));
cl::opt<std::string> atolOpt("atol", cl::value_desc("A"), cl::cat(category),
                             cl::desc(atolHelp));
cl::opt<bool> autotuneOpt(
    "autotune", cl::cat(category),
    cl::desc("choose the launch parameters by measurement at each kernel's\n"
             "first launch for a size (the default among the candidates,\n"
             "within 50 ms), kept in the kernel cache; --verbose prints\n"
             "the candidates and their times"));
cl::opt<bool> tieredOpt(
    "tiered", cl::cat(category),
    cl::desc("tiered compilation, as the APIs compile by default: the quick\n"
             "code first (GPU: LLVM and ptxas at -O0; CPU: the JIT at -O0),\n"
             "the optimized code on a thread; each kernel is checked with\n"
             "the quick code, then again once the optimized code has\n"
             "replaced it"));
cl::opt<bool> verboseOpt("verbose", cl::cat(category),
                         cl::desc("print the worst elements of a mismatching "
                                  "result: index, inputs, got and expected"));
cl::list<std::string> offsetOpt(
    "offset", cl::value_desc("K|NAME=K"), cl::cat(category),
    cl::desc("place every tensor (inputs and results) K elements past the\n"
             "start of an aligned allocation: misaligned base pointers\n"
             "(default 0); NAME=K moves tensor NAME (a parameter, or out0,\n"
             "out1, ... for the results) K elements further, e.g. --offset\n"
             "x=1 for an input one element in beside aligned outputs\n"
             "(repeatable)"));
cl::opt<bool> benchOpt(
    "bench", cl::cat(category),
    cl::desc(
        "instead of checking, time each kernel on the GPU: warm-up,\n"
        "then the median and spread of 100 launches timed with CUDA\n"
        "events, rotating buffer sets while one set fits in L2, and a\n"
        "device-to-device copy of the same bytes in the same process;\n"
        "inputs are 2^20 seeded random values, repeated, laid out as\n"
        "--layout and --offset say (docs/performance.md); with --device cpu,\n"
        "the CPU JIT's kernel (20 runs after 2 warm-ups, steady clock)\n"
        "against a memcpy of the same bytes on its one thread"));
cl::opt<bool> jsonOpt("json", cl::cat(category),
                      cl::desc("with --bench: one JSON object per kernel"));
cl::opt<bool> timingOpt(
    "timing", cl::cat(category),
    cl::desc("print the wall time of every stage as a tree on stderr: CUDA\n"
             "driver initialisation, parse, each pipeline with its passes,\n"
             "PTX, module load or JIT, inputs, launch, reference and\n"
             "compare (the report of --mlir-timing, which it turns on)"));
cl::opt<bool> noCacheOpt(
    "no-cache", cl::cat(category),
    cl::desc("neither read nor write the on-disk kernel cache (also\n"
             "EWC_NO_CACHE=1; docs/runtime.md)"));
cl::opt<std::string> cacheDirOpt(
    "cache-dir", cl::value_desc("DIR"), cl::cat(category),
    cl::desc("the kernel cache's directory (default: $EWC_CACHE_DIR, else\n"
             "$XDG_CACHE_HOME/ewc, else ~/.cache/ewc)"));

// Hidden knobs for measuring the launch shape and code generation's choices
// (bench/compare.py), and for test/Mutations.
// Not --threads: LLVM's libraries register an option of that name.
cl::opt<std::string> threadsOpt(
    "cpu-threads", cl::value_desc("N"), cl::cat(category),
    cl::desc("with --device cpu, the threads of each launch, which splits "
             "along an outer dimension (default 0: one per hardware thread; "
             "launches under 2^16 points run on one)"));
cl::opt<std::string> streamingStoresOpt(
    "cpu-streaming-stores-above", cl::value_desc("BYTES"), cl::cat(category),
    cl::desc("with --device cpu, launches whose results take at least BYTES "
             "write them with non-temporal stores (0: every launch; default: "
             "a sixteenth of the last-level cache; docs/runtime.md)"));
cl::opt<std::string> gridWavesOpt("grid-waves", cl::Hidden);
cl::opt<std::string> blockSizeOpt("block-size", cl::Hidden);
cl::opt<std::string> vectorsPerThreadOpt("vectors-per-thread", cl::Hidden);
cl::opt<std::string> tileSizeOpt("tile-size", cl::Hidden);
cl::opt<std::string> rowsBlockSizeOpt("rows-block-size", cl::Hidden);
cl::opt<std::string> splitsOpt("splits", cl::Hidden);
cl::opt<std::string> blocksPerSMOpt("blocks-per-sm", cl::Hidden);
cl::opt<std::string> rowsResidentOpt("rows-resident", cl::Hidden);
cl::opt<std::string> testMutationOpt("test-mutation", cl::Hidden);
cl::list<std::string> passPluginsOpt(
    "load-pass-plugin", cl::value_desc("FILE"), cl::cat(category),
    cl::desc("load an MLIR pass plugin (mlir::PassPlugin) and register its "
             "passes; repeatable (the test mutations come from "
             "<build>/lib/EwcTestPasses.so)"));

/// Parses the value of option `name` as an unsigned integer of at most
/// `max`, `positive` if 0 is not allowed.
llvm::Expected<uint64_t> parseCount(StringRef name, StringRef value,
                                    uint64_t max, bool positive = false) {
  unsigned long long parsed;
  if (value.getAsInteger(10, parsed) || parsed > max || (positive && !parsed))
    return llvm::createStringError(
        "invalid --" + name + " '" + value + "': expected a " +
        (positive ? "positive" : "non-negative") + " integer");
  return parsed;
}

/// Parses the NAME=FILE.npy values of --input or --save; each name may
/// appear once.
llvm::Expected<std::vector<check::NamedFile>>
parseNamedFiles(StringRef option, llvm::ArrayRef<std::string> values) {
  std::vector<check::NamedFile> files;
  for (StringRef value : values) {
    size_t eq = value.find('=');
    if (eq == StringRef::npos || eq == 0 || eq + 1 == value.size())
      return llvm::createStringError("invalid --" + option + " '" + value +
                                     "': expected NAME=FILE.npy");
    StringRef name = value.take_front(eq);
    if (llvm::any_of(files, [&](const check::NamedFile &file) {
          return file.name == name;
        }))
      return llvm::createStringError("--" + option + " " + name +
                                     " is given twice");
    files.push_back({name.str(), value.substr(eq + 1).str()});
  }
  return files;
}

/// Checks the values and fills the options from them.
llvm::Expected<RunOptions> getRunOptions() {
  RunOptions options;
  if (files.size() > 1)
    return llvm::createStringError("more than one input file: '" + files[0] +
                                   "' and '" + files[1] + "'");
  if (files.empty())
    return llvm::createStringError(
        "no input file (usage: ewc-run FILE.ew [options]; see "
        "--help)");
  options.file = files[0];

  if (nOpt.getNumOccurrences()) {
    long long n;
    if (StringRef(nOpt).getAsInteger(10, n) || n < 0)
      return llvm::createStringError("invalid --n '" + nOpt +
                                     "': expected a non-negative integer");
    options.n = n;
  }
  for (StringRef dim : dimOpt) {
    auto [name, value] = dim.split('=');
    long long extent;
    if (!dim.contains('=') || name.empty() || value.getAsInteger(10, extent) ||
        extent < 0)
      return llvm::createStringError(
          "invalid --dim '" + dim +
          "': expected NAME=N with N a non-negative integer");
    if (!options.dims.try_emplace(name, extent).second)
      return llvm::createStringError("--dim " + name + " is given twice");
  }
  if (batchOpt.getNumOccurrences()) {
    std::vector<int64_t> shape;
    StringRef rest = batchOpt;
    while (!rest.empty()) {
      auto [word, tail] = rest.split('x');
      long long extent;
      if (word.getAsInteger(10, extent) || extent < 0 ||
          (tail.empty() && rest.ends_with("x")))
        return llvm::createStringError(
            "invalid --batch '" + batchOpt +
            "': expected extents joined by x, e.g. 4x3 (or "
            "nothing, for no leading dimension)");
      shape.push_back(extent);
      rest = tail;
    }
    options.batch = std::move(shape);
  }
  if (layoutOpt.getNumOccurrences()) {
    std::optional<check::Layout> layout = check::parseLayoutName(layoutOpt);
    if (!layout)
      return llvm::createStringError("invalid --layout '" + layoutOpt +
                                     "': expected " + check::getLayoutNames());
    options.layout = *layout;
  }
  for (StringRef arg : argOpt) {
    size_t eq = arg.find('=');
    if (eq == StringRef::npos || eq == 0)
      return llvm::createStringError("invalid --arg '" + arg +
                                     "': expected NAME=VALUE");
    // The last of two would win silently: a typo in a script goes unseen.
    for (const check::ScalarArg &earlier : options.args)
      if (earlier.name == arg.take_front(eq))
        return llvm::createStringError("--arg " + earlier.name +
                                       " is given twice ('" + earlier.value +
                                       "' and '" + arg.substr(eq + 1) + "')");
    options.args.push_back(
        {arg.take_front(eq).str(), arg.substr(eq + 1).str()});
  }
  if (deviceOpt.getNumOccurrences()) {
    std::optional<DeviceChoice> device =
        llvm::StringSwitch<std::optional<DeviceChoice>>(deviceOpt)
            .Case("auto", DeviceChoice::Auto)
            .Case("cuda", DeviceChoice::Cuda)
            .Case("cpu", DeviceChoice::Cpu)
            .Default(std::nullopt);
    if (!device)
      return llvm::createStringError("invalid --device '" + deviceOpt +
                                     "': expected auto, cuda or cpu");
    options.device = *device;
  }
  if (seedOpt.getNumOccurrences()) {
    unsigned long long seed;
    if (StringRef(seedOpt).getAsInteger(10, seed))
      return llvm::createStringError("invalid --seed '" + seedOpt +
                                     "': expected a non-negative integer");
    options.seed = seed;
  }
  if (emitOpt.getNumOccurrences()) {
    std::optional<EmitStage> stage =
        llvm::StringSwitch<std::optional<EmitStage>>(emitOpt)
            .Case("ast", EmitStage::AST)
            .Case("mlir", EmitStage::MLIR)
            .Case("gpu", EmitStage::GPU)
            .Case("llvm", EmitStage::LLVM)
            .Case("llvm-ir", EmitStage::LLVMIR)
            .Case("ptx", EmitStage::PTX)
            .Case("header", EmitStage::Header)
            .Default(std::nullopt);
    if (!stage)
      return llvm::createStringError(
          "invalid --emit '" + emitOpt +
          "': expected ast, mlir, gpu, llvm, llvm-ir, ptx or header");
    options.emit = *stage;
  }
  for (auto [option, result] : {std::pair(&rtolOpt, &options.rtol),
                                std::pair(&atolOpt, &options.atol)}) {
    if (!option->getNumOccurrences())
      continue;
    double tolerance;
    if (StringRef(*option).getAsDouble(tolerance) || !(tolerance >= 0) ||
        std::isinf(tolerance))
      return llvm::createStringError("invalid --" + option->ArgStr + " '" +
                                     *option +
                                     "': expected a non-negative number");
    *result = tolerance;
  }
  if (inputsOpt.getNumOccurrences()) {
    std::optional<InputKind> kind = parseInputKindName(inputsOpt);
    if (!kind)
      return llvm::createStringError(
          "invalid --inputs '" + inputsOpt +
          "': expected normal, uniform, special or ints");
    options.inputs = *kind;
  }
  llvm::Expected<std::vector<check::NamedFile>> inputs =
      parseNamedFiles("input", inputOpt);
  if (!inputs)
    return inputs.takeError();
  options.inputFiles = std::move(*inputs);
  llvm::Expected<std::vector<check::NamedFile>> saves =
      parseNamedFiles("save", saveOpt);
  if (!saves)
    return saves.takeError();
  options.saveFiles = std::move(*saves);
  if (cpuTargetOpt.empty())
    return llvm::createStringError(
        "invalid --cpu-target '': expected host or a CPU name "
        "such as x86-64");
  options.cpuTarget = cpuTargetOpt;

  // The launch shape's cap in waves (0: none) and block size, and code
  // generation's vectors per thread; 2^30 bounds what any launch could use.
  constexpr uint64_t kMaxKnob = 1u << 30;
  for (StringRef value : offsetOpt) {
    auto [name, count] = value.split('=');
    if (value.contains('=') && name.empty())
      return llvm::createStringError("invalid --offset '" + value +
                                     "': expected K or NAME=K");
    llvm::Expected<uint64_t> offset =
        parseCount("offset", value.contains('=') ? count : value, kMaxKnob);
    if (!offset)
      return offset.takeError();
    if (value.contains('='))
      options.tensorOffsets[name] = *offset;
    else
      options.offset = *offset;
  }
  if (threadsOpt.getNumOccurrences()) {
    llvm::Expected<uint64_t> threads =
        parseCount("cpu-threads", threadsOpt, /*max=*/4096);
    if (!threads)
      return threads.takeError();
    options.threads = static_cast<unsigned>(*threads);
  }
  if (streamingStoresOpt.getNumOccurrences()) {
    llvm::Expected<uint64_t> bytes = parseCount(
        "cpu-streaming-stores-above", streamingStoresOpt, /*max=*/1ull << 62);
    if (!bytes)
      return bytes.takeError();
    options.streamingStoreBytes = *bytes;
  }
  for (auto [option, result, positive] :
       {std::tuple(&gridWavesOpt, &options.gridWaves, false),
        std::tuple(&blockSizeOpt, &options.blockSize, true),
        std::tuple(&vectorsPerThreadOpt, &options.vectorsPerThread, true),
        std::tuple(&tileSizeOpt, &options.tileSize, true),
        std::tuple(&rowsBlockSizeOpt, &options.rowsBlockSize, true),
        std::tuple(&splitsOpt, &options.splits, true),
        std::tuple(&blocksPerSMOpt, &options.blocksPerSM, true),
        std::tuple(&rowsResidentOpt, &options.rowsResident, false)}) {
    if (!option->getNumOccurrences())
      continue;
    llvm::Expected<uint64_t> value =
        parseCount(option->ArgStr, *option, kMaxKnob, positive);
    if (!value)
      return value.takeError();
    *result = static_cast<unsigned>(*value);
  }
  if (options.tileSize && (!llvm::isPowerOf2_32(*options.tileSize) ||
                           *options.tileSize < 16 || *options.tileSize > 128))
    return llvm::createStringError("invalid --tile-size '" + tileSizeOpt +
                                   "': expected a power of two from 16 to 128");
  if (options.rowsBlockSize &&
      (!llvm::isPowerOf2_32(*options.rowsBlockSize) ||
       *options.rowsBlockSize < 32 || *options.rowsBlockSize > 1024))
    return llvm::createStringError(
        "invalid --rows-block-size '" + rowsBlockSizeOpt +
        "': expected a power of two from 32 to 1024");
  if (options.rowsResident && *options.rowsResident > ewc::kRowsMaxResident)
    return llvm::createStringError("invalid --rows-resident '" +
                                   rowsResidentOpt + "': expected at most " +
                                   std::to_string(ewc::kRowsMaxResident));
  options.kernel = kernelOpt;
  options.autotune = autotuneOpt;
  options.tiered = tieredOpt;
  for (StringRef text : typeOpt) {
    std::string error;
    TypeBinding binding = parseTypeBinding(text, error);
    if (!error.empty())
      return llvm::createStringError("invalid --type '" + text + "': " + error);
    options.types.push_back(std::move(binding));
  }
  options.testMutation = testMutationOpt;
  options.passPlugins.assign(passPluginsOpt.begin(), passPluginsOpt.end());
  if (chipOpt.getNumOccurrences()) {
    StringRef chip = chipOpt;
    if (llvm::Error error = mlir::ew::checkChip(chip))
      return llvm::createStringError("invalid --chip: " +
                                     llvm::toString(std::move(error)));
    options.chip = chip.str();
  }
  options.verbose = verboseOpt;
  options.bench = benchOpt;
  options.json = jsonOpt;
  options.timing = timingOpt;
  options.noCache = noCacheOpt;
  options.cacheDir = cacheDirOpt;
  // MLIR's options watch a compilation (IR printing, pass timing and
  // statistics, reproducers): a kernel cache hit runs none, so a run with
  // any of them compiles.
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (StringRef(name).starts_with("mlir-") && option->getNumOccurrences())
      options.noCache = true;

  if (options.json && !options.bench)
    return llvm::createStringError(
        "--json describes --bench results; add --bench");
  return options;
}

} // namespace

llvm::Expected<RunOptions> ewc::parseRunOptions(int argc, char **argv) {
  // ewc's own passes by name, for --mlir-print-ir-after=convert-ew-to-loops
  // and the like (--mlir-print-ir-after-all shows the upstream ones too);
  // before the pass manager's options, whose parsers list the names.
  mlir::ew::registerEwConversionPasses();
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  // --help lists ewc-run's own options and MLIR's (--mlir-*), not the
  // hundreds that LLVM's libraries register (--help-hidden shows those).
  static cl::OptionCategory mlirCategory("MLIR options (every pipeline "
                                         "ewc-run runs)");
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (StringRef(name).starts_with("mlir-"))
      option->addCategory(mlirCategory);
  cl::HideUnrelatedOptions({&category, &mlirCategory});
  cl::SetVersionPrinter(driver::printVersion);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "compiles the kernels of FILE.ew, runs them on seeded inputs and\n"
          "checks every result element against the reference, which computes\n"
          "the language's semantics independently of the compiler\n"
          "(docs/language.md). Prints True or False; exits 0 (True), 1\n"
          "(False) or 2 (any error). MLIR's options (--mlir-timing,\n"
          "--mlir-print-ir-after-all, --mlir-pass-pipeline-crash-reproducer,\n"
          "...) apply to every pipeline ewc-run runs; with any of them the\n"
          "kernels are compiled, never loaded from the kernel cache.\n",
          &errorStream)) {
    // cl's first line says what was wrong, after "ewc-run: ". A value it
    // could not find or parse, cl reports on stderr itself ("ewc-run: for
    // the --n option: requires a value!"), leaving `errors` empty.
    StringRef message = StringRef(errors).split('\n').first;
    message.consume_front(llvm::sys::path::filename(argv[0]));
    message.consume_front(": ");
    return llvm::createStringError(message);
  }
  return getRunOptions();
}
