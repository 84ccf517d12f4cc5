//===- compile_time.cpp - .ew source to a loaded CUDA function, timed -----===//
//
// Measures, in one process, what `ewc::compileFile` costs before a kernel
// can launch, for each file named on the command line:
//
//   init    cuInit and the primary context (paid once per process)
//   first   the first compile of the process, cache as the environment says
//           (EWC_NO_CACHE=1: none; EWC_CACHE_DIR: that directory)
//   again   the median of 10 more compiles with the cache off: the compiler
//           and the PTX-to-cubin step warm
//   miss    a compile into a fresh, empty cache (compile, assemble, store)
//   hit     the median of 10 compiles from that cache
//
// The PTX becomes a cubin through the driver's JIT (cuLinkCreate and
// friends), or through nvJitLink with EWC_PTX_ASSEMBLER=nvjitlink, so running
// this twice compares the two (scripts/device-run.sh's `compile` step does).
// Set CUDA_CACHE_DISABLE=1 for a cold compile: both assemblers keep their
// cubins in the driver's compute cache, which otherwise answers for ptxas.
// Build where the CUDA driver and libewc are:
//
//   c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include
//       examples/compile_time.cpp -L<dir of libewc.so> -lewc -lcuda
//
// (one command).
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

/// Milliseconds that one compile of `path` takes; negative on failure,
/// after printing why.
static double timeCompile(const std::string &path) {
  auto start = Clock::now();
  ewc::Result<ewc::Module> module =
      ewc::compileFile(path, {ewc::Target::Cuda, ""});
  double ms =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (!module) {
    std::printf("%s: %s\n", path.c_str(), module.error().c_str());
    return -1;
  }
  return ms;
}

static double medianOf10(const std::string &path) {
  std::vector<double> times;
  for (int i = 0; i < 10; ++i)
    times.push_back(timeCompile(path));
  std::sort(times.begin(), times.end());
  return times.front() < 0 ? -1 : times[times.size() / 2];
}

int main(int argc, char **argv) {
  auto start = Clock::now();
  CUdevice device;
  CUcontext context;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS) {
    std::puts("no CUDA device");
    return 2;
  }
  double initMs =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const char *assembler = std::getenv("EWC_PTX_ASSEMBLER");
  std::printf("init %.1f ms; PTX by %s\n", initMs,
              assembler && std::string(assembler) == "nvjitlink"
                  ? "nvJitLink if found"
                  : "the driver's JIT");
  for (int i = 1; i < argc; ++i) {
    std::string path = argv[i];
    double first = timeCompile(path);
    setenv("EWC_NO_CACHE", "1", 1);
    double again = medianOf10(path);
    unsetenv("EWC_NO_CACHE");
    char directory[] = "/tmp/ewc-compile-time-XXXXXX";
    if (!mkdtemp(directory)) {
      std::puts("cannot make a cache directory");
      return 2;
    }
    setenv("EWC_CACHE_DIR", directory, 1);
    double miss = timeCompile(path);
    double hit = medianOf10(path);
    if (std::system((std::string("rm -rf ") + directory).c_str()) != 0)
      std::printf("cannot remove %s\n", directory);
    if (first < 0 || again < 0 || miss < 0 || hit < 0)
      return 1;
    std::printf("%-22s first %6.1f  again %6.1f  miss %6.1f  hit %5.2f ms\n",
                argv[i], first, again, miss, hit);
  }
  return 0;
}
