//===- HostPool.cpp - Threads that stay for the next CPU launch -----------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The claims, the spin and the sleep of HostPool.h. Every synchronization is
// on two atomics: `claims`, which publishes a run and hands out its parts,
// and `pending`, which the caller waits on. The mutex and the condition
// variable only put idle workers to sleep and wake them.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/HostPool.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Threading.h"

using namespace ewc;

/// A hint to the core that this thread is spinning (on x86 it also leaves
/// the other hyperthread of the core the pipeline).
static inline void pauseOnce() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

static uint32_t getGeneration(uint64_t claims) { return claims >> 32; }
static uint32_t getUnclaimed(uint64_t claims) { return uint32_t(claims); }

HostPool::HostPool(unsigned threads, std::chrono::microseconds spin)
    : spin(spin) {
  for (unsigned i = 1; i < threads; ++i)
    workers.emplace_back([this] { work(); });
}

HostPool::~HostPool() {
  stopping.store(true);
  {
    // Under the mutex: a worker between its last check and its wait cannot
    // miss the notification.
    std::lock_guard<std::mutex> lock(sleepMutex);
    wake.notify_all();
  }
  for (std::thread &worker : workers)
    worker.join();
}

void HostPool::claimParts() {
  uint64_t seen = claims.load(std::memory_order_acquire);
  while (getUnclaimed(seen) != 0) {
    if (!claims.compare_exchange_weak(seen, seen - 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire))
      continue;
    // The claim synchronizes with the store that published the run, and the
    // run cannot finish before this part does: `current` is its function,
    // also for a worker that woke for an earlier run.
    current(getUnclaimed(seen) - 1);
    pending.fetch_sub(1, std::memory_order_release);
    seen = claims.load(std::memory_order_acquire);
  }
}

void HostPool::work() {
  llvm::set_thread_name("ewc-host");
  uint32_t generation = 0;
  for (;;) {
    // Spin for the next run, then sleep until one is published.
    auto deadline = std::chrono::steady_clock::now() + spin;
    uint64_t seen;
    for (unsigned i = 1;; ++i) {
      seen = claims.load(std::memory_order_acquire);
      if (getGeneration(seen) != generation || stopping.load())
        break;
      // Reading the clock costs about as much as 64 pauses.
      if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline) {
        std::unique_lock<std::mutex> lock(sleepMutex);
        // Sequentially consistent with the caller's store of `claims` and
        // load of `sleepers` in run(): either the caller sees this sleeper
        // and notifies, or this check sees the new run.
        sleepers.fetch_add(1);
        wake.wait(lock, [&] {
          return stopping.load() || getGeneration(claims.load()) != generation;
        });
        sleepers.fetch_sub(1);
        continue;
      }
      pauseOnce();
    }
    if (stopping.load())
      return;
    generation = getGeneration(seen);
    claimParts();
  }
}

void HostPool::run(unsigned parts, llvm::function_ref<void(unsigned)> part) {
  if (workers.empty() || parts < 2) {
    for (unsigned p = 0; p < parts; ++p)
      part(p);
    return;
  }
  std::lock_guard<std::mutex> lock(runMutex);
  current = part;
  pending.store(parts, std::memory_order_relaxed);
  uint32_t generation = getGeneration(claims.load()) + 1;
  claims.store(uint64_t(generation) << 32 | parts);
  if (sleepers.load() != 0) {
    std::lock_guard<std::mutex> sleepLock(sleepMutex);
    wake.notify_all();
  }
  claimParts();
  // The parts other threads claimed are about as long as the caller's, so a
  // short spin; yielding after it lets a preempted worker finish on a
  // machine with more threads than cores.
  for (unsigned i = 0; pending.load(std::memory_order_acquire) != 0; ++i) {
    if (i < (1u << 16))
      pauseOnce();
    else
      std::this_thread::yield();
  }
}
