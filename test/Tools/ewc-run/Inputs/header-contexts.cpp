//===- header-contexts.cpp - The exported header across contexts and threads
//
// Runs a header of `ewc-run --emit header` (leaky_relu.h, its kernel
// leaky_relu_f32) against a fake CUDA driver defined here, which no GPU
// backs: contexts are numbers, a module and a function remember the context
// they were loaded into, and a launch checks that its function belongs to
// the current context. 8 threads launch 2,000 times each in 4 contexts:
// each context must load the image once and get the function once, and
// every launch use its own context's function. Then a launch without a
// current context fails, and past the header's 64 contexts one fails
// cleanly. Prints True when all holds (emit-header-contexts.test).
//
//===----------------------------------------------------------------------===//

#include "leaky_relu.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {
thread_local CUcontext current = nullptr;
std::atomic<int> loads{0}, lookups{0}, launches{0}, wrong{0};

/// Context k is the address 0x1000 + k, id k + 1; a module of context k is
/// (k + 1) << 8, its function that plus 1.
CUcontext makeContext(int k) {
  return reinterpret_cast<CUcontext>(std::uintptr_t(0x1000 + k));
}
unsigned long long idOf(CUcontext context) {
  return reinterpret_cast<std::uintptr_t>(context) - 0x1000 + 1;
}
} // namespace

extern "C" {
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *context) {
  *context = current;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxGetId(CUcontext context, unsigned long long *id) {
  *id = idOf(context);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
CUresult CUDAAPI cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                                      CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    *value = 2048;
    break;
  default:
    *value = 0;
  }
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *) {
  ++loads;
  *module = reinterpret_cast<CUmodule>(std::uintptr_t(idOf(current) << 8));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module,
                                     const char *) {
  ++lookups;
  *function = reinterpret_cast<CUfunction>(
      reinterpret_cast<std::uintptr_t>(module) + 1);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction function, unsigned, unsigned,
                                unsigned, unsigned, unsigned, unsigned,
                                unsigned, CUstream, void **, void **) {
  ++launches;
  if (reinterpret_cast<std::uintptr_t>(function) != (idOf(current) << 8) + 1)
    ++wrong;
  return CUDA_SUCCESS;
}
}

int main() {
  const int contexts = 4, threads = 8, each = 2000;
  std::vector<std::thread> pool;
  std::atomic<int> failed{0};
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < each; ++i) {
        // Every thread in every context, switching as torch's streams do.
        current = makeContext((t + i) % contexts);
        if (leaky_relu::leaky_relu_f32(nullptr, nullptr, 0.01f, nullptr, 1000))
          ++failed;
      }
    });
  for (std::thread &thread : pool)
    thread.join();
  bool ok = failed == 0 && loads == contexts && lookups == contexts &&
            launches == threads * each && wrong == 0;
  std::printf("loads %d, lookups %d, launches %d, wrong %d, failed %d\n",
              loads.load(), lookups.load(), launches.load(), wrong.load(),
              failed.load());
  // No current context: an error, not a launch.
  current = nullptr;
  CUresult none =
      leaky_relu::leaky_relu_f32(nullptr, nullptr, 0.01f, nullptr, 1000);
  std::printf("no context: %d\n", int(none));
  ok &= none == CUDA_ERROR_INVALID_CONTEXT;
  // The header keeps 64 contexts: the 65th fails, the first still runs.
  CUresult past = CUDA_SUCCESS;
  for (int k = 0; k < 65; ++k) {
    current = makeContext(k);
    past = leaky_relu::leaky_relu_f32(nullptr, nullptr, 0.01f, nullptr, 1000);
    if (k < 64)
      ok &= past == CUDA_SUCCESS;
  }
  std::printf("context 65: %d\n", int(past));
  ok &= past == CUDA_ERROR_OUT_OF_MEMORY;
  current = makeContext(0);
  ok &= leaky_relu::leaky_relu_f32(nullptr, nullptr, 0.01f, nullptr, 1000) ==
        CUDA_SUCCESS;
  std::printf("%s\n", ok ? "True" : "False");
  return ok ? 0 : 1;
}
