//===- CompiledModule.cpp - Loadable code and its kernel cache entry ------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The choice between nvJitLink and the driver's JIT, and the cache entry's
// encoding: a small JSON object for the signatures, then the code's bytes.
//
//===----------------------------------------------------------------------===//

#include "CompiledModule.h"

#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/CudaJitLink.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace ewc;
using namespace ewc::driver;

/// True where the PTX goes to nvJitLink instead of the driver's JIT. The
/// driver's JIT is the default: on the H200 (2026-11-30, docs/performance.md,
/// "Compile time") it assembled ewc's kernels faster than nvJitLink with the
/// compute cache off (leaky_relu 27-28 ms against 30-41, gelu 55-76 against
/// 58-91, a bare copy 26-41 against 30-47) and on (2.3 ms against 6.1-6.5,
/// where nvJitLink's dlopen of its 99 MB is most of it).
/// PTXAssembler::NvJitLink asks for nvJitLink, and so does a ptxas option,
/// since only nvJitLink takes those. The messages name the tools' variables
/// (EWC_PTXAS_OPTIONS), which is how these options are set in practice
/// (docs/runtime.md).
static llvm::Expected<bool> isNvJitLinkChosen(const CompileOptions &options) {
  if (options.jitLink.ptxasOption.empty())
    return options.ptxAssembler == PTXAssembler::NvJitLink;
  if (options.ptxAssembler == PTXAssembler::Driver)
    return llvm::createStringError("EWC_PTXAS_OPTIONS needs nvJitLink: the "
                                   "driver's JIT takes no ptxas options");
  return true;
}

llvm::Expected<std::vector<char>>
driver::assembleForDevice(llvm::StringRef ptx, CudaContext &cuda,
                          const CompileOptions &options,
                          llvm::raw_ostream *notes, bool quick) {
  // An empty text is no PTX: the driver's JIT would only say "Binary format
  // ... is not recognized".
  if (ptx.empty())
    return llvm::createStringError("no PTX to assemble (the PTX stage made "
                                   "no gpu.binary)");
  // The device's own chip: ptxas accepts PTX of an older target (--chip),
  // and a cubin loads only on the chip it was made for.
  std::string chip = cuda.getDeviceInfo().getChipName();
  llvm::Expected<bool> nvJitLink = isNvJitLinkChosen(options);
  if (!nvJitLink)
    return nvJitLink.takeError();
  // ptxas's lowest level for the quick code (the driver JIT's levels run
  // 0 to 4, nvJitLink passes ptxas's own -O0).
  std::optional<unsigned> jitLevel;
  if (quick)
    jitLevel = 0;
  llvm::StringRef level = quick ? " at -O0" : "";
  if (!*nvJitLink) {
    if (notes)
      *notes << "note: PTX assembled for " << chip << " by the driver's JIT"
             << level << "\n";
    return cuda.assemblePTX(ptx, jitLevel);
  }
  std::string whyNot;
  if (!isJitLinkAvailable(options.jitLink, &whyNot)) {
    // Options meant for ptxas must not be dropped on the way.
    if (!options.jitLink.ptxasOption.empty())
      return llvm::createStringError("EWC_PTXAS_OPTIONS needs nvJitLink: " +
                                     whyNot);
    if (notes)
      *notes << "note: PTX assembled for " << chip << " by the driver's JIT"
             << level << ": " << whyNot << "\n";
    return cuda.assemblePTX(ptx, jitLevel);
  }
  if (notes)
    *notes << "note: PTX assembled for " << chip << " by nvJitLink "
           << getJitLinkVersion(options.jitLink) << level << "\n";
  JitLinkOptions jitLink = options.jitLink;
  // A tiered compilation has no ptxas option of its own (Driver.cpp).
  if (quick && jitLink.ptxasOption.empty())
    jitLink.ptxasOption = "-Xptxas=-O0";
  return compilePTXToCubin(ptx, chip, jitLink);
}

//===----------------------------------------------------------------------===//
// Cache entries
//===----------------------------------------------------------------------===//

static llvm::json::Array toJSON(const std::vector<std::string> &strings) {
  llvm::json::Array array;
  for (const std::string &string : strings)
    array.push_back(string);
  return array;
}

static llvm::json::Value toJSON(const KernelSignature &kernel,
                                const LaunchDescriptor &launch) {
  llvm::json::Array params, results;
  for (const ParamSignature &param : kernel.params) {
    llvm::json::Object entry{{"name", param.name},
                             {"dtype", getDTypeName(param.dtype)},
                             {"tensor", param.isTensor},
                             {"dims", toJSON(param.dims)}};
    if (const std::optional<ScalarValue> &value = param.defaultValue)
      // The double's bits: JSON has no NaN or infinity, and a default may be
      // either.
      entry["default"] = llvm::json::Object{
          {"dtype", getDTypeName(value->dtype)},
          {"int", value->intValue},
          {"bits", llvm::bit_cast<int64_t>(value->floatValue)}};
    params.push_back(std::move(entry));
  }
  llvm::json::Array rows;
  for (const std::vector<std::string> &row : launch.rowDims)
    rows.push_back(toJSON(row));
  for (const ResultSignature &result : kernel.results)
    results.push_back(llvm::json::Object{{"dtype", getDTypeName(result.dtype)},
                                         {"dims", toJSON(result.dims)}});
  return llvm::json::Object{
      {"name", kernel.name},
      {"params", std::move(params)},
      {"results", std::move(results)},
      {"dims", toJSON(kernel.dims)},
      {"pinnedDims", toJSON(kernel.pinnedDims)},
      {"launch",
       llvm::json::Object{{"schedule", launch.schedule},
                          {"blockSize", launch.blockSize},
                          {"elementsPerThread", launch.elementsPerThread},
                          {"sharedMemory", launch.sharedMemory},
                          {"rowDims", std::move(rows)},
                          {"workspace", launch.workspace},
                          {"laneDims", toJSON(launch.laneDims)}}}};
}

std::string CompiledModule::serialize() const {
  llvm::json::Array list;
  for (const KernelSignature &kernel : kernels)
    list.push_back(toJSON(kernel, launches.lookup(kernel.name)));
  llvm::json::Object root{{"kernels", std::move(list)}};
  if (!ewModule.empty())
    root["ew"] = ewModule;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(root));
  text.push_back('\0');
  text += code;
  return text;
}

llvm::Expected<CompiledModule>
CompiledModule::deserialize(llvm::StringRef payload) {
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
  auto note = [&](llvm::StringRef key) {
    if (missing.empty())
      missing = key.str();
  };
  auto dtype = [&](const llvm::json::Object &object,
                   llvm::StringRef key) -> DType {
    std::optional<llvm::StringRef> name = object.getString(key);
    std::optional<DType> parsed = name ? parseDTypeName(*name) : std::nullopt;
    if (!parsed)
      note(key);
    return parsed.value_or(DType::F32);
  };
  auto integer = [&](const llvm::json::Object &object, llvm::StringRef key) {
    std::optional<int64_t> value = object.getInteger(key);
    if (!value)
      note(key);
    return value.value_or(0);
  };
  auto strings = [&](const llvm::json::Object &object, llvm::StringRef key) {
    std::vector<std::string> result;
    const llvm::json::Array *array = object.getArray(key);
    if (!array)
      note(key);
    for (const llvm::json::Value &value :
         array ? *array : llvm::json::Array()) {
      std::optional<llvm::StringRef> text = value.getAsString();
      if (!text)
        note(key);
      result.push_back(text.value_or("").str());
    }
    return result;
  };

  CompiledModule module;
  const llvm::json::Object *root = description->getAsObject();
  const llvm::json::Array *list = root ? root->getArray("kernels") : nullptr;
  if (!list)
    return bad("no kernels");
  module.code = payload.drop_front(end + 1).str();
  for (const llvm::json::Value &value : *list) {
    const llvm::json::Object *object = value.getAsObject();
    const llvm::json::Array *params =
        object ? object->getArray("params") : nullptr;
    const llvm::json::Array *results =
        object ? object->getArray("results") : nullptr;
    const llvm::json::Object *launch =
        object ? object->getObject("launch") : nullptr;
    std::optional<llvm::StringRef> name =
        object ? object->getString("name") : std::nullopt;
    if (!params || !results || !name || !launch)
      return bad("a kernel without name, params, results or launch");
    KernelSignature &kernel = module.kernels.emplace_back();
    kernel.name = name->str();
    kernel.dims = strings(*object, "dims");
    kernel.pinnedDims = strings(*object, "pinnedDims");
    LaunchDescriptor &descriptor = module.launches[kernel.name];
    std::optional<llvm::StringRef> schedule = launch->getString("schedule");
    if (!schedule)
      note("schedule");
    descriptor.schedule = schedule.value_or("").str();
    descriptor.blockSize = integer(*launch, "blockSize");
    descriptor.elementsPerThread = integer(*launch, "elementsPerThread");
    descriptor.sharedMemory = integer(*launch, "sharedMemory");
    descriptor.workspace = integer(*launch, "workspace");
    const llvm::json::Array *rows = launch->getArray("rowDims");
    if (!rows)
      note("rowDims");
    for (const llvm::json::Value &row : rows ? *rows : llvm::json::Array()) {
      const llvm::json::Object wrapper{{"dims", row}};
      descriptor.rowDims.push_back(strings(wrapper, "dims"));
    }
    if (!launch->getArray("laneDims"))
      note("laneDims");
    descriptor.laneDims = strings(*launch, "laneDims");
    for (const llvm::json::Value &paramValue : *params) {
      const llvm::json::Object *paramObject = paramValue.getAsObject();
      if (!paramObject)
        return bad("a parameter that is no object");
      ParamSignature &param = kernel.params.emplace_back();
      std::optional<llvm::StringRef> paramName = paramObject->getString("name");
      if (!paramName)
        note("name");
      param.name = paramName.value_or("").str();
      param.dtype = dtype(*paramObject, "dtype");
      std::optional<bool> isTensor = paramObject->getBoolean("tensor");
      if (!isTensor)
        note("tensor");
      param.isTensor = isTensor.value_or(false);
      param.dims = strings(*paramObject, "dims");
      if (const llvm::json::Object *value = paramObject->getObject("default"))
        param.defaultValue =
            ScalarValue{dtype(*value, "dtype"), integer(*value, "int"),
                        llvm::bit_cast<double>(integer(*value, "bits"))};
    }
    for (const llvm::json::Value &result : *results) {
      const llvm::json::Object *resultObject = result.getAsObject();
      if (!resultObject)
        return bad("a result that is no object");
      kernel.results.push_back(
          {dtype(*resultObject, "dtype"), strings(*resultObject, "dims")});
    }
  }
  if (!missing.empty())
    return bad("no '" + missing + "'");
  if (std::optional<llvm::StringRef> ew = root->getString("ew"))
    module.ewModule = ew->str();
  return module;
}
