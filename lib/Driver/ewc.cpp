//===- ewc.cpp - The C++ API of ewc over the driver -----------------------===//
//
// Translates between the standard-library types of ewc/ewc.h and the
// driver's, and turns every llvm::Error into a Status; an LLVM fatal error
// inside a compilation too (llvm::report_fatal_error, which would otherwise
// end the host process).
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include "ewc/Driver/API.h"
#include "ewc/Driver/Driver.h"
#include "ewc/Driver/Version.h"
#include "ewc/Frontend/Frontend.h"
#include "ewc/Runtime/CudaContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstring>
#include <mutex>

using namespace ewc;

// The public enum mirrors DType so that conversions are casts.
static_assert(
    static_cast<int>(ElementType::Bool) == static_cast<int>(DType::Bool) &&
        static_cast<int>(ElementType::I32) == static_cast<int>(DType::I32) &&
        static_cast<int>(ElementType::I64) == static_cast<int>(DType::I64) &&
        static_cast<int>(ElementType::F16) == static_cast<int>(DType::F16) &&
        static_cast<int>(ElementType::BF16) == static_cast<int>(DType::BF16) &&
        static_cast<int>(ElementType::F32) == static_cast<int>(DType::F32) &&
        static_cast<int>(ElementType::F64) == static_cast<int>(DType::F64) &&
        static_cast<int>(ElementType::I8) == static_cast<int>(DType::I8) &&
        static_cast<int>(ElementType::I16) == static_cast<int>(DType::I16) &&
        static_cast<int>(ElementType::U8) == static_cast<int>(DType::U8) &&
        static_cast<int>(ElementType::U16) == static_cast<int>(DType::U16) &&
        static_cast<int>(ElementType::U32) == static_cast<int>(DType::U32) &&
        static_cast<int>(ElementType::U64) == static_cast<int>(DType::U64) &&
        static_cast<int>(ElementType::F8E4M3) ==
            static_cast<int>(DType::F8E4M3) &&
        static_cast<int>(ElementType::F8E5M2) ==
            static_cast<int>(DType::F8E5M2),
    "ElementType must list the DTypes in their order");

static ElementType toElementType(DType dtype) {
  return static_cast<ElementType>(dtype);
}

const char *ewc::getElementTypeName(ElementType type) {
  // getDTypeName returns literals, so its data is NUL-terminated.
  return getDTypeName(static_cast<DType>(type)).data();
}

const char *ewc::getVersion() { return driver::getVersion(); }

const char *ewc::getRevision() { return driver::getRevision(); }

unsigned ewc::getElementTypeSize(ElementType type) {
  return getDTypeSize(static_cast<DType>(type));
}

struct Module::Impl {
  std::unique_ptr<driver::Source> source;
  /// The module of the device it was compiled for (Options::device), or the
  /// CPU's.
  std::unique_ptr<driver::LoadedModule> loaded;
  /// On the GPU: how many devices the driver sees, and each device's module
  /// (`loaded` for its own), the others made at their first launch there from
  /// the source and options, as `loaded` was (the kernel cache's key names the
  /// device: a second device of the same chip finds its cubin there). Found
  /// without a lock, made under one.
  int deviceCount = 1;
  std::unique_ptr<std::atomic<driver::LoadedModule *>[]> onDevice;
  std::vector<std::unique_ptr<driver::LoadedModule>> otherDevices;
  std::mutex devicesMutex;
  std::vector<Kernel> kernels;
  std::vector<GenericKernel> genericKernels;
  std::vector<std::string> warnings;
  /// What Module::specialize compiles again with: the options and the
  /// binding of this compilation.
  driver::CompileOptions compileOptions;
  TypeBinding binding;
};

Module::Module(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Module::Module(Module &&) noexcept = default;
Module &Module::operator=(Module &&) noexcept = default;
Module::~Module() = default;

Target Module::target() const {
  return impl->loaded->getTarget() == driver::Target::Cuda ? Target::Cuda
                                                           : Target::Cpu;
}

const std::vector<Kernel> &Module::kernels() const { return impl->kernels; }

const Kernel *Module::kernel(std::string_view name) const {
  for (const Kernel &kernel : impl->kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

/// The module's LoadedModules: its first device's (or the CPU's), then
/// those loaded on other devices so far.
static std::vector<driver::LoadedModule *> getLoaded(Module::Impl &impl) {
  std::vector<driver::LoadedModule *> loaded = {impl.loaded.get()};
  std::lock_guard<std::mutex> lock(impl.devicesMutex);
  for (const auto &other : impl.otherDevices)
    loaded.push_back(other.get());
  return loaded;
}

Status Module::waitForOptimized() {
  for (driver::LoadedModule *loaded : getLoaded(*impl))
    if (llvm::Error error = loaded->waitForOptimized())
      return Status::failure(llvm::toString(std::move(error)));
  return Status();
}

bool Module::isOptimized() const {
  return llvm::all_of(getLoaded(*impl), [](driver::LoadedModule *loaded) {
    return loaded->isOptimized();
  });
}

const std::vector<GenericKernel> &Module::genericKernels() const {
  return impl->genericKernels;
}

const std::vector<std::string> &Module::warnings() const {
  return impl->warnings;
}

const GenericKernel *Module::genericKernel(std::string_view name) const {
  for (const GenericKernel &generic : impl->genericKernels)
    if (generic.name == name)
      return &generic;
  return nullptr;
}

Result<std::vector<std::pair<std::string, ElementType>>> Module::inferTypes(
    std::string_view kernel,
    const std::vector<std::optional<ElementType>> &argTypes) const {
  const GenericKernel *generic = genericKernel(kernel);
  std::string name(kernel);
  if (!generic)
    return Status::failure("no generic kernel named '" + name + "'");
  if (argTypes.size() > generic->params.size())
    return Status::failure(
        name + ": " + std::to_string(argTypes.size()) + " argument types for " +
        std::to_string(generic->params.size()) + " parameters");
  // Each type parameter's type and the parameter it was read from.
  std::vector<std::optional<ElementType>> bound(generic->typeParams.size());
  std::vector<std::string> from(generic->typeParams.size());
  for (size_t p = 0; p < argTypes.size(); ++p) {
    const GenericKernel::GenericParam &param = generic->params[p];
    if (!argTypes[p] || param.typeParam < 0)
      continue;
    size_t t = param.typeParam;
    const std::string &typeName = generic->typeParams[t].name;
    if (bound[t] && *bound[t] != *argTypes[p])
      return Status::failure(
          name + ": " + typeName + " is " + getElementTypeName(*bound[t]) +
          " from '" + from[t] + "' but " + getElementTypeName(*argTypes[p]) +
          " from '" + param.name + "'");
    if (!bound[t]) {
      bound[t] = argTypes[p];
      from[t] = param.name;
    }
  }
  std::vector<std::pair<std::string, ElementType>> types;
  for (size_t t = 0; t < bound.size(); ++t) {
    const TypeParam &typeParam = generic->typeParams[t];
    if (!bound[t])
      return Status::failure(name + ": no argument gives the type of " +
                             typeParam.name + "; pass it to specialize");
    if (llvm::find(typeParam.admits, *bound[t]) == typeParam.admits.end()) {
      std::string admits;
      for (ElementType type : typeParam.admits)
        admits +=
            std::string(admits.empty() ? "" : ", ") + getElementTypeName(type);
      return Status::failure(name + ": '" + from[t] + "' has " +
                             getElementTypeName(*bound[t]) + " elements, but " +
                             typeParam.name + ": " + typeParam.constraint +
                             " admits " + admits);
    }
    types.emplace_back(typeParam.name, *bound[t]);
  }
  return types;
}

Result<Module> Module::specialize(
    const std::vector<std::pair<std::string, ElementType>> &types) const {
  TypeBinding binding = impl->binding;
  for (const auto &[name, type] : types) {
    auto [it, inserted] = binding.emplace(name, static_cast<DType>(type));
    if (!inserted && it->second != static_cast<DType>(type))
      return Status::failure(
          "type parameter '" + name + "' is " + getDTypeName(it->second).str() +
          " in this module already, not " + getElementTypeName(type));
  }
  const llvm::SourceMgr &sourceMgr = impl->source->getSourceMgr();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  return driver::compileModule(
      llvm::MemoryBuffer::getMemBufferCopy(buffer->getBuffer(),
                                           buffer->getBufferIdentifier()),
      impl->compileOptions, binding);
}

//===----------------------------------------------------------------------===//
// Fatal errors as values
//===----------------------------------------------------------------------===//

// The reason of the fatal error that ended this thread's compilation or
// launch.
static thread_local std::string *fatalReason = nullptr;

// LLVM's fatal error handler for the whole process (LLVM keeps one). Inside
// a compilation or a CPU launch it jumps back to runRecoverable's RunSafely,
// which returns false; anywhere else it prints what LLVM's default prints and
// returns, and report_fatal_error then exits as it always did.
static void onFatalError(void *, const char *reason, bool) {
  llvm::CrashRecoveryContext *context =
      llvm::CrashRecoveryContext::GetCurrent();
  if (context && fatalReason) {
    *fatalReason = reason;
    context->HandleExit(1);
  }
  llvm::errs() << "LLVM ERROR: " << reason << "\n";
}

/// Runs `body`, turning an LLVM fatal error or a crash (a signal: a bad
/// pointer given to a CPU kernel) inside it into a failure that says which;
/// `what` names the step.
/// What `body` had allocated then leaks: the recovery jumps over its
/// destructors, as libclang's does. MLIR runs a compilation on this thread
/// (the driver's context has no thread pool), so the context covers all of it.
template <typename T>
static T runRecoverable(const char *what, llvm::function_ref<T()> body) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    // Enable() arms RunSafely's jump buffer; it also installs LLVM's crash
    // signal handlers, which outside a recovery context restore the previous
    // ones and re-raise, so a crash elsewhere ends the process as before.
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(onFatalError);
  });
  std::optional<T> result;
  std::string reason;
  std::string *outer = fatalReason;
  fatalReason = &reason;
  llvm::CrashRecoveryContext context;
  bool finished = context.RunSafely([&] { result.emplace(body()); });
  fatalReason = outer;
  if (finished)
    return std::move(*result);
  if (!reason.empty())
    return Status::failure(std::string("LLVM stopped the ") + what +
                           " with a fatal error: " + reason);
  // A signal: RetCode is 128 + its number (CrashRecoveryContext's rule).
  return Status::failure(std::string("the ") + what + " crashed (signal " +
                         std::to_string(context.RetCode - 128) +
                         ") and was stopped; a bad pointer?");
}

namespace {

/// The driver's arguments of a launch: each tensor as a TensorArg (its
/// strides row-major where none are given; `n` elements where it has no
/// shape), each scalar as its bytes in the ABI's layout.
struct Marshalled {
  llvm::SmallVector<uint64_t, 16> scalars;
  llvm::SmallVector<TensorArg, 4> tensors;
  llvm::SmallVector<driver::LaunchArg, 16> args;
};

} // namespace

/// Converts `params` for `kernel`; an error names the argument.
static Status marshal(const KernelSignature &kernel,
                      const std::vector<Arg> &params, std::optional<int64_t> n,
                      Marshalled &out) {
  if (params.size() != kernel.params.size())
    return Status::failure("kernel '" + kernel.name + "' takes " +
                           std::to_string(kernel.params.size()) +
                           " argument(s), got " +
                           std::to_string(params.size()));
  // Scalars in the ABI's layout, 8 bytes each (the widest dtype).
  out.scalars.resize(params.size());
  out.tensors.reserve(params.size());
  for (auto [index, arg] : llvm::enumerate(params)) {
    const ParamSignature &param = kernel.params[index];
    // Built only for an error: launches are on the hot path.
    auto where = [&, index = index] {
      return "argument " + std::to_string(index) + " ('" + param.name +
             "') of kernel '" + kernel.name + "'";
    };
    if (param.isTensor != (arg.kind == Arg::Kind::Tensor))
      return Status::failure(
          where() + " is a " + (param.isTensor ? "tensor" : "scalar") + " " +
          getDTypeName(param.dtype).str() +
          (param.isTensor ? "; pass Arg::tensor" : "; pass a value"));
    if (param.isTensor) {
      TensorArg &tensor = out.tensors.emplace_back();
      tensor.data = const_cast<void *>(arg.data);
      if (arg.shape.empty() && n)
        tensor.shape = {*n};
      else
        tensor.shape = arg.shape;
      tensor.strides = arg.strides.empty() ? getContiguousStrides(tensor.shape)
                                           : arg.strides;
      out.args.push_back(driver::LaunchArg::ofTensor(tensor));
      continue;
    }
    ScalarValue value;
    if (arg.kind == Arg::Kind::Default) {
      if (!param.defaultValue)
        return Status::failure(where() + " has no default; pass a value");
      value = *param.defaultValue;
    } else {
      value.dtype = param.dtype;
      bool fromFloat = arg.kind == Arg::Kind::Float;
      if (isFloat(param.dtype))
        value.floatValue =
            fromFloat ? arg.floatValue : static_cast<double>(arg.intValue);
      else if (fromFloat)
        return Status::failure(where() + " is " +
                               getDTypeName(param.dtype).str() +
                               "; pass Arg::integer");
      else
        value.intValue = arg.intValue;
    }
    value.dtype = param.dtype;
    value.toBytes(&out.scalars[index]);
    out.args.push_back(driver::LaunchArg::ofScalar(&out.scalars[index]));
  }
  return Status();
}

static llvm::StringMap<int64_t> getDims(const LaunchOptions &options) {
  llvm::StringMap<int64_t> dims;
  for (const auto &[name, extent] : options.dims)
    dims[name] = extent;
  return dims;
}

/// The device a launch of `kernel` on these tensors runs on: -1 for the
/// module's own (on the CPU, and where the driver sees one GPU: no driver
/// call), else the device `device` names (-1: the device that holds the
/// tensors, read from each pointer with cuPointerGetAttribute). Tensors on two
/// devices, or on another than `device`, are an error that names them; a
/// pointer the driver knows no device of (host memory, or none for an empty
/// tensor) decides nothing.
static Result<int> findDevice(const Module::Impl &impl,
                              const KernelSignature &kernel,
                              const Marshalled &marshalled,
                              llvm::ArrayRef<TensorArg> outputs, int device) {
  const CudaContext *cuda = impl.loaded->getCudaContext();
  if (!cuda)
    return -1;
  auto deviceName = [](int ordinal) {
    return "cuda:" + std::to_string(ordinal);
  };
  if (device >= impl.deviceCount)
    return Status::failure(
        "no CUDA device " + std::to_string(device) + ": the driver sees " +
        std::to_string(impl.deviceCount) + " device(s), numbered from 0");
  if (impl.deviceCount == 1)
    return -1;
  // The first tensor on a known device decides where the options do not;
  // every other must agree.
  std::string decidedBy = "the launch options ask for";
  auto take = [&](const void *data, const std::string &name) -> Status {
    int ordinal = cuda->getDeviceOf(data);
    if (ordinal < 0)
      return Status();
    if (device < 0) {
      device = ordinal;
      decidedBy = name + " is on";
      return Status();
    }
    if (ordinal == device)
      return Status();
    return Status::failure("tensors on two devices: " + name + " is on " +
                           deviceName(ordinal) + " but " + decidedBy + " " +
                           deviceName(device) +
                           " (a launch runs on one device)");
  };
  for (auto [param, arg] : llvm::zip(kernel.params, marshalled.args))
    if (arg.tensor)
      if (Status status = take(arg.tensor->data, "'" + param.name + "'");
          !status)
        return status;
  for (auto [r, output] : llvm::enumerate(outputs))
    if (Status status = take(output.data, "output " + std::to_string(r));
        !status)
      return status;
  return device == cuda->getOrdinal() ? -1 : device;
}

/// The module of device `device` (-1: the module's own), loaded there at its
/// first launch from the source and options, as the first was.
static Result<driver::LoadedModule *> getModuleOn(Module::Impl &impl,
                                                  int device) {
  if (device < 0)
    return impl.loaded.get();
  if (driver::LoadedModule *loaded =
          impl.onDevice[device].load(std::memory_order_acquire))
    return loaded;
  std::lock_guard<std::mutex> lock(impl.devicesMutex);
  if (driver::LoadedModule *loaded =
          impl.onDevice[device].load(std::memory_order_relaxed))
    return loaded;
  driver::CompileOptions options = impl.compileOptions;
  options.device = device;
  llvm::Expected<std::unique_ptr<driver::LoadedModule>> loaded =
      driver::LoadedModule::compile(*impl.source, options);
  if (!loaded)
    return Status::failure(
        "loading the module on cuda:" + std::to_string(device) + ": " +
        llvm::toString(loaded.takeError()));
  driver::LoadedModule *result = loaded->get();
  impl.otherDevices.push_back(std::move(*loaded));
  impl.onDevice[device].store(result, std::memory_order_release);
  return result;
}

/// The module that runs a launch of `kernel` on these tensors (findDevice,
/// getModuleOn).
static Result<driver::LoadedModule *>
selectModule(Module::Impl &impl, const KernelSignature &kernel,
             const Marshalled &marshalled, llvm::ArrayRef<TensorArg> outputs,
             int device) {
  Result<int> found = findDevice(impl, kernel, marshalled, outputs, device);
  if (!found)
    return Status::failure(found.error());
  return getModuleOn(impl, *found);
}

/// Launches through the driver; on the CPU, where the JIT generates a
/// kernel's code at its first launch (LLVM may stop with a fatal error) and
/// the kernel reads the caller's pointers in this process, recoverably
/// (about 0.1 us a launch).
static Status launchMarshalled(driver::LoadedModule &loaded,
                               const KernelSignature &kernel,
                               const Marshalled &marshalled,
                               llvm::ArrayRef<TensorArg> outputs,
                               const driver::LaunchOptions &options) {
  auto launchNow = [&] {
    if (llvm::Error error =
            loaded.launch(kernel, marshalled.args, outputs, options))
      return Status::failure(llvm::toString(std::move(error)));
    return Status();
  };
  if (loaded.getTarget() == driver::Target::Cuda)
    return launchNow();
  return runRecoverable<Status>("launch", launchNow);
}

/// Why `name` is no kernel of the module: a generic kernel left free, or
/// no name of its.
static Status noKernel(const Module::Impl &impl, std::string_view name) {
  for (const GenericKernel &generic : impl.genericKernels) {
    if (generic.name != name)
      continue;
    const TypeParam &first = generic.typeParams.front();
    return Status::failure(
        "kernel '" + generic.signature.substr(0, generic.signature.find('(')) +
        "' is generic: compile it with its types bound, such as "
        "Options::types = {{\"" +
        first.name + "\", ElementType::" +
        (first.constraint == "int" ? "I32" : "F32") + "}}");
  }
  return Status::failure("no kernel named '" + std::string(name) + "'");
}

static const KernelSignature *findKernel(driver::LoadedModule &loaded,
                                         std::string_view name) {
  return loaded.lookupKernel(llvm::StringRef(name.data(), name.size()));
}

/// The kernel named `kernelName` and `params` marshalled for it (n unset:
/// the tensors carry their shapes), or the error.
static Status findAndMarshal(const Module::Impl &impl,
                             std::string_view kernelName,
                             const std::vector<Arg> &params,
                             const KernelSignature *&kernel,
                             Marshalled &marshalled) {
  kernel = findKernel(*impl.loaded, kernelName);
  if (!kernel)
    return noKernel(impl, kernelName);
  return marshal(*kernel, params, std::nullopt, marshalled);
}

/// The caller's outputs as the driver takes them (empty strides: row-major).
static std::vector<TensorArg>
getOutputTensors(const std::vector<Tensor> &outputs) {
  std::vector<TensorArg> results;
  for (const Tensor &output : outputs)
    results.push_back({output.data, output.shape,
                       output.strides.empty()
                           ? getContiguousStrides(output.shape)
                           : output.strides});
  return results;
}

Status Module::launch(std::string_view kernelName,
                      const std::vector<Arg> &params,
                      const std::vector<Tensor> &outputs,
                      const LaunchOptions &options) {
  const KernelSignature *kernel;
  Marshalled marshalled;
  if (Status status =
          findAndMarshal(*impl, kernelName, params, kernel, marshalled);
      !status)
    return status;
  driver::LaunchOptions launchOptions;
  launchOptions.stream = options.stream;
  launchOptions.dims = getDims(options);
  launchOptions.threads = options.threads;
  std::vector<TensorArg> outputTensors = getOutputTensors(outputs);
  Result<driver::LoadedModule *> loaded =
      selectModule(*impl, *kernel, marshalled, outputTensors, options.device);
  if (!loaded)
    return Status::failure(loaded.error());
  return launchMarshalled(**loaded, *kernel, marshalled, outputTensors,
                          launchOptions);
}

Status Module::launch(std::string_view kernelName,
                      const std::vector<Arg> &params,
                      const std::vector<void *> &outputs, int64_t n,
                      void *stream) {
  const KernelSignature *kernel = findKernel(*impl->loaded, kernelName);
  if (!kernel)
    return noKernel(*impl, kernelName);
  if (n < 0)
    return Status::failure("n must not be negative, got " + std::to_string(n));
  Marshalled marshalled;
  if (Status status = marshal(*kernel, params, n, marshalled); !status)
    return status;
  llvm::SmallVector<TensorArg, 4> results;
  for (void *output : outputs)
    results.push_back({output, {n}, {1}});
  driver::LaunchOptions launchOptions;
  launchOptions.stream = stream;
  // A kernel with no tensor parameter (a fill) takes its one dimension's
  // extent from n. The others need not: their outputs, n elements each, bind
  // it, and a StringMap entry costs two allocations a launch.
  bool hasTensorParam =
      llvm::any_of(kernel->params,
                   [](const ParamSignature &param) { return param.isTensor; });
  for (const std::string &dim : kernel->dims)
    if (!hasTensorParam && dim != kBatchDim && kernel->dims.size() == 1)
      launchOptions.dims[dim] = n;
  Result<driver::LoadedModule *> loaded =
      selectModule(*impl, *kernel, marshalled, results, /*device=*/-1);
  if (!loaded)
    return Status::failure(loaded.error());
  return launchMarshalled(**loaded, *kernel, marshalled, results,
                          launchOptions);
}

Status Module::check(std::string_view kernelName,
                     const std::vector<Arg> &params,
                     const std::vector<Tensor> &outputs,
                     const LaunchOptions &options) const {
  const KernelSignature *kernel;
  Marshalled marshalled;
  if (Status status =
          findAndMarshal(*impl, kernelName, params, kernel, marshalled);
      !status)
    return status;
  std::vector<TensorArg> outputTensors = getOutputTensors(outputs);
  llvm::Expected<LaunchPlan> plan = impl->loaded->plan(
      *kernel, marshalled.args, outputTensors, getDims(options));
  if (!plan)
    return Status::failure(llvm::toString(plan.takeError()));
  Result<int> device =
      findDevice(*impl, *kernel, marshalled, outputTensors, options.device);
  if (!device)
    return Status::failure(device.error());
  return Status();
}

Result<std::vector<std::vector<int64_t>>>
Module::resultShapes(std::string_view kernelName,
                     const std::vector<Arg> &params,
                     const LaunchOptions &options) const {
  const KernelSignature *kernel;
  Marshalled marshalled;
  if (Status status =
          findAndMarshal(*impl, kernelName, params, kernel, marshalled);
      !status)
    return status;
  llvm::SmallVector<const TensorArg *, 8> inputs;
  for (const driver::LaunchArg &arg : marshalled.args)
    inputs.push_back(arg.tensor);
  llvm::Expected<DimBindings> bindings =
      bindDims(*kernel, inputs, {}, getDims(options));
  if (!bindings)
    return Status::failure(llvm::toString(bindings.takeError()));
  std::vector<std::vector<int64_t>> shapes;
  for (unsigned r = 0; r < kernel->results.size(); ++r)
    shapes.push_back(getResultShape(*kernel, *bindings, r));
  return shapes;
}

driver::CompileOptions driver::getCompileOptions(const Options &options,
                                                 std::string *whyNotCuda) {
  CompileOptions compileOptions;
  compileOptions.target =
      resolveTarget(options.target == ewc::Target::Cuda  ? Target::Cuda
                    : options.target == ewc::Target::Cpu ? Target::Cpu
                                                         : Target::Auto,
                    whyNotCuda);
  compileOptions.chip = options.chip;
  compileOptions.cacheDir = options.cacheDir;
  compileOptions.noCache = options.noCache;
  compileOptions.autotune = options.autotune;
  compileOptions.tiered = options.tiered;
  compileOptions.device = options.device;
  if (compileOptions.target == Target::Cuda && options.device < 0) {
    // The calling thread's current device (torch's), so that a process that
    // works on device 1 never makes a context on device 0; else device 0.
    llvm::Expected<int> current = CudaContext::getCurrentDevice();
    compileOptions.device = current ? std::max(*current, 0) : 0;
    if (!current)
      llvm::consumeError(current.takeError());
  }
  return compileOptions;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

/// The text of `range` in the source.
static std::string getText(llvm::SMRange range) {
  return std::string(range.Start.getPointer(),
                     range.End.getPointer() - range.Start.getPointer());
}

/// The public description of template `kernel`.
static GenericKernel describeGeneric(const KernelDecl &kernel,
                                     const llvm::SourceMgr &sourceMgr) {
  GenericKernel generic;
  generic.name = kernel.getName().str();
  for (const TypeParamDecl &param : kernel.getTypeParams()) {
    TypeParam &entry = generic.typeParams.emplace_back();
    entry.name = param.name;
    entry.constraint = getConstraintName(param.constraint).str();
    for (DType dtype : getAdmittedDTypes(param.constraint))
      entry.admits.push_back(toElementType(dtype));
  }
  auto dimNames = [](const TypeSpec &type) {
    std::vector<std::string> dims;
    if (type.hasBatch)
      dims.push_back(kBatchDimName.str());
    for (const DimSpec &dim : type.dims)
      dims.push_back(dim.name);
    return dims;
  };
  std::string params;
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams()) {
    const TypeSpec &type = param->getTypeSpec();
    GenericKernel::GenericParam &entry = generic.params.emplace_back();
    entry.name = param->getName().str();
    entry.type = toElementType(type.dtype);
    entry.isTensor = type.isTensor;
    entry.dims = dimNames(type);
    entry.typeParam = type.typeParam ? int(*type.typeParam) : -1;
    std::string text = entry.name + ": " + kernel.formatType(type);
    if (const Expr *value = param->getDefault()) {
      text += " = " + getText(value->getRange());
      if (!type.typeParam)
        entry.defaultValue =
            Scalar{entry.type, param->getDefaultAsDouble().value_or(0),
                   param->getDefaultAsInt().value_or(0)};
    }
    params += (params.empty() ? "" : ", ") + text;
  }
  std::string results;
  for (const TypeSpec &result : kernel.getResults()) {
    generic.results.push_back({toElementType(result.dtype), dimNames(result)});
    generic.resultTypeParams.push_back(result.typeParam ? int(*result.typeParam)
                                                        : -1);
    results += (results.empty() ? "" : ", ") + kernel.formatType(result);
  }
  generic.dims.assign(kernel.getDims().begin(), kernel.getDims().end());
  generic.signature =
      kernel.getDisplayName() + "(" + params + ") -> " +
      (kernel.getResults().size() == 1 ? results : "(" + results + ")");
  generic.doc = getDocComment(sourceMgr, kernel.getLoc());
  return generic;
}

static Result<Module>
compileBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
              const driver::CompileOptions &compileOptions,
              const TypeBinding &binding) {
  auto impl = std::make_unique<Module::Impl>();
  llvm::Expected<std::unique_ptr<driver::Source>> source =
      driver::Source::parse(std::move(buffer), /*diagnostics=*/nullptr,
                            binding);
  if (!source)
    return Status::failure(llvm::toString(source.takeError()));
  impl->source = std::move(*source);
  impl->compileOptions = compileOptions;
  impl->binding = binding;
  const ModuleDecl &ast = impl->source->getAST();
  // A type parameter that no kernel has is a mistake of the caller's.
  for (const auto &entry : binding)
    if (llvm::none_of(ast.getKernels(), [&](const auto &kernel) {
          return kernel->lookupTypeParam(entry.first).has_value();
        }))
      return Status::failure("no kernel has a type parameter '" + entry.first +
                             "' (the types bind " + formatTypeBinding(binding) +
                             ")");
  for (const auto &kernel : ast.getKernels())
    if (!kernel->isBound())
      impl->genericKernels.push_back(
          describeGeneric(*kernel, impl->source->getSourceMgr()));
  llvm::Expected<std::unique_ptr<driver::LoadedModule>> loaded =
      driver::LoadedModule::compile(*impl->source, compileOptions);
  if (!loaded)
    return Status::failure(llvm::toString(loaded.takeError()));
  impl->loaded = std::move(*loaded);
  if (impl->loaded->getCudaContext()) {
    llvm::Expected<int> count = CudaContext::getDeviceCount();
    if (!count)
      return Status::failure(llvm::toString(count.takeError()));
    impl->deviceCount = std::max(*count, 1);
    impl->onDevice = std::make_unique<std::atomic<driver::LoadedModule *>[]>(
        impl->deviceCount);
    impl->onDevice[impl->loaded->getCudaContext()->getOrdinal()] =
        impl->loaded.get();
  }
  for (const KernelSignature &signature : impl->loaded->getKernels()) {
    Kernel &kernel = impl->kernels.emplace_back();
    kernel.name = signature.name;
    kernel.signature = signature.str();
    for (const auto &decl : impl->source->getAST().getKernels())
      if (decl->getName() == signature.name)
        kernel.doc =
            getDocComment(impl->source->getSourceMgr(), decl->getLoc());
    for (const ParamSignature &param : signature.params) {
      Param &entry = kernel.params.emplace_back();
      entry.name = param.name;
      entry.type = toElementType(param.dtype);
      entry.isTensor = param.isTensor;
      entry.dims = param.dims;
      if (param.defaultValue)
        entry.defaultValue = Scalar{toElementType(param.defaultValue->dtype),
                                    param.defaultValue->floatValue,
                                    param.defaultValue->intValue};
    }
    for (const ResultSignature &result : signature.results)
      kernel.results.push_back({toElementType(result.dtype), result.dims});
    kernel.dims = signature.dims;
  }
  impl->warnings.assign(impl->source->getWarnings().begin(),
                        impl->source->getWarnings().end());
  return Module(std::move(impl));
}

Result<Module> driver::compileModule(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                     const CompileOptions &options,
                                     const TypeBinding &binding) {
  return runRecoverable<Result<Module>>("compilation", [&] {
    return compileBuffer(std::move(buffer), options, binding);
  });
}

TypeBinding driver::getTypeBinding(const Options &options) {
  TypeBinding binding;
  for (const auto &[name, type] : options.types)
    binding[name] = static_cast<DType>(type);
  return binding;
}

Result<Module> ewc::compile(std::string_view source, const Options &options,
                            std::string_view name) {
  return driver::compileModule(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(source.data(), source.size()),
          llvm::StringRef(name.data(), name.size())),
      driver::getCompileOptions(options), driver::getTypeBinding(options));
}

Result<Module> ewc::compileFile(const std::string &path,
                                const Options &options) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (std::error_code ec = file.getError())
    return Status::failure("cannot read '" + path + "': " + ec.message());
  return driver::compileModule(std::move(*file),
                               driver::getCompileOptions(options),
                               driver::getTypeBinding(options));
}
