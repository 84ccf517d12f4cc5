//===- Bench.cpp - Timing elementwise kernels on the GPU ------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Buffers, their rotation, CUDA-event timing and statistics for Bench.h.
// The launch itself is the caller's (ewc-run plans it with the driver), so
// the benchmark times what users call, views and variants included.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/Bench.h"

#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/DeviceBuffer.h"
#include "ewc/Runtime/HostPool.h"

#include "CudaDriver.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <vector>

using namespace ewc;
using namespace ewc::cuda;

namespace {

/// Sets of buffers start 256 bytes apart at least (cuMemAlloc's alignment),
/// so that `offsetElements` alone decides the misalignment.
constexpr uint64_t kSetAlignment = 256;

/// Launches rotate among enough sets that a set comes back only after this
/// many L2 sizes of other data went through: most of its lines are evicted.
constexpr uint64_t kL2Multiple = 3;

/// Never more sets than this (n = 1 would otherwise ask for millions).
constexpr uint64_t kMaxSets = 8192;

/// The statistics of `times` (ms) for a loop that moves `bytesMoved` bytes
/// each time.
BenchTiming summarize(std::vector<double> times, uint64_t bytesMoved) {
  std::sort(times.begin(), times.end());
  BenchTiming timing;
  timing.samples = static_cast<unsigned>(times.size());
  size_t count = times.size();
  timing.medianMs = count % 2 ? times[count / 2]
                              : (times[count / 2 - 1] + times[count / 2]) / 2;
  timing.minMs = times.front();
  timing.maxMs = times.back();
  timing.p10Ms = times[count / 10];
  timing.p90Ms = times[count - 1 - count / 10];
  timing.gigabytesPerSecond =
      timing.medianMs > 0 ? bytesMoved / (timing.medianMs * 1e6) : 0;
  return timing;
}

/// Events for `count` timed regions, destroyed with this object.
class EventPairs {
public:
  EventPairs(const DriverApi &api) : api(api) {}
  ~EventPairs() {
    for (CUevent event : events)
      api.cuEventDestroy(event);
  }
  llvm::Error create(unsigned count) {
    for (unsigned i = 0; i < 2 * count; ++i) {
      CUevent event = nullptr;
      if (llvm::Error error =
              checkCuda(api, api.cuEventCreate(&event, 0), "cuEventCreate"))
        return error;
      events.push_back(event);
    }
    return llvm::Error::success();
  }
  CUevent start(unsigned i) const { return events[2 * i]; }
  CUevent end(unsigned i) const { return events[2 * i + 1]; }

private:
  const DriverApi &api;
  std::vector<CUevent> events;
};

/// Fills `buffer` with `pattern` repeated: one host copy, then device copies
/// that double the filled prefix.
llvm::Error fillRepeated(const DriverApi &api, DeviceBuffer &buffer,
                         llvm::ArrayRef<uint8_t> pattern) {
  size_t size = buffer.getSizeInBytes();
  if (size == 0)
    return llvm::Error::success();
  if (pattern.empty())
    return buffer.fillBytes(0xA5);
  size_t filled = std::min(size, pattern.size());
  if (llvm::Error error = buffer.copyFromHost(pattern.data(), filled))
    return error;
  while (filled < size) {
    size_t chunk = std::min(filled, size - filled);
    if (llvm::Error error =
            checkCuda(api,
                      api.cuMemcpyDtoD(buffer.getAddress() + filled,
                                       buffer.getAddress(), chunk),
                      "cuMemcpyDtoD"))
      return error;
    filled += chunk;
  }
  return llvm::Error::success();
}

/// Runs `launch(set)` `warmup` times untimed, then `repetitions` times, each
/// between two events, rotating over `sets`; returns the statistics.
llvm::Expected<BenchTiming>
timeLoop(const DriverApi &api, unsigned warmup, unsigned repetitions,
         unsigned sets, uint64_t bytesMoved,
         const std::function<llvm::Error(unsigned)> &launch) {
  EventPairs events(api);
  if (llvm::Error error = events.create(repetitions))
    return std::move(error);
  unsigned next = 0;
  for (unsigned i = 0; i < warmup; ++i, next = (next + 1) % sets)
    if (llvm::Error error = launch(next))
      return std::move(error);
  if (llvm::Error error =
          checkCuda(api, api.cuCtxSynchronize(), "cuCtxSynchronize (warm-up)"))
    return std::move(error);
  // Queued back to back: the host runs ahead, so each pair brackets one
  // launch's time on the device, not the host's launch overhead (except for
  // launches shorter than that overhead, where the device waits for the host
  // and the time includes the gap, as it would for any caller).
  for (unsigned i = 0; i < repetitions; ++i, next = (next + 1) % sets) {
    if (llvm::Error error = checkCuda(
            api, api.cuEventRecord(events.start(i), nullptr), "cuEventRecord"))
      return std::move(error);
    if (llvm::Error error = launch(next))
      return std::move(error);
    if (llvm::Error error = checkCuda(
            api, api.cuEventRecord(events.end(i), nullptr), "cuEventRecord"))
      return std::move(error);
  }
  if (llvm::Error error =
          checkCuda(api, api.cuCtxSynchronize(), "cuCtxSynchronize"))
    return std::move(error);
  std::vector<double> times;
  for (unsigned i = 0; i < repetitions; ++i) {
    float ms = 0;
    if (llvm::Error error = checkCuda(
            api, api.cuEventElapsedTime(&ms, events.start(i), events.end(i)),
            "cuEventElapsedTime"))
      return std::move(error);
    times.push_back(ms);
  }
  return summarize(std::move(times), bytesMoved);
}

/// Milliseconds that `run()` took by the steady clock, or its error.
llvm::Expected<double> timeOnce(llvm::function_ref<llvm::Error()> run) {
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = run())
    return std::move(error);
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Runs `first()` and `second()` alternately, `warmup` times untimed, then
/// `repetitions` times each timed with the steady clock; returns the
/// statistics of each. Alternating, both loops see the same host: on the
/// H200's shared 16-thread host the same memcpy took 0.50 to 1.02 ms from one
/// loop to the next (2026-12-02), more than the difference being measured.
llvm::Expected<std::pair<BenchTiming, BenchTiming>>
timeHostLoops(unsigned warmup, unsigned repetitions, uint64_t bytesMoved,
              llvm::function_ref<llvm::Error()> first,
              llvm::function_ref<llvm::Error()> second) {
  for (unsigned i = 0; i < warmup; ++i) {
    if (llvm::Error error = first())
      return std::move(error);
    if (llvm::Error error = second())
      return std::move(error);
  }
  std::vector<double> firstTimes, secondTimes;
  for (unsigned i = 0; i < repetitions; ++i) {
    llvm::Expected<double> a = timeOnce(first);
    if (!a)
      return a.takeError();
    llvm::Expected<double> b = timeOnce(second);
    if (!b)
      return b.takeError();
    firstTimes.push_back(*a);
    secondTimes.push_back(*b);
  }
  return std::make_pair(summarize(std::move(firstTimes), bytesMoved),
                        summarize(std::move(secondTimes), bytesMoved));
}

/// Fills `buffer` with whole copies of `pattern` (0xA5 bytes if empty): one
/// copy, then copies that double the filled prefix.
void fillRepeatedOnHost(llvm::MutableArrayRef<uint8_t> buffer,
                        llvm::ArrayRef<uint8_t> pattern) {
  if (pattern.empty()) {
    std::memset(buffer.data(), 0xA5, buffer.size());
    return;
  }
  size_t filled = std::min(buffer.size(), pattern.size());
  std::memcpy(buffer.data(), pattern.data(), filled);
  while (filled < buffer.size()) {
    size_t chunk = std::min(filled, buffer.size() - filled);
    std::memcpy(buffer.data() + filled, buffer.data(), chunk);
    filled += chunk;
  }
}

} // namespace

/// Checks what every benchmark needs and sums the bytes moved.
static llvm::Expected<BenchReport>
startReport(llvm::ArrayRef<BenchTensor> tensors, const BenchOptions &options) {
  if (options.repetitions == 0)
    return llvm::createStringError(
        "a benchmark needs at least one timed launch");
  BenchReport report;
  for (const BenchTensor &tensor : tensors)
    report.bytesMoved += tensor.viewElements * tensor.elementSize;
  if (report.bytesMoved == 0)
    return llvm::createStringError(
        "the kernel moves no bytes (no tensor, or only empty "
        "ones): nothing to time");
  return report;
}

llvm::Expected<BenchReport>
ewc::benchOnDevice(CudaContext &context, llvm::ArrayRef<BenchTensor> tensors,
                   const BenchOptions &options, BenchLaunch launch) {
  llvm::Expected<BenchReport> started = startReport(tensors, options);
  if (!started)
    return started.takeError();
  BenchReport report = *started;
  llvm::Expected<const DriverApi &> api = getDriverApi();
  if (!api)
    return api.takeError();

  auto setStride = [](const BenchTensor &tensor) {
    return llvm::alignTo(std::max<uint64_t>(tensor.storageElements, 1) *
                             tensor.elementSize,
                         kSetAlignment);
  };
  uint64_t footprint = 0;
  for (const BenchTensor &tensor : tensors)
    footprint += setStride(tensor);
  uint64_t l2 = std::max(context.getDeviceInfo().l2CacheBytes, 0);
  report.bufferSets = static_cast<unsigned>(std::clamp<uint64_t>(
      llvm::divideCeil(kL2Multiple * l2, footprint), 1, kMaxSets));
  unsigned sets = report.bufferSets;

  // One allocation per tensor holds all its sets.
  std::vector<DeviceBuffer> buffers;
  std::vector<std::vector<uint8_t *>> storage(sets);
  for (const BenchTensor &tensor : tensors) {
    uint64_t stride = setStride(tensor);
    llvm::Expected<DeviceBuffer> buffer =
        DeviceBuffer::allocate(context, stride * sets);
    if (!buffer)
      return buffer.takeError();
    if (llvm::Error error = fillRepeated(
            *api, *buffer,
            tensor.isOutput ? llvm::ArrayRef<uint8_t>() : tensor.pattern))
      return std::move(error);
    for (unsigned s = 0; s < sets; ++s)
      storage[s].push_back(
          reinterpret_cast<uint8_t *>(buffer->getAddress() + s * stride));
    buffers.push_back(std::move(*buffer));
  }

  llvm::Expected<BenchTiming> kernel = timeLoop(
      *api, options.warmup, options.repetitions, sets, report.bytesMoved,
      [&](unsigned set) { return launch(storage[set]); });
  if (!kernel)
    return kernel.takeError();
  report.kernel = *kernel;
  // The kernel's buffers go before the copy's arrive.
  buffers.clear();

  uint64_t copyBytes = report.bytesMoved / 2;
  uint64_t copyStride =
      llvm::alignTo(std::max<uint64_t>(copyBytes, 1), kSetAlignment);
  llvm::Expected<DeviceBuffer> source =
      DeviceBuffer::allocate(context, copyStride * sets);
  if (!source)
    return source.takeError();
  llvm::Expected<DeviceBuffer> destination =
      DeviceBuffer::allocate(context, copyStride * sets);
  if (!destination)
    return destination.takeError();
  if (llvm::Error error = source->fillBytes(0x5A))
    return std::move(error);
  llvm::Expected<BenchTiming> copy = timeLoop(
      *api, options.warmup, options.repetitions, sets, report.bytesMoved,
      [&](unsigned set) {
        return checkCuda(
            *api,
            api->cuMemcpyDtoDAsync(destination->getAddress() + set * copyStride,
                                   source->getAddress() + set * copyStride,
                                   copyBytes, nullptr),
            "cuMemcpyDtoDAsync");
      });
  if (!copy)
    return copy.takeError();
  report.copy = *copy;
  return report;
}

llvm::Expected<BenchReport>
ewc::benchOnHost(llvm::ArrayRef<BenchTensor> tensors,
                 const BenchOptions &options, BenchLaunch launch) {
  llvm::Expected<BenchReport> started = startReport(tensors, options);
  if (!started)
    return started.takeError();
  BenchReport report = *started;
  // One set of host buffers: the kernel and the copy read and write the same
  // amounts, from memory or from cache alike.
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<uint8_t *> storage;
  for (const BenchTensor &tensor : tensors) {
    std::vector<uint8_t> &buffer = buffers.emplace_back(
        std::max<uint64_t>(tensor.storageElements, 1) * tensor.elementSize);
    fillRepeatedOnHost(buffer, tensor.isOutput ? llvm::ArrayRef<uint8_t>()
                                               : tensor.pattern);
    storage.push_back(buffer.data());
  }
  // The memcpy it is measured against: in as many parts as the launches
  // have threads, on a pool of the launches' kind (HostPool.h), its parts cut
  // as splitLaunch cuts a 1-D launch: at cache lines of the destination.
  size_t copyBytes = report.bytesMoved / 2;
  std::vector<uint8_t> source(copyBytes, 0x5A), destination(copyBytes);
  unsigned threads = std::max(1u, options.hostThreads);
  HostPool pool(threads);
  auto base = reinterpret_cast<uintptr_t>(destination.data());
  auto boundary = [&](unsigned part) -> size_t {
    size_t at = copyBytes * part / threads;
    if (part == 0 || part == threads)
      return at;
    return std::min<size_t>(copyBytes,
                            llvm::alignTo(base + at, kHostCacheLine) - base);
  };
  llvm::Expected<std::pair<BenchTiming, BenchTiming>> timings = timeHostLoops(
      options.warmup, options.repetitions, report.bytesMoved,
      [&] { return launch(storage); },
      [&] {
        pool.run(threads, [&](unsigned part) {
          size_t begin = boundary(part), end = boundary(part + 1);
          std::memcpy(destination.data() + begin, source.data() + begin,
                      end - begin);
        });
        return llvm::Error::success();
      });
  if (!timings)
    return timings.takeError();
  report.kernel = timings->first;
  report.copy = timings->second;
  return report;
}

llvm::Expected<double>
ewc::timeDeviceLaunches(CudaContext &context, unsigned warmup,
                        unsigned repetitions,
                        const std::function<llvm::Error()> &launch) {
  llvm::Expected<const DriverApi &> api = getDriverApi();
  if (!api)
    return api.takeError();
  llvm::Expected<BenchTiming> timing =
      timeLoop(*api, warmup, std::max(1u, repetitions), 1, 0,
               [&](unsigned) { return launch(); });
  if (!timing)
    return timing.takeError();
  return timing->medianMs;
}

static llvm::json::Object toJSON(const BenchTiming &timing) {
  return llvm::json::Object{{"median_ms", timing.medianMs},
                            {"min_ms", timing.minMs},
                            {"max_ms", timing.maxMs},
                            {"p10_ms", timing.p10Ms},
                            {"p90_ms", timing.p90Ms},
                            {"samples", timing.samples},
                            {"gb_per_s", timing.gigabytesPerSecond}};
}

llvm::json::Object ewc::toJSON(const BenchReport &report) {
  double ofCopy =
      report.copy.gigabytesPerSecond > 0
          ? report.kernel.gigabytesPerSecond / report.copy.gigabytesPerSecond
          : 0;
  return llvm::json::Object{
      {"bytes_moved", static_cast<int64_t>(report.bytesMoved)},
      {"buffer_sets", report.bufferSets},
      {"kernel", ::toJSON(report.kernel)},
      {"copy", ::toJSON(report.copy)},
      {"kernel_of_copy", ofCopy}};
}
