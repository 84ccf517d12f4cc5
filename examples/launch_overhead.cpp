//===- launch_overhead.cpp - Host cost of one ewc launch from C++ ---------===//
//
// Measures, in process, what the C++ API costs the host per launch: the
// LeakyReLU kernel is compiled once, its buffers allocated once, then
// `Module::launch` queues it 20000 times on a stream without waiting (the
// argument vectors are built once, outside the loop, as an application
// would). The time per launch is the host's; the GPU runs behind it. In the
// same rounds, interleaved, a bare `cuLaunchKernel` of an empty kernel with
// the same parameters and grid: the driver's own floor on this host, so what
// ewc adds is the difference (the floor moves by a microsecond from one
// process to the next on the H200's host). Also prints the cold compile
// time. Build on a machine with the CUDA driver and libewc:
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
  ewc::Result<ewc::Module> module = ewc::compileFile(
      "kernels/leaky_relu.ew",
      {ewc::Target::Cuda, "", "", false, {{"T", ewc::ElementType::F32}}});
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

  // The floor: an empty kernel with leaky_relu's parameters (x, slope, out,
  // n), launched on ewc's grid for n = 1024 (blocks of 128 threads, 4
  // elements each: 2 blocks).
  static const char kEmptyPTX[] =
      ".version 7.8\n.target sm_90\n.address_size 64\n"
      ".visible .entry empty(.param .u64 a, .param .f32 b, .param .u64 c, "
      ".param .u64 d) { ret; }\n";
  CUmodule emptyModule;
  CUfunction empty;
  if (cuModuleLoadData(&emptyModule, kEmptyPTX) != CUDA_SUCCESS ||
      cuModuleGetFunction(&empty, emptyModule, "empty") != CUDA_SUCCESS) {
    std::puts("cannot load the empty kernel");
    return 2;
  }
  float slope = 0.2f;
  int64_t count = n;
  void *emptyArgs[] = {&x, &slope, &y, &count};

  // Medians of 20 rounds of 1000 launches each, ewc's and the bare ones
  // alternating by round: the queue never fills (a launch of 1024 elements
  // runs in about 2 us, faster than the host queues it).
  std::vector<double> perLaunch, perBareLaunch;
  for (int round = 0; round < 40; ++round) {
    bool bare = round % 2;
    auto begin = Clock::now();
    for (int i = 0; i < 1000; ++i) {
      if (bare)
        (void)cuLaunchKernel(empty, 2, 1, 1, 128, 1, 1, 0, stream, emptyArgs,
                             nullptr);
      else
        (void)module->launch("leaky_relu", params, outputs, n, stream);
    }
    (bare ? perBareLaunch : perLaunch)
        .push_back(microseconds(Clock::now() - begin) / 1000);
    cuStreamSynchronize(stream);
  }
  std::sort(perLaunch.begin(), perLaunch.end());
  std::sort(perBareLaunch.begin(), perBareLaunch.end());
  std::vector<float> host(n);
  cuMemcpyDtoH(host.data(), y, n * sizeof(float));
  bool right =
      std::all_of(host.begin(), host.end(), [](float v) { return v == 1.0f; });
  std::printf("cold compile to a loaded function: %.1f ms\n", compileUs / 1000);
  std::printf("host time per launch (median of 20 x 1000): %.2f us "
              "(min %.2f, max %.2f)\n",
              perLaunch[perLaunch.size() / 2], perLaunch.front(),
              perLaunch.back());
  std::printf("bare cuLaunchKernel, same rounds: %.2f us (min %.2f, max "
              "%.2f); ewc adds %.2f us\n",
              perBareLaunch[perBareLaunch.size() / 2], perBareLaunch.front(),
              perBareLaunch.back(),
              perLaunch[perLaunch.size() / 2] -
                  perBareLaunch[perBareLaunch.size() / 2]);
  std::printf("result: %s\n", right ? "True" : "False");
  return right ? 0 : 1;
}
