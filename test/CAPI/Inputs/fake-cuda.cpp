//===- fake-cuda.cpp - A CUDA driver of two devices and no GPU -------------===//
//
// libcuda.so.1 for multi-device.c: every entry point the runtime binds
// (lib/Runtime/CudaDriver.cpp), over two devices that run nothing. Contexts
// are numbers kept on a per-thread stack, as the driver keeps them; a module
// and a function remember the context they were loaded into; memory of
// device d is the address range from (d + 1) << 40, which cuPointerGetAttribute
// reports. Everything that needs a current context checks that one is, and a
// launch, unload or function lookup checks that it is its module's: each
// mistake counts as wrong. fakeCudaReport() prints the counts.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;

constexpr CUresult kSuccess = 0, kInvalidValue = 1, kInvalidContext = 201,
                   kInvalidHandle = 400;
constexpr int kDevices = 2;

/// Device d's primary context is the address 0x1000 + d.
CUcontext contextOf(int device) {
  return reinterpret_cast<CUcontext>(std::uintptr_t(0x1000 + device));
}
int deviceOf(CUcontext context) {
  return int(reinterpret_cast<std::uintptr_t>(context) - 0x1000);
}

struct Function {
  CUcontext context;
  std::string name;
};
struct Module {
  CUcontext context;
  /// Freed with the module, as a driver's are.
  std::vector<std::unique_ptr<Function>> functions;
};

thread_local std::vector<CUcontext> stack;
std::atomic<int> retained[kDevices], loads[kDevices], launches[kDevices],
    wrong{0};
std::mutex printMutex;

CUcontext current() { return stack.empty() ? nullptr : stack.back(); }

/// kSuccess where a context is current; else counts the mistake.
CUresult needContext(const char *what) {
  if (current())
    return kSuccess;
  ++wrong;
  std::lock_guard<std::mutex> lock(printMutex);
  std::fprintf(stderr, "fake driver: %s without a current context\n", what);
  return kInvalidContext;
}
/// kSuccess where `context` is the current one; else counts the mistake.
CUresult needCurrent(CUcontext context, const char *what) {
  if (current() == context)
    return kSuccess;
  ++wrong;
  std::lock_guard<std::mutex> lock(printMutex);
  std::fprintf(stderr, "fake driver: %s of device %d's context in %s\n", what,
               deviceOf(context),
               current() ? ("device " + std::to_string(deviceOf(current())) +
                            "'s context")
                               .c_str()
                         : "no context");
  return kInvalidHandle;
}

const char kCubin[] = "not a cubin: the fake driver's";
} // namespace

extern "C" {
void fakeCudaReport(const char *when) {
  std::printf("%s: retained %d %d, loads %d %d, launches %d %d, wrong %d, "
              "current %d\n",
              when, retained[0].load(), retained[1].load(), loads[0].load(),
              loads[1].load(), launches[0].load(), launches[1].load(),
              wrong.load(), current() ? deviceOf(current()) : -1);
  std::fflush(stdout);
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == kInvalidContext  ? "CUDA_ERROR_INVALID_CONTEXT"
          : error == kInvalidHandle ? "CUDA_ERROR_INVALID_HANDLE"
          : error == kInvalidValue  ? "CUDA_ERROR_INVALID_VALUE"
                                    : "CUDA_ERROR_UNKNOWN";
  return kSuccess;
}
CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "the fake driver's error";
  return kSuccess;
}
CUresult cuInit(unsigned) { return kSuccess; }
CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return kSuccess;
}
CUresult cuDeviceGetCount(int *count) {
  *count = kDevices;
  return kSuccess;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal < 0 || ordinal >= kDevices)
    return kInvalidValue;
  *device = ordinal;
  return kSuccess;
}
CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  std::snprintf(name, length, "Fake GPU %d", device);
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice) {
  switch (attribute) {
  case 16: // multiprocessors
    *value = 132;
    return kSuccess;
  case 38: // L2 bytes
    *value = 50 << 20;
    return kSuccess;
  case 39: // threads per multiprocessor
    *value = 2048;
    return kSuccess;
  case 75: // compute capability
    *value = 9;
    return kSuccess;
  case 76:
    *value = 0;
    return kSuccess;
  }
  *value = 0;
  return kSuccess;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice) {
  *bytes = size_t(80) << 30;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  ++retained[device];
  *context = contextOf(device);
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  --retained[device];
  return kSuccess;
}
CUresult cuCtxSetCurrent(CUcontext context) {
  if (stack.empty()) {
    if (context)
      stack.push_back(context);
  } else if (context) {
    stack.back() = context;
  } else {
    stack.pop_back();
  }
  return kSuccess;
}
CUresult cuCtxGetCurrent(CUcontext *context) {
  *context = current();
  return kSuccess;
}
CUresult cuCtxGetDevice(CUdevice *device) {
  if (!current())
    return kInvalidContext;
  *device = deviceOf(current());
  return kSuccess;
}
CUresult cuCtxPushCurrent_v2(CUcontext context) {
  stack.push_back(context);
  return kSuccess;
}
CUresult cuCtxPopCurrent_v2(CUcontext *context) {
  if (stack.empty())
    return kInvalidContext;
  if (context)
    *context = stack.back();
  stack.pop_back();
  return kSuccess;
}
CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr pointer) {
  int device = int(pointer >> 40) - 1;
  if (attribute != 9 || device < 0 || device >= kDevices)
    return kInvalidValue;
  *static_cast<int *>(data) = device;
  return kSuccess;
}
CUresult cuCtxSynchronize() { return needContext("cuCtxSynchronize"); }
CUresult cuModuleLoadDataEx(Module **module, const void *, unsigned, int *,
                            void **) {
  if (CUresult result = needContext("cuModuleLoadDataEx"))
    return result;
  ++loads[deviceOf(current())];
  *module = new Module{current(), {}};
  return kSuccess;
}
CUresult cuModuleUnload(Module *module) {
  CUresult result = needCurrent(module->context, "cuModuleUnload");
  delete module;
  return result;
}
CUresult cuLinkCreate_v2(unsigned, int *, void **, void **state) {
  *state = nullptr;
  return needContext("cuLinkCreate");
}
CUresult cuLinkAddData_v2(void *, int, void *, size_t, const char *, unsigned,
                          int *, void **) {
  return needContext("cuLinkAddData");
}
CUresult cuLinkComplete(void *, void **cubin, size_t *size) {
  *cubin = const_cast<char *>(kCubin);
  *size = sizeof(kCubin);
  return needContext("cuLinkComplete");
}
CUresult cuLinkDestroy(void *) { return kSuccess; }
CUresult cuModuleGetFunction(Function **function, Module *module,
                             const char *name) {
  if (CUresult result = needCurrent(module->context, "cuModuleGetFunction"))
    return result;
  module->functions.push_back(
      std::make_unique<Function>(Function{module->context, name}));
  *function = module->functions.back().get();
  return kSuccess;
}
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t) {
  if (CUresult result = needContext("cuMemAlloc"))
    return result;
  *pointer = CUdeviceptr(deviceOf(current()) + 1) << 40;
  return kSuccess;
}
CUresult cuMemFree_v2(CUdeviceptr) { return kSuccess; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void *, size_t) {
  return kSuccess;
}
CUresult cuMemcpyDtoH_v2(void *, CUdeviceptr, size_t) { return kSuccess; }
CUresult cuMemsetD8_v2(CUdeviceptr, unsigned char, size_t) { return kSuccess; }
CUresult cuMemcpyDtoD_v2(CUdeviceptr, CUdeviceptr, size_t) { return kSuccess; }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr, CUdeviceptr, size_t, void *) {
  return kSuccess;
}
CUresult cuMemAllocAsync(CUdeviceptr *pointer, size_t, void *) {
  return cuMemAlloc_v2(pointer, 0);
}
CUresult cuMemFreeAsync(CUdeviceptr, void *) { return kSuccess; }
CUresult cuMemsetD32Async(CUdeviceptr, unsigned, size_t, void *) {
  return needContext("cuMemsetD32Async");
}
CUresult cuEventCreate(void **event, unsigned) {
  *event = nullptr;
  return kSuccess;
}
CUresult cuEventDestroy_v2(void *) { return kSuccess; }
CUresult cuEventRecord(void *, void *) { return kSuccess; }
CUresult cuEventSynchronize(void *) { return kSuccess; }
CUresult cuEventElapsedTime_v2(float *milliseconds, void *, void *) {
  *milliseconds = 0;
  return kSuccess;
}
CUresult cuEventElapsedTime(float *milliseconds, void *, void *) {
  *milliseconds = 0;
  return kSuccess;
}
CUresult cuLaunchKernel(Function *function, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, unsigned, void *,
                        void **, void **) {
  if (CUresult result = needCurrent(function->context, "cuLaunchKernel"))
    return result;
  ++launches[deviceOf(function->context)];
  return kSuccess;
}
}
