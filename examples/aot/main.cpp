//===- main.cpp - An application over `ewc-run --emit header` -------------===//
//
// LeakyReLU on the GPU with nothing of ewc, LLVM or MLIR at build or run
// time, only the CUDA driver: the kernel comes from the header that
//
//   ewc-run --emit header kernels/leaky_relu.ew --type T=f32 > leaky_relu.h
//
// writes. Runs n = 2^20 elements, prints which image the header loaded (the
// cubin for the device's chip, or the PTX), then True if every element is
// exact.
//
//   c++ -std=c++17 -I/usr/local/cuda/include -I. examples/aot/main.cpp -lcuda
//
//===----------------------------------------------------------------------===//

#include "leaky_relu.h"

#include <cstdio>
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

int main() {
  const int64_t n = int64_t(1) << 20;
  const float slope = 0.2f;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = float(i % 2001 - 1000) / 37.0f;

  CUdevice device;
  CUcontext context;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CUdeviceptr dx, dy;
  CHECK(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK(leaky_relu::leaky_relu_f32(/*stream=*/nullptr,
                                   reinterpret_cast<const float *>(dx), slope,
                                   reinterpret_cast<float *>(dy), n));
  CHECK(cuMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  std::printf("loaded: %s\n", leaky_relu::getLoadedImage());
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    wrong += y[i] != (x[i] >= 0 ? x[i] : slope * x[i]);
  std::printf("%s\n", wrong ? "False" : "True");
  cuMemFree(dx);
  cuMemFree(dy);
  cuDevicePrimaryCtxRelease(device);
  return wrong ? 1 : 0;
}
