//===- ewc-run.cpp - Compile, run and check .ew kernels -------------------===//
//
// The main job of ewc: parse and check FILE.ew, emit the ew IR, lower it with
// the named pipelines (ew-to-ptx for the GPU, ew-to-cpu for the CPU), run
// every kernel on seeded random inputs, and compare each result with the
// double-precision reference evaluated from the AST. Prints True or False.
//
// Exit codes: 0 all results match, 1 a result differs, 2 any error.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "ewc/Frontend/ASTDump.h"
#include "ewc/Frontend/Frontend.h"
#include "ewc/MLIRGen/MLIRGen.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Reference/Npy.h"
#include "ewc/Reference/Reference.h"
#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Runtime/Bench.h"
#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/DeviceBuffer.h"
#include "ewc/Runtime/LaunchShape.h"

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "Transforms/TestPasses.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
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
struct Executor {
  CudaContext *cuda = nullptr;
  CudaModule *cudaModule = nullptr;
  CpuJit *cpu = nullptr;
  /// Per GPU kernel, its ew.elements_per_thread (EwToGPU.h).
  llvm::StringMap<unsigned> elementsPerThread;
};

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
/// (`ew.default`), per kernel: the kernel runs with these, the reference with
/// the source's, so a compiler that gets a default wrong prints False.
using CompiledDefaults =
    llvm::StringMap<std::vector<std::optional<HostArray>>>;

CompiledDefaults readCompiledDefaults(mlir::ModuleOp module) {
  CompiledDefaults defaults;
  for (auto kernel : module.getOps<mlir::ew::KernelOp>()) {
    auto &values = defaults[kernel.getSymName()];
    values.resize(kernel.getNumArguments());
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
      mlir::TypedAttr value = kernel.getArgDefault(i);
      if (!value)
        continue;
      mlir::Type type = value.getType();
      std::optional<DType> dtype =
          type.isInteger(1)    ? DType::Bool
          : type.isInteger(32) ? DType::I32
          : type.isInteger(64) ? DType::I64
          : type.isF16()       ? DType::F16
          : type.isBF16()      ? DType::BF16
          : type.isF32()       ? DType::F32
          : type.isF64()       ? std::optional(DType::F64)
                               : std::nullopt;
      if (!dtype)
        continue;
      HostArray array(*dtype, 1);
      if (auto f = llvm::dyn_cast<mlir::FloatAttr>(value))
        array.setFromDouble(0, f.getValueAsDouble());
      else if (auto n = llvm::dyn_cast<mlir::IntegerAttr>(value))
        array.setFromInt(0, type.isInteger(1) ? n.getValue().getZExtValue()
                                              : n.getValue().getSExtValue());
      values[i] = std::move(array);
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

  // The ABI's argument array: k(inputs..., outputs..., n). Each entry points
  // at one argument's value: a pointer (host or device), a scalar's bytes
  // (the one-element array itself), or n.
  std::vector<uint64_t> pointers;
  pointers.reserve(inputs->size() + outputs.size());
  std::vector<void *> args;
  std::vector<DeviceBuffer> buffers;
  // The kernel only reads inputs; the ABI's pointers are not const.
  auto addArray = [&](const HostArray &array) -> llvm::Error {
    if (!executor.cuda) {
      pointers.push_back(reinterpret_cast<uint64_t>(array.data()));
    } else {
      // --offset: the tensor starts K elements into its allocation.
      size_t offset = options.offset * getDTypeSize(array.getDType());
      auto buffer = DeviceBuffer::allocate(*executor.cuda,
                                           offset + array.getSizeInBytes());
      if (!buffer)
        return buffer.takeError();
      // Outputs start as the poison their host arrays hold.
      if (llvm::Error e = buffer->copyFromHost(array.data(),
                                               array.getSizeInBytes(), offset))
        return e;
      pointers.push_back(buffer->getAddress() + offset);
      buffers.push_back(std::move(*buffer));
    }
    args.push_back(&pointers.back());
    return llvm::Error::success();
  };
  for (const auto &param : kernel.getParams()) {
    const HostArray &input = *(*launchInputs)[param->getIndex()];
    if (!param->isTensor())
      args.push_back(const_cast<void *>(input.data()));
    else if (llvm::Error e = addArray(input))
      return std::move(e);
  }
  for (const HostArray &output : outputs)
    if (llvm::Error e = addArray(output))
      return std::move(e);
  args.push_back(&n);

  if (executor.cuda) {
    auto function = executor.cudaModule->getFunction(kernel.getName());
    if (!function)
      return function.takeError();
    if (llvm::Error e = executor.cuda->launchElementwise(
            *function, n, args.data(),
            executor.elementsPerThread.lookup(kernel.getName()),
            options.gridWaves, options.blockSize))
      return std::move(e);
    size_t firstOutput = buffers.size() - outputs.size();
    for (auto [index, output] : llvm::enumerate(outputs))
      if (llvm::Error e = buffers[firstOutput + index].copyToHost(
              output.data(), output.getSizeInBytes(),
              options.offset * getDTypeSize(output.getDType())))
        return std::move(e);
  } else if (llvm::Error e = executor.cpu->invoke(kernel.getName(), args)) {
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
  auto function = executor.cudaModule->getFunction(kernel.getName());
  if (!function)
    return function.takeError();
  BenchOptions benchOptions;
  benchOptions.offsetElements = options.offset;
  benchOptions.elementsPerThread =
      executor.elementsPerThread.lookup(kernel.getName());
  benchOptions.gridWaves = options.gridWaves;
  benchOptions.blockSize = options.blockSize;
  llvm::Expected<BenchReport> report = benchElementwise(
      *executor.cuda, *function, options.n, args, benchOptions);
  if (!report)
    return report.takeError();

  if (options.json) {
    llvm::json::Object object = toJSON(*report);
    object["name"] = kernel.getName();
    object["device"] = executor.cuda->getDeviceInfo().getSummary();
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

/// Runs the pipeline that `build` adds; diagnostics go to the handler.
bool runPipeline(mlir::ModuleOp module,
                 llvm::function_ref<void(mlir::OpPassManager &)> build) {
  mlir::PassManager pm(module.getContext());
  build(pm);
  return mlir::succeeded(pm.run(module));
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
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  std::unique_ptr<Module> ast = parseAndCheck(sourceMgr);
  if (!ast)
    return kExitError;
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

  // MLIR.
  mlir::DialectRegistry registry;
  mlir::ew::registerEwCompilerDialects(registry);
  // One small module: a thread pool would cost more than it saves.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module = mlirGen(context, *ast, sourceMgr);
  if (!module)
    return kExitError;
  // Hidden test hook (test/Mutations): a deliberate miscompilation, run on
  // the IR that it rewrites (the ew module, or the lowered loops).
  using mlir::ew::test::MutationStage;
  auto addMutation = [&](mlir::OpPassManager &pm, MutationStage stage) {
    if (!options.testMutation.empty())
      mlir::ew::test::addTestMutation(pm, options.testMutation, stage);
  };
  if (!options.testMutation.empty() &&
      !runPipeline(*module, [&](mlir::OpPassManager &pm) {
        addMutation(pm, MutationStage::Ew);
      }))
    return kExitError;
  // Read after the ew-level mutation, which may change a default.
  CompiledDefaults compiledDefaults = readCompiledDefaults(*module);
  if (options.emit == EmitStage::MLIR) {
    printModule(*module, options);
    return kExitMatch;
  }

  Executor executor;
  std::optional<CudaModule> cudaModule;
  std::unique_ptr<CpuJit> jit;
  if (onGPU) {
    mlir::ew::EwToPTXOptions ptxOptions;
    if (!options.chip.empty())
      ptxOptions.chip = options.chip;
    else if (cuda)
      ptxOptions.chip = cuda->getDeviceInfo().getChipName();
    if (llvm::Error error = mlir::ew::checkEwToPTXOptions(ptxOptions))
      return fail(std::move(error));
    // The stages of ew-to-ptx one at a time, so that --emit can stop after
    // any of them.
    using BuildFn = std::function<void(mlir::OpPassManager &)>;
    std::pair<EmitStage, BuildFn> stages[] = {
        {EmitStage::GPU,
         [&](mlir::OpPassManager &pm) {
           mlir::ew::buildEwToGPUPipeline(pm);
           // Hidden --vectors-per-thread: set on the pipeline's own
           // convert-ew-to-gpu, for measuring it.
           if (options.vectorsPerThread)
             for (mlir::Pass &pass : pm.getPasses())
               if (pass.getArgument() == "convert-ew-to-gpu")
                 (void)pass.initializeOptions(
                     "vectors-per-thread=" +
                         std::to_string(*options.vectorsPerThread),
                     [](const llvm::Twine &) { return mlir::failure(); });
           addMutation(pm, MutationStage::Lowered);
         }},
        {EmitStage::LLVM,
         [&](mlir::OpPassManager &pm) {
           mlir::ew::buildGPUToNVVMPipeline(pm, ptxOptions);
         }},
        {EmitStage::PTX, [&](mlir::OpPassManager &pm) {
           mlir::ew::buildNVVMToPTXPipeline(pm, ptxOptions);
         }}};
    for (auto &[stage, build] : stages) {
      if (!runPipeline(*module, build))
        return kExitError;
      if (stage == EmitStage::GPU)
        module->walk([&](mlir::gpu::GPUFuncOp func) {
          if (auto value = func->getAttrOfType<mlir::IntegerAttr>(
                  mlir::ew::kElementsPerThreadAttrName))
            executor.elementsPerThread[func.getName()] = value.getInt();
        });
      if (options.emit == stage && stage != EmitStage::PTX) {
        printModule(*module, options);
        return kExitMatch;
      }
    }
    std::string ptx = mlir::ew::getPTX(*module);
    if (options.emit == EmitStage::PTX) {
      llvm::outs() << ptx;
      return kExitMatch;
    }
    auto loaded = cuda->loadModule(ptx);
    if (!loaded)
      return fail(loaded.takeError());
    cudaModule = std::move(*loaded);
    executor.cuda = cuda.get();
    executor.cudaModule = &*cudaModule;
  } else {
    if (options.emit == EmitStage::GPU || options.emit == EmitStage::PTX)
      return fail("--emit gpu and --emit ptx show the GPU path; they cannot be "
                  "combined with --device cpu");
    if (!runPipeline(*module, [&](mlir::OpPassManager &pm) {
          mlir::ew::buildEwToLoopsPipeline(pm);
          addMutation(pm, MutationStage::Lowered);
          mlir::ew::buildLoopsToLLVMPipeline(pm);
        }))
      return kExitError;
    if (options.emit == EmitStage::LLVM) {
      printModule(*module, options);
      return kExitMatch;
    }
    CpuJitOptions jitOptions;
    jitOptions.targetCpu = options.cpuTarget;
    auto created = CpuJit::create(*module, jitOptions);
    if (!created)
      return fail(created.takeError());
    jit = std::move(*created);
    executor.cpu = jit.get();
  }

  if (options.bench) {
    if (!executor.cuda)
      return fail("--bench times kernels on a CUDA device, and none was "
                  "found");
    for (const Kernel *kernel : kernels)
      if (llvm::Error error = benchKernel(*kernel, options, compiledDefaults,
                                          executor, *inputFiles))
        return fail(std::move(error));
    return kExitMatch;
  }
  if (options.offset && !executor.cuda)
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
