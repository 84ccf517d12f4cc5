//===- LaunchPlanCache.h - A kernel's plans, reused by shape ----*- C++ -*-===//
//
// planLaunch reads the tensors' shapes and strides and the extents given by
// name; of the addresses only the output checks read anything. A program
// that calls a kernel in a loop passes the same shapes and strides every
// time, so the driver keeps the plans of each kernel's last few distinct
// launches, keyed by everything planLaunch reads but the addresses, and on
// a hit copies the plan, puts the call's addresses in and checks the outputs
// against them again (checkOutputOverlaps). planLaunch made about 60 heap
// allocations for a 1-D LeakyReLU (callgrind, docs/performance.md); a hit
// makes none when the caller's plan already has the room.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_LAUNCHPLANCACHE_H
#define EWC_ABI_LAUNCHPLANCACHE_H

#include "ewc/ABI/LaunchPlan.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace ewc {

/// The key of a launch of `kernel` (the arguments as planLaunch takes them):
/// the rank, extents and strides of every tensor, then each extent of
/// `dims` with its dimension's position in kernel.dims, as integers. False
/// (and no key) for arguments planLaunch refuses whatever their shapes (a
/// tensor missing, a dimension the kernel lacks): they are planned, and
/// refused, every time.
bool getLaunchKey(const KernelSignature &kernel,
                  llvm::ArrayRef<const TensorArg *> inputs,
                  llvm::ArrayRef<const TensorArg *> outputs,
                  const llvm::StringMap<int64_t> &dims,
                  llvm::SmallVectorImpl<int64_t> &key);

/// The plans of one kernel's recent launches. Any number of threads may
/// call get at once.
class LaunchPlanCache {
public:
  /// Plans kept per kernel; the oldest goes first. A loop over a few shapes
  /// hits; more than this many in turn would plan every time.
  static constexpr unsigned kCapacity = 8;

  /// Sets `plan` to the plan of a launch of `kernel` (always the same one
  /// for one cache) on these arguments, as planLaunch makes it: a kept
  /// plan with the arguments' addresses where one has the same key, else
  /// planLaunch's, completed by `complete` (what the caller decides from the
  /// plan alone, e.g. the tiled tensors) and kept. `plan` is assigned, so
  /// its vectors keep their room: a caller that passes the same one each
  /// time allocates nothing on a hit. Errors are planLaunch's, word for
  /// word.
  llvm::Error get(const KernelSignature &kernel,
                  llvm::ArrayRef<const TensorArg *> inputs,
                  llvm::ArrayRef<const TensorArg *> outputs,
                  const llvm::StringMap<int64_t> &dims, LaunchPlan &plan,
                  llvm::function_ref<void(LaunchPlan &)> complete = {});

  /// Launches planned from a kept plan, and planned anew.
  unsigned getHits() const { return hits; }
  unsigned getMisses() const { return misses; }

private:
  struct Entry {
    llvm::SmallVector<int64_t, 0> key;
    LaunchPlan plan;
  };
  std::mutex mutex;
  llvm::SmallVector<Entry, 0> entries;
  /// The entry the next new plan replaces once all are taken.
  unsigned oldest = 0;
  std::atomic<unsigned> hits{0}, misses{0};
};

} // namespace ewc

#endif // EWC_ABI_LAUNCHPLANCACHE_H
