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

static ewc::Options getOptions(EwcTarget target, const char *chip) {
  ewc::Options options;
  options.target = target == EWC_TARGET_CUDA  ? ewc::Target::Cuda
                   : target == EWC_TARGET_CPU ? ewc::Target::Cpu
                                              : ewc::Target::Auto;
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

EwcModule ewcCompile(const char *source, const char *name, EwcTarget target,
                     const char *chip, char **error) {
  if (!source) {
    if (error)
      *error = copyString("ewcCompile: source is NULL");
    return nullptr;
  }
  return wrap(ewc::compile(source, getOptions(target, chip),
                           name ? name : "<source>"),
              error);
}

EwcModule ewcCompileFile(const char *path, EwcTarget target, const char *chip,
                         char **error) {
  if (!path) {
    if (error)
      *error = copyString("ewcCompileFile: path is NULL");
    return nullptr;
  }
  return wrap(ewc::compileFile(path, getOptions(target, chip)), error);
}

void ewcModuleDestroy(EwcModule module) { delete module; }

void ewcStringDestroy(char *string) { std::free(string); }

EwcTarget ewcModuleGetTarget(EwcModule module) {
  return module->module.target() == ewc::Target::Cuda ? EWC_TARGET_CUDA
                                                      : EWC_TARGET_CPU;
}

int ewcModuleGetNumKernels(EwcModule module) {
  return static_cast<int>(module->module.kernels().size());
}

int ewcModuleLookupKernel(EwcModule module, const char *name) {
  const auto &kernels = module->module.kernels();
  for (size_t k = 0; k < kernels.size(); ++k)
    if (name && kernels[k].name == name)
      return static_cast<int>(k);
  return -1;
}

static const ewc::Kernel &getKernel(EwcModule module, int k) {
  return module->module.kernels().at(k);
}

const char *ewcKernelGetName(EwcModule module, int k) {
  return getKernel(module, k).name.c_str();
}

const char *ewcKernelGetSignature(EwcModule module, int k) {
  return getKernel(module, k).signature.c_str();
}

int ewcKernelGetNumParams(EwcModule module, int k) {
  return static_cast<int>(getKernel(module, k).params.size());
}

const char *ewcKernelGetParamName(EwcModule module, int k, int p) {
  return getKernel(module, k).params.at(p).name.c_str();
}

EwcElementType ewcKernelGetParamType(EwcModule module, int k, int p) {
  return static_cast<EwcElementType>(getKernel(module, k).params.at(p).type);
}

int ewcKernelParamIsTensor(EwcModule module, int k, int p) {
  return getKernel(module, k).params.at(p).isTensor;
}

int ewcKernelGetParamDefault(EwcModule module, int k, int p, double *value) {
  const ewc::Param &param = getKernel(module, k).params.at(p);
  if (!param.defaultValue)
    return 0;
  if (value) {
    const ewc::Scalar &scalar = *param.defaultValue;
    bool isFloat = scalar.type >= ewc::ElementType::F16;
    *value = isFloat ? scalar.floatValue
                     : static_cast<double>(scalar.intValue);
  }
  return 1;
}

int ewcKernelGetNumResults(EwcModule module, int k) {
  return static_cast<int>(getKernel(module, k).results.size());
}

EwcElementType ewcKernelGetResultType(EwcModule module, int k, int r) {
  return static_cast<EwcElementType>(getKernel(module, k).results.at(r));
}

const char *ewcElementTypeGetName(EwcElementType type) {
  return ewc::getElementTypeName(static_cast<ewc::ElementType>(type));
}

int ewcElementTypeGetSize(EwcElementType type) {
  return static_cast<int>(
      ewc::getElementTypeSize(static_cast<ewc::ElementType>(type)));
}

char *ewcModuleLaunch(EwcModule module, int k, const EwcArg *args,
                      int numArgs, void *const *outputs, int numOutputs,
                      int64_t n, void *stream) {
  if (k < 0 || k >= ewcModuleGetNumKernels(module))
    return copyString("ewcModuleLaunch: no kernel " + std::to_string(k));
  std::vector<ewc::Arg> params;
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
  std::vector<void *> outputPointers(outputs, outputs + numOutputs);
  ewc::Status status = module->module.launch(getKernel(module, k).name, params,
                                             outputPointers, n, stream);
  return status ? nullptr : copyString(status.error());
}
