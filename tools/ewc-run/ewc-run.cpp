//===- ewc-run.cpp - Compile, run and check .ew kernels -------------------===//
//
// The main job of ewc: parse and check FILE.ew, emit the ew IR, lower it with
// the named pipelines (ew-to-ptx for the GPU, ew-to-cpu for the CPU), run
// every kernel on seeded random inputs, and compare each result with the
// double-precision reference evaluated from the AST. Prints True or False.
// Compiling and loading are the driver's (ewc/Driver/Driver.h), the inputs,
// the launch and the checking EWCCheck's (ewc/Check/KernelRunner.h); this
// file owns the command line and what is printed.
//
// Exit codes: 0 all results match, 1 a result differs, 2 any error.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "ewc/Check/KernelRunner.h"
#include "ewc/Driver/Driver.h"
#include "ewc/Driver/HeaderExport.h"
#include "ewc/Frontend/ASTDump.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Reference/Npy.h"
#include "ewc/Reference/Reference.h"
#include "ewc/Runtime/Bench.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/LaunchShape.h"

#include "Transforms/TestPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace ewc;

namespace {

/// An error already reported to the user: exit code 2.
constexpr int kExitMatch = 0, kExitMismatch = 1, kExitError = 2;

int fail(const llvm::Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return kExitError;
}

int fail(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  // Empty: llvm::cl printed its own message already.
  return message.empty() ? kExitError : fail(message);
}

//===----------------------------------------------------------------------===//
// .npy files (--input, --save)
//===----------------------------------------------------------------------===//

/// The index of result `name` ("out0", "out1", ...) of `kernel`.
std::optional<unsigned> lookupResultName(const Kernel &kernel,
                                         llvm::StringRef name) {
  for (unsigned r = 0; r < kernel.getResults().size(); ++r)
    if (name == "out" + std::to_string(r))
      return r;
  return std::nullopt;
}

/// Checks that each --save names a result of the one kernel that runs.
llvm::Error checkSaveNames(const RunOptions &options,
                           llvm::ArrayRef<const Kernel *> kernels) {
  if (options.saveFiles.empty())
    return llvm::Error::success();
  if (kernels.size() != 1)
    return llvm::createStringError(
        llvm::formatv("--save needs a single kernel, but '{0}' has {1}; "
                      "choose one with --kernel NAME",
                      options.file, kernels.size())
            .str());
  const Kernel &kernel = *kernels.front();
  size_t numResults = kernel.getResults().size();
  for (const check::NamedFile &save : options.saveFiles)
    if (!lookupResultName(kernel, save.name))
      return llvm::createStringError(
          llvm::formatv("unknown --save '{0}': the results of kernel '{1}' "
                        "are {2}",
                        save.name, kernel.getName(),
                        numResults == 1
                            ? std::string("out0")
                            : "out0 to out" + std::to_string(numResults - 1))
              .str());
  return llvm::Error::success();
}

/// Writes the outputs that --save names (checked by checkSaveNames).
llvm::Error saveOutputs(const Kernel &kernel, llvm::ArrayRef<HostArray> outputs,
                        const RunOptions &options) {
  for (const check::NamedFile &save : options.saveFiles)
    if (llvm::Error error = writeNpyFile(
            save.path, outputs[*lookupResultName(kernel, save.name)]))
      return llvm::createStringError("--save " + save.name + ": " +
                                     llvm::toString(std::move(error)));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Running one kernel
//===----------------------------------------------------------------------===//

/// The inputs of every run: the seeded random values, the --input files and
/// the --arg values.
check::InputSpec getInputSpec(const RunOptions &options,
                              const check::InputArrays &files) {
  check::InputSpec spec;
  spec.n = options.n;
  spec.seed = options.seed;
  spec.kind = options.inputs;
  spec.args = options.args;
  spec.files = &files;
  return spec;
}

/// Runs `kernel` on fresh inputs, saves what --save asks for and checks
/// every result; returns whether all matched, or an error.
llvm::Expected<bool> runKernel(const Kernel &kernel, const RunOptions &options,
                               driver::LoadedModule &module,
                               const check::InputArrays &files,
                               mlir::TimingScope &timing) {
  check::LaunchConfig launch;
  launch.offset = options.offset;
  launch.gridWaves = options.gridWaves;
  launch.blockSize = options.blockSize;
  check::InputSpec spec = getInputSpec(options, files);
  llvm::Expected<check::KernelRun> run =
      check::runKernel(kernel, module, spec, launch, &timing);
  if (!run)
    return run.takeError();
  if (llvm::Error e = saveOutputs(kernel, run->outputs, options))
    return std::move(e);
  CheckOptions checkOptions;
  checkOptions.rtol = options.rtol;
  checkOptions.atol = options.atol;
  checkOptions.numWorst = options.verbose ? 10 : 1;
  llvm::Expected<std::vector<CompareResult>> results =
      check::checkRun(kernel, *run, options.n, checkOptions, &timing);
  if (!results)
    return results.takeError();
  bool allMatch = true;
  for (auto [index, result] : llvm::enumerate(*results)) {
    if (result.ok())
      continue;
    allMatch = false;
    llvm::errs() << "mismatch: kernel '" << kernel.getName() << "' result "
                 << index << ": ";
    result.print(llvm::errs());
    llvm::errs() << "\n";
    if (options.verbose)
      check::printMismatches(llvm::errs(), result, kernel, run->inputs,
                             checkOptions.numWorst, "  ");
  }
  return allMatch;
}

/// Times `kernel` (--bench) on the GPU, or on the CPU JIT with --device cpu,
/// and prints the report.
llvm::Error benchKernel(const Kernel &kernel, const RunOptions &options,
                        driver::LoadedModule &executor,
                        const check::InputArrays &files) {
  // The inputs' values: the seeded random inputs of the first 2^20 elements
  // (or fewer), which the benchmark repeats over all n. Generating n random
  // values on the host would take longer than the whole benchmark at 2^30.
  constexpr int64_t kPatternElements = int64_t(1) << 20;
  check::InputSpec spec = getInputSpec(options, files);
  spec.n = std::min(options.n, kPatternElements);
  llvm::Expected<std::vector<HostArray>> inputs = check::makeInputs(kernel, spec);
  if (!inputs)
    return inputs.takeError();
  const KernelSignature *signature = executor.lookupKernel(kernel.getName());
  if (!signature)
    return llvm::createStringError("no compiled kernel '" + kernel.getName() +
                                   "'");
  llvm::Expected<check::LaunchValues> launchInputs =
      check::getLaunchValues(kernel, *signature, *inputs, options.args);
  if (!launchInputs)
    return launchInputs.takeError();
  auto bytesOf = [](const HostArray &array) {
    return llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(array.data()),
                                   array.getSizeInBytes());
  };
  std::vector<BenchArg> args;
  for (const auto &param : kernel.getParams()) {
    const HostArray &input = *launchInputs->params[param->getIndex()];
    BenchArg arg;
    arg.kind =
        param->isTensor() ? BenchArg::Kind::Input : BenchArg::Kind::Scalar;
    arg.elementSize = getDTypeSize(param->getDType());
    arg.bytes = bytesOf(input);
    args.push_back(arg);
  }
  for (unsigned r = 0; r < kernel.getResults().size(); ++r) {
    BenchArg arg;
    arg.kind = BenchArg::Kind::Output;
    arg.elementSize = getDTypeSize(kernel.getResultType(r).dtype);
    args.push_back(arg);
  }
  BenchOptions benchOptions;
  llvm::Expected<BenchReport> report = BenchReport();
  CudaContext *cuda = executor.getCudaContext();
  if (cuda) {
    const CudaFunction *function = executor.getCudaFunction(kernel.getName());
    if (!function)
      return llvm::createStringError("no loaded GPU kernel '" +
                                     kernel.getName() + "'");
    benchOptions.offsetElements = options.offset;
    benchOptions.elementsPerThread =
        executor.getElementsPerThread(kernel.getName());
    benchOptions.gridWaves = options.gridWaves;
    benchOptions.blockSize = options.blockSize;
    report = benchElementwise(*cuda, *function, options.n, args, benchOptions);
  } else {
    if (llvm::Error error = check::checkHostMemory(kernel, options.n))
      return error;
    // A CPU run at n = 2^28 takes a good part of a second: fewer of them.
    benchOptions.warmup = 2;
    benchOptions.repetitions = 20;
    report = benchElementwiseOnHost(
        options.n, args, benchOptions,
        [&](llvm::ArrayRef<const void *> params,
            llvm::ArrayRef<void *> outputs) {
          return executor.launch(*signature, params, outputs, options.n);
        });
  }
  if (!report)
    return report.takeError();

  if (options.json) {
    llvm::json::Object object = toJSON(*report);
    object["name"] = kernel.getName();
    if (cuda) {
      object["device"] = cuda->getDeviceInfo().getSummary();
      object["elements_per_thread"] = benchOptions.elementsPerThread;
      object["grid_waves"] =
          static_cast<int64_t>(options.gridWaves.value_or(kElementwiseWaves));
      object["block_size"] = static_cast<int64_t>(
          options.blockSize.value_or(kElementwiseBlockSize));
    } else {
      object["device"] = "cpu (--cpu-target " + options.cpuTarget + ")";
      // The CPU JIT's kernels, and so the memcpy, run on the calling thread.
      object["threads"] = 1;
    }
    llvm::outs() << llvm::formatv("{0}", llvm::json::Value(std::move(object)))
                 << "\n";
    return llvm::Error::success();
  }
  auto line = [](llvm::StringRef what, const BenchTiming &timing) {
    llvm::outs() << llvm::formatv(
        "  {0,-7} {1,9:F4} ms median ({2:F4} .. {3:F4} ms, p10 .. p90), "
        "{4,7:F1} GB/s\n",
        what, timing.medianMs, timing.p10Ms, timing.p90Ms,
        timing.gigabytesPerSecond);
  };
  llvm::outs() << llvm::formatv(
      "bench '{0}'{1}: n = {2}, offset {3}, {4} bytes moved, {5} buffer "
      "set(s), {6} launches\n",
      kernel.getName(), cuda ? "" : " on the CPU (1 thread)",
      report->numElements, report->offsetElements, report->bytesMoved,
      report->bufferSets, report->kernel.samples);
  line("kernel", report->kernel);
  line(cuda ? "copy" : "memcpy", report->copy);
  llvm::outs() << llvm::formatv(
      "  kernel at {0:F1}% of the copy\n",
      100 * report->kernel.gigabytesPerSecond /
          std::max(report->copy.gigabytesPerSecond, 1e-9));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

/// The namespace of --emit header: the file's stem as an identifier
/// ("leaky_relu.ew" -> leaky_relu), "ewc_kernels" for stdin.
std::string getHeaderNamespace(llvm::StringRef file) {
  llvm::StringRef stem = llvm::sys::path::stem(file);
  std::string name;
  for (char c : stem)
    name += llvm::isAlnum(c) ? c : '_';
  if (name.empty() || file == "-" || llvm::isDigit(name.front()))
    name = "ewc_kernels";
  return name;
}

/// Prints `module` with MLIR's printing options (--mlir-print-debuginfo).
void printModule(mlir::ModuleOp module) {
  module.print(llvm::outs(), mlir::OpPrintingFlags());
  llvm::outs() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // LLVM reports some bad input (such as a PTX ISA too old for the chip) as
  // a fatal error; make it an ordinary error of this tool.
  llvm::install_fatal_error_handler([](void *, const char *reason, bool) {
    llvm::errs() << "error: " << reason << "\n";
    llvm::errs().flush();
    std::exit(kExitError);
  });
  llvm::Expected<RunOptions> parsed = parseRunOptions(argc, argv);
  if (!parsed)
    return fail(parsed.takeError());
  RunOptions &options = *parsed;

  // --timing and --mlir-timing: one report of every stage, printed on stderr
  // when the manager goes out of scope (after the last stage's scope).
  mlir::DefaultTimingManager timingManager;
  mlir::applyDefaultTimingManagerCLOptions(timingManager);
  if (options.timing) {
    timingManager.setEnabled(true);
    timingManager.setDisplayMode(mlir::DefaultTimingManager::DisplayMode::Tree);
  }
  mlir::TimingScope timing = timingManager.getRootScope();

  // Front end.
  mlir::TimingScope parseTiming = timing.nest("parse");
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(options.file, /*IsText=*/true);
  if (std::error_code ec = file.getError())
    return fail("cannot read '" + options.file + "': " + ec.message());
  llvm::Expected<std::unique_ptr<driver::Source>> source =
      driver::Source::parse(std::move(*file), &llvm::errs());
  parseTiming.stop();
  if (!source) {
    llvm::consumeError(source.takeError());
    return kExitError;
  }
  const Module *ast = &(*source)->getAST();
  if (options.emit == EmitStage::AST) {
    dumpAST(*ast, llvm::outs());
    return kExitMatch;
  }
  std::vector<const Kernel *> kernels;
  for (const auto &kernel : ast->getKernels())
    if (options.kernel.empty() || kernel->getName() == options.kernel)
      kernels.push_back(kernel.get());
  if (kernels.empty())
    return fail(options.kernel.empty()
                    ? "'" + options.file + "' has no kernel"
                    : "'" + options.file + "' has no kernel named '" +
                          options.kernel + "'");

  // Each --arg must name a scalar parameter of some kernel that runs.
  for (const check::ScalarArg &arg : options.args)
    if (llvm::none_of(kernels, [&](const Kernel *kernel) {
          return kernel->lookupParam(arg.name) != nullptr;
        }))
      return fail("unknown --arg '" + arg.name +
                  "': no kernel has a "
                  "parameter of that name");
  llvm::Expected<check::InputArrays> inputFiles = check::loadInputFiles(
      options.inputFiles, kernels,
      options.nGiven ? std::optional(options.n) : std::nullopt);
  if (!inputFiles)
    return fail(inputFiles.takeError());
  if (!inputFiles->empty())
    options.n = inputFiles->begin()->getValue().size();
  if (llvm::Error error = checkSaveNames(options, kernels))
    return fail(std::move(error));

  // The device, unless only printing. Its chip drives code generation.
  bool needDevice = !options.emit;
  std::unique_ptr<CudaContext> cuda;
  if (needDevice && options.device != DeviceChoice::Cpu) {
    std::string whyNot;
    mlir::TimingScope initTiming = timing.nest("CUDA driver initialisation");
    if (options.device == DeviceChoice::Cuda ||
        CudaContext::isDeviceAvailable(&whyNot)) {
      auto context = CudaContext::create();
      if (!context)
        return fail(context.takeError());
      cuda = std::move(*context);
      if (options.device == DeviceChoice::Auto)
        llvm::errs() << "note: running on "
                     << cuda->getDeviceInfo().getSummary() << "\n";
    } else {
      llvm::errs() << "note: running on the CPU: " << whyNot << "\n";
    }
  }
  // --emit llvm-ir is the CPU JIT's IR: --device auto means the CPU there.
  bool onGPU = cuda || (options.emit && options.device != DeviceChoice::Cpu &&
                        !(options.emit == EmitStage::LLVMIR &&
                          options.device == DeviceChoice::Auto));
  if (onGPU && options.emit == EmitStage::LLVMIR)
    return fail("--emit llvm-ir prints the CPU JIT's optimized LLVM IR; it "
                "cannot be combined with --device cuda (--emit ptx shows the "
                "GPU's code)");

  if (!onGPU &&
      (options.emit == EmitStage::GPU || options.emit == EmitStage::PTX))
    return fail("--emit gpu and --emit ptx show the GPU path; they cannot be "
                "combined with --device cpu");
  if (!onGPU && options.emit == EmitStage::Header)
    return fail("--emit header exports GPU code; it cannot be combined with "
                "--device cpu");

  // MLIR, the pipelines, and loading: the driver's. --emit stops it after a
  // stage; the hidden --test-mutation (test/Mutations) adds a deliberate
  // miscompilation on the IR that it rewrites (the ew module, or the lowered
  // loops).
  driver::CompileOptions compileOptions;
  compileOptions.target = onGPU ? driver::Target::Cuda : driver::Target::Cpu;
  compileOptions.chip = options.chip;
  compileOptions.cpuTarget = options.cpuTarget;
  compileOptions.vectorsPerThread = options.vectorsPerThread;
  compileOptions.noCache = options.noCache;
  compileOptions.cacheDir = options.cacheDir;
  compileOptions.diagnostics = &llvm::errs();
  if (options.emit == EmitStage::LLVMIR)
    compileOptions.optimizedIR = &llvm::outs();
  // The kernel cache and the PTX assembler chosen, with --verbose or
  // --timing.
  compileOptions.notes =
      options.verbose || options.timing ? &llvm::errs() : nullptr;
  compileOptions.configurePassManager = mlir::applyPassManagerCLOptions;
  mlir::TimingScope compileTiming = timing.nest("compile");
  compileOptions.timing = &compileTiming;
  if (!options.testMutation.empty())
    compileOptions.addPasses = [&](mlir::OpPassManager &pm,
                                   driver::HookPoint point) {
      using mlir::ew::test::MutationStage;
      mlir::ew::test::addTestMutation(pm, options.testMutation,
                                      point == driver::HookPoint::Ew
                                          ? MutationStage::Ew
                                          : MutationStage::Lowered);
    };
  // --emit header: the kernels' elements per thread, read at the GPU stage,
  // and the PTX at the last.
  llvm::StringMap<unsigned> elementsPerThread;
  std::optional<std::string> headerError;
  compileOptions.stopAfter = [&](driver::Stage stage, mlir::ModuleOp module) {
    if (options.emit == EmitStage::Header) {
      if (stage == driver::Stage::GPU)
        elementsPerThread = driver::getElementsPerThread(module);
      if (stage != driver::Stage::PTX)
        return false;
      std::vector<KernelSignature> signatures;
      for (const auto &kernel : ast->getKernels())
        signatures.push_back(getKernelSignature(*kernel));
      llvm::Expected<std::string> header = driver::emitCudaHeader(
          mlir::ew::getPTX(module), signatures, elementsPerThread,
          getHeaderNamespace(options.file), options.file,
          driver::getHeaderCubinChips());
      if (header)
        llvm::outs() << *header;
      else
        headerError = llvm::toString(header.takeError());
      return true;
    }
    static constexpr std::pair<driver::Stage, EmitStage> kEmitStages[] = {
        {driver::Stage::MLIR, EmitStage::MLIR},
        {driver::Stage::GPU, EmitStage::GPU},
        {driver::Stage::LLVM, EmitStage::LLVM},
        {driver::Stage::PTX, EmitStage::PTX}};
    for (auto [driverStage, emitStage] : kEmitStages) {
      if (stage != driverStage || options.emit != emitStage)
        continue;
      if (stage == driver::Stage::PTX)
        llvm::outs() << mlir::ew::getPTX(module);
      else
        printModule(module);
      return true;
    }
    return false;
  };
  llvm::Expected<std::unique_ptr<driver::LoadedModule>> loaded =
      driver::LoadedModule::compile(**source, compileOptions, cuda.get());
  if (!loaded) {
    llvm::Error error = loaded.takeError();
    if (error.isA<driver::ReportedError>()) {
      llvm::consumeError(std::move(error));
      return kExitError;
    }
    return fail(std::move(error));
  }
  compileTiming.stop();
  if (headerError)
    return fail(*headerError);
  if (!*loaded || options.emit == EmitStage::LLVMIR)
    return kExitMatch;
  driver::LoadedModule &executor = **loaded;

  if (options.bench) {
    // Benchmarks must not change device silently: a GPU bench script run
    // where none is found fails; --device cpu asks for the CPU.
    if (!executor.getCudaContext() && options.device != DeviceChoice::Cpu)
      return fail("--bench times kernels on a CUDA device, and none was "
                  "found");
    for (const Kernel *kernel : kernels)
      if (llvm::Error error = benchKernel(*kernel, options, executor,
                                          *inputFiles))
        return fail(std::move(error));
    return kExitMatch;
  }
  if (options.offset && !executor.getCudaContext())
    return fail("--offset places device buffers, and no CUDA device was "
                "found");

  bool allMatch = true;
  for (const Kernel *kernel : kernels) {
    mlir::TimingScope kernelTiming = timing.nest(
        kernel->getName().data(),
        [&] { return "kernel '" + kernel->getName().str() + "'"; });
    llvm::Expected<bool> matched = runKernel(
        *kernel, options, executor, *inputFiles, kernelTiming);
    if (!matched)
      return fail(matched.takeError());
    allMatch &= *matched;
  }
  llvm::outs() << (allMatch ? "True" : "False") << "\n";
  // Before the timing report, which goes to stderr when `timing` ends.
  llvm::outs().flush();
  return allMatch ? kExitMatch : kExitMismatch;
}
