//===- CAPI.cpp - The C API of ewc over the C++ API -----------------------===//
//
// Each handle owns an ewc::Module; every failure becomes a malloc'ed string.
//
//===----------------------------------------------------------------------===//

#include "ewc-c/ewc.h"

#include "ewc/ewc.h"

#include <cstdlib>
#include <cstring>

struct EwcModuleImpl {
  ewc::Module module;
};

static char *copyString(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (copy)
    std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

struct EwcCompileOptionsImpl {
  ewc::Options options;
};

static ewc::Target getTarget(EwcTarget target) {
  return target == EWC_TARGET_CUDA  ? ewc::Target::Cuda
         : target == EWC_TARGET_CPU ? ewc::Target::Cpu
                                    : ewc::Target::Auto;
}

static ewc::Options getOptions(EwcTarget target, const char *chip) {
  ewc::Options options;
  options.target = getTarget(target);
  if (chip)
    options.chip = chip;
  return options;
}

static EwcModule wrap(ewc::Result<ewc::Module> result, char **error) {
  if (!result) {
    if (error)
      *error = copyString(result.error());
    return nullptr;
  }
  if (error)
    *error = nullptr;
  return new EwcModuleImpl{std::move(*result)};
}

int ewcGetAPIVersion(void) { return EWC_C_API_VERSION; }

EwcCompileOptions ewcCompileOptionsCreate(void) {
  return new EwcCompileOptionsImpl();
}

void ewcCompileOptionsDestroy(EwcCompileOptions options) { delete options; }

void ewcCompileOptionsSetTarget(EwcCompileOptions options, EwcTarget target) {
  if (options)
    options->options.target = getTarget(target);
}

void ewcCompileOptionsSetChip(EwcCompileOptions options, const char *chip) {
  if (options)
    options->options.chip = chip ? chip : "";
}

void ewcCompileOptionsSetCacheDir(EwcCompileOptions options, const char *dir) {
  if (options)
    options->options.cacheDir = dir ? dir : "";
}

void ewcCompileOptionsSetNoCache(EwcCompileOptions options, int noCache) {
  if (options)
    options->options.noCache = noCache != 0;
}

EwcModule ewcCompileWithOptions(const char *source, const char *name,
                                EwcCompileOptions options, char **error) {
  if (!source) {
    if (error)
      *error = copyString("ewcCompile: source is NULL");
    return nullptr;
  }
  return wrap(ewc::compile(source, options ? options->options : ewc::Options(),
                           name ? name : "<source>"),
              error);
}

EwcModule ewcCompileFileWithOptions(const char *path,
                                    EwcCompileOptions options, char **error) {
  if (!path) {
    if (error)
      *error = copyString("ewcCompileFile: path is NULL");
    return nullptr;
  }
  return wrap(
      ewc::compileFile(path, options ? options->options : ewc::Options()),
      error);
}

EwcModule ewcCompile(const char *source, const char *name, EwcTarget target,
                     const char *chip, char **error) {
  EwcCompileOptionsImpl options{getOptions(target, chip)};
  return ewcCompileWithOptions(source, name, &options, error);
}

EwcModule ewcCompileFile(const char *path, EwcTarget target, const char *chip,
                         char **error) {
  EwcCompileOptionsImpl options{getOptions(target, chip)};
  return ewcCompileFileWithOptions(path, &options, error);
}

void ewcModuleDestroy(EwcModule module) { delete module; }

void ewcStringDestroy(char *string) { std::free(string); }

EwcTarget ewcModuleGetTarget(EwcModule module) {
  bool onDevice = module && module->module.target() == ewc::Target::Cuda;
  return onDevice ? EWC_TARGET_CUDA : EWC_TARGET_CPU;
}

int ewcModuleGetNumKernels(EwcModule module) {
  return module ? static_cast<int>(module->module.kernels().size()) : 0;
}

int ewcModuleLookupKernel(EwcModule module, const char *name) {
  if (!module)
    return -1;
  const auto &kernels = module->module.kernels();
  for (size_t k = 0; k < kernels.size(); ++k)
    if (name && kernels[k].name == name)
      return static_cast<int>(k);
  return -1;
}

// An index out of range answers NULL, 0 or -1 instead of aborting: the
// caller is another language, which may not check first.

static const ewc::Kernel *getKernel(EwcModule module, int k) {
  if (!module || k < 0 ||
      static_cast<size_t>(k) >= module->module.kernels().size())
    return nullptr;
  return &module->module.kernels()[k];
}

static const ewc::Param *getParam(EwcModule module, int k, int p) {
  const ewc::Kernel *kernel = getKernel(module, k);
  if (!kernel || p < 0 || static_cast<size_t>(p) >= kernel->params.size())
    return nullptr;
  return &kernel->params[p];
}

const char *ewcKernelGetName(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? kernel->name.c_str() : nullptr;
}

const char *ewcKernelGetSignature(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? kernel->signature.c_str() : nullptr;
}

int ewcKernelGetNumParams(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? static_cast<int>(kernel->params.size()) : -1;
}

const char *ewcKernelGetParamName(EwcModule module, int k, int p) {
  const ewc::Param *param = getParam(module, k, p);
  return param ? param->name.c_str() : nullptr;
}

EwcElementType ewcKernelGetParamType(EwcModule module, int k, int p) {
  const ewc::Param *param = getParam(module, k, p);
  return param ? static_cast<EwcElementType>(param->type) : EWC_BOOL;
}

int ewcKernelParamIsTensor(EwcModule module, int k, int p) {
  const ewc::Param *param = getParam(module, k, p);
  return param ? param->isTensor : -1;
}

// f16 and wider are floats (EwcElementType's order).
static bool isFloatType(ewc::ElementType type) {
  return type >= ewc::ElementType::F16;
}

int ewcKernelGetParamDefault(EwcModule module, int k, int p, double *value) {
  const ewc::Param *param = getParam(module, k, p);
  if (!param || !param->defaultValue)
    return 0;
  if (value) {
    const ewc::Scalar &scalar = *param->defaultValue;
    *value = isFloatType(scalar.type) ? scalar.floatValue
                                      : static_cast<double>(scalar.intValue);
  }
  return 1;
}

int ewcKernelGetParamDefaultSlot(EwcModule module, int k, int p,
                                 EwcSlot *slot) {
  const ewc::Param *param = getParam(module, k, p);
  if (!param || !param->defaultValue)
    return 0;
  if (slot) {
    const ewc::Scalar &scalar = *param->defaultValue;
    if (isFloatType(param->type))
      slot->floatValue = scalar.floatValue;
    else
      slot->intValue = scalar.intValue;
  }
  return 1;
}

int ewcKernelGetNumResults(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? static_cast<int>(kernel->results.size()) : -1;
}

EwcElementType ewcKernelGetResultType(EwcModule module, int k, int r) {
  const ewc::Kernel *kernel = getKernel(module, k);
  if (!kernel || r < 0 || static_cast<size_t>(r) >= kernel->results.size())
    return EWC_BOOL;
  return static_cast<EwcElementType>(kernel->results[r]);
}

const char *ewcElementTypeGetName(EwcElementType type) {
  return ewc::getElementTypeName(static_cast<ewc::ElementType>(type));
}

int ewcElementTypeGetSize(EwcElementType type) {
  return static_cast<int>(
      ewc::getElementTypeSize(static_cast<ewc::ElementType>(type)));
}

static char *launch(EwcModule module, const ewc::Kernel &kernel,
                    const std::vector<ewc::Arg> &params,
                    const std::vector<void *> &outputs, int64_t n,
                    void *stream) {
  ewc::Status status =
      module->module.launch(kernel.name, params, outputs, n, stream);
  return status ? nullptr : copyString(status.error());
}

char *ewcModuleLaunch(EwcModule module, int k, const EwcArg *args,
                      int numArgs, void *const *outputs, int numOutputs,
                      int64_t n, void *stream) {
  const ewc::Kernel *kernel = getKernel(module, k);
  if (!kernel)
    return copyString("ewcModuleLaunch: no kernel " + std::to_string(k));
  if (numArgs < 0 || numOutputs < 0 || (numArgs && !args) ||
      (numOutputs && !outputs))
    return copyString("ewcModuleLaunch: bad argument or output array");
  std::vector<ewc::Arg> params;
  params.reserve(numArgs);
  for (int i = 0; i < numArgs; ++i) {
    const EwcArg &arg = args[i];
    switch (arg.kind) {
    case EWC_ARG_TENSOR:
      params.push_back(ewc::Arg::tensor(arg.data));
      break;
    case EWC_ARG_FLOAT:
      params.push_back(ewc::Arg::number(arg.floatValue));
      break;
    case EWC_ARG_INT:
      params.push_back(ewc::Arg::integer(arg.intValue));
      break;
    default:
      params.push_back(ewc::Arg::byDefault());
      break;
    }
  }
  return launch(module, *kernel, params,
                std::vector<void *>(outputs, outputs + numOutputs), n, stream);
}

char *ewcModuleLaunchPacked(EwcModule module, int k, const EwcSlot *slots,
                            int64_t n, void *stream) {
  const ewc::Kernel *kernel = getKernel(module, k);
  if (!kernel)
    return copyString("ewcModuleLaunchPacked: no kernel " +
                      std::to_string(k));
  if (!slots)
    return copyString("ewcModuleLaunchPacked: slots is NULL");
  // The slot's member follows from the parameter, so no kind travels.
  std::vector<ewc::Arg> params;
  params.reserve(kernel->params.size());
  for (const ewc::Param &param : kernel->params) {
    const EwcSlot &slot = slots[params.size()];
    params.push_back(param.isTensor ? ewc::Arg::tensor(slot.pointer)
                     : isFloatType(param.type)
                         ? ewc::Arg::number(slot.floatValue)
                         : ewc::Arg::integer(slot.intValue));
  }
  std::vector<void *> outputs;
  outputs.reserve(kernel->results.size());
  for (size_t r = 0; r < kernel->results.size(); ++r)
    outputs.push_back(
        const_cast<void *>(slots[params.size() + r].pointer));
  return launch(module, *kernel, params, outputs, n, stream);
}
