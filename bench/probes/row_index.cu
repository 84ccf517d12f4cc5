// bench/probes/row_index.cu: what the row coordinates of a broadcast cost.
//
// ewc's vectorized loop for x[m, n] + b[n] runs at 74% of the copy on the
// H200 (docs/performance.md) where LeakyReLU runs at 94-100%. Each thread
// handles one or two 16-byte atoms of one grid-wide pass (no grid cap, so
// every per-thread computation is paid once per atom), and finds its atom's
// row and column with a division by the runtime extent n, after a division
// of the points by the chunk size for its loop bound. This probe separates
// the candidates, in CUDA C for speed of writing, each a kernel of the same
// shape as ewc's (128-thread blocks, float4 atoms, E = 4 or 8 points per
// thread):
//
//   copy      out = x, flat index: the ceiling
//   flat      out = x >= 0 ? x : s * x, flat index, no division (leaky)
//   flatchunk flat, plus ewc's loop bound: points / (blockDim x E) at run time
//   div64     row = i / n, col = i % n in 64 bits (as ewc's index type)
//   div32     the same in 32 bits
//   magic     a multiply-high by a magic number the host computes from n
//   const     n a compile-time constant (as torch.compile specializes it)
//   chunk64   div64 plus ewc's loop bound division
//
// Build and run on the device: nvcc -O3 -arch=sm_90 row_index.cu -o ri && ./ri
// It prints one line per kernel and n: GB/s, % of the copy, and whether the
// result is right (checked on the device against the flat kernels' answer).

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr unsigned kBlock = 128;

struct Magic {
  // q = (mulhi(i, m) + i) >> s for i < 2^63 (TensorIterator's IntDivider,
  // widened to 64 bits): m = floor(2^64 (2^s - d) / d) + 1, s = ceil(log2 d).
  uint64_t m;
  unsigned s;
};

static Magic makeMagic(uint64_t d) {
  unsigned s = 0;
  while ((uint64_t(1) << s) < d)
    ++s;
  unsigned __int128 two64 = (unsigned __int128)1 << 64;
  unsigned __int128 m = two64 * (((unsigned __int128)1 << s) - d) / d + 1;
  return {uint64_t(m), s};
}

__device__ __forceinline__ uint64_t divMagic(uint64_t i, Magic mg) {
  return (__umul64hi(i, mg.m) + i) >> mg.s;
}

struct Args {
  const float *x, *b;
  float *out;
  uint64_t m, n, points;
  Magic magic;
};

enum Kind { Copy, Flat, FlatChunk, Div64, Div32, MagicK, Const, Chunk64 };

template <Kind K, unsigned E, unsigned N>
__global__ void __launch_bounds__(kBlock) kernel(Args a) {
  constexpr unsigned atoms = E / 4;
  uint64_t chunk = uint64_t(blockIdx.x);
  if (K == FlatChunk || K == Chunk64) {
    uint64_t chunks = a.points / (uint64_t(blockDim.x) * E);
    if (chunk >= chunks)
      return;
  } else if ((chunk + 1) * kBlock * E > a.points) {
    return;
  }
  uint64_t base = chunk * uint64_t(blockDim.x) * E + threadIdx.x * 4;
#pragma unroll
  for (unsigned k = 0; k < atoms; ++k) {
    uint64_t i = base + uint64_t(k) * blockDim.x * 4;
    if (K == Copy || K == Flat || K == FlatChunk) {
      float4 v = *reinterpret_cast<const float4 *>(a.x + i);
      if (K != Copy) {
        float s = 0.01f;
        v.x = v.x >= 0 ? v.x : s * v.x;
        v.y = v.y >= 0 ? v.y : s * v.y;
        v.z = v.z >= 0 ? v.z : s * v.z;
        v.w = v.w >= 0 ? v.w : s * v.w;
      }
      *reinterpret_cast<float4 *>(a.out + i) = v;
      continue;
    }
    uint64_t row, col;
    if (K == Div64 || K == Chunk64) {
      row = i / a.n;
      col = i % a.n;
    } else if (K == Div32) {
      uint32_t r = uint32_t(i) / uint32_t(a.n);
      row = r;
      col = uint32_t(i) - r * uint32_t(a.n);
    } else if (K == MagicK) {
      row = divMagic(i, a.magic);
      col = i - row * a.n;
    } else {
      row = i / N;
      col = i % N;
    }
    uint64_t n = K == Const ? N : a.n;
    float4 v = *reinterpret_cast<const float4 *>(a.x + row * n + col);
    float4 c = *reinterpret_cast<const float4 *>(a.b + col);
    v.x += c.x;
    v.y += c.y;
    v.z += c.z;
    v.w += c.w;
    *reinterpret_cast<float4 *>(a.out + row * n + col) = v;
  }
}

__global__ void reference(Args a, unsigned *bad) {
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i < a.points; i += uint64_t(gridDim.x) * blockDim.x)
    if (a.out[i] != a.x[i] + a.b[i % a.n])
      atomicAdd(bad, 1u);
}

/// GB/s of kernel<K, E, N> on `a` (x read, out written): the median of 20
/// launches after 5.
template <Kind K, unsigned E, unsigned N> static float measure(Args a) {
  unsigned grid = unsigned(a.points / (kBlock * E));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int r = 0; r < 25; ++r) {
    CHECK(cudaEventRecord(start));
    kernel<K, E, N><<<grid, kBlock>>>(a);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (r >= 5)
      ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return 2.0 * a.points * 4 / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

template <Kind K, unsigned E, unsigned N>
static void run(const char *name, Args a, float copyGBs, bool bias,
                unsigned *bad) {
  CHECK(cudaMemset(a.out, 0xff, a.points * 4)); // NaN: unwritten shows
  float gbs = measure<K, E, N>(a);
  const char *verdict = "-";
  if (bias) {
    CHECK(cudaMemset(bad, 0, 4));
    reference<<<4096, 256>>>(a, bad);
    unsigned h;
    CHECK(cudaMemcpy(&h, bad, 4, cudaMemcpyDeviceToHost));
    verdict = h ? "WRONG" : "ok";
  }
  std::printf("%-10s E=%u n=%-6llu %8.0f GB/s %6.1f%% of copy  %s\n", name, E,
              (unsigned long long)a.n, gbs,
              copyGBs ? 100 * gbs / copyGBs : 100.0, verdict);
}

template <unsigned N> static void forN(Args a, unsigned *bad) {
  a.n = N;
  a.m = a.points / N;
  a.magic = makeMagic(N);
  // The copy first, as each n's ceiling.
  float copy = measure<Copy, 4, 1>(a);
  std::printf("copy       E=4 n=%-6u %8.0f GB/s\n", N, copy);
#define RUN(K, E, B) run<K, E, N>(#K, a, copy, B, bad)
  RUN(Flat, 4, false);
  RUN(Flat, 8, false);
  RUN(FlatChunk, 4, false);
  RUN(FlatChunk, 8, false);
  RUN(Div64, 4, true);
  RUN(Div64, 8, true);
  RUN(Div32, 4, true);
  RUN(Div32, 8, true);
  RUN(MagicK, 4, true);
  RUN(MagicK, 8, true);
  RUN(Const, 4, true);
  RUN(Const, 8, true);
  RUN(Chunk64, 4, true);
  RUN(Chunk64, 8, true);
#undef RUN
}

int main() {
  // 2^28 points: 1 GiB per tensor, far above the 60 MB L2.
  Args a{};
  a.points = uint64_t(1) << 28;
  float *x, *b, *out;
  CHECK(cudaMalloc(&x, a.points * 4));
  CHECK(cudaMalloc(&out, a.points * 4));
  CHECK(cudaMalloc(&b, 65536 * 4));
  std::vector<float> host(1 << 20);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(int(i * 2654435761u % 2001) - 1000) / 64;
  for (uint64_t off = 0; off < a.points; off += host.size())
    CHECK(cudaMemcpy(x + off, host.data(), host.size() * 4,
                     cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, host.data() + 7, 65536 * 4, cudaMemcpyHostToDevice));
  unsigned *bad;
  CHECK(cudaMalloc(&bad, 4));
  a.x = x;
  a.b = b;
  a.out = out;
  forN<64>(a, bad);
  forN<768>(a, bad);
  forN<4096>(a, bad);
  forN<65536>(a, bad);
  return 0;
}
