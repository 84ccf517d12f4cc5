//===- LaunchPlanCache.cpp - A kernel's plans, reused by shape ------------===//
//
// The key and the cache of LaunchPlanCache.h.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/LaunchPlanCache.h"

#include "llvm/ADT/STLExtras.h"

using namespace ewc;

bool ewc::getLaunchKey(const KernelSignature &kernel,
                       llvm::ArrayRef<const TensorArg *> inputs,
                       llvm::ArrayRef<const TensorArg *> outputs,
                       const llvm::StringMap<int64_t> &dims,
                       llvm::SmallVectorImpl<int64_t> &key) {
  key.clear();
  if (inputs.size() < kernel.params.size() ||
      outputs.size() != kernel.results.size())
    return false;
  // Both lengths: planLaunch refuses a tensor whose strides do not match its
  // extents, and [2, 3] with no strides must differ from [2] with [3].
  auto add = [&](const TensorArg *tensor) {
    if (!tensor)
      return false;
    key.push_back(tensor->shape.size());
    key.push_back(tensor->strides.size());
    key.append(tensor->shape.begin(), tensor->shape.end());
    key.append(tensor->strides.begin(), tensor->strides.end());
    return true;
  };
  for (auto [param, input] : llvm::zip(kernel.params, inputs))
    if (param.isTensor && !add(input))
      return false;
  for (const TensorArg *output : outputs)
    if (!add(output))
      return false;
  // The rest of the key, by position, not name: the map's order is its
  // hashing's, so one set of extents may give two keys (a miss), never two
  // sets one.
  for (const auto &given : dims) {
    auto found = llvm::find(kernel.dims, given.getKey());
    if (found == kernel.dims.end())
      return false;
    key.push_back(found - kernel.dims.begin());
    key.push_back(given.getValue());
  }
  return true;
}

/// Puts the addresses of `inputs` and `outputs` into `plan`'s descriptors.
static void setAddresses(const KernelSignature &kernel,
                         llvm::ArrayRef<const TensorArg *> inputs,
                         llvm::ArrayRef<const TensorArg *> outputs,
                         LaunchPlan &plan) {
  LaunchPlan::Descriptor *descriptor = plan.tensors.data();
  for (auto [param, input] : llvm::zip(kernel.params, inputs))
    if (param.isTensor)
      (descriptor++)->data = input->data;
  for (const TensorArg *output : outputs)
    (descriptor++)->data = output->data;
}

llvm::Error
LaunchPlanCache::get(const KernelSignature &kernel,
                     llvm::ArrayRef<const TensorArg *> inputs,
                     llvm::ArrayRef<const TensorArg *> outputs,
                     const llvm::StringMap<int64_t> &dims, LaunchPlan &plan,
                     llvm::function_ref<void(LaunchPlan &)> complete) {
  // 8 tensors of rank 2 without a spill.
  llvm::SmallVector<int64_t, 48> key;
  bool keyed = getLaunchKey(kernel, inputs, outputs, dims, key);
  if (keyed) {
    std::unique_lock<std::mutex> lock(mutex);
    for (const Entry &entry : entries) {
      if (llvm::ArrayRef(entry.key) != llvm::ArrayRef(key))
        continue;
      plan = entry.plan;
      lock.unlock();
      ++hits;
      // The kept plan passed every check that reads no address; the outputs
      // are checked against this call's.
      setAddresses(kernel, inputs, outputs, plan);
      return checkOutputOverlaps(kernel, plan);
    }
  }
  llvm::Expected<LaunchPlan> planned =
      planLaunch(kernel, inputs, outputs, dims);
  if (!planned)
    return planned.takeError();
  ++misses;
  if (complete)
    complete(*planned);
  if (keyed) {
    std::lock_guard<std::mutex> lock(mutex);
    Entry entry{llvm::SmallVector<int64_t, 0>(llvm::ArrayRef(key)), *planned};
    if (entries.size() < kCapacity) {
      entries.push_back(std::move(entry));
    } else {
      entries[oldest] = std::move(entry);
      oldest = (oldest + 1) % kCapacity;
    }
  }
  plan = std::move(*planned);
  return llvm::Error::success();
}
