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

#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "ewc/Frontend/ASTDump.h"
#include "ewc/Frontend/Frontend.h"
#include "ewc/Frontend/MLIRGen.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Reference/Reference.h"
#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/DeviceBuffer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

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

/// Parses the text of a scalar of `dtype` (from --arg) into a ScalarValue.
llvm::Expected<ScalarValue> parseScalar(DType dtype, llvm::StringRef text,
                                        llvm::StringRef name) {
  auto bad = [&](llvm::StringRef expected) {
    return llvm::createStringError("invalid value '" + text +
                                   "' for --arg " + name + ": expected " +
                                   expected);
  };
  ScalarValue value;
  value.dtype = dtype;
  if (dtype == DType::Bool) {
    if (text == "true" || text == "1")
      value.intValue = 1;
    else if (text == "false" || text == "0")
      value.intValue = 0;
    else
      return bad("true or false");
    return value;
  }
  if (isInteger(dtype)) {
    long long parsed;
    unsigned bits = getIntegerBitWidth(dtype);
    if (text.getAsInteger(0, parsed) ||
        (bits == 32 && (parsed < INT32_MIN || parsed > INT32_MAX)))
      return bad(bits == 32 ? "a 32-bit integer" : "a 64-bit integer");
    value.intValue = parsed;
    return value;
  }
  // Floats: anything strtod reads whole, including inf and nan.
  std::string copy = text.str();
  char *end = nullptr;
  double parsed = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size())
    return bad("a number");
  value.floatValue = parsed;
  return value;
}

/// The value of every scalar parameter of `kernel`: from --arg, else the
/// parameter's default. Unknown names are errors.
llvm::Expected<std::vector<std::optional<ScalarValue>>>
getScalarArgs(const Kernel &kernel, llvm::ArrayRef<ScalarArg> args,
              bool allKernels) {
  std::vector<std::optional<ScalarValue>> values(kernel.getParams().size());
  for (const ScalarArg &arg : args) {
    const Param *param = kernel.lookupParam(arg.name);
    if (!param) {
      // With several kernels an --arg may be meant for another one.
      if (allKernels)
        continue;
      return llvm::createStringError("unknown --arg '" + arg.name +
                                     "': kernel '" + kernel.getName() +
                                     "' has no parameter of that name");
    }
    if (param->isTensor())
      return llvm::createStringError(
          "--arg " + arg.name + ": '" + arg.name +
          "' is a tensor parameter; only scalar parameters take values");
    llvm::Expected<ScalarValue> value =
        parseScalar(param->getDType(), arg.value, arg.name);
    if (!value)
      return value.takeError();
    values[param->getIndex()] = *value;
  }
  for (const auto &param : kernel.getParams()) {
    if (param->isTensor() || values[param->getIndex()])
      continue;
    if (!param->hasDefault())
      return llvm::createStringError(
          "scalar parameter '" + param->getName() + "' of kernel '" +
          kernel.getName() + "' has no default; pass --arg " +
          param->getName() + "=VALUE");
    values[param->getIndex()] = getDefaultValue(*param);
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Running one kernel
//===----------------------------------------------------------------------===//

/// Where kernels run: the CUDA device or the CPU JIT.
struct Executor {
  CudaContext *cuda = nullptr;
  CudaModule *cudaModule = nullptr;
  CpuJit *cpu = nullptr;
};

/// The bytes of a scalar argument in the ABI's representation.
uint64_t getScalarBits(const ScalarValue &value) {
  HostArray one(value.dtype, 1);
  if (isFloat(value.dtype))
    one.setFromDouble(0, value.floatValue);
  else
    one.setFromInt(0, value.intValue);
  uint64_t bits = 0;
  std::memcpy(&bits, one.data(), getDTypeSize(value.dtype));
  return bits;
}

/// Runs `kernel` on fresh inputs and checks every result; returns whether all
/// matched, or an error.
llvm::Expected<bool> runKernel(const Kernel &kernel, const RunOptions &options,
                               Executor &executor, bool allKernels) {
  auto scalars = getScalarArgs(kernel, options.args, allKernels);
  if (!scalars)
    return scalars.takeError();

  int64_t n = options.n;
  std::vector<KernelInput> inputs;
  for (const auto &param : kernel.getParams()) {
    if (param->isTensor())
      inputs.push_back(KernelInput::tensor(makeRandomInput(
          param->getDType(), n, options.seed, param->getIndex())));
    else
      inputs.push_back(KernelInput::scalar(*(*scalars)[param->getIndex()]));
  }
  std::vector<HostArray> outputs;
  for (unsigned r = 0; r < kernel.getResults().size(); ++r) {
    outputs.emplace_back(kernel.getResultType(r).dtype, n);
    // Poison: an element the kernel fails to write shows as a mismatch.
    outputs.back().fillBytes(0x7f);
  }

  // The ABI's argument array: k(inputs..., outputs..., n). Each entry points
  // at the value of one argument.
  std::vector<uint64_t> values;
  values.reserve(inputs.size() + outputs.size() + 1);
  std::vector<void *> args;
  std::vector<DeviceBuffer> buffers;
  auto addPointer = [&](uint64_t address) {
    values.push_back(address);
    args.push_back(&values.back());
  };
  for (KernelInput &input : inputs) {
    if (!input.isTensor()) {
      values.push_back(getScalarBits(input.getScalar()));
      args.push_back(&values.back());
    } else if (executor.cuda) {
      HostArray &array = input.getTensor();
      auto buffer = DeviceBuffer::allocate(*executor.cuda, array.getSizeInBytes());
      if (!buffer)
        return buffer.takeError();
      if (llvm::Error e = buffer->copyFromHost(array.data(), array.getSizeInBytes()))
        return std::move(e);
      addPointer(buffer->getAddress());
      buffers.push_back(std::move(*buffer));
    } else {
      addPointer(reinterpret_cast<uint64_t>(input.getTensor().data()));
    }
  }
  size_t firstOutputBuffer = buffers.size();
  for (HostArray &output : outputs) {
    if (executor.cuda) {
      auto buffer = DeviceBuffer::allocate(*executor.cuda, output.getSizeInBytes());
      if (!buffer)
        return buffer.takeError();
      if (llvm::Error e = buffer->fillBytes(0x7f))
        return std::move(e);
      addPointer(buffer->getAddress());
      buffers.push_back(std::move(*buffer));
    } else {
      addPointer(reinterpret_cast<uint64_t>(output.data()));
    }
  }
  values.push_back(static_cast<uint64_t>(n));
  args.push_back(&values.back());

  if (executor.cuda) {
    auto function = executor.cudaModule->getFunction(kernel.getName());
    if (!function)
      return function.takeError();
    if (llvm::Error e = executor.cuda->launchElementwise(*function, n, args.data()))
      return std::move(e);
    for (auto [index, output] : llvm::enumerate(outputs))
      if (llvm::Error e = buffers[firstOutputBuffer + index].copyToHost(
              output.data(), output.getSizeInBytes()))
        return std::move(e);
  } else if (llvm::Error e = executor.cpu->invoke(kernel.getName(), args)) {
    return std::move(e);
  }

  std::vector<ReferenceArray> expected = evaluateKernel(kernel, inputs, n);
  bool allMatch = true;
  for (auto [index, output] : llvm::enumerate(outputs)) {
    CompareResult result = compareWithReference(output, expected[index]);
    if (result.ok)
      continue;
    allMatch = false;
    llvm::errs() << "mismatch: kernel '" << kernel.getName() << "' result "
                 << index << ": " << result.numMismatches << " of " << n
                 << " elements differ; first at [" << result.firstIndex
                 << "]: got " << result.got << ", expected " << result.expected
                 << "\n";
  }
  return allMatch;
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
      return fail("unknown --arg '" + arg.name + "': no kernel has a "
                  "parameter of that name");

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
  registry.insert<mlir::ew::EwDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::scf::SCFDialect>();
  mlir::ew::registerEwPipelineDependencies(registry);
  // One small module: a thread pool would cost more than it saves.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module = mlirGen(context, *ast, sourceMgr);
  if (!module)
    return kExitError;
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
    if (!runPipeline(*module, mlir::ew::buildEwToGPUPipeline))
      return kExitError;
    if (options.emit == EmitStage::GPU) {
      printModule(*module, options);
      return kExitMatch;
    }
    if (!runPipeline(*module, [&](mlir::OpPassManager &pm) {
          mlir::ew::buildGPUToNVVMPipeline(pm, ptxOptions);
        }))
      return kExitError;
    if (options.emit == EmitStage::LLVM) {
      printModule(*module, options);
      return kExitMatch;
    }
    if (!runPipeline(*module, [&](mlir::OpPassManager &pm) {
          mlir::ew::buildNVVMToPTXPipeline(pm, ptxOptions);
        }))
      return kExitError;
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
    if (!runPipeline(*module, mlir::ew::buildEwToCPUPipeline))
      return kExitError;
    if (options.emit == EmitStage::LLVM) {
      printModule(*module, options);
      return kExitMatch;
    }
    auto created = CpuJit::create(*module);
    if (!created)
      return fail(created.takeError());
    jit = std::move(*created);
    executor.cpu = jit.get();
  }

  bool allMatch = true;
  for (const Kernel *kernel : kernels) {
    llvm::Expected<bool> matched =
        runKernel(*kernel, options, executor, kernels.size() > 1);
    if (!matched)
      return fail(matched.takeError());
    allMatch &= *matched;
  }
  llvm::outs() << (allMatch ? "True" : "False") << "\n";
  return allMatch ? kExitMatch : kExitMismatch;
}
