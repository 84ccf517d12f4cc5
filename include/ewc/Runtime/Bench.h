//===- Bench.h - Timing elementwise kernels on the GPU ----------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// `ewc-run --bench`: times a loaded elementwise kernel with CUDA events and,
// in the same process, a device-to-device copy of the same number of bytes,
// the practical ceiling of a memory-bound kernel (docs/performance.md); on
// the CPU, the JIT's kernel against a memcpy on the same thread.
//
// Method: warm-up launches, then `repetitions` launches each bracketed by its
// own pair of events, queued back to back on the default stream; the median
// and spread of those times. When one launch's buffers would fit in L2 (a few
// times over), the benchmark rotates among several sets of buffers so that
// every launch reads from and writes to device memory, not the cache.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_BENCH_H
#define EWC_RUNTIME_BENCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace ewc {

class CudaContext;
class CudaFunction;

/// One argument of the kernel under test, in ABI order (docs/abi.md); `n`
/// (always last) is added by the benchmark.
struct BenchArg {
  enum class Kind { Input, Output, Scalar };
  Kind kind = Kind::Scalar;
  /// Input and Output: bytes per element.
  size_t elementSize = 0;
  /// Input: whole elements, repeated to fill the tensor (never zeros: real
  /// data; see docs/performance.md). Scalar: the value's bytes.
  llvm::ArrayRef<uint8_t> bytes;
};

struct BenchOptions {
  /// Untimed launches first (module load, clocks ramping up).
  unsigned warmup = 10;
  /// Timed launches; the median of their times is reported.
  unsigned repetitions = 100;
  /// Every tensor starts this many elements past a 256-byte-aligned
  /// allocation (`--offset`): misaligned base pointers.
  uint64_t offsetElements = 0;
  /// The kernel's `ew.elements_per_thread`, the grid cap and the block size,
  /// as for
  /// CudaContext::launchElementwise.
  unsigned elementsPerThread = 1;
  std::optional<unsigned> gridWaves;
  std::optional<unsigned> blockSize;
};

/// The times of one timed loop, in milliseconds, and the rate of the median.
struct BenchTiming {
  double medianMs = 0, minMs = 0, maxMs = 0, p10Ms = 0, p90Ms = 0;
  unsigned samples = 0;
  /// Bytes moved / median time, in 10^9 bytes per second.
  double gigabytesPerSecond = 0;
};

struct BenchReport {
  uint64_t numElements = 0;
  /// Each input read once and each output written once: what any
  /// implementation must move.
  uint64_t bytesMoved = 0;
  /// Sets of buffers the launches rotate among (1: they exceed L2 anyway).
  unsigned bufferSets = 1;
  uint64_t offsetElements = 0;
  BenchTiming kernel;
  /// cuMemcpyDtoDAsync of bytesMoved / 2 bytes (read, then written), with the
  /// same rotation.
  BenchTiming copy;
};

/// Times `function` over `numElements` elements with arguments `args`, then
/// the copy. Allocates and fills its own buffers. Fails on any driver error,
/// including a fault of the kernel.
llvm::Expected<BenchReport> benchElementwise(CudaContext &context,
                                             const CudaFunction &function,
                                             uint64_t numElements,
                                             llvm::ArrayRef<BenchArg> args,
                                             const BenchOptions &options);

/// The CPU's counterpart of benchElementwise, for the CPU JIT: fills host
/// buffers as benchElementwise does, then times `run(params, outputs)`, which
/// runs the kernel once over `numElements` elements (params: per argument
/// that is not an output, in order, a tensor's data or a scalar's bytes;
/// outputs: one pointer per output), with the steady clock, warm-up first;
/// then a memcpy of bytesMoved / 2 bytes on the calling thread, the one the
/// CPU JIT's kernels run on. One set of buffers (offsetElements and the
/// launch shape do not apply).
llvm::Expected<BenchReport> benchElementwiseOnHost(
    uint64_t numElements, llvm::ArrayRef<BenchArg> args,
    const BenchOptions &options,
    llvm::function_ref<llvm::Error(llvm::ArrayRef<const void *>,
                                   llvm::ArrayRef<void *>)>
        run);

/// The report as JSON (field names as in BenchReport, in snake case; times in
/// ms, rates in GB/s, `kernel_of_copy` = kernel GB/s / copy GB/s).
llvm::json::Object toJSON(const BenchReport &report);

} // namespace ewc

#endif // EWC_RUNTIME_BENCH_H
