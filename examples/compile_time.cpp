//===- compile_time.cpp - .ew source to a loaded CUDA function, timed -----===//
//
// Measures, in one process, what `ewc::compileFile` costs before a kernel
// can launch, for each file named on the command line:
//
//   init    cuInit and the primary context (paid once per process)
//   first   the first compile of the process, with the cache in
//           --cache-dir=DIR where given, else none
//   again   the median of 10 more compiles with the cache off: the compiler
//           and the PTX-to-cubin step warm
//   miss    a compile into a fresh, empty cache (compile, assemble, store)
//   hit     the median of 10 compiles from that cache
//
// Every compile is a whole one (Options::tiered off): the optimized code
// before compileFile returns, as the kernel cache stores it.
// examples/first_result.cpp times the tiered compile, the API's default.
//
// The PTX becomes a cubin through the driver's JIT (cuLinkCreate and
// friends): the public API has no choice of assembler, and libewc reads no
// environment (`ewc-run --timing` with EWC_PTX_ASSEMBLER=nvjitlink times
// nvJitLink). Set CUDA_CACHE_DISABLE=1 for a cold compile: both assemblers keep
// their cubins in the driver's compute cache, which otherwise answers for
// ptxas. Build where the CUDA driver and libewc are:
//
//   c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include
//       examples/compile_time.cpp -L<dir of libewc.so> -lewc -lcuda
//
// (one command), and run it as `compile_time [--cache-dir=DIR] FILE...`. A
// generic kernel's file takes its specialization after a colon,
// `kernels/leaky_relu.ew:T=f32` (Options::types; the types ewc-run's --type
// spells, f16, bf16, f32, f64, i32 or i64).
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
static double timeCompile(const std::string &path,
                          const ewc::Options &options) {
  auto start = Clock::now();
  ewc::Result<ewc::Module> module = ewc::compileFile(path, options);
  double ms =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (!module) {
    std::printf("%s: %s\n", path.c_str(), module.error().c_str());
    return -1;
  }
  return ms;
}

/// Splits `FILE[:T=TYPE,...]` into the path and `options.types`; false for
/// a type name this example does not know.
static bool parseFileArgument(std::string argument, std::string &path,
                              ewc::Options &options) {
  static const std::pair<const char *, ewc::ElementType> kTypes[] = {
      {"f16", ewc::ElementType::F16}, {"bf16", ewc::ElementType::BF16},
      {"f32", ewc::ElementType::F32}, {"f64", ewc::ElementType::F64},
      {"i32", ewc::ElementType::I32}, {"i64", ewc::ElementType::I64}};
  size_t colon = argument.find(':');
  path = argument.substr(0, colon);
  options.types.clear();
  if (colon == std::string::npos)
    return true;
  std::string rest = argument.substr(colon + 1) + ",";
  for (size_t start = 0, comma;
       (comma = rest.find(',', start)) != std::string::npos;
       start = comma + 1) {
    std::string entry = rest.substr(start, comma - start);
    size_t eq = entry.find('=');
    if (eq == std::string::npos)
      return false;
    bool known = false;
    for (const auto &[name, type] : kTypes)
      if (entry.substr(eq + 1) == name) {
        options.types.emplace_back(entry.substr(0, eq), type);
        known = true;
      }
    if (!known)
      return false;
  }
  return true;
}

static double medianOf10(const std::string &path, const ewc::Options &options) {
  std::vector<double> times;
  for (int i = 0; i < 10; ++i)
    times.push_back(timeCompile(path, options));
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
  std::printf("init %.1f ms; PTX by the driver's JIT\n", initMs);
  ewc::Options firstOptions;
  firstOptions.target = ewc::Target::Cuda;
  firstOptions.tiered = false;
  int i = 1;
  const std::string cacheFlag = "--cache-dir=";
  if (i < argc && std::string(argv[i]).rfind(cacheFlag, 0) == 0)
    firstOptions.cacheDir = std::string(argv[i++]).substr(cacheFlag.size());
  for (; i < argc; ++i) {
    std::string path;
    if (!parseFileArgument(argv[i], path, firstOptions)) {
      std::printf("cannot read the types in '%s'\n", argv[i]);
      return 2;
    }
    double first = timeCompile(path, firstOptions);
    ewc::Options uncached = firstOptions;
    uncached.noCache = true;
    double again = medianOf10(path, uncached);
    char directory[] = "/tmp/ewc-compile-time-XXXXXX";
    if (!mkdtemp(directory)) {
      std::puts("cannot make a cache directory");
      return 2;
    }
    ewc::Options fresh = firstOptions;
    fresh.cacheDir = directory;
    double miss = timeCompile(path, fresh);
    double hit = medianOf10(path, fresh);
    if (std::system((std::string("rm -rf ") + directory).c_str()) != 0)
      std::printf("cannot remove %s\n", directory);
    if (first < 0 || again < 0 || miss < 0 || hit < 0)
      return 1;
    std::printf("%-22s first %6.1f  again %6.1f  miss %6.1f  hit %5.2f ms\n",
                argv[i], first, again, miss, hit);
  }
  return 0;
}
