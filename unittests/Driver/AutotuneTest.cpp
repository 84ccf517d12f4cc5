//===- AutotuneTest.cpp - Autotuning's candidates and cache payloads ------===//
//
// What lit reaches only through timings: the candidates (the default first,
// no duplicate of it), the key's size bucket, and the cache payload's round
// trip, a damaged payload refused.
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"

#include "ewc/Runtime/LaunchShape.h"

#include "gtest/gtest.h"

using namespace ewc;
using namespace ewc::driver;

namespace {

TEST(AutotuneTest, DeviceCandidatesStartWithTheDefault) {
  std::vector<TunedLaunch> candidates = getDeviceCandidates(128);
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.front(), TunedLaunch());
  EXPECT_EQ(candidates.front().str(), "default");
  // Every (block, waves) once; the default's own
  // parameters only as the default.
  for (size_t i = 1; i < candidates.size(); ++i) {
    EXPECT_TRUE(candidates[i].blockSize && candidates[i].gridWaves);
    EXPECT_FALSE(*candidates[i].blockSize == 128 &&
                 *candidates[i].gridWaves == kElementwiseWaves);
    for (size_t j = 1; j < i; ++j)
      EXPECT_FALSE(candidates[i] == candidates[j]);
  }
  EXPECT_EQ(candidates.size(), 1 + 3 * 3 - 1u);
  // A kernel whose own block is 256: 128 is a candidate, 256 at no cap not.
  for (const TunedLaunch &candidate : getDeviceCandidates(256))
    EXPECT_FALSE(candidate.blockSize == 256u && candidate.gridWaves == 0u);
}

TEST(AutotuneTest, HostCandidates) {
  EXPECT_EQ(getHostCandidates(1).size(), 1u);
  std::vector<TunedLaunch> two = getHostCandidates(2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].threads, 1u);
  std::vector<TunedLaunch> many = getHostCandidates(16);
  ASSERT_EQ(many.size(), 3u);
  EXPECT_EQ(many[1].threads, 8u);
  EXPECT_EQ(many[2].str(), "threads 1");
}

TEST(AutotuneTest, KeyBucketsBySize) {
  EXPECT_EQ(getTuningKey("b1", 1 << 20), "b1@2^20");
  EXPECT_EQ(getTuningKey("b1", (1 << 21) - 1), "b1@2^20");
  EXPECT_EQ(getTuningKey("b2.s1", 1), "b2.s1@2^0");
}

TEST(AutotuneTest, PayloadRoundTrip) {
  TunedLaunch tuned;
  tuned.blockSize = 512;
  tuned.gridWaves = 0;
  std::optional<TunedLaunch> back = TunedLaunch::deserialize(tuned.serialize());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, tuned);
  EXPECT_EQ(back->str(), "block 512, waves 0");
  TunedLaunch host;
  host.threads = 3;
  EXPECT_EQ(*TunedLaunch::deserialize(host.serialize()), host);
  EXPECT_EQ(*TunedLaunch::deserialize(TunedLaunch().serialize()),
            TunedLaunch());
  for (const char *bad : {"", "ewc tuned launch 1: block x waves - threads 0",
                          "ewc tuned launch 2: block - waves - threads 0",
                          "ewc tuned launch 1: block - waves -", "a cubin"})
    EXPECT_FALSE(TunedLaunch::deserialize(bad)) << bad;
}

} // namespace
