// bench/probes/misaligned.cu: why a LeakyReLU whose input is a view one
// element into its storage (x = buf[1:]) runs at ~90% of the copy in ewc
// while torch's scalar loop reaches ~100%. One process, one device, the same
// 2^28 elements, CUDA-event medians, every result checked on the host:
//
//   copy         cuMemcpyDtoD, aligned and from x + 1 (the ceilings)
//   vec4         the aligned float4 kernel (what ewc's default variant does)
//   unroll<E,I>  torch's unrolled_elementwise_kernel: 128 threads, E scalar
//                loads per thread at tid + i * 128, index type I (int32 as
//                torch, int64 as ewc), all loads before the stores
//   shift2       aligned float4 loads with a shift: each thread loads the
//                aligned vectors q and q + 1 of the storage and takes the
//                four elements s..s+3 (the issue's "aligned vectors with a
//                shift"); shfl: vector q + 1 from the next lane by a warp
//                shuffle, the last lane loads it itself
//   ptx          ewc's own unaligned variant (`ewc-opt` on the kernel with
//                ew.unaligned, make-ptx.sh), loaded through the driver's JIT,
//                as is and with `.maxntid 128, 1, 1` added (torch's kernels
//                have __launch_bounds__(128))
//
// bf16 rows likewise, with x one and two elements in (2 and 4 bytes).
//
//   nvcc -O3 -arch=sm_90 misaligned.cu -o misaligned -lcuda
//   ./misaligned [PTX_F32 [PTX_BF16]]

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

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

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t r = (x);                                                       \
    if (r != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(r));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CU(x)                                                                  \
  do {                                                                         \
    CUresult r = (x);                                                          \
    if (r != CUDA_SUCCESS) {                                                   \
      const char *s;                                                           \
      cuGetErrorString(r, &s);                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, s);              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

template <typename T> __device__ __forceinline__ T leaky(T v, float slope) {
  float f = float(v);
  return T(f >= 0.f ? f : slope * f);
}

template <int E, typename I, typename T>
__global__ __launch_bounds__(128) void unroll(const T *x, T *out, float slope,
                                              I n) {
  I base = I(blockIdx.x) * 128 * E + threadIdx.x;
  T v[E];
#pragma unroll
  for (int i = 0; i < E; ++i) {
    I j = base + I(i) * 128;
    if (j < n)
      v[i] = x[j];
  }
#pragma unroll
  for (int i = 0; i < E; ++i) {
    I j = base + I(i) * 128;
    if (j < n)
      out[j] = leaky(v[i], slope);
  }
}

// 16-byte vectors of T; x aligned (the storage), out = f(x[s..]).
template <typename T> struct alignas(16) Vec {
  static constexpr int kLanes = 16 / sizeof(T);
  T v[kLanes];
};

// One output vector per thread and V per thread in all: vector q of out
// from the aligned vectors q and q + 1 of the storage, shifted by s.
template <int V, bool Shfl, int S, typename T>
__global__ __launch_bounds__(128) void shift2(const Vec<T> *xs, Vec<T> *out,
                                              float slope, int64_t vectors) {
  // The shift is static (one kernel per shift, as a compiled variant would
  // be): a runtime one indexes the vectors dynamically, which puts them in
  // local memory (measured: 56% of the copy for every bf16 shift).
  constexpr int s = S;
  constexpr int L = Vec<T>::kLanes;
  int64_t base = int64_t(blockIdx.x) * 128 * V + threadIdx.x;
  Vec<T> a[V], b[V];
#pragma unroll
  for (int k = 0; k < V; ++k) {
    int64_t q = base + k * 128;
    if (q < vectors) {
      a[k] = xs[q];
      if (!Shfl)
        b[k] = xs[q + 1];
    }
  }
  if (Shfl) {
#pragma unroll
    for (int k = 0; k < V; ++k) {
      int64_t q = base + k * 128;
      const uint32_t *w = reinterpret_cast<const uint32_t *>(&a[k]);
      uint32_t *o = reinterpret_cast<uint32_t *>(&b[k]);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        o[j] = __shfl_down_sync(0xffffffffu, w[j], 1);
      if ((threadIdx.x & 31) == 31 && q < vectors)
        b[k] = xs[q + 1];
    }
  }
#pragma unroll
  for (int k = 0; k < V; ++k) {
    int64_t q = base + k * 128;
    if (q >= vectors)
      continue;
    Vec<T> r;
#pragma unroll
    for (int i = 0; i < L; ++i) {
      int j = i + s;
      T e = j < L ? a[k].v[j & (L - 1)] : b[k].v[(j - L) & (L - 1)];
      r.v[i] = leaky(e, slope);
    }
    out[q] = r;
  }
}

template <typename T>
__global__ __launch_bounds__(128) void vec4(const Vec<T> *x, Vec<T> *out,
                                            float slope, int64_t vectors) {
  int64_t q = int64_t(blockIdx.x) * 128 + threadIdx.x;
  if (q < vectors) {
    Vec<T> a = x[q], r;
#pragma unroll
    for (int i = 0; i < Vec<T>::kLanes; ++i)
      r.v[i] = leaky(a.v[i], slope);
    out[q] = r;
  }
}

static float timeIt(const std::function<void()> &launch) {
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int r = 0; r < 25; ++r) {
    CK(cudaEventRecord(start));
    launch();
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float t;
    CK(cudaEventElapsedTime(&t, start, stop));
    if (r >= 5)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  CK(cudaEventDestroy(start));
  CK(cudaEventDestroy(stop));
  return ms[ms.size() / 2];
}

static std::string readFile(const char *path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Inserts `.maxntid 128, 1, 1` after the kernel's parameter list.
static std::string withMaxntid(std::string ptx) {
  size_t entry = ptx.find(".entry");
  size_t close = ptx.find(")\n{", entry);
  if (entry == std::string::npos || close == std::string::npos)
    return ptx;
  ptx.insert(close + 1, "\n.maxntid 128, 1, 1");
  return ptx;
}

template <typename T> struct Case {
  const char *dtype;
  int64_t n;
  T *storage, *out;
  std::vector<T> host;
  double copyGBs = 0;

  explicit Case(const char *dtype, int64_t n) : dtype(dtype), n(n) {
    host.resize(n + 64);
    for (int64_t i = 0; i < n + 64; ++i)
      host[i] = T(float(int(uint64_t(i) * 2654435761u % 2001) - 1000) / 64);
    CK(cudaMalloc(&storage, (n + 64) * sizeof(T)));
    CK(cudaMalloc(&out, (n + 64) * sizeof(T)));
    CK(cudaMemcpy(storage, host.data(), (n + 64) * sizeof(T),
                  cudaMemcpyHostToDevice));
  }
  ~Case() {
    cudaFree(storage);
    cudaFree(out);
  }

  // Checks out[o..o+n) == leaky(storage[s..s+n)) on the host.
  bool check(int64_t s, int64_t o) {
    std::vector<T> got(n);
    CK(cudaMemcpy(got.data(), out + o, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int64_t i = 0; i < n; ++i) {
      float f = float(host[s + i]);
      T want = T(f >= 0.f ? f : 0.01f * f);
      if (std::memcmp(&got[i], &want, sizeof(T)) != 0) {
        std::printf("  mismatch at %lld\n", (long long)i);
        return false;
      }
    }
    return true;
  }

  void row(const char *name, int64_t s, int64_t o,
           const std::function<void()> &launch) {
    CK(cudaMemset(out, 0xff, (n + 64) * sizeof(T)));
    float ms = timeIt(launch);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double gbs = 2.0 * n * sizeof(T) / (ms * 1e-3) / 1e9;
    if (copyGBs == 0)
      copyGBs = gbs;
    std::printf("%-5s %-34s x+%lld out+%lld %8.0f GB/s %6.1f%% of copy  %s\n",
                dtype, name, (long long)s, (long long)o, gbs,
                100 * gbs / copyGBs, check(s, o) ? "ok" : "WRONG");
  }

  void copyRow(const char *name, int64_t s) {
    // A copy is checked against the storage, not leaky: time it alone.
    float ms = timeIt([&] {
      CK(cudaMemcpyAsync(out, storage + s, n * sizeof(T),
                         cudaMemcpyDeviceToDevice));
    });
    double gbs = 2.0 * n * sizeof(T) / (ms * 1e-3) / 1e9;
    if (copyGBs == 0)
      copyGBs = gbs;
    std::printf("%-5s %-34s x+%lld out+0 %8.0f GB/s %6.1f%% of copy\n", dtype,
                name, (long long)s, gbs, 100 * gbs / copyGBs);
  }

  // ewc's unaligned variant: the descriptor ABI (allocated, aligned,
  // offset, size, stride) for x, slope, out.
  void ptxRow(const char *name, const std::string &ptx, unsigned e, int64_t s,
              int64_t o) {
    CUmodule mod;
    CU(cuModuleLoadData(&mod, ptx.c_str()));
    CUfunction fn;
    // The first .entry's name.
    size_t at = ptx.find(".entry") + 7;
    std::string kernel = ptx.substr(at, ptx.find('(', at) - at);
    CU(cuModuleGetFunction(&fn, mod, kernel.c_str()));
    int regs;
    CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
    CUdeviceptr xp = CUdeviceptr(storage + s), op = CUdeviceptr(out + o);
    int64_t zero = 0, one = 1, size = n;
    float slope = 0.01f;
    void *args[] = {&xp, &xp, &zero, &size, &one, &slope,
                    &op, &op, &zero, &size, &one};
    uint64_t perBlock = 128ull * e;
    unsigned grid = unsigned(n / perBlock + (n % perBlock != 0));
    std::string label = std::string(name) + " regs=" + std::to_string(regs);
    row(label.c_str(), s, o, [&] {
      CU(cuLaunchKernel(fn, grid, 1, 1, 128, 1, 1, 0, 0, args, nullptr));
    });
    CU(cuModuleUnload(mod));
  }
};

template <int E, typename I, typename T>
static void unrollRow(Case<T> &c, const char *name, int64_t s, int64_t o) {
  unsigned grid = unsigned((c.n + 128 * E - 1) / (128 * E));
  c.row(name, s, o, [&] {
    unroll<E, I, T><<<grid, 128>>>(c.storage + s, c.out + o, 0.01f, I(c.n));
  });
}

template <int V, bool Shfl, int S, typename T>
static void shiftRow(Case<T> &c, const char *name) {
  int64_t vectors = c.n / Vec<T>::kLanes;
  unsigned grid = unsigned((vectors + 128 * V - 1) / (128 * V));
  c.row(name, S, 0, [&] {
    shift2<V, Shfl, S, T>
        <<<grid, 128>>>(reinterpret_cast<const Vec<T> *>(c.storage),
                        reinterpret_cast<Vec<T> *>(c.out), 0.01f, vectors);
  });
}

template <int S, typename T> static void shiftRows(Case<T> &c) {
  shiftRow<1, false, S, T>(c, "shift2 two loads, 1 vector");
  shiftRow<2, false, S, T>(c, "shift2 two loads, 2 vectors");
  shiftRow<1, true, S, T>(c, "shift2 shfl, 1 vector");
  shiftRow<2, true, S, T>(c, "shift2 shfl, 2 vectors");
}

template <typename T> static void run(Case<T> &c, const char *ptxPath) {
  c.copyRow("copy (cuMemcpyDtoD)", 0);
  c.copyRow("copy (cuMemcpyDtoD)", 1);
  {
    int64_t vectors = c.n / Vec<T>::kLanes;
    unsigned grid = unsigned((vectors + 127) / 128);
    c.row("vec4 aligned, 1 vector/thread", 0, 0, [&] {
      vec4<T><<<grid, 128>>>(reinterpret_cast<const Vec<T> *>(c.storage),
                             reinterpret_cast<Vec<T> *>(c.out), 0.01f, vectors);
    });
  }
  for (int s = 1; s <= 2; ++s) {
    unrollRow<4, int, T>(c, "unroll<4, int32> (torch vec 1)", s, 0);
    unrollRow<8, int, T>(c, "unroll<8, int32>", s, 0);
  }
  shiftRows<1, T>(c);
  shiftRows<2, T>(c);
  shiftRows<3, T>(c);
  unrollRow<4, int, T>(c, "unroll<4, int32> (torch vec 1)", 0, 1);
  unrollRow<8, int, T>(c, "unroll<8, int32>", 0, 1);
  if (ptxPath) {
    std::string ptx = readFile(ptxPath);
    unsigned e = 16 / sizeof(T);
    for (int s = 1; s <= 2; ++s) {
      c.ptxRow("ewc .u ptx", ptx, e, s, 0);
      c.ptxRow("ewc .u ptx + .maxntid 128", withMaxntid(ptx), e, s, 0);
    }
    c.ptxRow("ewc .u ptx", ptx, e, 0, 1);
  }
}

int main(int argc, char **argv) {
  CU(cuInit(0));
  CK(cudaFree(nullptr));
  int64_t n = int64_t(1) << 28;
  {
    Case<float> c("f32", n);
    run(c, argc > 1 ? argv[1] : nullptr);
  }
  {
    Case<__nv_bfloat16> c("bf16", n);
    run(c, argc > 2 ? argv[2] : nullptr);
  }
  return 0;
}
