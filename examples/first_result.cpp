//===- first_result.cpp - Time to a new kernel's first result, tiered -----===//
//
// Issue 17's "time to the first result": from `ewc::compileFile` of a new
// kernel to its first result on the GPU (compile, launch, synchronize), every
// cache off (ewc's: Options::noCache; the driver's: run with
// CUDA_CACHE_DISABLE=1), with tiered compilation (Options::tiered, the
// API's default: LLVM and ptxas at -O0 first, the optimized code on a
// thread) and without (the optimized code before the first launch).
// cuInit and the primary context are paid before and printed apart: every
// CUDA program pays them once, torch's before ewc is called.
//
// Then, for the tiered module, the swap: launches of 2^26 elements back to
// back (each timed between CUDA events, the host's share by the clock)
// from the first result until 10 launches after the optimized code is in
// (Module::waitForOptimized returns on a thread of its own): the quick and
// the optimized code's kernel times, when the optimized code came in, and
// what the launches around the swap cost the host.
//
// The kernels must be elementwise over one dimension (their tensor
// parameters all get the same input, their scalars their defaults). Build
// where the CUDA driver and libewc are:
//
//   c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include
//       examples/first_result.cpp -L<dir of libewc.so> -lewc -lcuda -lpthread
//
// and run it as `CUDA_CACHE_DISABLE=1 first_result [--rounds=R] FILE...`; a
// generic kernel's file takes its types after a colon, as compile_time.cpp's
// (`kernels/leaky_relu.ew:T=f32`).
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;

static double ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

static double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// `FILE[:T=TYPE]` into the path and options.types; false for a type name
/// this example does not know.
static bool parseFileArgument(const std::string &argument, std::string &path,
                              ewc::Options &options) {
  static const std::pair<const char *, ewc::ElementType> kTypes[] = {
      {"f16", ewc::ElementType::F16},
      {"bf16", ewc::ElementType::BF16},
      {"f32", ewc::ElementType::F32},
      {"f64", ewc::ElementType::F64}};
  size_t colon = argument.find(':');
  path = argument.substr(0, colon);
  options.types.clear();
  if (colon == std::string::npos)
    return true;
  std::string entry = argument.substr(colon + 1);
  size_t eq = entry.find('=');
  if (eq == std::string::npos)
    return false;
  for (const auto &[name, type] : kTypes)
    if (entry.substr(eq + 1) == name) {
      options.types.emplace_back(entry.substr(0, eq), type);
      return true;
    }
  return false;
}

/// One launch of `module`'s only kernel over `n` elements of `x` into `y`.
static ewc::Status launch(ewc::Module &module, CUdeviceptr x, CUdeviceptr y,
                          int64_t n, CUstream stream) {
  const ewc::Kernel &kernel = module.kernels().front();
  std::vector<ewc::Arg> args;
  for (const ewc::Param &param : kernel.params)
    args.push_back(param.isTensor
                       ? ewc::Arg::tensor(reinterpret_cast<void *>(x))
                       : ewc::Arg::byDefault());
  return module.launch(kernel.name, args, {reinterpret_cast<void *>(y)}, n,
                       stream);
}

struct FirstResult {
  double compileMs = -1, firstResultMs = -1;
};

/// Compiles `path` and runs it once over `n` elements: the compile's time
/// and the time to its result. The module is kept in `kept`.
static FirstResult timeFirstResult(const std::string &path,
                                   const ewc::Options &options, CUdeviceptr x,
                                   CUdeviceptr y, int64_t n,
                                   std::optional<ewc::Module> &kept) {
  FirstResult result;
  auto start = Clock::now();
  ewc::Result<ewc::Module> module = ewc::compileFile(path, options);
  if (!module) {
    std::printf("%s: %s\n", path.c_str(), module.error().c_str());
    return result;
  }
  result.compileMs = ms(Clock::now() - start);
  ewc::Status status = launch(*module, x, y, n, nullptr);
  if (!status || cuCtxSynchronize() != CUDA_SUCCESS) {
    std::printf("%s: %s\n", path.c_str(),
                status ? "cuCtxSynchronize failed" : status.error().c_str());
    result.compileMs = -1;
    return result;
  }
  result.firstResultMs = ms(Clock::now() - start);
  kept.emplace(std::move(*module));
  return result;
}

/// The launches around the swap of a tiered module that has just given
/// its first result.
static bool watchSwap(ewc::Module &module, CUdeviceptr x, CUdeviceptr y,
                      int64_t n) {
  std::atomic<bool> ready{false};
  Clock::time_point readyAt;
  auto start = Clock::now();
  std::thread waiter([&] {
    ewc::Status status = module.waitForOptimized();
    if (!status)
      std::printf("optimized code failed: %s\n", status.error().c_str());
    readyAt = Clock::now();
    ready.store(true, std::memory_order_release);
  });
  CUevent begin, end;
  cuEventCreate(&begin, CU_EVENT_DEFAULT);
  cuEventCreate(&end, CU_EVENT_DEFAULT);
  struct Launch {
    double startMs, hostUs, kernelMs;
    bool afterReady;
  };
  std::vector<Launch> launches;
  int after = 0;
  bool ok = true;
  while (after < 10 && ms(Clock::now() - start) < 3000) {
    bool afterReady = ready.load(std::memory_order_acquire);
    Launch record;
    record.startMs = ms(Clock::now() - start);
    cuEventRecord(begin, nullptr);
    auto hostStart = Clock::now();
    ewc::Status status = launch(module, x, y, n, nullptr);
    record.hostUs = ms(Clock::now() - hostStart) * 1e3;
    cuEventRecord(end, nullptr);
    if (!status || cuEventSynchronize(end) != CUDA_SUCCESS) {
      std::printf("launch failed: %s\n", status.error().c_str());
      ok = false;
      break;
    }
    float kernelMs = 0;
    cuEventElapsedTime(&kernelMs, begin, end);
    record.kernelMs = kernelMs;
    record.afterReady = afterReady;
    launches.push_back(record);
    after += afterReady;
  }
  waiter.join();
  cuEventDestroy(begin);
  cuEventDestroy(end);
  if (!ok)
    return false;
  // Launches that started before the optimized code was known to be in ran
  // either code; the first ones ran the quick code for certain.
  std::vector<double> quickKernel, optimizedKernel, quickHost, optimizedHost;
  size_t firstAfter = launches.size();
  for (size_t i = 0; i < launches.size(); ++i) {
    const Launch &l = launches[i];
    if (l.afterReady) {
      firstAfter = std::min(firstAfter, i);
      optimizedKernel.push_back(l.kernelMs);
      optimizedHost.push_back(l.hostUs);
    } else {
      quickKernel.push_back(l.kernelMs);
      quickHost.push_back(l.hostUs);
    }
  }
  double readyMs = ms(readyAt - start);
  std::printf("  swap: optimized code in %.1f ms after the first result, "
              "%zu launches of 2^26 ran before it\n",
              readyMs, firstAfter);
  std::printf("  kernel (2^26 elements): quick %.3f ms, optimized %.3f ms "
              "(medians)\n",
              median(quickKernel), median(optimizedKernel));
  std::printf("  host per launch: %.1f us while the optimized code was "
              "made, %.1f us after (medians)",
              median(quickHost), median(optimizedHost));
  if (firstAfter > 0 && firstAfter < launches.size())
    std::printf("; around the swap %.1f, %.1f us\n",
                launches[firstAfter - 1].hostUs, launches[firstAfter].hostUs);
  else
    std::printf("\n");
  return true;
}

int main(int argc, char **argv) {
  auto start = Clock::now();
  CUdevice device;
  CUcontext context;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS ||
      cuCtxSetCurrent(context) != CUDA_SUCCESS) {
    std::puts("no CUDA device");
    return 2;
  }
  std::printf("init %.1f ms (cuInit, the primary context); CUDA_CACHE_DISABLE"
              "=%s\n",
              ms(Clock::now() - start),
              std::getenv("CUDA_CACHE_DISABLE")
                  ? std::getenv("CUDA_CACHE_DISABLE")
                  : "unset");
  int rounds = 5;
  int i = 1;
  const std::string roundsFlag = "--rounds=";
  if (i < argc && std::string(argv[i]).rfind(roundsFlag, 0) == 0)
    rounds = std::max(1, std::atoi(argv[i++] + roundsFlag.size()));
  // A small launch for the first result (the compile is what is timed), a
  // large one for the swap (the two codes' speeds differ there).
  const int64_t small = 1 << 20, large = int64_t(1) << 26;
  CUdeviceptr x, y;
  if (cuMemAlloc(&x, large * 4) != CUDA_SUCCESS ||
      cuMemAlloc(&y, large * 4) != CUDA_SUCCESS) {
    std::puts("cannot allocate 512 MiB on the device");
    return 2;
  }
  cuMemsetD32(x, 0x3fc00000, large); // 1.5f: not zeros
  int status = 0;
  for (; i < argc; ++i) {
    ewc::Options options;
    options.target = ewc::Target::Cuda;
    options.noCache = true;
    std::string path;
    if (!parseFileArgument(argv[i], path, options)) {
      std::printf("cannot read the types in '%s'\n", argv[i]);
      return 2;
    }
    std::printf("%s, %d rounds, each a tiered and a full compile "
                "(alternating which goes first):\n",
                argv[i], rounds);
    std::vector<double> tieredCompile, tieredFirst, fullCompile, fullFirst;
    for (int round = 0; round < rounds; ++round) {
      for (int which = 0; which < 2; ++which) {
        bool tiered = (which == 0) == (round % 2 == 0);
        options.tiered = tiered;
        std::optional<ewc::Module> module;
        FirstResult result =
            timeFirstResult(path, options, x, y, small, module);
        if (result.compileMs < 0)
          return 1;
        std::printf("  round %d %-6s compile %6.1f ms, first result %6.1f "
                    "ms\n",
                    round, tiered ? "tiered" : "full", result.compileMs,
                    result.firstResultMs);
        (tiered ? tieredCompile : fullCompile).push_back(result.compileMs);
        (tiered ? tieredFirst : fullFirst).push_back(result.firstResultMs);
        if (tiered && round < 2 && !watchSwap(*module, x, y, large))
          status = 1;
        // A module that is destroyed waits for its optimizing thread.
      }
    }
    std::printf("  medians: tiered compile %.1f, first result %.1f ms; full "
                "compile %.1f, first result %.1f ms\n",
                median(tieredCompile), median(tieredFirst), median(fullCompile),
                median(fullFirst));
  }
  cuMemFree(x);
  cuMemFree(y);
  return status;
}
