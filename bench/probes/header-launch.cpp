//===- header-launch.cpp - Host cost of a launch through the header
//--------===//
//
// What a launch through `ewc-run --emit header` costs the host now that the
// header asks the driver, at each launch, for the current context and its id
// (cuCtxGetCurrent, cuCtxGetId: issue 20's one-GPU step keeps a function per
// context). Medians of 20 rounds of 1000 launches of leaky_relu_f32 at
// n = 1024 on a stream, alternating by round with a bare cuLaunchKernel of an
// empty kernel of the same parameters and grid (the driver's floor), and the
// two getters alone, 10^6 times. Built and run by header-launch.sh.
//
//===----------------------------------------------------------------------===//

#include "leaky_relu.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using Clock = std::chrono::steady_clock;

static double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const int64_t n = 1024;
  CUdevice device;
  CUcontext context;
  if (cuInit(0) || cuDeviceGet(&device, 0) ||
      cuDevicePrimaryCtxRetain(&context, device) || cuCtxSetCurrent(context)) {
    std::puts("no CUDA device");
    return 2;
  }
  CUdeviceptr x, y;
  cuMemAlloc(&x, n * sizeof(float));
  cuMemAlloc(&y, n * sizeof(float));
  cuMemsetD32(x, 0x3f800000, n); // 1.0f
  CUstream stream;
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  const float slope = 0.2f;
  auto launch = [&] {
    return leaky_relu::leaky_relu_f32(stream,
                                      reinterpret_cast<const float *>(x), slope,
                                      reinterpret_cast<float *>(y), n);
  };
  for (int i = 0; i < 100; ++i)
    if (CUresult result = launch()) {
      std::printf("launch failed: %d\n", int(result));
      return 2;
    }
  cuStreamSynchronize(stream);

  static const char kEmptyPTX[] =
      ".version 7.8\n.target sm_90\n.address_size 64\n"
      ".visible .entry empty(.param .u64 a, .param .f32 b, .param .u64 c, "
      ".param .u64 d) { ret; }\n";
  CUmodule emptyModule;
  CUfunction empty;
  if (cuModuleLoadData(&emptyModule, kEmptyPTX) ||
      cuModuleGetFunction(&empty, emptyModule, "empty")) {
    std::puts("cannot load the empty kernel");
    return 2;
  }
  int64_t count = n;
  float slopeArg = slope;
  void *emptyArgs[] = {&x, &slopeArg, &y, &count};

  std::vector<double> header, bare;
  for (int round = 0; round < 40; ++round) {
    bool isBare = round % 2;
    auto begin = Clock::now();
    for (int i = 0; i < 1000; ++i) {
      if (isBare)
        (void)cuLaunchKernel(empty, 2, 1, 1, 128, 1, 1, 0, stream, emptyArgs,
                             nullptr);
      else
        (void)launch();
    }
    (isBare ? bare : header)
        .push_back(microseconds(Clock::now() - begin) / 1000);
    cuStreamSynchronize(stream);
  }

  std::vector<double> getters;
  for (int round = 0; round < 10; ++round) {
    auto begin = Clock::now();
    for (int i = 0; i < 100000; ++i) {
      CUcontext current;
      unsigned long long id;
      (void)cuCtxGetCurrent(&current);
      (void)cuCtxGetId(current, &id);
    }
    getters.push_back(microseconds(Clock::now() - begin) / 100000);
  }

  std::vector<float> host(n);
  cuMemcpyDtoH(host.data(), y, n * sizeof(float));
  bool right =
      std::all_of(host.begin(), host.end(), [](float v) { return v == 1.0f; });
  std::printf("header launch (median of 20 x 1000): %.3f us\n", median(header));
  std::printf("bare cuLaunchKernel of an empty kernel: %.3f us\n",
              median(bare));
  std::printf("cuCtxGetCurrent + cuCtxGetId (median of 10 x 10^5): %.4f us\n",
              median(getters));
  std::printf("%s\n", right ? "True" : "False");
  return right ? 0 : 1;
}
