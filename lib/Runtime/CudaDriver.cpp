//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Opens libcuda.so.1, binds the entry points listed in DriverApi, and formats
// driver results as llvm::Errors.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "llvm/Support/FormatVariadic.h"

#include <dlfcn.h>
#include <string>

using namespace ewc::cuda;

/// The soname the NVIDIA driver installs. The unversioned libcuda.so exists
/// only where the toolkit's link-time placeholder library or development
/// files are installed, and that placeholder (under /usr/local/cuda) must
/// never be what we load: it has no driver behind it.
static constexpr const char *kDriverLibrary = "libcuda.so.1";

namespace {
/// The outcome of the one attempt to load the driver.
struct LoadedDriver {
  DriverApi api = {};
  /// Empty when every entry point was bound.
  std::string error;
};
} // namespace

/// Binds `slot` to `symbol` in `library`; on failure records why in `error`
/// (only the first failure, which is the one worth reporting).
template <typename FunctionPtr>
static void bind(void *library, const char *symbol, FunctionPtr &slot,
                 std::string &error) {
  slot = reinterpret_cast<FunctionPtr>(dlsym(library, symbol));
  if (!slot && error.empty()) {
    const char *why = dlerror();
    error = llvm::formatv("the CUDA driver ({0}) lacks {1}: {2}",
                          kDriverLibrary, symbol, why ? why : "not found")
                .str();
  }
}

static LoadedDriver loadDriver() {
  LoadedDriver loaded;
  // RTLD_LOCAL: the driver's symbols are reached through the table only, and
  // must not satisfy lookups made by JIT-compiled CPU code.
  void *library = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    // dlerror() names the library itself ("libcuda.so.1: cannot open shared
    // object file: ..."): the message says it once.
    const char *why = dlerror();
    llvm::StringRef reason = why ? why : "unknown error";
    if (!reason.consume_front(std::string(kDriverLibrary) + ": "))
      reason = why ? why : "unknown error";
    loaded.error = llvm::formatv("cannot load the CUDA driver {0}: {1}",
                                 kDriverLibrary, reason)
                       .str();
    return loaded;
  }

  DriverApi &api = loaded.api;
  std::string &error = loaded.error;
  bind(library, "cuGetErrorName", api.cuGetErrorName, error);
  bind(library, "cuGetErrorString", api.cuGetErrorString, error);
  bind(library, "cuInit", api.cuInit, error);
  bind(library, "cuDriverGetVersion", api.cuDriverGetVersion, error);
  bind(library, "cuDeviceGetCount", api.cuDeviceGetCount, error);
  bind(library, "cuDeviceGet", api.cuDeviceGet, error);
  bind(library, "cuDeviceGetName", api.cuDeviceGetName, error);
  bind(library, "cuDeviceGetAttribute", api.cuDeviceGetAttribute, error);
  bind(library, "cuDeviceTotalMem_v2", api.cuDeviceTotalMem, error);
  bind(library, "cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain,
       error);
  bind(library, "cuDevicePrimaryCtxRelease_v2", api.cuDevicePrimaryCtxRelease,
       error);
  bind(library, "cuCtxSetCurrent", api.cuCtxSetCurrent, error);
  bind(library, "cuCtxGetCurrent", api.cuCtxGetCurrent, error);
  bind(library, "cuCtxGetDevice", api.cuCtxGetDevice, error);
  bind(library, "cuCtxPushCurrent_v2", api.cuCtxPushCurrent, error);
  bind(library, "cuCtxPopCurrent_v2", api.cuCtxPopCurrent, error);
  bind(library, "cuPointerGetAttribute", api.cuPointerGetAttribute, error);
  // Not cuCtxSynchronize_v2: that recent variant (it takes a context) is
  // missing from older drivers, and the current context is the one we want.
  bind(library, "cuCtxSynchronize", api.cuCtxSynchronize, error);
  bind(library, "cuModuleLoadDataEx", api.cuModuleLoadDataEx, error);
  bind(library, "cuModuleUnload", api.cuModuleUnload, error);
  bind(library, "cuLinkCreate_v2", api.cuLinkCreate, error);
  bind(library, "cuLinkAddData_v2", api.cuLinkAddData, error);
  bind(library, "cuLinkComplete", api.cuLinkComplete, error);
  bind(library, "cuLinkDestroy", api.cuLinkDestroy, error);
  bind(library, "cuModuleGetFunction", api.cuModuleGetFunction, error);
  bind(library, "cuMemAlloc_v2", api.cuMemAlloc, error);
  bind(library, "cuMemFree_v2", api.cuMemFree, error);
  bind(library, "cuMemcpyHtoD_v2", api.cuMemcpyHtoD, error);
  bind(library, "cuMemcpyDtoH_v2", api.cuMemcpyDtoH, error);
  bind(library, "cuMemsetD8_v2", api.cuMemsetD8, error);
  bind(library, "cuMemcpyDtoD_v2", api.cuMemcpyDtoD, error);
  bind(library, "cuMemcpyDtoDAsync_v2", api.cuMemcpyDtoDAsync, error);
  // Optional: a driver without them runs every kernel but a split reduction
  // (CudaContext::allocateOnStream says so).
  std::string noAsyncAllocation;
  bind(library, "cuMemAllocAsync", api.cuMemAllocAsync, noAsyncAllocation);
  bind(library, "cuMemFreeAsync", api.cuMemFreeAsync, noAsyncAllocation);
  bind(library, "cuMemsetD32Async", api.cuMemsetD32Async, noAsyncAllocation);
  bind(library, "cuEventCreate", api.cuEventCreate, error);
  bind(library, "cuEventDestroy_v2", api.cuEventDestroy, error);
  bind(library, "cuEventRecord", api.cuEventRecord, error);
  bind(library, "cuEventSynchronize", api.cuEventSynchronize, error);
  // cuda.h 13.0 maps cuEventElapsedTime to the _v2 added in CUDA 12.8; older
  // drivers have only the first version, with the same signature.
  std::string noElapsedV2;
  bind(library, "cuEventElapsedTime_v2", api.cuEventElapsedTime, noElapsedV2);
  if (!api.cuEventElapsedTime)
    bind(library, "cuEventElapsedTime", api.cuEventElapsedTime, error);
  bind(library, "cuLaunchKernel", api.cuLaunchKernel, error);
  // The library stays open even when a symbol is missing: dlclose of a GPU
  // driver is not reliably safe, and the process only pays for it once.
  return loaded;
}

llvm::Expected<const DriverApi &> ewc::cuda::getDriverApi() {
  // A function-local static: loaded once, thread-safely, on first use.
  static const LoadedDriver loaded = loadDriver();
  if (!loaded.error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   loaded.error);
  return loaded.api;
}

llvm::Error ewc::cuda::checkCuda(const DriverApi &api, CUresult result,
                                 llvm::StringRef call) {
  if (result == CUDA_SUCCESS)
    return llvm::Error::success();
  // Both lookups fail for codes newer than the installed driver knows.
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = nullptr;
  if (api.cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "unknown error";
  std::string nameText =
      name ? std::string(name) : llvm::formatv("CUresult {0}", result).str();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0} failed: {1} ({2})", call, nameText, text).str());
}
