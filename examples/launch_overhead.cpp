//===- launch_overhead.cpp - Host cost of one ewc launch from C++ ---------===//
//
// Measures, in process, what the C++ API costs the host per launch: the
// LeakyReLU kernel is compiled once, its buffers allocated once, then
// `Module::launch` queues it 20000 times on a stream without waiting (the
// argument vectors are built once, outside the loop, as an application
// would). The time per launch is the host's; the GPU runs behind it. Also
// prints the cold compile time, the same call as `cuLaunchKernel` needs
// nothing more. Build on a machine with the CUDA driver and libewc:
//
//   c++ -std=c++17 -Iinclude -I/usr/local/cuda/include
//       examples/launch_overhead.cpp -L<dir of libewc.so> -lewc -lcuda
//
// (one command).
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using Clock = std::chrono::steady_clock;

static double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

int main() {
  const int64_t n = 1024;
  if (cuInit(0) != CUDA_SUCCESS) {
    std::puts("no CUDA driver");
    return 2;
  }
  auto start = Clock::now();
  ewc::Result<ewc::Module> module =
      ewc::compileFile("kernels/leaky_relu.ew", {ewc::Target::Cuda, ""});
  double compileUs = microseconds(Clock::now() - start);
  if (!module) {
    std::printf("%s\n", module.error().c_str());
    return 2;
  }
  // compileFile retained the device's primary context; make it current here.
  CUdevice device;
  CUcontext context;
  cuDeviceGet(&device, 0);
  cuDevicePrimaryCtxRetain(&context, device);
  cuCtxSetCurrent(context);
  CUdeviceptr x, y;
  cuMemAlloc(&x, n * sizeof(float));
  cuMemAlloc(&y, n * sizeof(float));
  cuMemsetD32(x, 0x3f800000, n); // 1.0f
  CUstream stream;
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);

  const std::vector<ewc::Arg> params = {
      ewc::Arg::tensor(reinterpret_cast<void *>(x)), ewc::Arg::number(0.2)};
  const std::vector<void *> outputs = {reinterpret_cast<void *>(y)};
  // Warm-up: the first launch loads the module's function.
  for (int i = 0; i < 100; ++i)
    if (ewc::Status status =
            module->launch("leaky_relu", params, outputs, n, stream);
        !status) {
      std::printf("%s\n", status.error().c_str());
      return 2;
    }
  cuStreamSynchronize(stream);

  // Medians of 20 rounds of 1000 launches: the queue never fills (a launch
  // of 1024 elements runs in about 2 us, faster than the host queues it).
  std::vector<double> perLaunch;
  for (int round = 0; round < 20; ++round) {
    auto begin = Clock::now();
    for (int i = 0; i < 1000; ++i)
      (void)module->launch("leaky_relu", params, outputs, n, stream);
    perLaunch.push_back(microseconds(Clock::now() - begin) / 1000);
    cuStreamSynchronize(stream);
  }
  std::sort(perLaunch.begin(), perLaunch.end());
  std::vector<float> host(n);
  cuMemcpyDtoH(host.data(), y, n * sizeof(float));
  bool right = std::all_of(host.begin(), host.end(),
                           [](float v) { return v == 1.0f; });
  std::printf("cold compile to a loaded function: %.1f ms\n", compileUs / 1000);
  std::printf("host time per launch (median of 20 x 1000): %.2f us "
              "(min %.2f, max %.2f)\n",
              perLaunch[perLaunch.size() / 2], perLaunch.front(),
              perLaunch.back());
  std::printf("result: %s\n", right ? "True" : "False");
  return right ? 0 : 1;
}
