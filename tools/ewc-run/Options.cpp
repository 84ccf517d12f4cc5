//===- Options.cpp - ewc-run command line ---------------------------------===//
//
// Accepts `--opt VALUE` and `--opt=VALUE`; a lone `-` or a word not starting
// with `-` is the input file.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace ewc;
using llvm::StringRef;

const char *ewc::getRunUsage() {
  return R"(usage: ewc-run FILE.ew [options]

Compiles the kernels of FILE.ew, runs them on seeded inputs and checks every
result element against the reference, which computes the language's
semantics independently of the compiler (docs/language.md). Prints True or
False; exits 0 (True), 1 (False) or 2 (any error).

options:
  --n N                 elements per tensor (default 1024, or the length of
                        the --input files)
  --arg NAME=VALUE      value of scalar parameter NAME (default: its default)
  --device auto|cuda|cpu
                        where to run (default auto: CUDA if a device is present)
  --cpu-target NAME     the CPU that the CPU JIT compiles for: host (the
                        default: this machine's CPU and features, except x86's
                        f32->bf16 instructions, which flush subnormals) or an
                        LLVM CPU name such as x86-64 (SSE2 only: f16/bf16
                        conversions become calls of ewc's own helpers)
  --seed S              seed of the random inputs (default 0)
  --inputs normal|uniform|special|ints
                        what the random inputs are (bools are always fair coin
                        flips; scalars without a default draw alike):
                          normal   floats standard normal, integers uniform
                                   in [-100, 100] (the default)
                          uniform  floats uniform in [-1, 1), integers in
                                   [-100, 100]
                          special  floats mix NaN, +-inf, +-0, subnormals,
                                   the type's extremes (+-max, least normal,
                                   least subnormal), values next to +-1 and
                                   ordinary values; integers mix min, max, 0,
                                   +-1 and full-width values (arithmetic
                                   wraps); at about 1 index in 8 every tensor
                                   input holds the same value (0, -0, +-1,
                                   inf, NaN, ...): exact ties
                          ints     floats and integers uniform over the
                                   integers in [-8, 8]
  --input NAME=FILE.npy read tensor parameter NAME from a NumPy file: 1-D, C
                        order, little-endian, the parameter's dtype (bool |b1,
                        i32 <i4, i64 <i8, f16 <f2, bf16 <u2 holding the bit
                        patterns, f32 <f4, f64 <f8); --n is the file's length
  --save NAME=FILE.npy  write result NAME (out0, out1, ... in the order of the
                        kernel's results) to a NumPy file, as --input reads
                        it; needs a single kernel (see --kernel)
  --emit ast|mlir|gpu|llvm|ptx|header
                        print one stage and exit: the checked AST, the ew IR,
                        the gpu.func kernels, the LLVM dialect (NVVM, or the
                        CPU's with --device cpu), the PTX, or a C++ header
                        with the PTX and a typed launch function per kernel
                        that needs only the CUDA driver (docs/api.md)
  --kernel NAME         run only kernel NAME
  --chip sm_XX          GPU architecture (default: the device's, else sm_90)
  --rtol R, --atol A    tolerances of the comparison, for every float result
                        (default: torch.testing.assert_close's per dtype:
                        f32 1.3e-6/1e-5, f64 1e-7/1e-7, f16 1e-3/1e-5,
                        bf16 1.6e-2/1e-5; integers and bools exact)
  --verbose             print the worst elements of a mismatching result:
                        index, inputs, got and expected
  --offset K            place every tensor (inputs and results) K elements
                        past an aligned device allocation: misaligned base
                        pointers (GPU only; default 0)
  --bench               instead of checking, time each kernel on the GPU:
                        warm-up, then the median and spread of 100 launches
                        timed with CUDA events, rotating buffer sets while
                        one set fits in L2, and a device-to-device copy of
                        the same bytes in the same process; inputs are the
                        seeded random values of the first 2^20 elements,
                        repeated (docs/performance.md)
  --json                with --bench: one JSON object per kernel
  --mlir-print-debuginfo
                        print source locations with --emit mlir|gpu|llvm
  --help                this text
)";
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<RunOptions> ewc::parseRunOptions(int argc, char **argv) {
  RunOptions options;
  bool haveFile = false;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "-h" || arg == "--help" || arg == "-help") {
      options.help = true;
      return options;
    }
    if (!arg.starts_with("-") || arg == "-") {
      if (haveFile)
        return makeError("more than one input file: '" + options.file +
                         "' and '" + arg + "'");
      options.file = arg.str();
      haveFile = true;
      continue;
    }

    if (arg == "--mlir-print-debuginfo") {
      options.printLocations = true;
      continue;
    }
    if (arg == "--verbose") {
      options.verbose = true;
      continue;
    }
    if (arg == "--bench") {
      options.bench = true;
      continue;
    }
    if (arg == "--json") {
      options.json = true;
      continue;
    }

    // --name=value or --name value.
    StringRef name = arg.drop_while([](char c) { return c == '-'; });
    std::optional<StringRef> value;
    if (size_t eq = name.find('='); eq != StringRef::npos) {
      value = name.substr(eq + 1);
      name = name.take_front(eq);
    }
    static const char *const kValued[] = {
        "n",    "arg",  "device", "seed",  "emit", "kernel",     "chip",
        "rtol", "atol", "inputs", "input", "save", "cpu-target", "test-mutation",
        "offset", "grid-waves", "block-size", "vectors-per-thread"};
    if (!llvm::is_contained(kValued, name))
      return makeError("unknown option '" + arg + "' (see --help)");
    if (!value) {
      if (i + 1 >= argc)
        return makeError("option '--" + name + "' needs a value");
      value = argv[++i];
    }

    if (name == "n") {
      long long n;
      if (value->getAsInteger(10, n) || n < 0)
        return makeError("invalid --n '" + *value +
                         "': expected a non-negative integer");
      options.n = n;
      options.nGiven = true;
    } else if (name == "arg") {
      size_t eq = value->find('=');
      if (eq == StringRef::npos || eq == 0)
        return makeError("invalid --arg '" + *value + "': expected NAME=VALUE");
      options.args.push_back(
          {value->take_front(eq).str(), value->substr(eq + 1).str()});
    } else if (name == "device") {
      std::optional<DeviceChoice> device =
          llvm::StringSwitch<std::optional<DeviceChoice>>(*value)
              .Case("auto", DeviceChoice::Auto)
              .Case("cuda", DeviceChoice::Cuda)
              .Case("cpu", DeviceChoice::Cpu)
              .Default(std::nullopt);
      if (!device)
        return makeError("invalid --device '" + *value +
                         "': expected auto, cuda or cpu");
      options.device = *device;
    } else if (name == "seed") {
      unsigned long long seed;
      if (value->getAsInteger(10, seed))
        return makeError("invalid --seed '" + *value +
                         "': expected a non-negative integer");
      options.seed = seed;
    } else if (name == "emit") {
      std::optional<EmitStage> stage =
          llvm::StringSwitch<std::optional<EmitStage>>(*value)
              .Case("ast", EmitStage::AST)
              .Case("mlir", EmitStage::MLIR)
              .Case("gpu", EmitStage::GPU)
              .Case("llvm", EmitStage::LLVM)
              .Case("ptx", EmitStage::PTX)
              .Case("header", EmitStage::Header)
              .Default(std::nullopt);
      if (!stage)
        return makeError("invalid --emit '" + *value +
                         "': expected ast, mlir, gpu, llvm, ptx or header");
      options.emit = *stage;
    } else if (name == "rtol" || name == "atol") {
      double tolerance;
      if (value->getAsDouble(tolerance) || !(tolerance >= 0) ||
          std::isinf(tolerance))
        return makeError("invalid --" + name + " '" + *value +
                         "': expected a non-negative number");
      (name == "rtol" ? options.rtol : options.atol) = tolerance;
    } else if (name == "inputs") {
      std::optional<InputKind> kind = parseInputKindName(*value);
      if (!kind)
        return makeError("invalid --inputs '" + *value +
                         "': expected normal, uniform, special or ints");
      options.inputs = *kind;
    } else if (name == "input" || name == "save") {
      size_t eq = value->find('=');
      if (eq == StringRef::npos || eq == 0 || eq + 1 == value->size())
        return makeError("invalid --" + name + " '" + *value +
                         "': expected NAME=FILE.npy");
      std::vector<NamedFile> &files =
          name == "input" ? options.inputFiles : options.saveFiles;
      StringRef fileName = value->take_front(eq);
      if (llvm::any_of(files, [&](const NamedFile &file) {
            return file.name == fileName;
          }))
        return makeError("--" + name + " " + fileName + " is given twice");
      files.push_back({fileName.str(), value->substr(eq + 1).str()});
    } else if (name == "cpu-target") {
      if (value->empty())
        return makeError("invalid --cpu-target '': expected host or a CPU "
                         "name such as x86-64");
      options.cpuTarget = value->str();
    } else if (name == "offset" || name == "grid-waves" ||
               name == "block-size" || name == "vectors-per-thread") {
      // All but --offset are hidden: they override the launch shape's cap
      // (0: none) and block size, and code generation's vectors per thread,
      // for measuring them (bench/compare.py).
      unsigned long long value64;
      if (value->getAsInteger(10, value64) || value64 > (1u << 30) ||
          (value64 == 0 && (name == "block-size" ||
                            name == "vectors-per-thread")))
        return makeError("invalid --" + name + " '" + *value +
                         "': expected a " +
                         (name == "offset" || name == "grid-waves"
                              ? "non-negative"
                              : "positive") +
                         " integer");
      if (name == "offset")
        options.offset = value64;
      else if (name == "grid-waves")
        options.gridWaves = static_cast<unsigned>(value64);
      else if (name == "block-size")
        options.blockSize = static_cast<unsigned>(value64);
      else
        options.vectorsPerThread = static_cast<unsigned>(value64);
    } else if (name == "kernel") {
      options.kernel = value->str();
    } else if (name == "test-mutation") {
      // Not in --help: it breaks the compiler on purpose (test/Mutations).
      options.testMutation = value->str();
    } else if (name == "chip") {
      unsigned major;
      if (!value->starts_with("sm_") || value->size() < 5 ||
          value->drop_front(3)
              .take_while(llvm::isDigit)
              .getAsInteger(10, major))
        return makeError("invalid --chip '" + *value +
                         "': expected sm_XX, e.g. sm_90");
      options.chip = value->str();
    }
  }
  if (options.json && !options.bench)
    return makeError("--json describes --bench results; add --bench");
  if (options.bench && options.device == DeviceChoice::Cpu)
    return makeError("--bench times kernels on a CUDA device, and --device "
                     "cpu has none (the CPU path is not benchmarked)");
  if (options.offset && options.device == DeviceChoice::Cpu)
    return makeError("--offset places device buffers; it needs a CUDA "
                     "device, not --device cpu");
  if (!haveFile)
    return makeError("no input file (usage: ewc-run FILE.ew [options]; see "
                     "--help)");
  return options;
}
