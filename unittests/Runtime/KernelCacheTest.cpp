//===- KernelCacheTest.cpp - The on-disk cache of compiled kernels --------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// KernelCache without a GPU: payloads stored and found again, keys that
// differ in any part, entries damaged on disk (truncated, a flipped byte,
// another key's file) that must be misses and then rebuilt, and threads
// storing and reading one key at once.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/KernelCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace ewc;

namespace {

/// A fresh cache directory, removed with everything in it at the end.
class KernelCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ewc-cache-test", root));
    directory = (root + "/cache").str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(root); }

  /// Replaces the bytes of `key`'s entry by what `edit` makes of them.
  void editEntry(const KernelCache &cache, const KernelCacheKey &key,
                 llvm::function_ref<void(std::string &)> edit) {
    std::string path = cache.getEntryPath(key);
    auto file = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(file));
    std::string bytes = (*file)->getBuffer().str();
    edit(bytes);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << bytes;
  }

  llvm::SmallString<128> root;
  std::string directory;
};

const KernelCacheKey kKey = KernelCacheKey::get({"source", "sm_90"});

TEST_F(KernelCacheTest, MissThenHit) {
  KernelCache cache(directory);
  std::string why;
  EXPECT_FALSE(cache.lookup(kKey, &why));
  EXPECT_EQ(why, "no entry");
  ASSERT_FALSE(bool(cache.store(kKey, "cubin\0bytes")));
  std::optional<std::string> found = cache.lookup(kKey);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, "cubin\0bytes");
  // Another cache object on the same directory (another process) sees it.
  EXPECT_EQ(KernelCache(directory).lookup(kKey), found);
}

TEST_F(KernelCacheTest, StoreReplaces) {
  KernelCache cache(directory);
  ASSERT_FALSE(bool(cache.store(kKey, "old")));
  ASSERT_FALSE(bool(cache.store(kKey, "new")));
  EXPECT_EQ(cache.lookup(kKey), std::optional<std::string>("new"));
}

TEST_F(KernelCacheTest, EveryPartOfTheKeyCounts) {
  KernelCacheKey key = KernelCacheKey::get({"source", "sm_90", "13.0"});
  EXPECT_EQ(key, KernelCacheKey::get({"source", "sm_90", "13.0"}));
  EXPECT_FALSE(key == KernelCacheKey::get({"source ", "sm_90", "13.0"}));
  EXPECT_FALSE(key == KernelCacheKey::get({"source", "sm_100", "13.0"}));
  EXPECT_FALSE(key == KernelCacheKey::get({"source", "sm_90", "13.1"}));
  EXPECT_FALSE(key == KernelCacheKey::get({"source", "sm_90"}));
  // Parts are hashed with their lengths: moving a boundary changes the key.
  EXPECT_FALSE(KernelCacheKey::get({"ab", "c"}) ==
               KernelCacheKey::get({"a", "bc"}));

  KernelCache cache(directory);
  ASSERT_FALSE(bool(cache.store(key, "payload")));
  EXPECT_FALSE(cache.lookup(KernelCacheKey::get({"source", "sm_100", "13.0"})));
  EXPECT_EQ(cache.getEntryPath(key), directory + "/" + key.str() + ".ewck");
  EXPECT_EQ(key.str().size(), 32u);
}

TEST_F(KernelCacheTest, TruncatedEntryIsAMissAndIsRebuilt) {
  KernelCache cache(directory);
  ASSERT_FALSE(bool(cache.store(kKey, "a payload of some length")));
  editEntry(cache, kKey,
            [](std::string &bytes) { bytes.resize(bytes.size() - 3); });
  std::string why;
  EXPECT_FALSE(cache.lookup(kKey, &why));
  EXPECT_NE(why.find("truncated entry"), std::string::npos) << why;
  // Cut inside the header too.
  editEntry(cache, kKey, [](std::string &bytes) { bytes.resize(10); });
  EXPECT_FALSE(cache.lookup(kKey, &why));
  EXPECT_NE(why.find("truncated entry"), std::string::npos) << why;
  // The caller compiles again and stores: the entry is whole again.
  ASSERT_FALSE(bool(cache.store(kKey, "a payload of some length")));
  EXPECT_EQ(cache.lookup(kKey),
            std::optional<std::string>("a payload of some length"));
}

TEST_F(KernelCacheTest, CorruptedEntryIsAMiss) {
  KernelCache cache(directory);
  ASSERT_FALSE(bool(cache.store(kKey, "a payload of some length")));
  editEntry(cache, kKey, [](std::string &bytes) { bytes.back() ^= 1; });
  std::string why;
  EXPECT_FALSE(cache.lookup(kKey, &why));
  EXPECT_NE(why.find("checksum mismatch"), std::string::npos) << why;

  ASSERT_FALSE(bool(cache.store(kKey, "payload")));
  editEntry(cache, kKey, [](std::string &bytes) { bytes[0] = 'X'; });
  EXPECT_FALSE(cache.lookup(kKey, &why));
  EXPECT_NE(why.find("not an ewc cache entry"), std::string::npos) << why;

  ASSERT_FALSE(bool(cache.store(kKey, "payload")));
  editEntry(cache, kKey, [](std::string &bytes) { bytes[8] = 99; });
  EXPECT_FALSE(cache.lookup(kKey, &why));
  EXPECT_NE(why.find("another format"), std::string::npos) << why;
}

TEST_F(KernelCacheTest, EntryOfAnotherKeyIsAMiss) {
  KernelCache cache(directory);
  KernelCacheKey other = KernelCacheKey::get({"other"});
  ASSERT_FALSE(bool(cache.store(other, "other's payload")));
  ASSERT_FALSE(llvm::sys::fs::copy_file(cache.getEntryPath(other),
                                        cache.getEntryPath(kKey)));
  std::string why;
  EXPECT_FALSE(cache.lookup(kKey, &why));
  EXPECT_NE(why.find("another key"), std::string::npos) << why;
}

TEST_F(KernelCacheTest, ConcurrentWritersAndReadersSeeWholeEntries) {
  // Writers store payloads of different lengths under one key while
  // readers look it up: every hit is one whole payload, never a mix or a
  // prefix, and no temporary file is left behind.
  std::vector<std::string> payloads;
  for (int i = 0; i < 4; ++i)
    payloads.push_back(std::string(1000 + 4096 * i, char('a' + i)));
  std::atomic<int> hits = 0, bad = 0, errors = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      KernelCache cache(directory);
      for (int i = 0; i < 50; ++i) {
        if (llvm::Error error = cache.store(kKey, payloads[(t + i) % 4])) {
          llvm::consumeError(std::move(error));
          ++errors;
        }
        if (std::optional<std::string> found = cache.lookup(kKey)) {
          ++hits;
          if (llvm::find(payloads, *found) == payloads.end())
            ++bad;
        }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(errors, 0);
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(hits, 200);
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(KernelCacheTest, UnwritableDirectoryIsAnError) {
  // A file where the directory should be.
  std::string file = (root + "/file").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    ASSERT_FALSE(ec);
  }
  llvm::Error error = KernelCache(file + "/cache").store(kKey, "payload");
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error))
                .find("cannot create the cache directory"),
            std::string::npos);
}

TEST(KernelMemoryCache, KeepsTheMostRecentlyUsedWithinItsBudget) {
  KernelMemoryCache cache(10);
  KernelCacheKey a = KernelCacheKey::get({"a"}), b = KernelCacheKey::get({"b"}),
                 c = KernelCacheKey::get({"c"});
  EXPECT_FALSE(cache.lookup(a));
  cache.store(a, "aaaa");
  cache.store(b, "bbbb");
  EXPECT_EQ(cache.getSize(), 8u);
  // a is used again, so b is the least recently used when c comes.
  EXPECT_EQ(cache.lookup(a), std::optional<std::string>("aaaa"));
  cache.store(c, "cccc");
  EXPECT_EQ(cache.getSize(), 8u);
  EXPECT_FALSE(cache.lookup(b));
  EXPECT_EQ(cache.lookup(a), std::optional<std::string>("aaaa"));
  EXPECT_EQ(cache.lookup(c), std::optional<std::string>("cccc"));
  // Storing again replaces; a payload over the budget is not kept.
  cache.store(a, "AA");
  EXPECT_EQ(cache.lookup(a), std::optional<std::string>("AA"));
  EXPECT_EQ(cache.getSize(), 6u);
  cache.store(b, std::string(11, 'b'));
  EXPECT_FALSE(cache.lookup(b));
  EXPECT_EQ(cache.getSize(), 6u);
}

TEST(KernelCacheBuildId, IdentifiesThisBuild) {
  // Debian's GCC links with --build-id: a 160-bit SHA-1 note.
  llvm::StringRef id = KernelCache::getBuildId();
  EXPECT_TRUE(id.starts_with("build-id ")) << id.str();
  EXPECT_EQ(id.size(), strlen("build-id ") + 40) << id.str();
}

} // namespace
