//===- ewc-run.cpp - Compile, run and check .ew kernels -------------------===//
//
// The main job of ewc: parse and check FILE.ew, emit the ew IR, lower it with
// the named pipelines (ew-to-ptx for the GPU, ew-to-cpu for the CPU), run
// every kernel on seeded random inputs, and compare each result with the
// double-precision reference evaluated from the AST. Prints True or False.
// Compiling, loading and launching are the driver's (ewc/Driver/Driver.h);
// this file owns the command line, the inputs, and the checking.
//
// Exit codes: 0 all results match, 1 a result differs, 2 any error.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "ewc/Driver/Driver.h"
#include "ewc/Driver/HeaderExport.h"
#include "ewc/Frontend/ASTDump.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Reference/Npy.h"
#include "ewc/Reference/Reference.h"
#include "ewc/Runtime/Bench.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/DeviceBuffer.h"
#include "ewc/Runtime/LaunchShape.h"

#include "Transforms/TestPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

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
  return fail(message);
}

//===----------------------------------------------------------------------===//
// Scalar arguments
//===----------------------------------------------------------------------===//

/// Parses the text of a scalar of `dtype` (from --arg) into a one-element
/// array, the form the reference and the ABI both take.
llvm::Expected<HostArray> parseScalar(DType dtype, llvm::StringRef text,
                                      llvm::StringRef name) {
  auto bad = [&](llvm::StringRef expected) {
    return llvm::createStringError("invalid value '" + text + "' for --arg " +
                                   name + ": expected " + expected);
  };
  HostArray value(dtype, 1);
  if (dtype == DType::Bool) {
    if (text != "true" && text != "false" && text != "1" && text != "0")
      return bad("true or false");
    value.setFromInt(0, text == "true" || text == "1");
    return value;
  }
  if (isInteger(dtype)) {
    long long parsed;
    unsigned bits = getIntegerBitWidth(dtype);
    if (text.getAsInteger(0, parsed) ||
        (bits == 32 && (parsed < INT32_MIN || parsed > INT32_MAX)))
      return bad(bits == 32 ? "a 32-bit integer" : "a 64-bit integer");
    value.setFromInt(0, parsed);
    return value;
  }
  // Floats: anything strtod reads whole, including inf and nan.
  std::string copy = text.str();
  char *end = nullptr;
  double parsed = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size())
    return bad("a number");
  value.setFromDouble(0, parsed);
  return value;
}

//===----------------------------------------------------------------------===//
// .npy files (--input, --save)
//===----------------------------------------------------------------------===//

/// The arrays of the --input files, by parameter name.
using InputArrays = llvm::StringMap<HostArray>;

/// Reads every --input file, as the dtype of the first running kernel's
/// parameter of that name, and makes their common length options.n.
llvm::Expected<InputArrays>
loadInputFiles(RunOptions &options, llvm::ArrayRef<const Kernel *> kernels) {
  InputArrays arrays;
  const NamedFile *first = nullptr;
  for (const NamedFile &input : options.inputFiles) {
    const Param *param = nullptr;
    const Kernel *owner = nullptr;
    for (const Kernel *kernel : kernels)
      if ((param = kernel->lookupParam(input.name))) {
        owner = kernel;
        break;
      }
    if (!param)
      return llvm::createStringError("unknown --input '" + input.name +
                                     "': no kernel has a parameter of that "
                                     "name");
    if (!param->isTensor())
      return llvm::createStringError(
          "--input " + input.name + ": '" + input.name +
          "' is a scalar parameter; give its value with --arg " + input.name +
          "=VALUE");
    llvm::Expected<HostArray> array =
        readNpyFile(input.path, param->getDType());
    if (!array)
      return llvm::createStringError(
          "--input " + input.name +
          (kernels.size() > 1 ? " (of kernel '" + owner->getName() + "')"
                              : llvm::Twine()) +
          ": " + llvm::toString(array.takeError()));
    if (first && array->size() != arrays[first->name].size())
      return llvm::createStringError(
          llvm::formatv("--input {0}: '{1}' holds {2} elements, but --input "
                        "{3} ('{4}') holds {5}; all inputs need the same "
                        "length",
                        input.name, input.path, array->size(), first->name,
                        first->path, arrays[first->name].size())
              .str());
    first = first ? first : &input;
    arrays[input.name] = std::move(*array);
  }
  if (!first)
    return arrays;
  int64_t n = arrays[first->name].size();
  if (options.nGiven && options.n != n)
    return llvm::createStringError(
        llvm::formatv("--n {0} disagrees with --input {1} ('{2}'), which "
                      "holds {3} elements",
                      options.n, first->name, first->path, n)
            .str());
  options.n = n;
  return arrays;
}

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
  for (const NamedFile &save : options.saveFiles)
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
  for (const NamedFile &save : options.saveFiles)
    if (llvm::Error error = writeNpyFile(
            save.path, outputs[*lookupResultName(kernel, save.name)]))
      return llvm::createStringError("--save " + save.name + ": " +
                                     llvm::toString(std::move(error)));
  return llvm::Error::success();
}

/// The inputs of one run of `kernel`: seeded random tensors, or the --input
/// files, and for each scalar its --arg value, else its default. --arg and
/// --input names that `kernel` does not have are skipped (main checked that
/// some kernel has each).
llvm::Expected<std::vector<HostArray>> makeInputs(const Kernel &kernel,
                                                  const RunOptions &options,
                                                  const InputArrays &files) {
  std::vector<HostArray> inputs =
      makeRandomInputs(kernel, options.n, options.seed, options.inputs);
  for (const auto &file : files) {
    const Param *param = kernel.lookupParam(file.getKey());
    if (!param)
      continue;
    if (!param->isTensor() || param->getDType() != file.getValue().getDType())
      return llvm::createStringError(
          "--input " + file.getKey() + ": kernel '" + kernel.getName() +
          "' takes '" + file.getKey() + "' as " +
          (param->isTensor() ? "" : "a scalar ") +
          getDTypeName(param->getDType()) + ", but another kernel as a " +
          getDTypeName(file.getValue().getDType()) + " tensor");
    inputs[param->getIndex()] = file.getValue();
  }
  std::vector<bool> given(inputs.size());
  for (const ScalarArg &arg : options.args) {
    const Param *param = kernel.lookupParam(arg.name);
    if (!param)
      continue;
    if (param->isTensor())
      return llvm::createStringError(
          "--arg " + arg.name + ": '" + arg.name +
          "' is a tensor parameter; only scalar parameters take values");
    llvm::Expected<HostArray> value =
        parseScalar(param->getDType(), arg.value, arg.name);
    if (!value)
      return value.takeError();
    inputs[param->getIndex()] = std::move(*value);
    given[param->getIndex()] = true;
  }
  for (const auto &param : kernel.getParams())
    if (!param->isTensor() && !param->hasDefault() && !given[param->getIndex()])
      return llvm::createStringError("scalar parameter '" + param->getName() +
                                     "' of kernel '" + kernel.getName() +
                                     "' has no default; pass --arg " +
                                     param->getName() + "=VALUE");
  return inputs;
}

//===----------------------------------------------------------------------===//
// Running one kernel
//===----------------------------------------------------------------------===//

/// Where kernels run: the CUDA device or the CPU JIT.
using Executor = driver::LoadedModule;

/// Checks that the host arrays of one run fit in this machine's memory: an
/// allocation that fails would abort the process instead of reporting.
llvm::Error checkHostMemory(const Kernel &kernel, int64_t n) {
  // Per element: each tensor input, and each result twice (the output and
  // the reference's array of it). The reference works in blocks beyond that.
  uint64_t bytesPerElement = 0;
  for (const auto &param : kernel.getParams())
    if (param->isTensor())
      bytesPerElement += getDTypeSize(param->getDType());
  for (unsigned r = 0; r < kernel.getResults().size(); ++r)
    bytesPerElement += 2 * getDTypeSize(kernel.getResultType(r).dtype);
  bool overflow = false;
  uint64_t needed = llvm::SaturatingMultiply(static_cast<uint64_t>(n),
                                             bytesPerElement, &overflow);
  uint64_t available = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                       static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  if (!overflow && needed <= available)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::formatv("--n {0} needs {1:F1} GiB of host memory for kernel "
                    "'{2}', more than this machine's {3:F1} GiB",
                    n, needed / double(1ull << 30), kernel.getName(),
                    available / double(1ull << 30))
          .str());
}

/// The default values of the scalar parameters as the compiled IR has them
/// (`ew.default`, which the driver reads), per kernel: the kernel runs with
/// these, the reference with the source's, so a compiler that gets a default
/// wrong prints False.
using CompiledDefaults =
    llvm::StringMap<std::vector<std::optional<HostArray>>>;

CompiledDefaults getCompiledDefaults(const driver::LoadedModule &module) {
  CompiledDefaults defaults;
  for (const KernelSignature &kernel : module.getKernels()) {
    auto &values = defaults[kernel.name];
    for (const ParamSignature &param : kernel.params) {
      std::optional<HostArray> &value = values.emplace_back();
      if (!param.defaultValue)
        continue;
      // The ABI's own bytes of the value: a one-element HostArray holds
      // exactly that layout.
      value.emplace(param.defaultValue->dtype, 1);
      param.defaultValue->toBytes(value->data());
    }
  }
  return defaults;
}

/// Prints the worst mismatches of one result with the inputs at their index.
void printWorst(const CompareResult &result, const Kernel &kernel,
                llvm::ArrayRef<HostArray> inputs) {
  for (const Mismatch &mismatch : result.worst) {
    llvm::errs() << "  [" << mismatch.index << "]";
    for (const auto &param : kernel.getParams()) {
      const HostArray &input = inputs[param->getIndex()];
      int64_t i = param->isTensor() ? mismatch.index : 0;
      llvm::errs() << " " << param->getName() << "=";
      if (isFloat(input.getDType()))
        llvm::errs() << llvm::format("%.9g", input.getAsDouble(i));
      else if (input.getDType() == DType::Bool)
        llvm::errs() << (input.getAsInt(i) ? "true" : "false");
      else
        llvm::errs() << input.getAsInt(i);
    }
    llvm::errs() << ": got " << mismatch.got << ", expected "
                 << mismatch.expected << "\n";
  }
}

/// The values a kernel runs with: `inputs`, except that scalars with a default
/// the user did not override take the default from the compiled IR.
llvm::Expected<std::vector<const HostArray *>>
getLaunchInputs(const Kernel &kernel, const std::vector<HostArray> &inputs,
                const RunOptions &options,
                const CompiledDefaults &compiledDefaults) {
  std::vector<const HostArray *> launchInputs;
  auto defaults = compiledDefaults.find(kernel.getName());
  for (const auto &param : kernel.getParams()) {
    const HostArray *input = &inputs[param->getIndex()];
    bool given = llvm::any_of(options.args, [&](const ScalarArg &arg) {
      return arg.name == param->getName();
    });
    if (param->hasDefault() && !given) {
      if (defaults == compiledDefaults.end() ||
          !defaults->second[param->getIndex()])
        return llvm::createStringError(
            "the compiled kernel '" + kernel.getName() +
            "' has no default for parameter '" + param->getName() + "'");
      input = &*defaults->second[param->getIndex()];
    }
    launchInputs.push_back(input);
  }
  return launchInputs;
}

/// Runs `kernel` on fresh inputs and checks every result; returns whether all
/// matched, or an error.
llvm::Expected<bool> runKernel(const Kernel &kernel, const RunOptions &options,
                               const CompiledDefaults &compiledDefaults,
                               Executor &executor, const InputArrays &files) {
  int64_t n = options.n;
  if (llvm::Error error = checkHostMemory(kernel, n))
    return std::move(error);
  llvm::Expected<std::vector<HostArray>> inputs =
      makeInputs(kernel, options, files);
  if (!inputs)
    return inputs.takeError();
  llvm::Expected<std::vector<const HostArray *>> launchInputs =
      getLaunchInputs(kernel, *inputs, options, compiledDefaults);
  if (!launchInputs)
    return launchInputs.takeError();
  std::vector<HostArray> outputs;
  for (unsigned r = 0; r < kernel.getResults().size(); ++r) {
    outputs.emplace_back(kernel.getResultType(r).dtype, n);
    outputs.back().fillPoison();
  }

  // One value per parameter and one pointer per result, which the driver
  // puts in the ABI's order: host arrays on the CPU, device copies of them on
  // the GPU. A scalar's value is its one-element array's bytes.
  CudaContext *cuda = executor.getCudaContext();
  std::vector<const void *> params;
  std::vector<void *> outputPointers;
  std::vector<DeviceBuffer> buffers;
  auto addArray = [&](const HostArray &array) -> llvm::Expected<void *> {
    if (!cuda)
      // The kernel only reads inputs; the ABI's pointers are not const.
      return const_cast<void *>(array.data());
    // --offset: the tensor starts K elements into its allocation.
    size_t offset = options.offset * getDTypeSize(array.getDType());
    auto buffer =
        DeviceBuffer::allocate(*cuda, offset + array.getSizeInBytes());
    if (!buffer)
      return buffer.takeError();
    // Outputs start as the poison their host arrays hold.
    if (llvm::Error e =
            buffer->copyFromHost(array.data(), array.getSizeInBytes(), offset))
      return std::move(e);
    void *address = reinterpret_cast<void *>(buffer->getAddress() + offset);
    buffers.push_back(std::move(*buffer));
    return address;
  };
  for (const auto &param : kernel.getParams()) {
    const HostArray &input = *(*launchInputs)[param->getIndex()];
    if (!param->isTensor()) {
      params.push_back(input.data());
      continue;
    }
    llvm::Expected<void *> pointer = addArray(input);
    if (!pointer)
      return pointer.takeError();
    params.push_back(*pointer);
  }
  for (const HostArray &output : outputs) {
    llvm::Expected<void *> pointer = addArray(output);
    if (!pointer)
      return pointer.takeError();
    outputPointers.push_back(*pointer);
  }
  const KernelSignature *signature = executor.lookupKernel(kernel.getName());
  if (!signature)
    return llvm::createStringError("no compiled kernel '" + kernel.getName() +
                                   "'");
  driver::LaunchOptions launchOptions;
  launchOptions.synchronize = true;
  launchOptions.gridWaves = options.gridWaves;
  launchOptions.blockSize = options.blockSize;
  if (llvm::Error e = executor.launch(*signature, params, outputPointers, n,
                                      launchOptions))
    return std::move(e);
  if (cuda) {
    size_t firstOutput = buffers.size() - outputs.size();
    for (auto [index, output] : llvm::enumerate(outputs))
      if (llvm::Error e = buffers[firstOutput + index].copyToHost(
              output.data(), output.getSizeInBytes(),
              options.offset * getDTypeSize(output.getDType())))
        return std::move(e);
  }
  if (llvm::Error e = saveOutputs(kernel, outputs, options))
    return std::move(e);

  CheckOptions check;
  check.rtol = options.rtol;
  check.atol = options.atol;
  check.numWorst = options.verbose ? 10 : 1;
  llvm::Expected<std::vector<CompareResult>> results =
      checkKernel(kernel, *inputs, outputs, n, check);
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
      printWorst(result, kernel, *inputs);
  }
  return allMatch;
}

/// Times `kernel` on the GPU (--bench) and prints the report.
llvm::Error benchKernel(const Kernel &kernel, const RunOptions &options,
                        const CompiledDefaults &compiledDefaults,
                        Executor &executor, const InputArrays &files) {
  // The inputs' values: the seeded random inputs of the first 2^20 elements
  // (or fewer), which the benchmark repeats over all n. Generating n random
  // values on the host would take longer than the whole benchmark at 2^30.
  constexpr int64_t kPatternElements = int64_t(1) << 20;
  RunOptions patternOptions = options;
  patternOptions.n = std::min(options.n, kPatternElements);
  llvm::Expected<std::vector<HostArray>> inputs =
      makeInputs(kernel, patternOptions, files);
  if (!inputs)
    return inputs.takeError();
  llvm::Expected<std::vector<const HostArray *>> launchInputs =
      getLaunchInputs(kernel, *inputs, options, compiledDefaults);
  if (!launchInputs)
    return launchInputs.takeError();
  auto bytesOf = [](const HostArray &array) {
    return llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(array.data()),
                                   array.getSizeInBytes());
  };
  std::vector<BenchArg> args;
  for (const auto &param : kernel.getParams()) {
    const HostArray &input = *(*launchInputs)[param->getIndex()];
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
  auto function = executor.getCudaModule()->getFunction(kernel.getName());
  if (!function)
    return function.takeError();
  BenchOptions benchOptions;
  benchOptions.offsetElements = options.offset;
  benchOptions.elementsPerThread =
      executor.getElementsPerThread(kernel.getName());
  benchOptions.gridWaves = options.gridWaves;
  benchOptions.blockSize = options.blockSize;
  llvm::Expected<BenchReport> report = benchElementwise(
      *executor.getCudaContext(), *function, options.n, args, benchOptions);
  if (!report)
    return report.takeError();

  if (options.json) {
    llvm::json::Object object = toJSON(*report);
    object["name"] = kernel.getName();
    object["device"] = executor.getCudaContext()->getDeviceInfo().getSummary();
    object["elements_per_thread"] = benchOptions.elementsPerThread;
    object["grid_waves"] =
        static_cast<int64_t>(options.gridWaves.value_or(kElementwiseWaves));
    object["block_size"] = static_cast<int64_t>(
        options.blockSize.value_or(kElementwiseBlockSize));
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
      "bench '{0}': n = {1}, offset {2}, {3} bytes moved, {4} buffer set(s), "
      "{5} launches\n",
      kernel.getName(), report->numElements, report->offsetElements,
      report->bytesMoved, report->bufferSets, report->kernel.samples);
  line("kernel", report->kernel);
  line("copy", report->copy);
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

void printModule(mlir::ModuleOp module, const RunOptions &options) {
  mlir::OpPrintingFlags flags;
  if (options.printLocations)
    flags.enableDebugInfo();
  module.print(llvm::outs(), flags);
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
  if (options.help) {
    llvm::outs() << getRunUsage();
    return kExitMatch;
  }

  // Front end.
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(options.file, /*IsText=*/true);
  if (std::error_code ec = file.getError())
    return fail("cannot read '" + options.file + "': " + ec.message());
  llvm::Expected<std::unique_ptr<driver::Source>> source =
      driver::Source::parse(std::move(*file), &llvm::errs());
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
  for (const ScalarArg &arg : options.args)
    if (llvm::none_of(kernels, [&](const Kernel *kernel) {
          return kernel->lookupParam(arg.name) != nullptr;
        }))
      return fail("unknown --arg '" + arg.name +
                  "': no kernel has a "
                  "parameter of that name");
  llvm::Expected<InputArrays> inputFiles = loadInputFiles(options, kernels);
  if (!inputFiles)
    return fail(inputFiles.takeError());
  if (llvm::Error error = checkSaveNames(options, kernels))
    return fail(std::move(error));

  // The device, unless only printing. Its chip drives code generation.
  bool needDevice = !options.emit;
  std::unique_ptr<CudaContext> cuda;
  if (needDevice && options.device != DeviceChoice::Cpu) {
    std::string whyNot;
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
  bool onGPU = cuda || (options.emit && options.device != DeviceChoice::Cpu);

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
  compileOptions.diagnostics = &llvm::errs();
  // The kernel cache and the PTX assembler chosen, with --verbose.
  compileOptions.notes = options.verbose ? &llvm::errs() : nullptr;
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
        printModule(module, options);
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
  if (headerError)
    return fail(*headerError);
  if (!*loaded)
    return kExitMatch;
  Executor &executor = **loaded;
  CompiledDefaults compiledDefaults = getCompiledDefaults(executor);

  if (options.bench) {
    if (!executor.getCudaContext())
      return fail("--bench times kernels on a CUDA device, and none was "
                  "found");
    for (const Kernel *kernel : kernels)
      if (llvm::Error error = benchKernel(*kernel, options, compiledDefaults,
                                          executor, *inputFiles))
        return fail(std::move(error));
    return kExitMatch;
  }
  if (options.offset && !executor.getCudaContext())
    return fail("--offset places device buffers, and no CUDA device was "
                "found");

  bool allMatch = true;
  for (const Kernel *kernel : kernels) {
    llvm::Expected<bool> matched =
        runKernel(*kernel, options, compiledDefaults, executor, *inputFiles);
    if (!matched)
      return fail(matched.takeError());
    allMatch &= *matched;
  }
  llvm::outs() << (allMatch ? "True" : "False") << "\n";
  return allMatch ? kExitMatch : kExitMismatch;
}
