//===- aot-contexts.cpp - One exported header, two contexts, two threads --===//
//
// LeakyReLU through `ewc-run --emit header` (leaky_relu.h) on the GPU from
// two threads at once, each in a context of its own on device 0 (the
// primary context and one made with cuCtxCreate), each on its own buffers,
// 50 launches each: the header loads its module into each context and
// launches each context's function there (issue 20; against a fake driver:
// test/Tools/ewc-run/emit-header-contexts.test). Prints True if every
// element of both is exact. GPU/aot-header-contexts.test.
//
//===----------------------------------------------------------------------===//

#include "leaky_relu.h"

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

namespace {
std::atomic<int> failures{0};

void report(const char *what, CUresult result) {
  const char *name = "?";
  cuGetErrorName(result, &name);
  std::printf("%s failed: %s\n", what, name);
  ++failures;
}

/// 50 launches of LeakyReLU over n elements in `context`; the last result
/// compared with the host's.
void run(CUcontext context, float slope) {
  const int64_t n = int64_t(1) << 20;
  if (CUresult result = cuCtxSetCurrent(context))
    return report("cuCtxSetCurrent", result);
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = float(i % 2001 - 1000) / 37.0f;
  CUdeviceptr dx = 0, dy = 0;
  if (CUresult result = cuMemAlloc(&dx, n * sizeof(float)))
    return report("cuMemAlloc", result);
  if (CUresult result = cuMemAlloc(&dy, n * sizeof(float)))
    return report("cuMemAlloc", result);
  if (CUresult result = cuMemcpyHtoD(dx, x.data(), n * sizeof(float)))
    return report("cuMemcpyHtoD", result);
  for (int i = 0; i < 50; ++i)
    if (CUresult result = leaky_relu::leaky_relu_f32(
            nullptr, reinterpret_cast<const float *>(dx), slope,
            reinterpret_cast<float *>(dy), n))
      return report("leaky_relu_f32", result);
  if (CUresult result = cuMemcpyDtoH(y.data(), dy, n * sizeof(float)))
    return report("cuMemcpyDtoH", result);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    wrong += y[i] != (x[i] >= 0 ? x[i] : slope * x[i]);
  if (wrong) {
    std::printf("slope %g: %lld elements wrong\n", slope, (long long)wrong);
    ++failures;
  }
  cuMemFree(dx);
  cuMemFree(dy);
}
} // namespace

int main() {
  CUdevice device;
  CUcontext primary, second;
  if (CUresult result = cuInit(0))
    return report("cuInit", result), 2;
  if (CUresult result = cuDeviceGet(&device, 0))
    return report("cuDeviceGet", result), 2;
  if (CUresult result = cuDevicePrimaryCtxRetain(&primary, device))
    return report("cuDevicePrimaryCtxRetain", result), 2;
  if (CUresult result = cuCtxCreate(&second, nullptr, 0, device))
    return report("cuCtxCreate", result), 2;
  std::thread a(run, primary, 0.2f), b(run, second, 0.05f);
  a.join();
  b.join();
  std::printf("loaded: %s\n", leaky_relu::getLoadedImage());
  std::printf("%s\n", failures ? "False" : "True");
  cuCtxDestroy(second);
  cuDevicePrimaryCtxRelease(device);
  return failures ? 1 : 0;
}
