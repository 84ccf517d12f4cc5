//===- CudaContext.cpp - A GPU, its PTX modules and kernel launches -------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Device discovery, the primary context, PTX loading with the JIT's logs, and
// the synchronous elementwise launch, all through the table in CudaDriver.h.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/LaunchShape.h"

#include "CudaDriver.h"

#include "llvm/Support/FormatVariadic.h"

#include <vector>

using namespace ewc;
using namespace ewc::cuda;

//===----------------------------------------------------------------------===//
// CudaDeviceInfo
//===----------------------------------------------------------------------===//

std::string CudaDeviceInfo::getChipName() const {
  return llvm::formatv("sm_{0}{1}", computeCapabilityMajor,
                       computeCapabilityMinor)
      .str();
}

std::string CudaDeviceInfo::getSummary() const {
  return llvm::formatv("{0} ({1}, {2} SMs, {3} GiB), CUDA driver {4}.{5}", name,
                       getChipName(), multiprocessorCount,
                       totalMemoryBytes >> 30, driverVersion / 1000,
                       driverVersion % 1000 / 10)
      .str();
}

//===----------------------------------------------------------------------===//
// Driver start-up
//===----------------------------------------------------------------------===//

/// Loads and initializes the driver and returns how many devices it sees.
/// Shared by create() and isDeviceAvailable() so that both report the same
/// messages.
static llvm::Expected<int> countDevices(const DriverApi *&apiOut) {
  llvm::Expected<const DriverApi &> api = getDriverApi();
  if (!api)
    return api.takeError();
  apiOut = &*api;
  // A machine with a driver but no GPU (or none visible through
  // CUDA_VISIBLE_DEVICES) fails cuInit itself with CUDA_ERROR_NO_DEVICE.
  CUresult initResult = api->cuInit(0);
  if (initResult == CUDA_ERROR_NO_DEVICE)
    return 0;
  if (llvm::Error error = checkCuda(*api, initResult, "cuInit"))
    return std::move(error);
  int count = 0;
  if (llvm::Error error =
          checkCuda(*api, api->cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return std::move(error);
  return count;
}

bool CudaContext::isDeviceAvailable(std::string *whyNot) {
  const DriverApi *api = nullptr;
  llvm::Expected<int> count = countDevices(api);
  if (!count) {
    std::string message = llvm::toString(count.takeError());
    if (whyNot)
      *whyNot = std::move(message);
    return false;
  }
  if (*count == 0) {
    if (whyNot)
      *whyNot = "no CUDA device found";
    return false;
  }
  return true;
}

/// Queries what CudaDeviceInfo holds.
static llvm::Expected<CudaDeviceInfo>
queryDeviceInfo(const DriverApi &api, CUdevice device, int ordinal) {
  CudaDeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {};
  if (llvm::Error error =
          checkCuda(api, api.cuDeviceGetName(name, sizeof(name), device),
                    "cuDeviceGetName"))
    return std::move(error);
  info.name = name;

  struct {
    CUdevice_attribute attribute;
    int *value;
  } attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
       &info.computeCapabilityMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
       &info.computeCapabilityMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.multiprocessorCount},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
       &info.maxThreadsPerMultiprocessor},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info.l2CacheBytes},
  };
  for (auto &query : attributes)
    if (llvm::Error error = checkCuda(
            api, api.cuDeviceGetAttribute(query.value, query.attribute, device),
            "cuDeviceGetAttribute"))
      return std::move(error);

  if (llvm::Error error =
          checkCuda(api, api.cuDeviceTotalMem(&info.totalMemoryBytes, device),
                    "cuDeviceTotalMem"))
    return std::move(error);
  if (llvm::Error error =
          checkCuda(api, api.cuDriverGetVersion(&info.driverVersion),
                    "cuDriverGetVersion"))
    return std::move(error);
  return info;
}

//===----------------------------------------------------------------------===//
// CudaContext
//===----------------------------------------------------------------------===//

namespace {
/// Makes `context` current on the calling thread for its lifetime where
/// another context (or none) is, and puts the caller's back after: ewc's
/// calls run in their device's context without moving the caller's (torch's
/// current device). Where `context` is already current, as for every launch
/// of a one-GPU program, it costs one cuCtxGetCurrent.
class ScopedContext {
public:
  ScopedContext(const DriverApi &api, void *context) : api(api) {
    CUcontext current = nullptr;
    if (api.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context)
      return;
    // A failed push leaves the caller's context; the call that follows then
    // fails with the driver's reason.
    pushed =
        api.cuCtxPushCurrent(static_cast<CUcontext>(context)) == CUDA_SUCCESS;
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;
  ~ScopedContext() {
    CUcontext popped = nullptr;
    if (pushed)
      api.cuCtxPopCurrent(&popped);
  }

private:
  const DriverApi &api;
  bool pushed = false;
};
} // namespace

llvm::Expected<int> CudaContext::getDeviceCount() {
  const DriverApi *api = nullptr;
  return countDevices(api);
}

llvm::Expected<int> CudaContext::getCurrentDevice() {
  const DriverApi *api = nullptr;
  llvm::Expected<int> count = countDevices(api);
  if (!count)
    return count.takeError();
  CUcontext current = nullptr;
  if (*count == 0 || api->cuCtxGetCurrent(&current) != CUDA_SUCCESS || !current)
    return -1;
  CUdevice device = 0;
  if (llvm::Error error =
          checkCuda(*api, api->cuCtxGetDevice(&device), "cuCtxGetDevice"))
    return std::move(error);
  // A CUdevice is its ordinal (cuDeviceGet hands back the ordinal it took).
  return device;
}

int CudaContext::getDeviceOf(const void *pointer) const {
  int ordinal = -1;
  if (api.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                reinterpret_cast<CUdeviceptr>(pointer)) !=
      CUDA_SUCCESS)
    return -1;
  return ordinal;
}

llvm::Expected<std::unique_ptr<CudaContext>> CudaContext::create(int ordinal) {
  const DriverApi *api = nullptr;
  llvm::Expected<int> count = countDevices(api);
  if (!count)
    return count.takeError();
  if (*count == 0)
    return llvm::createStringError("no CUDA device found");
  if (ordinal < 0 || ordinal >= *count)
    return llvm::createStringError(llvm::formatv(
        "no CUDA device {0}: the driver sees {1} device(s), numbered from 0",
        ordinal, *count));

  CUdevice device = 0;
  if (llvm::Error error =
          checkCuda(*api, api->cuDeviceGet(&device, ordinal), "cuDeviceGet"))
    return std::move(error);
  llvm::Expected<CudaDeviceInfo> info = queryDeviceInfo(*api, device, ordinal);
  if (!info)
    return info.takeError();

  // The primary context is the one the CUDA runtime and other libraries share;
  // retaining it (rather than creating a context) keeps ewc a good neighbour
  // in a process that also uses them.
  CUcontext context = nullptr;
  if (llvm::Error error =
          checkCuda(*api, api->cuDevicePrimaryCtxRetain(&context, device),
                    "cuDevicePrimaryCtxRetain"))
    return std::move(error);
  // Current where no context is, for the device buffers of the tools and
  // checks (which work on one device); a caller's current context, which may
  // be another device's (a torch program's), is left as it is.
  CUcontext current = nullptr;
  if (api->cuCtxGetCurrent(&current) == CUDA_SUCCESS && !current)
    if (llvm::Error error =
            checkCuda(*api, api->cuCtxSetCurrent(context), "cuCtxSetCurrent")) {
      api->cuDevicePrimaryCtxRelease(device);
      return std::move(error);
    }
  return std::unique_ptr<CudaContext>(
      new CudaContext(*api, device, context, std::move(*info)));
}

CudaContext::~CudaContext() {
  // The context stays current where it is: another CudaContext for the same
  // device shares it, as may the program.
  // A destructor cannot report; the release only fails if the driver is
  // already shutting down, and then there is nothing left to free.
  api.cuDevicePrimaryCtxRelease(device);
}

llvm::Expected<CudaModule> CudaContext::loadModule(llvm::StringRef ptx,
                                                   std::string *jitInfoLog) {
  // The driver reads PTX as a NUL-terminated string.
  std::string image = ptx.str();
  return loadImage(image.c_str(), jitInfoLog);
}

llvm::Expected<CudaModule> CudaContext::loadCubin(llvm::ArrayRef<char> cubin) {
  // A cubin is an ELF file: the driver reads its length from its header.
  return loadImage(cubin.data(), /*jitInfoLog=*/nullptr);
}

namespace {
/// The log buffers of one call into the driver's JIT, as the CUjit_option
/// arrays that cuModuleLoadDataEx and cuLinkCreate take.
class JitLogs {
public:
  /// With `verbose`, an information log too (registers and spills).
  explicit JitLogs(bool verbose)
      : errorLog(kLogSize, '\0'), infoLog(verbose ? kLogSize : 0, '\0') {
    // Option values are passed in pointer-sized slots: buffers as pointers,
    // sizes and flags as integers cast to void * (cuda.h, CUjit_option).
    options = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    values = {errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLogSize))};
    if (verbose) {
      options.insert(options.end(),
                     {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                      CU_JIT_LOG_VERBOSE});
      values.insert(values.end(),
                    {infoLog.data(),
                     reinterpret_cast<void *>(uintptr_t(kLogSize)),
                     reinterpret_cast<void *>(uintptr_t(1))});
    }
  }

  /// One more option with an integer value.
  void addOption(CUjit_option option, unsigned value) {
    options.push_back(option);
    values.push_back(reinterpret_cast<void *>(uintptr_t(value)));
  }

  unsigned getNumOptions() const { return options.size(); }
  CUjit_option *getOptions() { return options.data(); }
  void **getValues() { return values.data(); }

  /// `error` followed by the JIT's error log, if it wrote one.
  llvm::Error addErrorLog(llvm::Error error) const {
    // The buffers are NUL-terminated by the driver (the size includes it),
    // and were zero-filled in case it wrote nothing.
    llvm::StringRef log = llvm::StringRef(errorLog.data()).trim();
    if (log.empty())
      return error;
    return llvm::createStringError(llvm::toString(std::move(error)) + "\n" +
                                   log);
  }
  std::string getInfoLog() const {
    return infoLog.empty() ? "" : llvm::StringRef(infoLog.data()).trim().str();
  }

private:
  // 64 KiB is far more than ptxas writes about ewc's small modules; a longer
  // log is cut short by the driver, never written past the buffer.
  static constexpr unsigned kLogSize = 64 * 1024;
  std::vector<char> errorLog, infoLog;
  std::vector<CUjit_option> options;
  std::vector<void *> values;
};
} // namespace

llvm::Expected<CudaModule> CudaContext::loadImage(const void *image,
                                                  std::string *jitInfoLog) {
  JitLogs logs(/*verbose=*/jitInfoLog != nullptr);
  ScopedContext scoped(api, context);
  CUmodule module = nullptr;
  CUresult result = api.cuModuleLoadDataEx(&module, image, logs.getNumOptions(),
                                           logs.getOptions(), logs.getValues());
  if (llvm::Error error = checkCuda(api, result, "cuModuleLoadDataEx"))
    return logs.addErrorLog(std::move(error));
  if (jitInfoLog)
    *jitInfoLog = logs.getInfoLog();
  return CudaModule(api, context, module);
}

llvm::Expected<std::vector<char>>
CudaContext::assemblePTX(llvm::StringRef ptx,
                         std::optional<unsigned> optLevel) {
  JitLogs logs(/*verbose=*/false);
  if (optLevel)
    logs.addOption(CU_JIT_OPTIMIZATION_LEVEL, *optLevel);
  ScopedContext scoped(api, context);
  CUlinkState state = nullptr;
  if (llvm::Error error =
          checkCuda(api,
                    api.cuLinkCreate(logs.getNumOptions(), logs.getOptions(),
                                     logs.getValues(), &state),
                    "cuLinkCreate"))
    return logs.addErrorLog(std::move(error));
  // The cubin that cuLinkComplete returns belongs to the state: copy it out
  // before the state is destroyed.
  struct Destroy {
    const DriverApi &api;
    CUlinkState state;
    ~Destroy() { api.cuLinkDestroy(state); }
  } destroy{api, state};
  // PTX is read as a NUL-terminated string, the NUL counted in the size.
  std::string text = ptx.str();
  if (llvm::Error error = checkCuda(
          api,
          api.cuLinkAddData(state, CU_JIT_INPUT_PTX, text.data(),
                            text.size() + 1, "ewc.ptx", 0, nullptr, nullptr),
          "cuLinkAddData"))
    return logs.addErrorLog(std::move(error));
  void *cubin = nullptr;
  size_t size = 0;
  if (llvm::Error error = checkCuda(
          api, api.cuLinkComplete(state, &cubin, &size), "cuLinkComplete"))
    return logs.addErrorLog(std::move(error));
  const char *bytes = static_cast<const char *>(cubin);
  return std::vector<char>(bytes, bytes + size);
}

llvm::Error CudaContext::enqueue(const CudaFunction &function,
                                 LaunchShape shape, void **params,
                                 void *stream) {
  // Launching an empty grid is an error to the driver; with no blocks there
  // is nothing to do.
  if (shape.gridSize == 0)
    return llvm::Error::success();
  ScopedContext scoped(api, context);
  if (llvm::Error error = checkCuda(
          api,
          api.cuLaunchKernel(static_cast<CUfunction>(function.handle),
                             shape.gridSize, 1, 1, shape.blockSize, 1, 1,
                             /*sharedMemBytes=*/0,
                             static_cast<CUstream>(stream), params,
                             /*extra=*/nullptr),
          "cuLaunchKernel"))
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' on {1} blocks of {2}: {3}", function.getName(),
        shape.gridSize, shape.blockSize, llvm::toString(std::move(error))));
  return llvm::Error::success();
}

llvm::Expected<std::uint64_t>
CudaContext::allocateOnStream(std::size_t bytes, std::size_t zeroBytes,
                              void *stream) {
  if (!api.cuMemAllocAsync || !api.cuMemFreeAsync || !api.cuMemsetD32Async)
    return llvm::createStringError(
        "the CUDA driver lacks stream-ordered allocation (cuMemAllocAsync, "
        "CUDA 11.2), which a split reduction's workspace needs");
  ScopedContext scoped(api, context);
  CUdeviceptr pointer = 0;
  CUstream cuStream = static_cast<CUstream>(stream);
  if (llvm::Error error =
          checkCuda(api, api.cuMemAllocAsync(&pointer, bytes, cuStream),
                    "cuMemAllocAsync"))
    return std::move(error);
  if (zeroBytes)
    if (llvm::Error error = checkCuda(
            api, api.cuMemsetD32Async(pointer, 0, zeroBytes / 4, cuStream),
            "cuMemsetD32Async")) {
      api.cuMemFreeAsync(pointer, cuStream);
      return std::move(error);
    }
  return pointer;
}

llvm::Error CudaContext::freeOnStream(std::uint64_t pointer, void *stream) {
  ScopedContext scoped(api, context);
  return checkCuda(api,
                   api.cuMemFreeAsync(pointer, static_cast<CUstream>(stream)),
                   "cuMemFreeAsync");
}

llvm::Error CudaContext::launch(const CudaFunction &function, LaunchShape shape,
                                void **params) {
  if (llvm::Error error = enqueue(function, shape, params))
    return error;
  ScopedContext scoped(api, context);
  // Faults inside the kernel surface here, not at the launch.
  if (llvm::Error error =
          checkCuda(api, api.cuCtxSynchronize(), "cuCtxSynchronize"))
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' on {1} blocks of {2}: {3}", function.getName(),
        shape.gridSize, shape.blockSize, llvm::toString(std::move(error))));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// CudaModule
//===----------------------------------------------------------------------===//

CudaModule::CudaModule(CudaModule &&other) noexcept
    : api(other.api), context(other.context), module(other.module) {
  other.module = nullptr;
}

CudaModule &CudaModule::operator=(CudaModule &&other) noexcept {
  if (this != &other) {
    if (module) {
      ScopedContext scoped(*api, context);
      api->cuModuleUnload(static_cast<CUmodule>(module));
    }
    api = other.api;
    context = other.context;
    module = other.module;
    other.module = nullptr;
  }
  return *this;
}

CudaModule::~CudaModule() {
  // A destructor cannot report; unloading fails only if the context is
  // already gone, which took the module with it.
  if (module) {
    ScopedContext scoped(*api, context);
    api->cuModuleUnload(static_cast<CUmodule>(module));
  }
}

llvm::Expected<CudaFunction>
CudaModule::getFunction(llvm::StringRef symbol, llvm::StringRef name) const {
  CUfunction function = nullptr;
  std::string nameText = symbol.str();
  if (name.empty())
    name = symbol;
  ScopedContext scoped(*api, context);
  if (llvm::Error error = checkCuda(
          *api,
          api->cuModuleGetFunction(&function, static_cast<CUmodule>(module),
                                   nameText.c_str()),
          "cuModuleGetFunction"))
    return llvm::createStringError(
        llvm::formatv("cannot get kernel '{0}' from the PTX "
                      "module: {1}",
                      name, llvm::toString(std::move(error))));
  return CudaFunction(function, name);
}
