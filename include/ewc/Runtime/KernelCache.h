//===- KernelCache.h - Compiled kernels on disk, by content -----*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// A directory of compiled GPU code, so that a program compiled once loads in
// about a millisecond the next time instead of running the front end, the
// pipelines and ptxas again. The cache stores opaque payloads under a key
// that the caller derives from everything that changes the code (the
// driver's: the source text, the options, ewc's build, the device, the PTX
// compiler); it knows nothing about kernels, so it is tested without a GPU.
//
// Each entry is one file: a header (magic, format version, the key, the
// payload's length and its xxh3 checksum) and the payload. An entry that is
// truncated, corrupted or of another format is a miss, never trusted; the
// caller rebuilds it and stores it again. Writers never expose a partial
// entry: each writes a uniquely named temporary file in the same directory
// and renames it over the entry, which POSIX makes atomic, so processes can
// share a cache directory.
//
// Not llvm/Support/Caching.h (localCache): it stores and returns a file as
// it is, with no checksum or format version, so a truncated or corrupted
// entry would be handed to the driver; its atomic-rename writes are the same.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_KERNELCACHE_H
#define EWC_RUNTIME_KERNELCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace ewc {

/// What a cache entry is stored under: a 128-bit hash of the key's parts.
struct KernelCacheKey {
  uint64_t high = 0, low = 0;

  /// The key of `parts`, in order. Each part is hashed with its length, so
  /// ("ab", "c") and ("a", "bc") differ.
  static KernelCacheKey get(llvm::ArrayRef<llvm::StringRef> parts);
  /// 32 hex digits: the entry's file name without its extension.
  std::string str() const;
  bool operator==(const KernelCacheKey &other) const {
    return high == other.high && low == other.low;
  }
};

class KernelCache {
public:
  /// An identifier of the ewc build that is running: the GNU build ID of the
  /// binary or shared library holding this code (a hash of its bytes, so any
  /// change to the compiler changes it), or, without one, that file's path,
  /// size and modification time. Part of the driver's key.
  static llvm::StringRef getBuildId();

  /// A cache in `directory`, which is created on the first store.
  explicit KernelCache(std::string directory)
      : directory(std::move(directory)) {}

  const std::string &getDirectory() const { return directory; }
  /// The file that holds `key`'s entry.
  std::string getEntryPath(const KernelCacheKey &key) const;

  /// The payload stored under `key`, or none: no entry, or an entry that is
  /// damaged (then `*whyNot`, if given, says how, e.g. "checksum mismatch").
  std::optional<std::string> lookup(const KernelCacheKey &key,
                                    std::string *whyNot = nullptr) const;

  /// Stores `payload` under `key`, replacing any entry atomically.
  llvm::Error store(const KernelCacheKey &key, llvm::StringRef payload) const;

private:
  std::string directory;
};

/// Payloads kept in memory under the same keys, for compilations that one
/// process repeats (a notebook cell run again, a library that compiles per
/// call): the least recently used go once the payloads pass a byte budget.
/// Safe to use from any number of threads.
class KernelMemoryCache {
public:
  explicit KernelMemoryCache(size_t budgetBytes) : budget(budgetBytes) {}

  /// The process's cache, of kProcessBudget bytes.
  static KernelMemoryCache &getProcessCache();
  /// 64 MiB: about a thousand CPU kernel images of 20-60 KB.
  static constexpr size_t kProcessBudget = size_t(64) << 20;

  /// A copy of the payload stored under `key`, or none.
  std::optional<std::string> lookup(const KernelCacheKey &key);
  /// Stores `payload` under `key` (a payload over the whole budget is not
  /// kept), then drops the least recently used past the budget.
  void store(const KernelCacheKey &key, std::string payload);
  /// The bytes the payloads hold now.
  size_t getSize();

private:
  std::mutex mutex;
  /// Most recently used first.
  std::list<std::pair<KernelCacheKey, std::string>> entries;
  size_t size = 0;
  size_t budget;
};

} // namespace ewc

#endif // EWC_RUNTIME_KERNELCACHE_H
