//===- ewc.cpp - The C++ API of ewc over the driver -----------------------===//
//
// Translates between the standard-library types of ewc/ewc.h and the
// driver's, and turns every llvm::Error into a Status.
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include "ewc/Driver/API.h"
#include "ewc/Driver/Driver.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace ewc;

// The public enum mirrors DType so that conversions are casts.
static_assert(static_cast<int>(ElementType::Bool) == static_cast<int>(DType::Bool) &&
                  static_cast<int>(ElementType::I32) == static_cast<int>(DType::I32) &&
                  static_cast<int>(ElementType::I64) == static_cast<int>(DType::I64) &&
                  static_cast<int>(ElementType::F16) == static_cast<int>(DType::F16) &&
                  static_cast<int>(ElementType::BF16) == static_cast<int>(DType::BF16) &&
                  static_cast<int>(ElementType::F32) == static_cast<int>(DType::F32) &&
                  static_cast<int>(ElementType::F64) == static_cast<int>(DType::F64),
              "ElementType must list the DTypes in their order");

static ElementType toElementType(DType dtype) {
  return static_cast<ElementType>(dtype);
}

const char *ewc::getElementTypeName(ElementType type) {
  // getDTypeName returns literals, so its data is NUL-terminated.
  return getDTypeName(static_cast<DType>(type)).data();
}

unsigned ewc::getElementTypeSize(ElementType type) {
  return getDTypeSize(static_cast<DType>(type));
}

struct Module::Impl {
  std::unique_ptr<driver::Source> source;
  std::unique_ptr<driver::LoadedModule> loaded;
  std::vector<Kernel> kernels;
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

Status Module::launch(std::string_view kernelName,
                      const std::vector<Arg> &params,
                      const std::vector<void *> &outputs, int64_t n,
                      void *stream) {
  const KernelSignature *kernel =
      impl->loaded->lookupKernel(llvm::StringRef(kernelName.data(),
                                                 kernelName.size()));
  if (!kernel)
    return Status::failure("no kernel named '" + std::string(kernelName) +
                           "'");
  if (params.size() != kernel->params.size())
    return Status::failure(
        "kernel '" + kernel->name + "' takes " +
        std::to_string(kernel->params.size()) + " argument(s), got " +
        std::to_string(params.size()));
  // Scalars in the ABI's layout, 8 bytes each (the widest dtype).
  std::vector<uint64_t> scalars(params.size());
  std::vector<const void *> values;
  for (auto [index, arg] : llvm::enumerate(params)) {
    const ParamSignature &param = kernel->params[index];
    // Built only for an error: launches are on the hot path.
    auto where = [&, index = index] {
      return "argument " + std::to_string(index) + " ('" + param.name +
             "') of kernel '" + kernel->name + "'";
    };
    if (param.isTensor != (arg.kind == Arg::Kind::Tensor))
      return Status::failure(where() + " is a " +
                             (param.isTensor ? "tensor" : "scalar") + " " +
                             getDTypeName(param.dtype).str() +
                             (param.isTensor ? "; pass Arg::tensor"
                                             : "; pass a value"));
    if (param.isTensor) {
      values.push_back(arg.data);
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
        value.floatValue = fromFloat ? arg.floatValue
                                     : static_cast<double>(arg.intValue);
      else if (fromFloat)
        return Status::failure(where() + " is " +
                               getDTypeName(param.dtype).str() +
                               "; pass Arg::integer");
      else
        value.intValue = arg.intValue;
    }
    value.dtype = param.dtype;
    value.toBytes(&scalars[index]);
    values.push_back(&scalars[index]);
  }
  driver::LaunchOptions launchOptions;
  launchOptions.stream = stream;
  if (llvm::Error error =
          impl->loaded->launch(*kernel, values, outputs, n, launchOptions))
    return Status::failure(llvm::toString(std::move(error)));
  return Status();
}

driver::CompileOptions driver::getCompileOptions(const Options &options,
                                                 std::string *whyNotCuda) {
  CompileOptions compileOptions;
  compileOptions.target = resolveTarget(
      options.target == ewc::Target::Cuda  ? Target::Cuda
      : options.target == ewc::Target::Cpu ? Target::Cpu
                                           : Target::Auto,
      whyNotCuda);
  compileOptions.chip = options.chip;
  compileOptions.cacheDir = options.cacheDir;
  compileOptions.noCache = options.noCache;
  return compileOptions;
}

static Result<Module> compileBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                    const Options &options) {
  auto impl = std::make_unique<Module::Impl>();
  llvm::Expected<std::unique_ptr<driver::Source>> source =
      driver::Source::parse(std::move(buffer), /*diagnostics=*/nullptr);
  if (!source)
    return Status::failure(llvm::toString(source.takeError()));
  impl->source = std::move(*source);
  driver::CompileOptions compileOptions = driver::getCompileOptions(options);
  llvm::Expected<std::unique_ptr<driver::LoadedModule>> loaded =
      driver::LoadedModule::compile(*impl->source, compileOptions);
  if (!loaded)
    return Status::failure(llvm::toString(loaded.takeError()));
  impl->loaded = std::move(*loaded);
  for (const KernelSignature &signature : impl->loaded->getKernels()) {
    Kernel &kernel = impl->kernels.emplace_back();
    kernel.name = signature.name;
    kernel.signature = signature.str();
    for (const ParamSignature &param : signature.params) {
      Param &entry = kernel.params.emplace_back();
      entry.name = param.name;
      entry.type = toElementType(param.dtype);
      entry.isTensor = param.isTensor;
      if (param.defaultValue)
        entry.defaultValue = Scalar{toElementType(param.defaultValue->dtype),
                                    param.defaultValue->floatValue,
                                    param.defaultValue->intValue};
    }
    for (DType result : signature.results)
      kernel.results.push_back(toElementType(result));
  }
  return Module(std::move(impl));
}

Result<Module> ewc::compile(std::string_view source, const Options &options,
                            std::string_view name) {
  return compileBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(source.data(), source.size()),
          llvm::StringRef(name.data(), name.size())),
      options);
}

Result<Module> ewc::compileFile(const std::string &path,
                                const Options &options) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (std::error_code ec = file.getError())
    return Status::failure("cannot read '" + path + "': " + ec.message());
  return compileBuffer(std::move(*file), options);
}
