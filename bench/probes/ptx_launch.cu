// bench/probes/ptx_launch.cu: times one kernel of a PTX file that ewc made
// (`ewc-run K.ew --emit ptx`), without the rest of ewc, beside a device copy
// of the same bytes, so that a change to the generated code can be measured
// by editing the PTX (or asking ewc for another variant) and rerunning.
//
//   nvcc -O3 -arch=sm_90 ptx_launch.cu -o ptx_launch -lcuda
//   ./ptx_launch FILE.ptx KERNEL SIGNATURE ELEMENTS_PER_THREAD M N [XOFFSET]
//
// SIGNATURE is the kernel's ABI as MLIR's memref descriptors expand it
// (allocated pointer, aligned pointer, offset, sizes, strides per tensor):
//   leaky   x: f32[m*n], slope: f32, out: f32[m*n]
//   bias    x: T[m, n], b: T[n], out: T[m, n]  (T = f32; biasbf16: bf16)
// The grid is ewc's: one block of 128 threads per 128 x E points. The
// result of f32 bias and leaky is checked on the host. XOFFSET puts x that
// many elements into its allocation (the misaligned versions).

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    CUresult r = (x);                                                          \
    if (r != CUDA_SUCCESS) {                                                   \
      const char *s;                                                           \
      cuGetErrorString(r, &s);                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, s);              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static float timeIt(CUevent start, CUevent stop,
                    const std::function<void()> &launch) {
  std::vector<float> ms;
  for (int r = 0; r < 25; ++r) {
    CHECK(cuEventRecord(start, 0));
    launch();
    CHECK(cuEventRecord(stop, 0));
    CHECK(cuEventSynchronize(stop));
    float t;
    CHECK(cuEventElapsedTime(&t, start, stop));
    if (r >= 5)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main(int argc, char **argv) {
  if (argc != 7 && argc != 8) {
    std::fprintf(stderr,
                 "usage: %s FILE.ptx KERNEL leaky|bias|biasbf16 E M N\n",
                 argv[0]);
    return 2;
  }
  std::string sig = argv[3];
  unsigned e = std::atoi(argv[4]);
  int64_t m = std::atoll(argv[5]), n = std::atoll(argv[6]);
  int64_t points = m * n;
  int64_t xoff = argc == 8 ? std::atoll(argv[7]) : 0;
  unsigned bytes = sig == "biasbf16" ? 2 : 4;
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  std::string ptx = text.str();

  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, ptx.c_str()));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, argv[2]));
  int regs;
  CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));

  CUdeviceptr x, b, out;
  CHECK(cuMemAlloc(&x, (points + xoff) * bytes));
  CHECK(cuMemAlloc(&out, points * bytes));
  CHECK(cuMemAlloc(&b, n * bytes));
  std::vector<float> hx(points), hb(n);
  for (int64_t i = 0; i < points; ++i)
    hx[i] = float(int(uint64_t(i) * 2654435761u % 2001) - 1000) / 64;
  for (int64_t i = 0; i < n; ++i)
    hb[i] = float(int(i % 97) - 48) / 8;
  if (bytes == 4) {
    CHECK(cuMemcpyHtoD(x + xoff * 4, hx.data(), points * 4));
    CHECK(cuMemcpyHtoD(b, hb.data(), n * 4));
  } else {
    CHECK(cuMemsetD16(x, 0x3f80, points + xoff)); // 1.0 in bf16
    CHECK(cuMemsetD16(b, 0x4000, n));             // 2.0
  }

  int64_t zero = 0, one = 1;
  float slope = 0.01f;
  std::vector<void *> args;
  auto tensor1 = [&](CUdeviceptr *p, int64_t *off, int64_t *size) {
    args.insert(args.end(), {p, p, off, size, &one});
  };
  auto tensor2 = [&](CUdeviceptr *p, int64_t *off) {
    args.insert(args.end(), {p, p, off, &m, &n, &n, &one});
  };
  if (sig == "leaky") {
    tensor1(&x, &xoff, &points);
    args.push_back(&slope);
    tensor1(&out, &zero, &points);
  } else {
    tensor2(&x, &xoff);
    tensor1(&b, &zero, &n);
    tensor2(&out, &zero);
  }

  uint64_t perBlock = 128ull * e;
  unsigned grid = unsigned(points / perBlock + (points % perBlock != 0));
  CUevent start, stop;
  CHECK(cuEventCreate(&start, 0));
  CHECK(cuEventCreate(&stop, 0));
  CHECK(cuMemsetD8(out, 0xff, points * bytes));
  float copy = timeIt(start, stop, [&] {
    CHECK(cuMemcpyDtoD(out, x + xoff * bytes, points * bytes));
  });
  CHECK(cuMemsetD8(out, 0xff, points * bytes));
  float kernel = timeIt(start, stop, [&] {
    CHECK(
        cuLaunchKernel(fn, grid, 1, 1, 128, 1, 1, 0, 0, args.data(), nullptr));
  });
  CHECK(cuCtxSynchronize());
  const char *verdict = "-";
  if (bytes == 4) {
    std::vector<float> ho(points);
    CHECK(cuMemcpyDtoH(ho.data(), out, points * 4));
    bool ok = true;
    for (int64_t i = 0; i < points && ok; ++i) {
      float want = sig == "leaky" ? (hx[i] >= 0 ? hx[i] : slope * hx[i])
                                  : hx[i] + hb[i % n];
      ok = ho[i] == want;
    }
    verdict = ok ? "ok" : "WRONG";
  }
  double moved = 2.0 * points * bytes;
  std::printf(
      "%-28s %-8s x+%lld E=%-2u n=%-6lld regs=%-3d copy %5.0f GB/s  kernel "
      "%5.0f GB/s  %5.1f%%  %s\n",
      argv[1], sig.c_str(), (long long)xoff, e, (long long)n, regs,
      moved / (copy * 1e-3) / 1e9, moved / (kernel * 1e-3) / 1e9,
      100 * copy / kernel, verdict);
  return 0;
}
