//===- VectorAccess.cpp - When the GPU's vector loop applies --------------===//
//
// The host's half of VectorAccess.h: the conditions that
// ew-vectorize-gpu-loops checks in the kernel (VectorizeGPULoops.cpp, run()),
// evaluated on a launch plan's addresses, extents and strides.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/VectorAccess.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

using namespace ewc;

bool ewc::isVectorElementSize(unsigned bytes) {
  return llvm::isPowerOf2_32(bytes) && bytes <= kVectorBytes;
}

unsigned ewc::getVectorAtom(unsigned widestOutputBytes,
                            unsigned widestInputBytes) {
  unsigned widest = widestOutputBytes ? widestOutputBytes : widestInputBytes;
  return widest ? kVectorBytes / widest : 0;
}

unsigned ewc::getVectorLanes(unsigned atom, unsigned bytes) {
  return std::min(atom, kVectorBytes / bytes);
}

bool ewc::isVectorAligned(const KernelSignature &kernel,
                          const LaunchPlan &plan) {
  size_t numResults = kernel.results.size();
  if (numResults == 0 || plan.tensors.size() < numResults)
    return true;
  size_t firstResult = plan.tensors.size() - numResults;
  // The nest that sets the launch: the first result of the highest rank.
  size_t nest = firstResult;
  for (size_t r = firstResult; r < plan.tensors.size(); ++r)
    if (plan.tensors[r].extents.size() > plan.tensors[nest].extents.size())
      nest = r;
  const LaunchPlan::Descriptor &result = plan.tensors[nest];
  if (result.extents.empty())
    return true;
  const std::string &innerDim = result.dims.back();
  int64_t inner = result.extents.back(), points = 1;
  for (int64_t extent : result.extents)
    points *= extent;

  struct Vectorized {
    const LaunchPlan::Descriptor *tensor;
    uintptr_t address;
    unsigned lanes = 0;
    uintptr_t getAlignment() const { return lanes * tensor->elementSize; }
  };
  // On the stack for up to 8 tensors: this runs before every GPU launch.
  llvm::SmallVector<Vectorized, 8> tensors;
  unsigned widestOutput = 0, widestInput = 0;
  for (size_t t = 0; t < plan.tensors.size(); ++t) {
    const LaunchPlan::Descriptor &tensor = plan.tensors[t];
    if (tensor.dims.empty() || tensor.dims.back() != innerDim ||
        tensor.strides.back() != 1 || !isVectorElementSize(tensor.elementSize))
      continue;
    unsigned &widest = t >= firstResult ? widestOutput : widestInput;
    widest = std::max(widest, tensor.elementSize);
    tensors.push_back({&tensor, reinterpret_cast<uintptr_t>(tensor.data)});
  }
  unsigned atom = getVectorAtom(widestOutput, widestInput);
  if (tensors.empty() || atom == 0)
    return true;
  for (Vectorized &tensor : tensors)
    tensor.lanes = getVectorLanes(atom, tensor.tensor->elementSize);

  // One row: the peel to the next aligned address of the tensor with the
  // most lanes aligns every tensor if any peel does.
  if (result.extents.size() == 1 || points == inner) {
    const Vectorized &ref =
        *std::max_element(tensors.begin(), tensors.end(),
                          [](const Vectorized &a, const Vectorized &b) {
                            return a.lanes < b.lanes;
                          });
    uintptr_t mask = ref.getAlignment() - 1;
    uintptr_t peel = ((ref.getAlignment() - (ref.address & mask)) & mask) /
                     ref.tensor->elementSize;
    if (std::all_of(tensors.begin(), tensors.end(), [&](const Vectorized &t) {
          return (t.address + peel * t.tensor->elementSize) %
                     t.getAlignment() ==
                 0;
        }))
      return true;
  }
  if (result.extents.size() == 1 || inner % atom != 0)
    return false;
  // Several rows: each row of each tensor starts aligned.
  return std::all_of(tensors.begin(), tensors.end(), [](const Vectorized &t) {
    if (t.address % t.getAlignment() != 0)
      return false;
    const LaunchPlan::Descriptor &d = *t.tensor;
    for (size_t i = 0; i + 1 < d.extents.size(); ++i)
      if (d.extents[i] != 1 &&
          (static_cast<uint64_t>(d.strides[i]) * d.elementSize) %
                  t.getAlignment() !=
              0)
        return false;
    return true;
  });
}
