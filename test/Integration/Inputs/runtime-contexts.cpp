//===- runtime-contexts.cpp - The runtime's launches across contexts ------===//
//
// The C++ API on the GPU with the calling thread's current context other than
// the module's (issue 20): a context the program made itself (cuCtxCreate) is
// current while a module compiles and launches, and a second thread with no
// context at all launches too. Each launch must run in device 0's primary
// context (where the tensors were allocated) and leave the caller's context
// current; LeakyReLU of 2^20 elements exact both times. Prints True.
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include <cuda.h>

#include <cstdio>
#include <thread>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    if (CUresult result = (call)) {                                            \
      const char *name = "?";                                                  \
      cuGetErrorName(result, &name);                                           \
      std::printf("%s failed: %s\n", #call, name);                             \
      return 2;                                                                \
    }                                                                          \
  } while (0)

static const char *kSource =
    "kernel leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n] {\n"
    "  return where(x >= 0.0, x, slope * x);\n"
    "}\n";

int main() {
  const int64_t n = int64_t(1) << 20;
  CUdevice device;
  CUcontext primary, own;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDevicePrimaryCtxRetain(&primary, device));
  // The tensors live in the primary context, where ewc launches.
  CHECK(cuCtxPushCurrent(primary));
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = float(i % 2001 - 1000) / 37.0f;
  CUdeviceptr dx, dy, dz;
  CHECK(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK(cuMemAlloc(&dz, n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK(cuCtxPopCurrent(nullptr));

  // A context of the program's own is current from here on.
  CHECK(cuCtxCreate(&own, nullptr, 0, device));
  ewc::Options options;
  options.target = ewc::Target::Cuda;
  ewc::Result<ewc::Module> module = ewc::compile(kSource, options);
  if (!module) {
    std::printf("compile: %s\n", module.error().c_str());
    return 2;
  }
  CUcontext current = nullptr;
  cuCtxGetCurrent(&current);
  std::printf("after compile, own context current: %d\n", current == own);
  const std::vector<ewc::Arg> params = {
      ewc::Arg::tensor(reinterpret_cast<void *>(dx)), ewc::Arg::number(0.2)};
  ewc::Status status = module->launch(
      "leaky_relu", params, {reinterpret_cast<void *>(dy)}, n, nullptr);
  cuCtxGetCurrent(&current);
  std::printf("launch: %s, own context current: %d\n",
              status ? "ok" : status.error().c_str(), current == own);

  // A thread with no context.
  std::thread([&] {
    ewc::Status threadStatus = module->launch(
        "leaky_relu", params, {reinterpret_cast<void *>(dz)}, n, nullptr);
    CUcontext threadCurrent = reinterpret_cast<CUcontext>(1);
    cuCtxGetCurrent(&threadCurrent);
    std::printf("thread launch: %s, no context current: %d\n",
                threadStatus ? "ok" : threadStatus.error().c_str(),
                threadCurrent == nullptr);
  }).join();

  CHECK(cuCtxPushCurrent(primary));
  CHECK(cuCtxSynchronize());
  int64_t wrong = 0;
  for (CUdeviceptr out : {dy, dz}) {
    CHECK(cuMemcpyDtoH(y.data(), out, n * sizeof(float)));
    for (int64_t i = 0; i < n; ++i)
      wrong += y[i] != (x[i] >= 0 ? x[i] : 0.2f * x[i]);
  }
  std::printf("wrong: %lld\n", static_cast<long long>(wrong));
  cuMemFree(dx);
  cuMemFree(dy);
  cuMemFree(dz);
  CHECK(cuCtxPopCurrent(nullptr));
  cuCtxDestroy(own);
  std::printf("%s\n", wrong ? "False" : "True");
  return wrong ? 1 : 0;
}
