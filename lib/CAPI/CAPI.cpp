//===- CAPI.cpp - The C API of ewc over the C++ API -----------------------===//
//
// Each handle owns an ewc::Module; every failure becomes a malloc'ed string.
// The C structs become the C++ API's types here, and what C can get wrong
// that C++ cannot (a NULL array, a negative count, an EwcArgKind out of
// range) is checked here; everything else (counts, kinds, shapes against
// the kernel's dimensions) the C++ API checks, and its text comes back as
// it is.
//
//===----------------------------------------------------------------------===//

#include "ewc-c/ewc.h"

#include "ewc/Frontend/DType.h"
#include "ewc/ewc.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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
  /// What was wrong with ewcCompileOptionsSetTypes's binding ("": nothing).
  std::string typesError = {};
};

/// A C enum's value as the int a C caller stored: any int may arrive, and
/// using one outside the enumerators as the enum type is undefined in C++
/// (UBSan's -fsanitize=enum stops there). Taken by reference: a copy
/// would load it as the enum.
template <typename Enum> static int getCValue(const Enum &value) {
  static_assert(sizeof(Enum) == sizeof(int), "C enums are ints here");
  int stored;
  std::memcpy(&stored, &value, sizeof stored);
  return stored;
}

static ewc::Target getTarget(const EwcTarget &target) {
  int value = getCValue(target);
  return value == EWC_TARGET_CUDA  ? ewc::Target::Cuda
         : value == EWC_TARGET_CPU ? ewc::Target::Cpu
                                   : ewc::Target::Auto;
}

static ewc::Options getOptions(const EwcTarget &target, const char *chip) {
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

const char *ewcGetVersion(void) { return ewc::getVersion(); }

const char *ewcGetRevision(void) { return ewc::getRevision(); }

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

void ewcCompileOptionsSetTiered(EwcCompileOptions options, int tiered) {
  if (options)
    options->options.tiered = tiered != 0;
}

void ewcCompileOptionsSetDevice(EwcCompileOptions options, int device) {
  if (options)
    options->options.device = device < 0 ? -1 : device;
}

char *ewcModuleWaitOptimized(EwcModule module) {
  if (!module)
    return copyString("ewcModuleWaitOptimized: module is NULL");
  ewc::Status status = module->module.waitForOptimized();
  return status ? nullptr : copyString(status.error());
}

int ewcModuleIsOptimized(EwcModule module) {
  return module && module->module.isOptimized();
}

void ewcCompileOptionsSetAutotune(EwcCompileOptions options, int autotune) {
  if (options)
    options->options.autotune = autotune != 0;
}

/// `types` ("T=bf16,U=i32", ewc-run --type's spelling) as Options::types
/// in `list`, or false and `message` says what is wrong with them.
static bool
parseTypes(const char *types,
           std::vector<std::pair<std::string, ewc::ElementType>> &list,
           std::string &message) {
  std::string why;
  ewc::TypeBinding binding = ewc::parseTypeBinding(types, why);
  if (!why.empty()) {
    message = "invalid types '" + std::string(types) + "': " + why;
    return false;
  }
  for (const auto &[param, dtype] : binding)
    list.emplace_back(param, static_cast<ewc::ElementType>(dtype));
  return true;
}

void ewcCompileOptionsSetTypes(EwcCompileOptions options, const char *types) {
  if (!options)
    return;
  options->options.types.clear();
  options->typesError.clear();
  if (types && *types)
    parseTypes(types, options->options.types, options->typesError);
}

/// A compilation's options, or false after setting *error to what was
/// wrong with them.
static bool checkOptions(EwcCompileOptions options, char **error) {
  if (!options || options->typesError.empty())
    return true;
  if (error)
    *error = copyString(options->typesError);
  return false;
}

EwcModule ewcCompileWithOptions(const char *source, const char *name,
                                EwcCompileOptions options, char **error) {
  if (!source) {
    if (error)
      *error = copyString("ewcCompile: source is NULL");
    return nullptr;
  }
  if (!checkOptions(options, error))
    return nullptr;
  return wrap(ewc::compile(source, options ? options->options : ewc::Options(),
                           name ? name : "<source>"),
              error);
}

EwcModule ewcCompileFileWithOptions(const char *path, EwcCompileOptions options,
                                    char **error) {
  if (!path) {
    if (error)
      *error = copyString("ewcCompileFile: path is NULL");
    return nullptr;
  }
  if (!checkOptions(options, error))
    return nullptr;
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

int ewcModuleGetNumWarnings(EwcModule module) {
  return module ? static_cast<int>(module->module.warnings().size()) : -1;
}

const char *ewcModuleGetWarning(EwcModule module, int index) {
  if (!module || index < 0 ||
      static_cast<size_t>(index) >= module->module.warnings().size())
    return nullptr;
  return module->module.warnings()[index].c_str();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

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

static const ewc::ResultType *getResult(EwcModule module, int k, int r) {
  const ewc::Kernel *kernel = getKernel(module, k);
  if (!kernel || r < 0 || static_cast<size_t>(r) >= kernel->results.size())
    return nullptr;
  return &kernel->results[r];
}

static int getNumDims(const std::vector<std::string> *dims) {
  return dims ? static_cast<int>(dims->size()) : -1;
}

static const char *getDim(const std::vector<std::string> *dims, int d) {
  if (!dims || d < 0 || static_cast<size_t>(d) >= dims->size())
    return nullptr;
  return (*dims)[d].c_str();
}

static const ewc::GenericKernel *getGeneric(EwcModule module, int g) {
  if (!module || g < 0 ||
      static_cast<size_t>(g) >= module->module.genericKernels().size())
    return nullptr;
  return &module->module.genericKernels()[g];
}

static const ewc::GenericKernel::GenericParam *getGenericParam(EwcModule module,
                                                               int g, int p) {
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  if (!kernel || p < 0 || static_cast<size_t>(p) >= kernel->params.size())
    return nullptr;
  return &kernel->params[p];
}

static const ewc::TypeParam *getTypeParam(EwcModule module, int g, int t) {
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  if (!kernel || t < 0 || static_cast<size_t>(t) >= kernel->typeParams.size())
    return nullptr;
  return &kernel->typeParams[t];
}

int ewcModuleGetNumGenericKernels(EwcModule module) {
  return module ? static_cast<int>(module->module.genericKernels().size()) : -1;
}

const char *ewcGenericKernelGetName(EwcModule module, int g) {
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  return kernel ? kernel->name.c_str() : nullptr;
}

const char *ewcGenericKernelGetSignature(EwcModule module, int g) {
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  return kernel ? kernel->signature.c_str() : nullptr;
}

const char *ewcGenericKernelGetDoc(EwcModule module, int g) {
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  return kernel ? kernel->doc.c_str() : nullptr;
}

int ewcGenericKernelGetNumTypeParams(EwcModule module, int g) {
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  return kernel ? static_cast<int>(kernel->typeParams.size()) : -1;
}

const char *ewcGenericKernelGetTypeParamName(EwcModule module, int g, int t) {
  const ewc::TypeParam *param = getTypeParam(module, g, t);
  return param ? param->name.c_str() : nullptr;
}

const char *ewcGenericKernelGetTypeParamConstraint(EwcModule module, int g,
                                                   int t) {
  const ewc::TypeParam *param = getTypeParam(module, g, t);
  return param ? param->constraint.c_str() : nullptr;
}

int ewcGenericKernelGetNumParams(EwcModule module, int g) {
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  return kernel ? static_cast<int>(kernel->params.size()) : -1;
}

const char *ewcGenericKernelGetParamName(EwcModule module, int g, int p) {
  const auto *param = getGenericParam(module, g, p);
  return param ? param->name.c_str() : nullptr;
}

int ewcGenericKernelGetParamTypeParam(EwcModule module, int g, int p) {
  const auto *param = getGenericParam(module, g, p);
  return param ? param->typeParam : -1;
}

EwcElementType ewcGenericKernelGetParamType(EwcModule module, int g, int p) {
  const auto *param = getGenericParam(module, g, p);
  return param ? static_cast<EwcElementType>(param->type) : EWC_BOOL;
}

int ewcGenericKernelParamIsTensor(EwcModule module, int g, int p) {
  const auto *param = getGenericParam(module, g, p);
  return param ? param->isTensor : -1;
}

char *ewcGenericKernelInferTypes(EwcModule module, int g, const int *argTypes,
                                 int numArgs, char **error) {
  auto fail = [&](const std::string &message) -> char * {
    if (error)
      *error = copyString(message);
    return nullptr;
  };
  const ewc::GenericKernel *kernel = getGeneric(module, g);
  if (!kernel)
    return fail("ewcGenericKernelInferTypes: no generic kernel " +
                std::to_string(g));
  if (numArgs < 0 || (numArgs > 0 && !argTypes))
    return fail("ewcGenericKernelInferTypes: " + std::to_string(numArgs) +
                " argument types at " + (argTypes ? "an array" : "NULL"));
  std::vector<std::optional<ewc::ElementType>> types;
  for (int p = 0; p < numArgs; ++p) {
    if (argTypes[p] < 0) {
      types.emplace_back();
      continue;
    }
    // Compared as ints: a value outside the enum is no EwcElementType.
    if (argTypes[p] > EWC_F8E5M2)
      return fail("ewcGenericKernelInferTypes: argument " + std::to_string(p) +
                  " has element type " + std::to_string(argTypes[p]) +
                  ", which is no EwcElementType");
    types.push_back(static_cast<ewc::ElementType>(argTypes[p]));
  }
  auto inferred = module->module.inferTypes(kernel->name, types);
  if (!inferred)
    return fail(inferred.error());
  if (error)
    *error = nullptr;
  ewc::TypeBinding binding;
  for (const auto &[name, type] : *inferred)
    binding[name] = static_cast<ewc::DType>(type);
  return copyString(ewc::formatTypeBinding(binding));
}

EwcModule ewcModuleSpecialize(EwcModule module, const char *types,
                              char **error) {
  auto fail = [&](const std::string &message) -> EwcModule {
    if (error)
      *error = copyString(message);
    return nullptr;
  };
  if (!module || !types)
    return fail(std::string("ewcModuleSpecialize: ") +
                (module ? "types" : "module") + " is NULL");
  std::vector<std::pair<std::string, ewc::ElementType>> list;
  std::string message;
  if (!parseTypes(types, list, message))
    return fail(message);
  return wrap(module->module.specialize(list), error);
}

const char *ewcKernelGetName(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? kernel->name.c_str() : nullptr;
}

const char *ewcKernelGetSignature(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? kernel->signature.c_str() : nullptr;
}

const char *ewcKernelGetDoc(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? kernel->doc.c_str() : nullptr;
}

static const std::vector<std::string> *getKernelDims(EwcModule module, int k) {
  const ewc::Kernel *kernel = getKernel(module, k);
  return kernel ? &kernel->dims : nullptr;
}

int ewcKernelGetNumDims(EwcModule module, int k) {
  return getNumDims(getKernelDims(module, k));
}

const char *ewcKernelGetDim(EwcModule module, int k, int d) {
  return getDim(getKernelDims(module, k), d);
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

static const std::vector<std::string> *getParamDims(EwcModule module, int k,
                                                    int p) {
  const ewc::Param *param = getParam(module, k, p);
  return param ? &param->dims : nullptr;
}

int ewcKernelGetParamNumDims(EwcModule module, int k, int p) {
  return getNumDims(getParamDims(module, k, p));
}

const char *ewcKernelGetParamDim(EwcModule module, int k, int p, int d) {
  return getDim(getParamDims(module, k, p), d);
}

// ElementType mirrors DType (lib/Driver/ewc.cpp checks it), whose table
// says which types are floats.
static bool isFloatType(ewc::ElementType type) {
  return ewc::isFloat(static_cast<ewc::DType>(type));
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
  const ewc::ResultType *result = getResult(module, k, r);
  return result ? static_cast<EwcElementType>(result->type) : EWC_BOOL;
}

static const std::vector<std::string> *getResultDims(EwcModule module, int k,
                                                     int r) {
  const ewc::ResultType *result = getResult(module, k, r);
  return result ? &result->dims : nullptr;
}

int ewcKernelGetResultNumDims(EwcModule module, int k, int r) {
  return getNumDims(getResultDims(module, k, r));
}

const char *ewcKernelGetResultDim(EwcModule module, int k, int r, int d) {
  return getDim(getResultDims(module, k, r), d);
}

// EwcElementType lists the DTypes in their order (the types were appended).
static_assert(EWC_I8 == static_cast<int>(ewc::DType::I8) &&
                  EWC_U64 == static_cast<int>(ewc::DType::U64) &&
                  EWC_F8E4M3 == static_cast<int>(ewc::DType::F8E4M3) &&
                  EWC_F8E5M2 == static_cast<int>(ewc::DType::F8E5M2),
              "EwcElementType must list the DTypes in their order");

static bool isElementType(const EwcElementType &type) {
  // Every DType is an EwcElementType, in the same order (ewc.cpp checks
  // the C++ enum against DType).
  int value = getCValue(type);
  return value >= 0 && value < static_cast<int>(ewc::getAllDTypes().size());
}

const char *ewcElementTypeGetName(EwcElementType type) {
  if (!isElementType(type))
    return nullptr;
  return ewc::getElementTypeName(static_cast<ewc::ElementType>(type));
}

int ewcElementTypeGetSize(EwcElementType type) {
  if (!isElementType(type))
    return -1;
  return static_cast<int>(
      ewc::getElementTypeSize(static_cast<ewc::ElementType>(type)));
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

namespace {

/// The arguments of a C call as the C++ API takes them, or the error that
/// says which one is malformed. The C++ API checks everything else (the
/// count, the kinds, the shapes against the kernel's dimensions).
struct Converted {
  std::vector<ewc::Arg> params;
  std::vector<ewc::Tensor> outputs;
  ewc::LaunchOptions options;
  std::string error;
};

} // namespace

/// "argument 1 ('b')", naming the parameter where `index` is one.
static std::string describeArg(const ewc::Kernel &kernel, int index) {
  std::string text = "argument " + std::to_string(index);
  if (static_cast<size_t>(index) < kernel.params.size())
    text += " ('" + kernel.params[index].name + "')";
  return text;
}

/// `tensor` as the C++ API takes it; an error names what `describe()`
/// returns (made only for an error: ewcModuleLaunch is on the hot path).
template <typename Describe>
static bool convertTensor(const EwcTensor &tensor, Describe describe,
                          ewc::Tensor &out, std::string &error) {
  if (tensor.ndim < 0) {
    error = describe() + " has ndim " + std::to_string(tensor.ndim);
    return false;
  }
  if (tensor.ndim > 0 && !tensor.shape) {
    error = describe() + " has ndim " + std::to_string(tensor.ndim) +
            " but shape is NULL";
    return false;
  }
  out.data = tensor.data;
  out.shape.assign(tensor.shape, tensor.shape + tensor.ndim);
  if (tensor.strides)
    out.strides.assign(tensor.strides, tensor.strides + tensor.ndim);
  return true;
}

/// Whether `count` elements at `array` make an array; if not, says why.
static bool checkArray(const char *function, const char *what, int count,
                       const void *array, std::string &error) {
  if (count >= 0 && (count == 0 || array))
    return true;
  error = std::string(function) + ": " + what + " is " + std::to_string(count) +
          (count < 0 ? "" : " but its array is NULL");
  return false;
}

/// Converts `args` for `kernel`, which a function named `function` got.
static bool convertArgs(const char *function, const ewc::Kernel &kernel,
                        const EwcArg *args, int numArgs, Converted &out) {
  if (!checkArray(function, "numArgs", numArgs, args, out.error))
    return false;
  out.params.reserve(numArgs);
  for (int i = 0; i < numArgs; ++i) {
    const EwcArg &arg = args[i];
    int kind = getCValue(arg.kind);
    switch (kind) {
    case EWC_ARG_TENSOR: {
      ewc::Tensor tensor;
      auto describe = [&] {
        return std::string(function) + ": " + describeArg(kernel, i);
      };
      if (!convertTensor(arg.tensor, describe, tensor, out.error))
        return false;
      out.params.push_back(ewc::Arg::tensor(std::move(tensor)));
      break;
    }
    case EWC_ARG_FLOAT:
      out.params.push_back(ewc::Arg::number(arg.floatValue));
      break;
    case EWC_ARG_INT:
      out.params.push_back(ewc::Arg::integer(arg.intValue));
      break;
    case EWC_ARG_DEFAULT:
      out.params.push_back(ewc::Arg::byDefault());
      break;
    default:
      out.error = std::string(function) + ": " + describeArg(kernel, i) +
                  " has kind " + std::to_string(kind) +
                  ", which is no EwcArgKind";
      return false;
    }
  }
  return true;
}

static bool convertOptions(const char *function,
                           const EwcLaunchOptions *options, Converted &out) {
  if (!options)
    return true;
  out.options.stream = options->stream;
  if (!checkArray(function, "options->numDims", options->numDims,
                  options->dimNames, out.error) ||
      !checkArray(function, "options->numDims", options->numDims,
                  options->dimExtents, out.error))
    return false;
  for (int i = 0; i < options->numDims; ++i) {
    if (!options->dimNames[i]) {
      out.error = std::string(function) + ": the name of dimension " +
                  std::to_string(i) + " in the options is NULL";
      return false;
    }
    out.options.dims.emplace_back(options->dimNames[i], options->dimExtents[i]);
  }
  return true;
}

/// The kernel `k` of `module`, or null with the error in `error`.
static const ewc::Kernel *findKernel(const char *function, EwcModule module,
                                     int k, std::string &error) {
  const ewc::Kernel *kernel = getKernel(module, k);
  if (!kernel)
    error = std::string(function) +
            (module ? ": no kernel " + std::to_string(k) : ": module is NULL");
  return kernel;
}

static char *toMessage(const ewc::Status &status) {
  return status ? nullptr : copyString(status.error());
}

/// The arguments of a tensor launch, converted (or the error in
/// `converted.error`, and null).
static const ewc::Kernel *
convertLaunch(const char *function, EwcModule module, int k, const EwcArg *args,
              int numArgs, const EwcTensor *outputs, int numOutputs,
              const EwcLaunchOptions *options, Converted &converted) {
  const ewc::Kernel *kernel = findKernel(function, module, k, converted.error);
  if (!kernel || !convertArgs(function, *kernel, args, numArgs, converted) ||
      !convertOptions(function, options, converted))
    return nullptr;
  if (!checkArray(function, "numOutputs", numOutputs, outputs, converted.error))
    return nullptr;
  converted.outputs.resize(numOutputs);
  for (int r = 0; r < numOutputs; ++r)
    if (!convertTensor(
            outputs[r],
            [&] {
              return std::string(function) + ": output " + std::to_string(r);
            },
            converted.outputs[r], converted.error))
      return nullptr;
  return kernel;
}

char *ewcModuleLaunchTensors(EwcModule module, int k, const EwcArg *args,
                             int numArgs, const EwcTensor *outputs,
                             int numOutputs, const EwcLaunchOptions *options) {
  Converted converted;
  const ewc::Kernel *kernel =
      convertLaunch("ewcModuleLaunchTensors", module, k, args, numArgs, outputs,
                    numOutputs, options, converted);
  if (!kernel)
    return copyString(converted.error);
  return toMessage(module->module.launch(kernel->name, converted.params,
                                         converted.outputs, converted.options));
}

char *ewcModuleCheckLaunch(EwcModule module, int k, const EwcArg *args,
                           int numArgs, const EwcTensor *outputs,
                           int numOutputs, const EwcLaunchOptions *options) {
  Converted converted;
  const ewc::Kernel *kernel =
      convertLaunch("ewcModuleCheckLaunch", module, k, args, numArgs, outputs,
                    numOutputs, options, converted);
  if (!kernel)
    return copyString(converted.error);
  return toMessage(module->module.check(kernel->name, converted.params,
                                        converted.outputs, converted.options));
}

char *ewcModuleGetResultShapes(EwcModule module, int k, const EwcArg *args,
                               int numArgs, const EwcLaunchOptions *options,
                               int *ranks, int64_t *extents, int capacity) {
  static const char *const function = "ewcModuleGetResultShapes";
  Converted converted;
  const ewc::Kernel *kernel = findKernel(function, module, k, converted.error);
  if (!kernel || !convertArgs(function, *kernel, args, numArgs, converted) ||
      !convertOptions(function, options, converted))
    return copyString(converted.error);
  if (!ranks)
    return copyString(std::string(function) + ": ranks is NULL");
  if (!checkArray(function, "capacity", capacity, extents, converted.error))
    return copyString(converted.error);
  ewc::Result<std::vector<std::vector<int64_t>>> shapes =
      module->module.resultShapes(kernel->name, converted.params,
                                  converted.options);
  if (!shapes)
    return copyString(shapes.error());
  size_t needed = 0;
  for (const std::vector<int64_t> &shape : *shapes)
    needed += shape.size();
  if (needed > static_cast<size_t>(capacity))
    return copyString(std::string(function) + ": the results have " +
                      std::to_string(needed) + " extents in all, but there " +
                      "is room for " + std::to_string(capacity));
  for (const std::vector<int64_t> &shape : *shapes) {
    *ranks++ = static_cast<int>(shape.size());
    for (int64_t extent : shape)
      *extents++ = extent;
  }
  return nullptr;
}

char *ewcModuleLaunch(EwcModule module, int k, const EwcArg *args, int numArgs,
                      void *const *outputs, int numOutputs, int64_t n,
                      void *stream) {
  static const char *const function = "ewcModuleLaunch";
  Converted converted;
  const ewc::Kernel *kernel = findKernel(function, module, k, converted.error);
  if (!kernel || !convertArgs(function, *kernel, args, numArgs, converted))
    return copyString(converted.error);
  if (!checkArray(function, "numOutputs", numOutputs, outputs, converted.error))
    return copyString(converted.error);
  return toMessage(module->module.launch(
      kernel->name, converted.params,
      std::vector<void *>(outputs, outputs + numOutputs), n, stream));
}

/// ewcModuleLaunchPacked, which a function named `function` got.
static char *launchPacked(const char *function, EwcModule module, int k,
                          const EwcSlot *slots, int64_t n, void *stream) {
  std::string error;
  const ewc::Kernel *kernel = findKernel(function, module, k, error);
  if (!kernel)
    return copyString(error);
  if (!slots)
    return copyString(std::string(function) + ": slots is NULL");
  // The slot's member follows from the parameter, so no kind travels. The
  // vectors are this thread's, emptied and refilled: they keep their room,
  // so a launch allocates nothing for them after the first.
  static thread_local std::vector<ewc::Arg> params;
  static thread_local std::vector<void *> outputs;
  params.clear();
  outputs.clear();
  for (const ewc::Param &param : kernel->params) {
    const EwcSlot &slot = slots[params.size()];
    params.push_back(param.isTensor ? ewc::Arg::tensor(slot.pointer)
                     : isFloatType(param.type)
                         ? ewc::Arg::number(slot.floatValue)
                         : ewc::Arg::integer(slot.intValue));
  }
  for (size_t r = 0; r < kernel->results.size(); ++r)
    outputs.push_back(const_cast<void *>(slots[params.size() + r].pointer));
  return toMessage(
      module->module.launch(kernel->name, params, outputs, n, stream));
}

char *ewcModuleLaunchPacked(EwcModule module, int k, const EwcSlot *slots,
                            int64_t n, void *stream) {
  return launchPacked("ewcModuleLaunchPacked", module, k, slots, n, stream);
}

char *ewcModuleLaunchPackedArray(const EwcSlot *array) {
  static const char *const function = "ewcModuleLaunchPackedArray";
  if (!array)
    return copyString(std::string(function) + ": array is NULL");
  auto module = static_cast<EwcModule>(const_cast<void *>(array[0].pointer));
  // Any int64 may arrive: one beyond an int is no kernel either.
  int64_t k = array[1].intValue;
  if (module && (k < 0 || k > INT_MAX))
    return copyString(std::string(function) + ": no kernel " +
                      std::to_string(k));
  return launchPacked(function, module, static_cast<int>(k), array + 4,
                      array[2].intValue, const_cast<void *>(array[3].pointer));
}
