//===- GPUImage.cpp - Loadable GPU code and its kernel cache entry --------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The choice between nvJitLink and the driver's JIT, and the cache entry's
// encoding: a small JSON object for the signatures, then the cubin's bytes.
//
//===----------------------------------------------------------------------===//

#include "GPUImage.h"

#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/CudaJitLink.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace ewc;
using namespace ewc::driver;

/// True where the PTX goes to nvJitLink instead of the driver's JIT. The
/// driver's JIT is the default: on the H200 (2026-11-30, docs/performance.md,
/// "Compile time") it assembled ewc's kernels faster than nvJitLink with the
/// compute cache off (leaky_relu 27-28 ms against 30-41, gelu 55-76 against
/// 58-91, a bare copy 26-41 against 30-47) and on (2.3 ms against 6.1-6.5,
/// where nvJitLink's dlopen of its 99 MB is most of it). The hidden
/// EWC_PTX_ASSEMBLER=nvjitlink asks for nvJitLink, and so does
/// EWC_PTXAS_OPTIONS, since only nvJitLink takes ptxas options.
static llvm::Expected<bool> isNvJitLinkChosen() {
  const char *variable = std::getenv("EWC_PTX_ASSEMBLER");
  llvm::StringRef chosen = variable ? variable : "";
  if (!chosen.empty() && chosen != "driver" && chosen != "nvjitlink")
    return llvm::createStringError(
        "EWC_PTX_ASSEMBLER must be 'driver' or 'nvjitlink', not '" +
        chosen.str() + "'");
  if (getExtraPtxasOption().empty())
    return chosen == "nvjitlink";
  if (chosen == "driver")
    return llvm::createStringError("EWC_PTXAS_OPTIONS needs nvJitLink: the "
                                   "driver's JIT takes no ptxas options");
  return true;
}

llvm::Expected<std::vector<char>>
driver::assembleForDevice(llvm::StringRef ptx, CudaContext &cuda,
                          llvm::raw_ostream *notes) {
  // The device's own chip: ptxas accepts PTX of an older target (--chip),
  // and a cubin loads only on the chip it was made for.
  std::string chip = cuda.getDeviceInfo().getChipName();
  llvm::Expected<bool> nvJitLink = isNvJitLinkChosen();
  if (!nvJitLink)
    return nvJitLink.takeError();
  if (!*nvJitLink) {
    if (notes)
      *notes << "note: PTX assembled for " << chip << " by the driver's JIT\n";
    return cuda.assemblePTX(ptx);
  }
  std::string whyNot;
  if (!isJitLinkAvailable(&whyNot)) {
    // Options meant for ptxas must not be dropped on the way.
    if (!getExtraPtxasOption().empty())
      return llvm::createStringError("EWC_PTXAS_OPTIONS needs nvJitLink: " +
                                     whyNot);
    if (notes)
      *notes << "note: PTX assembled for " << chip
             << " by the driver's JIT: " << whyNot << "\n";
    return cuda.assemblePTX(ptx);
  }
  if (notes)
    *notes << "note: PTX assembled for " << chip << " by nvJitLink "
           << getJitLinkVersion() << "\n";
  return compilePTXToCubin(ptx, chip);
}

//===----------------------------------------------------------------------===//
// Cache entries
//===----------------------------------------------------------------------===//

static llvm::json::Value toJSON(const KernelSignature &kernel,
                                unsigned elementsPerThread) {
  llvm::json::Array params, results;
  for (const ParamSignature &param : kernel.params) {
    llvm::json::Object entry{{"name", param.name},
                             {"dtype", getDTypeName(param.dtype)},
                             {"tensor", param.isTensor}};
    if (const std::optional<ScalarValue> &value = param.defaultValue)
      // The double's bits: JSON has no NaN or infinity, and a default may be
      // either.
      entry["default"] = llvm::json::Object{
          {"dtype", getDTypeName(value->dtype)},
          {"int", value->intValue},
          {"bits", llvm::bit_cast<int64_t>(value->floatValue)}};
    params.push_back(std::move(entry));
  }
  for (DType result : kernel.results)
    results.push_back(getDTypeName(result));
  return llvm::json::Object{{"name", kernel.name},
                            {"params", std::move(params)},
                            {"results", std::move(results)},
                            {"elementsPerThread", elementsPerThread}};
}

std::string CompiledGPUModule::serialize() const {
  llvm::json::Array list;
  for (const KernelSignature &kernel : kernels)
    list.push_back(toJSON(kernel, elementsPerThread.lookup(kernel.name)));
  llvm::json::Object root{{"kernels", std::move(list)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(root));
  text.push_back('\0');
  text += cubin;
  return text;
}

llvm::Expected<CompiledGPUModule>
CompiledGPUModule::deserialize(llvm::StringRef payload) {
  auto bad = [](const llvm::Twine &why) {
    return llvm::createStringError("bad kernel cache entry: " + why);
  };
  size_t end = payload.find('\0');
  if (end == llvm::StringRef::npos)
    return bad("no description");
  llvm::Expected<llvm::json::Value> description =
      llvm::json::parse(payload.take_front(end));
  if (!description)
    return description.takeError();

  // A reader of the description that records the first thing it lacks.
  std::string missing;
  auto dtype = [&](const llvm::json::Object &object,
                   llvm::StringRef key) -> DType {
    std::optional<llvm::StringRef> name = object.getString(key);
    std::optional<DType> parsed = name ? parseDTypeName(*name) : std::nullopt;
    if (!parsed && missing.empty())
      missing = key.str();
    return parsed.value_or(DType::F32);
  };
  auto integer = [&](const llvm::json::Object &object, llvm::StringRef key) {
    std::optional<int64_t> value = object.getInteger(key);
    if (!value && missing.empty())
      missing = key.str();
    return value.value_or(0);
  };

  CompiledGPUModule module;
  const llvm::json::Object *root = description->getAsObject();
  const llvm::json::Array *list = root ? root->getArray("kernels") : nullptr;
  if (!list)
    return bad("no kernels");
  module.cubin = payload.drop_front(end + 1).str();
  for (const llvm::json::Value &value : *list) {
    const llvm::json::Object *object = value.getAsObject();
    const llvm::json::Array *params =
        object ? object->getArray("params") : nullptr;
    const llvm::json::Array *results =
        object ? object->getArray("results") : nullptr;
    std::optional<llvm::StringRef> name =
        object ? object->getString("name") : std::nullopt;
    if (!params || !results || !name)
      return bad("a kernel without name, params or results");
    KernelSignature &kernel = module.kernels.emplace_back();
    kernel.name = name->str();
    module.elementsPerThread[kernel.name] =
        integer(*object, "elementsPerThread");
    for (const llvm::json::Value &paramValue : *params) {
      const llvm::json::Object *paramObject = paramValue.getAsObject();
      if (!paramObject)
        return bad("a parameter that is no object");
      ParamSignature &param = kernel.params.emplace_back();
      param.name = paramObject->getString("name").value_or("").str();
      param.dtype = dtype(*paramObject, "dtype");
      param.isTensor = paramObject->getBoolean("tensor").value_or(false);
      if (const llvm::json::Object *value = paramObject->getObject("default"))
        param.defaultValue =
            ScalarValue{dtype(*value, "dtype"), integer(*value, "int"),
                        llvm::bit_cast<double>(integer(*value, "bits"))};
    }
    for (const llvm::json::Value &result : *results) {
      std::optional<DType> parsed = result.getAsString()
                                        ? parseDTypeName(*result.getAsString())
                                        : std::nullopt;
      if (!parsed)
        return bad("a result without dtype");
      kernel.results.push_back(*parsed);
    }
  }
  if (!missing.empty())
    return bad("no '" + missing + "'");
  return module;
}
