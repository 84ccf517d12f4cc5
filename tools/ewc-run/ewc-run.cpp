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
#include "ewc/Frontend/Frontend.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Reference/Npy.h"
#include "ewc/Reference/Reference.h"
#include "ewc/Runtime/Bench.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/LaunchShape.h"

#include "Support/Environment.h"
#include "Support/PassPlugins.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
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
std::optional<unsigned> lookupResultName(const KernelDecl &kernel,
                                         llvm::StringRef name) {
  for (unsigned r = 0; r < kernel.getResults().size(); ++r)
    if (name == "out" + std::to_string(r))
      return r;
  return std::nullopt;
}

/// Checks that each --save names a result of the one kernel that runs.
llvm::Error checkSaveNames(const RunOptions &options,
                           llvm::ArrayRef<const KernelDecl *> kernels) {
  if (options.saveFiles.empty())
    return llvm::Error::success();
  if (kernels.size() != 1)
    return llvm::createStringError(
        llvm::formatv("--save needs a single kernel, but '{0}' has {1}; "
                      "choose one with --kernel NAME",
                      options.file, kernels.size())
            .str());
  const KernelDecl &kernel = *kernels.front();
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

/// Writes the outputs that --save names (checked by checkSaveNames), each
/// in its shape, in C order.
llvm::Error saveOutputs(const KernelDecl &kernel,
                        llvm::ArrayRef<check::StridedArray> outputs,
                        const RunOptions &options) {
  for (const check::NamedFile &save : options.saveFiles)
    if (llvm::Error error = writeNpyFile(
            save.path,
            outputs[*lookupResultName(kernel, save.name)].toContiguous(),
            llvm::ArrayRef<int64_t>(
                outputs[*lookupResultName(kernel, save.name)].shape)))
      return llvm::createStringError("--save " + save.name + ": " +
                                     llvm::toString(std::move(error)));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Running one kernel
//===----------------------------------------------------------------------===//

/// The position of tensor `name` of `kernel` (its tensor parameters, then
/// its results out0, out1, ...), if it has one.
std::optional<unsigned> getTensorPosition(const KernelDecl &kernel,
                                          llvm::StringRef name) {
  unsigned position = 0;
  for (const auto &param : kernel.getParams()) {
    if (!param->isTensor())
      continue;
    if (param->getName() == name)
      return position;
    ++position;
  }
  for (size_t r = 0; r < kernel.getResults().size(); ++r)
    if (name == "out" + std::to_string(r))
      return position + r;
  return std::nullopt;
}

/// The inputs of every run of `kernel`: the seeded random values, the
/// --input files, the --arg values and the layout.
check::InputSpec getInputSpec(const KernelDecl &kernel,
                              const RunOptions &options,
                              const check::InputArrays &files) {
  check::InputSpec spec;
  for (const auto &entry : options.tensorOffsets)
    if (std::optional<unsigned> position =
            getTensorPosition(kernel, entry.getKey())) {
      if (spec.tensorOffsets.size() <= *position)
        spec.tensorOffsets.resize(*position + 1);
      spec.tensorOffsets[*position] = entry.getValue();
    }
  spec.n = options.n;
  spec.dims = options.dims;
  spec.batch = options.batch;
  spec.layout = options.layout;
  spec.offset = options.offset;
  spec.seed = options.seed;
  spec.kind = options.inputs;
  spec.args = options.args;
  spec.files = &files;
  return spec;
}

/// Runs `kernel` on fresh inputs, saves what --save asks for and checks
/// every result; returns whether all matched, or an error.
llvm::Expected<bool> runKernel(const KernelDecl &kernel,
                               const RunOptions &options,
                               driver::LoadedModule &module,
                               const check::InputArrays &files,
                               mlir::TimingScope &timing) {
  check::LaunchConfig launch;
  launch.gridWaves = options.gridWaves;
  launch.threads = options.threads;
  launch.streamingStoreBytes = options.streamingStoreBytes;
  launch.blockSize = options.blockSize;
  launch.rowsBlockSize = options.rowsBlockSize;
  launch.blocksPerSM = options.blocksPerSM;
  launch.rowsResident = options.rowsResident;
  launch.splits = options.splits;
  launch.notes = options.verbose ? &llvm::errs() : nullptr;
  check::InputSpec spec = getInputSpec(kernel, options, files);
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
  llvm::Expected<check::KernelCheck> checked =
      check::checkRun(kernel, std::move(*run), checkOptions, &timing);
  if (!checked)
    return checked.takeError();
  if (llvm::Error e = check::recheckPoisoned(kernel, module, spec, checkOptions,
                                             launch, *checked))
    return std::move(e);
  for (auto [index, result] : llvm::enumerate(checked->results)) {
    if (result.ok() && options.verbose) {
      // What a True run computed: its first elements, and the element
      // farthest from the reference within the tolerance.
      llvm::errs() << "note: kernel '" << kernel.getDisplayName() << "' result "
                   << index << ": ";
      result.print(llvm::errs());
      if (isFloat(result.dtype) && result.largest.index >= 0) {
        llvm::errs() << "; the largest error is "
                     << llvm::format("%.2g", result.largest.severity)
                     << " of the tolerance ";
        result.printTolerance(llvm::errs());
        llvm::errs() << ", at:\n";
      } else if (isFloat(result.dtype))
        llvm::errs() << ", every one exactly as the reference; the first:\n";
      else
        llvm::errs() << "; the first:\n";
      if (result.largest.index >= 0) {
        check::printElements(llvm::errs(), *checked, index, kernel,
                             result.largest, "  ");
        llvm::errs() << "  the first:\n";
      }
      check::printElements(llvm::errs(), *checked, index, kernel,
                           result.samples, "  ");
    }
    if (!result.ok()) {
      llvm::errs() << "mismatch: kernel '" << kernel.getDisplayName()
                   << "' result " << index << ": ";
      result.print(llvm::errs());
      llvm::errs() << "\n";
      if (options.verbose)
        check::printMismatches(llvm::errs(), *checked, index, kernel,
                               checkOptions.numWorst, "  ");
    }
    const check::StrayWrites &stray = checked->strayWrites[index];
    if (stray.count)
      llvm::errs() << "mismatch: kernel '" << kernel.getDisplayName()
                   << "' result " << index << ": " << stray.count
                   << " element(s) outside its view written, first at "
                      "element "
                   << stray.first << " of its storage\n";
  }
  return checked->ok();
}

/// Times `kernel` (--bench) on the GPU, or on the CPU JIT with --device cpu,
/// and prints the report. The tensors have the run's shapes and layouts;
/// every launch goes through the driver as a user's would (planned, its
/// variant chosen), queued back to back.
llvm::Error benchKernel(const KernelDecl &kernel, const RunOptions &options,
                        driver::LoadedModule &executor,
                        const check::InputArrays &files) {
  const KernelSignature *signature = executor.lookupKernel(kernel.getName());
  if (!signature)
    return llvm::createStringError("no compiled kernel '" + kernel.getName() +
                                   "'");
  check::InputSpec spec = getInputSpec(kernel, options, files);
  llvm::Expected<DimBindings> bindings = check::bindRunDims(kernel, spec);
  if (!bindings)
    return bindings.takeError();
  // The scalars' values: the inputs of a run with every extent 0 (the
  // tensors' values come from the patterns below). Generating every
  // element on the host would take longer than the whole benchmark at 2^30.
  check::InputSpec scalarSpec = spec;
  scalarSpec.files = nullptr;
  DimBindings empty = *bindings;
  for (auto &extent : empty.extents)
    extent.getValue() = 0;
  for (int64_t &extent : empty.batchShape)
    extent = 0;
  llvm::Expected<std::vector<check::StridedArray>> scalars =
      check::makeInputs(kernel, scalarSpec, empty);
  if (!scalars)
    return scalars.takeError();
  llvm::Expected<check::LaunchValues> values =
      check::getLaunchValues(kernel, *signature, *scalars, options.args);
  if (!values)
    return values.takeError();

  // Each tensor's placement and its pattern: 2^20 seeded random values (or
  // the --input file's), repeated over its storage.
  constexpr int64_t kPatternElements = int64_t(1) << 20;
  std::vector<check::TensorPlacement> placements;
  std::vector<HostArray> patterns;
  std::vector<BenchTensor> tensors;
  auto addTensor = [&](std::vector<int64_t> shape, DType dtype, bool isOutput,
                       const HostArray *file, unsigned paramIndex) {
    check::TensorPlacement placement = check::placeTensor(
        std::move(shape), check::getLayoutOf(spec, tensors.size()),
        check::getOffsetOf(spec, tensors.size()));
    BenchTensor tensor;
    tensor.isOutput = isOutput;
    tensor.elementSize = getDTypeSize(dtype);
    tensor.storageElements = placement.storageElements;
    tensor.viewElements = 1;
    for (int64_t extent : placement.shape)
      tensor.viewElements *= extent;
    if (!isOutput) {
      const HostArray &pattern =
          file ? *file
               : patterns.emplace_back(makeRandomInput(
                     dtype,
                     std::min<int64_t>(placement.storageElements,
                                       kPatternElements),
                     options.seed, paramIndex, options.inputs));
      tensor.pattern =
          llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(pattern.data()),
                                  pattern.getSizeInBytes());
    }
    placements.push_back(std::move(placement));
    tensors.push_back(tensor);
  };
  // Reserved: the tensors' patterns point into it.
  patterns.reserve(signature->params.size());
  for (auto [index, param] : llvm::enumerate(signature->params)) {
    if (!param.isTensor)
      continue;
    auto file = files.find(param.name);
    addTensor(getTensorShape(param.dims, *bindings), param.dtype, false,
              file == files.end() ? nullptr : &file->getValue().array, index);
  }
  uint64_t points = 0;
  for (auto [index, result] : llvm::enumerate(signature->results)) {
    std::vector<int64_t> shape = getResultShape(*signature, *bindings, index);
    uint64_t size = 1;
    for (int64_t extent : shape)
      size *= extent;
    points = std::max(points, size);
    addTensor(std::move(shape), result.dtype, true, nullptr, 0);
  }

  // One launch over the tensors whose storage starts at `storage`.
  std::vector<TensorArg> inputs(signature->params.size()), outputs;
  driver::LaunchOptions launchOptions;
  launchOptions.gridWaves = options.gridWaves;
  launchOptions.blockSize = options.blockSize;
  launchOptions.rowsBlockSize = options.rowsBlockSize;
  launchOptions.blocksPerSM = options.blocksPerSM;
  launchOptions.rowsResident = options.rowsResident;
  launchOptions.splits = options.splits;
  launchOptions.threads = options.threads;
  launchOptions.streamingStoreBytes = options.streamingStoreBytes;
  auto launch = [&](llvm::ArrayRef<uint8_t *> storage) -> llvm::Error {
    std::vector<driver::LaunchArg> params;
    outputs.clear();
    unsigned tensor = 0;
    for (auto [index, param] : llvm::enumerate(signature->params)) {
      if (!param.isTensor) {
        params.push_back(
            driver::LaunchArg::ofScalar(values->params[index]->storage.data()));
        continue;
      }
      const check::TensorPlacement &placement = placements[tensor];
      inputs[index] = {storage[tensor] +
                           placement.offset * tensors[tensor].elementSize,
                       placement.shape, placement.strides};
      params.push_back(driver::LaunchArg::ofTensor(inputs[index]));
      ++tensor;
    }
    for (; tensor < tensors.size(); ++tensor) {
      const check::TensorPlacement &placement = placements[tensor];
      outputs.push_back(
          {storage[tensor] + placement.offset * tensors[tensor].elementSize,
           placement.shape, placement.strides});
    }
    return executor.launch(*signature, params, outputs, launchOptions);
  };

  BenchOptions benchOptions;
  // The CPU's launches split among these; the memcpy likewise.
  unsigned hostThreads = driver::getHostThreads(options.threads);
  llvm::Expected<BenchReport> report = BenchReport();
  CudaContext *cuda = executor.getCudaContext();
  if (cuda) {
    // The variant this layout needs, compiled before the clock starts.
    report = benchOnDevice(*cuda, tensors, benchOptions, launch);
  } else {
    if (llvm::Error error = check::checkHostMemory(kernel, spec, *bindings))
      return error;
    // A CPU run at n = 2^28 takes a good part of a second: fewer of them.
    benchOptions.warmup = 2;
    benchOptions.repetitions = 20;
    benchOptions.hostThreads = hostThreads;
    report = benchOnHost(tensors, benchOptions, launch);
  }
  if (!report)
    return report.takeError();

  std::string shape = llvm::join(
      llvm::map_range(placements.back().shape,
                      [](int64_t extent) { return std::to_string(extent); }),
      "x");
  if (options.json) {
    llvm::json::Object object = toJSON(*report);
    object["name"] = kernel.getName();
    if (kernel.isGeneric())
      object["types"] = formatTypeBinding(kernel.getTypeBinding());
    object["n"] = static_cast<int64_t>(points);
    object["shape"] = shape;
    object["layout"] = check::getLayoutName(options.layout);
    object["offset_elements"] = static_cast<int64_t>(options.offset);
    if (cuda) {
      const LaunchDescriptor *descriptor =
          executor.getLaunchDescriptor(kernel.getName());
      object["device"] = cuda->getDeviceInfo().getSummary();
      object["elements_per_thread"] =
          descriptor ? descriptor->elementsPerThread : 1;
      object["grid_waves"] =
          static_cast<int64_t>(options.gridWaves.value_or(kElementwiseWaves));
      object["block_size"] = static_cast<int64_t>(options.blockSize.value_or(
          descriptor ? descriptor->blockSize : kElementwiseBlockSize));
    } else {
      object["device"] = "cpu (--cpu-target " + options.cpuTarget + ")";
      // The kernel's launches and the memcpy on as many threads.
      object["threads"] = static_cast<int64_t>(hostThreads);
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
      "bench '{0}'{1}: {2} points ({3}), layout {4}, offset {5}, {6} bytes "
      "moved, {7} buffer set(s), {8} launches\n",
      kernel.getDisplayName(),
      cuda ? std::string()
           : llvm::formatv(" on the CPU ({0} thread{1})", hostThreads,
                           hostThreads == 1 ? "" : "s")
                 .str(),
      points, shape, check::getLayoutName(options.layout), options.offset,
      report->bytesMoved, report->bufferSets, report->kernel.samples);
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
/// One compilation of the file: its binding of type parameters and the
/// kernels it runs, by name.
struct Specialization {
  TypeBinding binding;
  std::vector<std::string> kernels;
};

/// The compilations that run `kernels`: without --type (`types` empty), the
/// concrete kernels once and each generic kernel under every binding its
/// type parameters admit; with it, each binding given (a generic kernel it
/// leaves partly free under every completion). Bindings that coincide share
/// one compilation.
std::vector<Specialization> planRuns(llvm::ArrayRef<const KernelDecl *> kernels,
                                     llvm::ArrayRef<TypeBinding> types) {
  std::vector<Specialization> runs;
  auto add = [&](const TypeBinding &binding, llvm::StringRef kernel) {
    auto it = llvm::find_if(runs, [&](const Specialization &run) {
      return run.binding == binding;
    });
    if (it == runs.end()) {
      runs.push_back({binding, {}});
      it = std::prev(runs.end());
    }
    if (!llvm::is_contained(it->kernels, kernel))
      it->kernels.push_back(kernel.str());
  };
  std::vector<TypeBinding> given(types.begin(), types.end());
  if (given.empty())
    given.emplace_back();
  for (const KernelDecl *kernel : kernels)
    if (!kernel->isGeneric())
      add(given.front(), kernel->getName());
  for (const TypeBinding &binding : given)
    for (const KernelDecl *kernel : kernels) {
      if (!kernel->isGeneric())
        continue;
      // The binding given, completed for this kernel's free parameters.
      for (TypeBinding each : getAdmittedBindings(*kernel, binding)) {
        each.insert(binding.begin(), binding.end());
        add(each, kernel->getName());
      }
    }
  return runs;
}

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
  // One --type: the file is checked and dumped (--emit ast) under it.
  llvm::Expected<std::unique_ptr<driver::Source>> source =
      driver::Source::parse(std::move(*file), &llvm::errs(),
                            options.types.size() == 1 ? options.types.front()
                                                      : TypeBinding());
  parseTiming.stop();
  if (!source) {
    llvm::consumeError(source.takeError());
    return kExitError;
  }
  const ModuleDecl *ast = &(*source)->getAST();
  if (options.emit == EmitStage::AST) {
    dumpAST(*ast, llvm::outs());
    return kExitMatch;
  }
  std::vector<const KernelDecl *> kernels;
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
    if (llvm::none_of(kernels, [&](const KernelDecl *kernel) {
          return kernel->lookupParam(arg.name) != nullptr;
        }))
      return fail("unknown --arg '" + arg.name +
                  "': no kernel has a "
                  "parameter of that name");
  llvm::Expected<check::InputArrays> inputFiles =
      check::loadInputFiles(options.inputFiles, kernels);
  if (!inputFiles)
    return fail(inputFiles.takeError());
  // Each --offset NAME=K must name a tensor of some kernel that runs.
  for (const auto &entry : options.tensorOffsets)
    if (llvm::none_of(kernels, [&](const KernelDecl *kernel) {
          return getTensorPosition(*kernel, entry.getKey()).has_value();
        }))
      return fail("unknown --offset '" + entry.getKey().str() +
                  "=': no kernel has a tensor of that name (a parameter, "
                  "or out0, out1, ... for the results)");
  // Each --dim must name a dimension of some kernel that runs.
  for (const auto &dim : options.dims)
    if (llvm::none_of(kernels, [&](const KernelDecl *kernel) {
          return kernel->lookupDim(dim.getKey()) &&
                 dim.getKey() != kBatchDimName;
        }))
      return fail("unknown --dim '" + dim.getKey() +
                  "': no kernel has a dimension of that name");
  if (llvm::Error error = checkSaveNames(options, kernels))
    return fail(std::move(error));
  // Each --type must name type parameters of some kernel of the file.
  for (const TypeBinding &binding : options.types)
    for (const auto &entry : binding)
      if (llvm::none_of(ast->getKernels(), [&](const auto &kernel) {
            return kernel->lookupTypeParam(entry.first).has_value();
          }))
        return fail("unknown --type '" + entry.first +
                    "=': no kernel has a type parameter of that name");
  std::vector<Specialization> runs = planRuns(kernels, options.types);
  // Files hold one dtype each: a generic kernel's --input and --save need
  // one specialization.
  if (runs.size() > 1 &&
      (!options.inputFiles.empty() || !options.saveFiles.empty()))
    return fail(std::string(options.inputFiles.empty() ? "--save" : "--input") +
                " reads or writes one dtype, and the generic kernels run " +
                std::to_string(runs.size()) +
                " specializations: give one --type, such as --type " +
                formatTypeBinding(llvm::find_if(runs, [](const auto &run) {
                                    return !run.binding.empty();
                                  })->binding));
  // --emit prints one compilation; a header holds the specializations that
  // --type lists, each a module of its own.
  bool listed = options.emit == EmitStage::Header && !options.types.empty();
  if (options.emit && runs.size() > 1 && !listed) {
    std::string free;
    for (const KernelDecl *kernel : kernels)
      if (kernel->isGeneric())
        free += (free.empty() ? "" : ", ") + kernel->getDisplayName();
    return fail((options.emit == EmitStage::Header
                     ? "--emit header exports the specializations that "
                       "--type lists: give one or more for the generic "
                       "kernels ("
                     : "--emit prints one compilation: give one --type for "
                       "the generic kernels (") +
                free + "), such as --type " +
                formatTypeBinding(llvm::find_if(runs, [](const auto &run) {
                                    return !run.binding.empty();
                                  })->binding));
  }

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
  // --emit prints the optimized code, which a tiered compilation makes on a
  // thread after the quick code that it would print instead.
  if (options.emit && options.tiered)
    return fail("--tiered runs the quick code, then the optimized code; it "
                "cannot be combined with --emit, which prints the optimized "
                "code");

  // MLIR, the pipelines, and loading: the driver's. --emit stops it after a
  // stage; the hidden --test-mutation (test/Mutations) adds a deliberate
  // miscompilation on the IR that it rewrites (the ew module, or the lowered
  // loops).
  driver::CompileOptions compileOptions;
  compileOptions.target = onGPU ? driver::Target::Cuda : driver::Target::Cpu;
  compileOptions.chip = options.chip;
  compileOptions.cpuTarget = options.cpuTarget;
  compileOptions.vectorsPerThread = options.vectorsPerThread;
  compileOptions.tileSize = options.tileSize;
  compileOptions.rowsBlockSize = options.rowsBlockSize;
  compileOptions.autotune = options.autotune;
  compileOptions.tiered = options.tiered;
  // --emit prints what a compilation makes: a cache hit would make none.
  compileOptions.noCache = options.noCache || options.emit;
  compileOptions.cacheDir = options.cacheDir;
  // The EWC_* variables, where the command line left a choice to them.
  if (llvm::Error error = tools::applyEnvironment(compileOptions))
    return fail(std::move(error));
  compileOptions.diagnostics = &llvm::errs();
  if (options.emit == EmitStage::LLVMIR)
    compileOptions.optimizedIR = &llvm::outs();
  // The kernel cache and the PTX assembler chosen, with --verbose or
  // --timing.
  compileOptions.notes =
      options.verbose || options.timing ? &llvm::errs() : nullptr;
  compileOptions.configurePassManager = mlir::applyPassManagerCLOptions;
  if (llvm::Error error = tools::loadPassPlugins(options.passPlugins))
    return fail(std::move(error));
  if (!options.testMutation.empty()) {
    auto hook = tools::getTestMutationHook(options.testMutation);
    if (!hook)
      return fail(hook.takeError());
    compileOptions.addPasses = std::move(*hook);
  }
  // --emit header: an image per compilation, its kernels' launch
  // descriptors read at the GPU stage and its PTX at the last; a kernel
  // already exported (a concrete one, which every specialization's module
  // holds) is left out of later images.
  std::vector<driver::HeaderImage> images;
  llvm::StringSet<> exported;
  const ModuleDecl *currentAST = ast;
  compileOptions.stopAfter = [&](driver::Stage stage, mlir::ModuleOp module) {
    if (options.emit == EmitStage::Header) {
      if (stage == driver::Stage::GPU) {
        images.emplace_back();
        images.back().launches = driver::getLaunchDescriptors(module);
      }
      if (stage != driver::Stage::PTX)
        return false;
      driver::HeaderImage &image = images.back();
      image.ptx = mlir::ew::getPTX(module);
      for (const auto &kernel : currentAST->getKernels()) {
        if (!kernel->isBound())
          continue;
        // A specialization's function says its types: leaky_relu_bf16.
        std::string function = kernel->getName().str();
        for (DType dtype : kernel->getBinding())
          function += "_" + getDTypeName(dtype).str();
        if (!exported.insert(function).second)
          continue;
        image.kernels.push_back(getKernelSignature(*kernel));
        image.functionNames.push_back(function);
      }
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
  // One compilation per specialization: the file under its binding (the
  // first run's is the one already checked), then each kernel it runs.
  llvm::SourceMgr &sourceMgr = (*source)->getSourceMgr();
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  bool allMatch = true;
  for (const Specialization &run : runs) {
    mlir::TimingScope compileTiming = timing.nest("compile");
    compileOptions.timing = &compileTiming;
    std::unique_ptr<driver::Source> specialized;
    driver::Source *runSource = &**source;
    if (run.binding != ast->getBinding()) {
      auto again = llvm::MemoryBuffer::getMemBufferCopy(text, options.file);
      llvm::Expected<std::unique_ptr<driver::Source>> parsedAgain =
          driver::Source::parse(std::move(again), &llvm::errs(), run.binding);
      if (!parsedAgain) {
        llvm::consumeError(parsedAgain.takeError());
        return kExitError;
      }
      specialized = std::move(*parsedAgain);
      runSource = specialized.get();
    }
    const ModuleDecl &runAST = runSource->getAST();
    currentAST = &runAST;
    llvm::Expected<std::unique_ptr<driver::LoadedModule>> loaded =
        driver::LoadedModule::compile(*runSource, compileOptions, cuda.get());
    if (!loaded) {
      llvm::Error error = loaded.takeError();
      if (error.isA<driver::ReportedError>()) {
        llvm::consumeError(std::move(error));
        return kExitError;
      }
      return fail(std::move(error));
    }
    compileTiming.stop();
    if (options.emit == EmitStage::Header)
      continue;
    if (!*loaded || options.emit == EmitStage::LLVMIR)
      return kExitMatch;
    driver::LoadedModule &executor = **loaded;
    std::vector<const KernelDecl *> runKernels;
    for (const std::string &name : run.kernels)
      runKernels.push_back(runAST.lookupKernel(name));

    if (options.bench) {
      // Benchmarks must not change device silently: a GPU bench script run
      // where none is found fails; --device cpu asks for the CPU.
      if (!executor.getCudaContext() && options.device != DeviceChoice::Cpu)
        return fail("--bench times kernels on a CUDA device, and none was "
                    "found");
      for (const KernelDecl *kernel : runKernels)
        if (llvm::Error error =
                benchKernel(*kernel, options, executor, *inputFiles))
          return fail(std::move(error));
      continue;
    }

    // --tiered: each kernel with the quick code, then with the optimized
    // code once it has replaced the quick one.
    std::vector<const KernelDecl *> checks = runKernels;
    if (options.tiered)
      checks.insert(checks.end(), runKernels.begin(), runKernels.end());
    for (auto [position, kernel] : llvm::enumerate(checks)) {
      if (options.tiered && position == runKernels.size()) {
        bool swapped = executor.isOptimized();
        if (llvm::Error error = executor.waitForOptimized())
          return fail(std::move(error));
        if (options.verbose)
          llvm::errs() << "note: tiered: the optimized code "
                       << (swapped ? "was in before the first checks ended"
                                   : "came in after the first checks")
                       << "; checking again\n";
      }
      std::string display = kernel->getDisplayName();
      mlir::TimingScope kernelTiming =
          timing.nest(kernel, [&] { return "kernel '" + display + "'"; });
      llvm::Expected<bool> matched =
          runKernel(*kernel, options, executor, *inputFiles, kernelTiming);
      if (!matched)
        return fail(matched.takeError());
      allMatch &= *matched;
      // A generic kernel's verdict per specialization where there are
      // several, on stderr: stdout keeps its one line for the whole file.
      if (kernel->isGeneric() && runs.size() > 1)
        llvm::errs() << "note: " << display << ": "
                     << (*matched ? "True" : "False") << "\n";
    }
  }
  if (options.emit == EmitStage::Header) {
    llvm::Expected<std::string> header = driver::emitCudaHeader(
        images, getHeaderNamespace(options.file), options.file,
        tools::getHeaderCubinChips(), compileOptions.jitLink);
    if (!header)
      return fail(header.takeError());
    llvm::outs() << *header;
    return kExitMatch;
  }
  if (options.bench)
    return kExitMatch;
  llvm::outs() << (allMatch ? "True" : "False") << "\n";
  // Before the timing report, which goes to stderr when `timing` ends.
  llvm::outs().flush();
  return allMatch ? kExitMatch : kExitMismatch;
}
