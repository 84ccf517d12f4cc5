//===- HostPool.h - Threads that stay for the next CPU launch ---*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The threads a split CPU launch runs on (docs/runtime.md, "Threads"), and
// the memcpy that `ewc-run --bench --device cpu` compares it with. A run
// hands out parts by one atomic counter that the workers and the calling
// thread claim from; the workers spin a while after each run, so that the
// next launch of a sequence starts them without a system call, then sleep on
// a condition variable. llvm::DefaultThreadPool, which this replaces for
// launches, queues a task under a mutex and wakes one sleeping worker per
// task: a launch of 16 parts paid 15 wake-ups of sleeping threads, each
// seen by the part it delays, where a 16-thread launch of 64 MiB lasts about
// a millisecond.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_HOSTPOOL_H
#define EWC_RUNTIME_HOSTPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace ewc {

/// The bytes of a cache line on the hosts ewc runs on (x86-64, and the
/// AArch64 server cores): the parts of a split launch start at one of the
/// first result's, so that no two threads write the same line.
constexpr unsigned kHostCacheLine = 64;

/// A fixed set of threads that run the parts of one job at a time.
class HostPool {
public:
  /// How long a worker keeps spinning for the next run before it sleeps.
  static constexpr std::chrono::microseconds kDefaultSpin{200};

  /// A pool of `threads` threads in all, the caller of run() being one of
  /// them: `threads - 1` workers (none for 0 or 1).
  explicit HostPool(unsigned threads,
                    std::chrono::microseconds spin = kDefaultSpin);
  ~HostPool();
  HostPool(const HostPool &) = delete;
  HostPool &operator=(const HostPool &) = delete;

  /// The threads of a run, the caller's included.
  unsigned getThreads() const { return workers.size() + 1; }

  /// Calls `part(p)` once for every p in [0, parts), on the workers and the
  /// calling thread, and returns when every call has returned. Runs from
  /// several threads at once take turns.
  void run(unsigned parts, llvm::function_ref<void(unsigned)> part);

private:
  void work();
  /// Claims and runs parts of the current run until none is left.
  void claimParts();

  /// The current run's generation (high 32 bits), which idle workers watch
  /// for a change, and how many of its parts are not yet claimed (low 32
  /// bits): part `count - 1` goes to the next claim.
  std::atomic<uint64_t> claims{0};
  /// The parts claimed but not finished, or not yet claimed.
  std::atomic<unsigned> pending{0};
  /// The current run's function, written before its generation is published.
  llvm::function_ref<void(unsigned)> current;

  std::chrono::microseconds spin;
  std::vector<std::thread> workers;
  std::mutex runMutex;
  /// Sleeping workers wait on `wake` under `sleepMutex`.
  std::mutex sleepMutex;
  std::condition_variable wake;
  std::atomic<unsigned> sleepers{0};
  std::atomic<bool> stopping{false};
};

} // namespace ewc

#endif // EWC_RUNTIME_HOSTPOOL_H
