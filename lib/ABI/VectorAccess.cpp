//===- VectorAccess.cpp - When the GPU's vector loop applies --------------===//
//
// The host's half of VectorAccess.h: the conditions that
// ew-vectorize-gpu-loops checks in the kernel (VectorizeGPULoops.cpp, run()),
// evaluated on a launch plan's addresses, extents and strides.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/VectorAccess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <optional>

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

namespace {

/// A tensor that the vector loop moves by vectors, as the pass decides.
struct Vectorized {
  const LaunchPlan::Descriptor *tensor;
  uintptr_t address;
  bool isOutput = false;
  unsigned lanes = 0;
  uintptr_t getAlignment() const { return lanes * tensor->elementSize; }
};

/// The loop over the largest result of a plan, and its vectorized tensors.
struct VectorLoop {
  const LaunchPlan::Descriptor *result = nullptr;
  int64_t inner = 0, points = 1;
  unsigned atom = 0;
  // On the stack for up to 8 tensors: this runs before every GPU launch.
  llvm::SmallVector<Vectorized, 8> tensors;

  /// Whether the nest is one row: one dimension, or every outer extent 1.
  bool isOneRow() const {
    return result->extents.size() == 1 || points == inner;
  }
  /// The peel that aligns `ref`: the points up to its next aligned address.
  static uintptr_t getPeel(const Vectorized &ref) {
    uintptr_t mask = ref.getAlignment() - 1;
    return ((ref.getAlignment() - (ref.address & mask)) & mask) /
           ref.tensor->elementSize;
  }
  /// How far past an aligned address `t`'s element sits after `peel` points,
  /// in elements.
  static uintptr_t getShift(const Vectorized &t, uintptr_t peel) {
    return (t.address + peel * t.tensor->elementSize) % t.getAlignment() /
           t.tensor->elementSize;
  }
};

} // namespace

/// The loop of `kernel` that sets the launch, as VectorAccess.h describes it;
/// none where nothing is vectorized (the loop stays scalar in every
/// variant).
static std::optional<VectorLoop> getVectorLoop(const KernelSignature &kernel,
                                               const LaunchPlan &plan) {
  size_t numResults = kernel.results.size();
  if (numResults == 0 || plan.tensors.size() < numResults)
    return std::nullopt;
  size_t firstResult = plan.tensors.size() - numResults;
  // The nest that sets the launch: the first result of the highest rank.
  size_t nest = firstResult;
  for (size_t r = firstResult; r < plan.tensors.size(); ++r)
    if (plan.tensors[r].extents.size() > plan.tensors[nest].extents.size())
      nest = r;
  VectorLoop loop;
  loop.result = &plan.tensors[nest];
  if (loop.result->extents.empty())
    return std::nullopt;
  const std::string &innerDim = loop.result->dims.back();
  loop.inner = loop.result->extents.back();
  for (int64_t extent : loop.result->extents)
    loop.points *= extent;

  unsigned widestOutput = 0, widestInput = 0;
  for (size_t t = 0; t < plan.tensors.size(); ++t) {
    const LaunchPlan::Descriptor &tensor = plan.tensors[t];
    if (tensor.dims.empty() || tensor.dims.back() != innerDim ||
        tensor.strides.back() != 1 || !isVectorElementSize(tensor.elementSize))
      continue;
    bool isOutput = t >= firstResult;
    unsigned &widest = isOutput ? widestOutput : widestInput;
    widest = std::max(widest, tensor.elementSize);
    loop.tensors.push_back(
        {&tensor, reinterpret_cast<uintptr_t>(tensor.data), isOutput});
  }
  loop.atom = getVectorAtom(widestOutput, widestInput);
  if (loop.tensors.empty() || loop.atom == 0)
    return std::nullopt;
  for (Vectorized &tensor : loop.tensors)
    tensor.lanes = getVectorLanes(loop.atom, tensor.tensor->elementSize);
  return loop;
}

bool ewc::isVectorAligned(const KernelSignature &kernel,
                          const LaunchPlan &plan) {
  std::optional<VectorLoop> loop = getVectorLoop(kernel, plan);
  if (!loop)
    return true;
  const llvm::SmallVectorImpl<Vectorized> &tensors = loop->tensors;

  // One row: the peel to the next aligned address of the tensor with the
  // most lanes aligns every tensor if any peel does.
  if (loop->isOneRow()) {
    const Vectorized &ref =
        *std::max_element(tensors.begin(), tensors.end(),
                          [](const Vectorized &a, const Vectorized &b) {
                            return a.lanes < b.lanes;
                          });
    uintptr_t peel = VectorLoop::getPeel(ref);
    if (std::all_of(tensors.begin(), tensors.end(), [&](const Vectorized &t) {
          return VectorLoop::getShift(t, peel) == 0;
        }))
      return true;
  }
  if (loop->result->extents.size() == 1 || loop->inner % loop->atom != 0)
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

std::vector<std::pair<int64_t, int64_t>>
ewc::getVectorShifts(const KernelSignature &kernel, const LaunchPlan &plan) {
  std::optional<VectorLoop> loop = getVectorLoop(kernel, plan);
  if (!loop || !loop->isOneRow())
    return {};
  // The peel aligns the vectorized output with the most lanes; it must
  // align every vectorized output (a store cannot be shifted).
  const Vectorized *ref = nullptr;
  for (const Vectorized &t : loop->tensors)
    if (t.isOutput && (!ref || t.lanes > ref->lanes))
      ref = &t;
  if (!ref)
    return {};
  uintptr_t peel = VectorLoop::getPeel(*ref);
  std::vector<std::pair<int64_t, int64_t>> shifts;
  for (const Vectorized &t : loop->tensors) {
    uintptr_t shift = VectorLoop::getShift(t, peel);
    if (shift == 0)
      continue;
    if (t.isOutput)
      return {};
    shifts.push_back({t.tensor - plan.tensors.data(), int64_t(shift)});
  }
  return shifts;
}

bool ewc::isRowVectorAligned(
    const LaunchPlan &plan,
    const std::vector<std::vector<std::string>> &rowDims) {
  for (auto [position, tensor] : llvm::enumerate(plan.tensors)) {
    if (tensor.dims.empty() || plan.variant.isStrided(position))
      continue;
    bool alongRow =
        llvm::any_of(rowDims, [&, &tensor = tensor](const auto &row) {
          return row.size() == 1 && row.front() == tensor.dims.back();
        });
    if (!alongRow)
      continue;
    if (reinterpret_cast<uintptr_t>(tensor.data) % kVectorBytes)
      return false;
    for (size_t d = 0; d + 1 < tensor.extents.size(); ++d)
      if (tensor.extents[d] > 1 &&
          (tensor.strides[d] * int64_t(tensor.elementSize)) % kVectorBytes)
        return false;
  }
  return true;
}
