//===- Bench.h - Timing elementwise kernels on the GPU ----------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// `ewc-run --bench`: times a loaded kernel with CUDA events and,
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
#include <functional>
#include <optional>

namespace ewc {

class CudaContext;

/// One tensor of the kernel under test (tensor parameters, then results):
/// the benchmark allocates and fills its storage, the launch callback makes
/// the view.
struct BenchTensor {
  bool isOutput = false;
  /// Bytes per element.
  size_t elementSize = 0;
  /// The elements its storage spans, from its allocation's start (its view's
  /// offset included).
  uint64_t storageElements = 0;
  /// The elements of its view: what it reads or writes once.
  uint64_t viewElements = 0;
  /// Inputs: whole elements, repeated to fill the storage (never zeros: real
  /// data; see docs/performance.md).
  llvm::ArrayRef<uint8_t> pattern;
};

struct BenchOptions {
  /// Untimed launches first (module load, clocks ramping up).
  unsigned warmup = 10;
  /// Timed launches; the median of their times is reported.
  unsigned repetitions = 100;
  /// On the host: the threads of the memcpy that the kernel is measured
  /// against, as many as its launches use.
  unsigned hostThreads = 1;
};

/// The times of one timed loop, in milliseconds, and the rate of the median.
struct BenchTiming {
  double medianMs = 0, minMs = 0, maxMs = 0, p10Ms = 0, p90Ms = 0;
  unsigned samples = 0;
  /// Bytes moved / median time, in 10^9 bytes per second.
  double gigabytesPerSecond = 0;
};

struct BenchReport {
  /// Each tensor's view read or written once: what any implementation must
  /// move.
  uint64_t bytesMoved = 0;
  /// Sets of buffers the launches rotate among (1: they exceed L2 anyway).
  unsigned bufferSets = 1;
  BenchTiming kernel;
  /// cuMemcpyDtoDAsync of bytesMoved / 2 bytes (read, then written), with the
  /// same rotation; on the host, memcpy.
  BenchTiming copy;
};

/// Queues one launch of the kernel under test on the default stream (or
/// runs it, on the host) over the tensors whose storage starts at
/// `storage[i]` (device or host addresses, one per BenchTensor).
using BenchLaunch =
    llvm::function_ref<llvm::Error(llvm::ArrayRef<uint8_t *> storage)>;

/// Times `launch` over `tensors`, then the copy. Allocates and fills its own
/// buffers (every set's storage starts 256-byte aligned). Fails on any
/// driver error, including a fault of the kernel.
llvm::Expected<BenchReport> benchOnDevice(CudaContext &context,
                                          llvm::ArrayRef<BenchTensor> tensors,
                                          const BenchOptions &options,
                                          BenchLaunch launch);

/// The CPU's counterpart, for the CPU JIT: fills host buffers alike (one
/// set), times `launch` with the steady clock, warm-up first, then a memcpy
/// of bytesMoved / 2 bytes in options.hostThreads equal parts at once (the
/// calling thread takes one), as the CPU JIT's launches split.
llvm::Expected<BenchReport> benchOnHost(llvm::ArrayRef<BenchTensor> tensors,
                                        const BenchOptions &options,
                                        BenchLaunch launch);

/// The median milliseconds of `repetitions` launches that `launch` queues
/// on the default stream, each between two events, after `warmup` untimed
/// ones: what autotuning compares (lib/Driver/Autotune.cpp).
llvm::Expected<double>
timeDeviceLaunches(CudaContext &context, unsigned warmup, unsigned repetitions,
                   const std::function<llvm::Error()> &launch);

/// The report as JSON (field names as in BenchReport, in snake case; times in
/// ms, rates in GB/s, `kernel_of_copy` = kernel GB/s / copy GB/s).
llvm::json::Object toJSON(const BenchReport &report);

} // namespace ewc

#endif // EWC_RUNTIME_BENCH_H
