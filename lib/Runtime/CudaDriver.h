//===- CudaDriver.h - CUDA driver API, loaded at run time -------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime. ewc must start and run where no NVIDIA driver is
// installed (the dev and CI machines), so nothing links libcuda: the driver is
// opened with dlopen on first use and each entry point is bound with dlsym.
// The few driver types and enum values the runtime needs are declared here by
// hand so the build does not depend on the CUDA toolkit either.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_RUNTIME_CUDADRIVER_H
#define EWC_LIB_RUNTIME_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

namespace ewc {
namespace cuda {

//===----------------------------------------------------------------------===//
// Driver types and values
//===----------------------------------------------------------------------===//

// The values below are copied from cuda.h of CUDA 13.0 (CUDA_VERSION 13000).
// The driver keeps them stable across releases because they are part of its
// binary interface.

/// CUresult: an enum in cuda.h, passed as an int by the driver.
using CUresult = int;
using CUdevice = int;
/// CUdeviceptr is `unsigned long long` on 64-bit hosts (cuda.h,
/// CUdeviceptr_v2).
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUlinkState = struct CUlinkState_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;

/// CUdevice_attribute values.
enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

/// CUjit_option values.
enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_JIT_LOG_VERBOSE = 12,
};

/// CUpointer_attribute values.
enum CUpointer_attribute : int {
  /// The ordinal of the device that holds the memory (an int).
  CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
};

/// CUjitInputType values.
enum CUjitInputType : int {
  CU_JIT_INPUT_PTX = 1,
};

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// The driver entry points the runtime uses. Members carry the names cuda.h
/// gives them; where cuda.h maps a name onto a versioned symbol (cuMemAlloc is
/// `#define`d to cuMemAlloc_v2), the loader binds the versioned symbol, since
/// the unversioned one keeps an older interface (for cuMemAlloc, 32-bit device
/// pointers).
struct DriverApi {
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, CUdevice_attribute attribute,
                                   CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxGetCurrent)(CUcontext *context);
  CUresult (*cuCtxGetDevice)(CUdevice *device);
  CUresult (*cuCtxPushCurrent)(CUcontext context);
  CUresult (*cuCtxPopCurrent)(CUcontext *context);
  CUresult (*cuPointerGetAttribute)(void *data, CUpointer_attribute attribute,
                                    CUdeviceptr pointer);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, CUjit_option *options,
                                 void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuLinkCreate)(unsigned numOptions, CUjit_option *options,
                           void **optionValues, CUlinkState *state);
  CUresult (*cuLinkAddData)(CUlinkState state, CUjitInputType type, void *data,
                            size_t size, const char *name, unsigned numOptions,
                            CUjit_option *options, void **optionValues);
  CUresult (*cuLinkComplete)(CUlinkState state, void **cubin, size_t *size);
  CUresult (*cuLinkDestroy)(CUlinkState state);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr destination, const void *source,
                           size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *destination, CUdeviceptr source, size_t bytes);
  CUresult (*cuMemsetD8)(CUdeviceptr destination, unsigned char value,
                         size_t count);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr destination, CUdeviceptr source,
                           size_t bytes);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr destination, CUdeviceptr source,
                                size_t bytes, CUstream stream);
  /// Stream-ordered allocation (CUDA 11.2 and later): null where the
  /// driver lacks it; only a launch that needs a workspace asks for them.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *pointer, size_t bytes,
                              CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr pointer, CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr destination, unsigned value,
                               size_t count, CUstream stream);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start,
                                 CUevent end);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedMemBytes, CUstream stream,
                             void **kernelParams, void **extra);
};

/// Returns the process-wide driver table, opening libcuda.so.1 and binding
/// every entry point on the first call. The library stays loaded until the
/// process exits: unloading a GPU driver while its threads run is not safe.
/// On failure the error says which library or symbol is missing; the failure
/// is remembered, so later calls return the same message without retrying.
llvm::Expected<const DriverApi &> getDriverApi();

/// Turns a driver result into an llvm::Error naming the call and the driver's
/// error name and description, e.g. "cuModuleLoadDataEx failed:
/// CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)".
llvm::Error checkCuda(const DriverApi &api, CUresult result,
                      llvm::StringRef call);

} // namespace cuda
} // namespace ewc

#endif // EWC_LIB_RUNTIME_CUDADRIVER_H
