//===- HostPoolTest.cpp - Threads that stay for the next CPU launch -------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// HostPool: every part of every run called exactly once, with more parts
// than threads, fewer, one and none; runs back to back (the workers
// spinning) and after the workers fell asleep; runs from several threads at
// once; and the parts on more than one thread.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/HostPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace ewc;

namespace {

/// Runs `parts` parts on `pool` and checks each ran once and only once.
void expectEachPartOnce(HostPool &pool, unsigned parts) {
  std::vector<std::atomic<unsigned>> calls(parts);
  pool.run(parts, [&](unsigned part) { calls[part].fetch_add(1); });
  for (unsigned p = 0; p < parts; ++p)
    ASSERT_EQ(calls[p].load(), 1u) << "part " << p << " of " << parts;
}

TEST(HostPool, EachPartOnce) {
  HostPool pool(4);
  EXPECT_EQ(pool.getThreads(), 4u);
  for (unsigned parts : {0u, 1u, 2u, 3u, 4u, 5u, 17u, 1000u})
    expectEachPartOnce(pool, parts);
  // Back to back, the workers spinning: a worker that wakes late must not
  // claim a part of the next run.
  for (unsigned run = 0; run < 2000; ++run)
    expectEachPartOnce(pool, 1 + run % 9);
}

/// Whether the `parts` parts of a run on `pool` ran at once on as many
/// threads: each waits (up to 10 s) until all have started.
bool runsAtOnce(HostPool &pool, unsigned parts) {
  std::atomic<unsigned> started{0};
  std::set<std::thread::id> threads;
  std::mutex mutex;
  pool.run(parts, [&](unsigned) {
    started.fetch_add(1);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < parts &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    std::lock_guard<std::mutex> lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  return started.load() == parts && threads.size() == parts;
}

TEST(HostPool, RunsOnTheWorkers) {
  HostPool pool(3);
  EXPECT_TRUE(runsAtOnce(pool, 3));
}

TEST(HostPool, WakesSleepingWorkers) {
  // No spin: the workers sleep as soon as they are idle, and each run must
  // wake them (seen failing, every run on the caller alone, without the
  // notification in run()).
  HostPool pool(3, std::chrono::microseconds(0));
  for (unsigned run = 0; run < 20; ++run) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(runsAtOnce(pool, 3)) << "run " << run;
    expectEachPartOnce(pool, 3);
  }
}

TEST(HostPool, OneThreadRunsOnTheCaller) {
  for (unsigned threads : {0u, 1u}) {
    HostPool pool(threads);
    EXPECT_EQ(pool.getThreads(), 1u);
    std::thread::id caller = std::this_thread::get_id();
    unsigned calls = 0;
    pool.run(5, [&](unsigned part) {
      EXPECT_EQ(part, calls++);
      EXPECT_EQ(std::this_thread::get_id(), caller);
    });
    EXPECT_EQ(calls, 5u);
  }
}

TEST(HostPool, RunsFromSeveralThreads) {
  HostPool pool(3);
  std::vector<std::thread> callers;
  std::atomic<unsigned> total{0};
  for (unsigned c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (unsigned run = 0; run < 300; ++run)
        pool.run(7, [&](unsigned) { total.fetch_add(1); });
    });
  for (std::thread &caller : callers)
    caller.join();
  EXPECT_EQ(total.load(), 4u * 300 * 7);
}

} // namespace
