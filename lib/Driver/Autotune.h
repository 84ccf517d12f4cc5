//===- Autotune.h - Launch parameters chosen by measurement -----*- C++ -*-===//
//
// CompileOptions::autotune: at the first launch of a kernel for a key (its
// variant, which holds the binding's code, and the size bucket of its
// points; the module's cache key holds the device, driver and source), the
// launch parameters that matter are measured on scratch outputs and the
// fastest is kept, in the module and beside the code in the kernel cache.
// The default parameters are always the first candidate, so tuning never
// picks something it measured slower than them.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_DRIVER_AUTOTUNE_H
#define EWC_LIB_DRIVER_AUTOTUNE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ewc {
namespace driver {

/// The launch parameters autotuning chooses among.
struct TunedLaunch {
  /// GPU, the elementwise schedule: the block size and the grid's cap in
  /// waves (LaunchShape.h; 0: none). Unset: the kernel's own.
  std::optional<unsigned> blockSize, gridWaves;
  /// CPU: the threads a launch splits among (0: the default, one per
  /// hardware thread).
  unsigned threads = 0;

  /// "block 256, waves 0", "threads 4", or "default".
  std::string str() const;
  /// The cache entry's payload, and back (none: not one of ours).
  std::string serialize() const;
  static std::optional<TunedLaunch> deserialize(llvm::StringRef payload);
  bool operator==(const TunedLaunch &other) const {
    return blockSize == other.blockSize && gridWaves == other.gridWaves &&
           threads == other.threads;
  }
};

/// What one key's tuning may spend, measuring included: issue 17's 50 ms
/// (Triton's autotuner runs a do_bench of tens of launches per config,
/// which users complain of). A candidate that starts within it finishes.
constexpr double kTuneBudgetMs = 50;

/// Launches timed per candidate, after one untimed: the median of 3.
constexpr unsigned kTuneRepetitions = 3;

/// A candidate replaces the best so far only when it is faster by more
/// than 3%: the median of three launches moves by about that much between
/// two runs of one candidate on a busy host, and a choice made on noise
/// would be kept in the cache for good.
constexpr double kTuneMargin = 0.97;

/// The GPU's candidates for a kernel of the elementwise schedule whose own
/// block is `defaultBlock`: the default first, then blocks of 128 to 512
/// threads under no grid cap and under caps of 2 and 8 waves (the block
/// and the grid are launch parameters of that schedule; the others' blocks
/// are compiled in).
std::vector<TunedLaunch> getDeviceCandidates(unsigned defaultBlock);

/// The CPU's: the default (every hardware thread of `hostThreads`) first,
/// then half of them and one.
std::vector<TunedLaunch> getHostCandidates(unsigned hostThreads);

/// The key of a tuned launch within its kernel: the variant and the power
/// of two at or below `points` ("b1.s0@2^20").
std::string getTuningKey(llvm::StringRef variantKey, uint64_t points);

} // namespace driver
} // namespace ewc

#endif // EWC_LIB_DRIVER_AUTOTUNE_H
