//===- LaunchPlan.cpp - From tensors of any shape to one launch -----------===//
//
// The four steps of LaunchPlan.h. The merging works on the tensors'
// dimensions by name, with the batch expanded into one name per dimension
// ("...0", "...1", ...), so that the batch merges within itself and with the
// named dimension after it like any other pair.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/LaunchPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <limits>

using namespace ewc;

std::vector<int64_t> ewc::getContiguousStrides(llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    // Saturating: a shape whose elements exceed 2^63 has no memory anyway,
    // and planLaunch refuses its points.
    if (__builtin_mul_overflow(stride, std::max<int64_t>(shape[i], 1), &stride))
      stride = std::numeric_limits<int64_t>::max();
  }
  return strides;
}

namespace {

/// A tensor of the launch as the steps see it.
struct Tensor {
  std::string name;
  /// Its dimensions, the batch expanded; its extents come from the
  /// bindings, its strides are its own.
  std::vector<std::string> dims;
  std::vector<int64_t> strides;
  void *data = nullptr;
  unsigned elementSize = 1;
  bool isOutput = false;
};

/// "'x'" for a parameter, "result 0" for a result.
std::string describe(const KernelSignature &kernel, bool isResult,
                     unsigned index) {
  if (!isResult)
    return "'" + kernel.params[index].name + "'";
  return kernel.results.size() == 1 ? std::string("the result")
                                    : "result " + std::to_string(index);
}

std::string formatShape(llvm::ArrayRef<int64_t> shape) {
  return "[" +
         llvm::join(llvm::map_range(
                        shape, [](int64_t e) { return std::to_string(e); }),
                    ", ") +
         "]";
}

std::string formatType(DType dtype, const std::vector<std::string> &dims) {
  return (getDTypeName(dtype) + "[" + llvm::join(dims, ", ") + "]").str();
}

} // namespace

llvm::Expected<DimBindings>
ewc::bindDims(const KernelSignature &kernel,
              llvm::ArrayRef<const TensorArg *> inputs,
              llvm::ArrayRef<const TensorArg *> outputs,
              const llvm::StringMap<int64_t> &dims) {
  DimBindings bindings;
  llvm::StringMap<std::string> boundBy;
  std::string batchBy;
  bool batchBound = false;
  auto bind = [&](const TensorArg &tensor, const std::vector<std::string> &type,
                  DType dtype, const std::string &who) -> llvm::Error {
    if (tensor.strides.size() != tensor.shape.size())
      return llvm::createStringError(
          llvm::formatv("{0} has {1} extents but {2} strides", who,
                        tensor.shape.size(), tensor.strides.size()));
    for (auto [extent, stride] : llvm::zip(tensor.shape, tensor.strides))
      if (extent < 0 || stride < 0)
        return llvm::createStringError(
            who + " has a negative extent or stride (shape " +
            formatShape(tensor.shape) + ", strides " +
            formatShape(tensor.strides) +
            "); only strides of 0 and up are supported");
    bool batch = !type.empty() && type.front() == kBatchDim;
    size_t named = type.size() - batch;
    size_t rank = tensor.shape.size();
    if (!batch && rank != named) {
      std::string message = llvm::formatv(
          "{0} has {1} dimension{2}, but its type {3} has {4}", who, rank,
          rank == 1 ? "" : "s", formatType(dtype, type), named);
      if (rank > named)
        message +=
            "; a kernel over any leading dimensions declares it as '" +
            formatType(dtype,
                       [&] {
                         std::vector<std::string> withBatch{kBatchDim.str()};
                         withBatch.insert(withBatch.end(), type.begin(),
                                          type.end());
                         return withBatch;
                       }()) +
            "'";
      return llvm::createStringError(message);
    }
    if (batch && rank < named)
      return llvm::createStringError(llvm::formatv(
          "{0} has {1} dimension{2}, but its type {3} needs at least {4}", who,
          rank, rank == 1 ? "" : "s", formatType(dtype, type), named));
    size_t batchRank = rank - named;
    if (batch) {
      std::vector<int64_t> shape(tensor.shape.begin(),
                                 tensor.shape.begin() + batchRank);
      if (!batchBound) {
        bindings.batchShape = shape;
        batchBy = who;
        batchBound = true;
      } else if (shape != bindings.batchShape) {
        return llvm::createStringError(
            who + " has the leading dimensions (...) " + formatShape(shape) +
            " but " + batchBy + " has " + formatShape(bindings.batchShape) +
            "; every tensor with '...' has the same ones");
      }
    }
    for (size_t i = 0; i < named; ++i) {
      const std::string &dim = type[batch + i];
      int64_t extent = tensor.shape[batchRank + i];
      auto [it, inserted] = bindings.extents.try_emplace(dim, extent);
      if (inserted) {
        boundBy[dim] = who;
        continue;
      }
      if (it->second != extent)
        return llvm::createStringError(
            llvm::formatv("{0} has {1} = {2} but {3} has {1} = {4}", who, dim,
                          extent, boundBy[dim], it->second));
    }
    return llvm::Error::success();
  };

  for (auto [index, param] : llvm::enumerate(kernel.params)) {
    if (!param.isTensor)
      continue;
    const TensorArg *tensor = index < inputs.size() ? inputs[index] : nullptr;
    if (!tensor)
      return llvm::createStringError("no tensor for parameter '" + param.name +
                                     "'");
    if (llvm::Error error = bind(*tensor, param.dims, param.dtype,
                                 describe(kernel, false, index)))
      return std::move(error);
  }
  for (auto [index, result] : llvm::enumerate(kernel.results))
    if (index < outputs.size() && outputs[index])
      if (llvm::Error error = bind(*outputs[index], result.dims, result.dtype,
                                   describe(kernel, true, index)))
        return std::move(error);

  for (const auto &given : dims) {
    llvm::StringRef dim = given.getKey();
    if (!llvm::is_contained(kernel.dims, dim) || dim == kBatchDim) {
      std::vector<std::string> named;
      for (const std::string &d : kernel.dims)
        if (d != kBatchDim)
          named.push_back(d);
      return llvm::createStringError(
          "kernel '" + kernel.name + "' has no dimension '" + dim + "'" +
          (named.empty()
               ? std::string()
               : " (its dimensions are " + llvm::join(named, ", ") + ")"));
    }
    if (given.getValue() < 0)
      return llvm::createStringError(llvm::formatv(
          "dimension '{0}' cannot have the extent {1}", dim, given.getValue()));
    auto [it, inserted] = bindings.extents.try_emplace(dim, given.getValue());
    if (!inserted && it->second != given.getValue())
      return llvm::createStringError(
          llvm::formatv("{0} = {1} was given, but {2} has {0} = {3}", dim,
                        given.getValue(), boundBy[dim], it->second));
  }
  for (const std::string &dim : kernel.dims)
    if (dim != kBatchDim && !bindings.extents.count(dim))
      return llvm::createStringError(
          "dimension '" + dim + "' of kernel '" + kernel.name +
          "' has no extent: no tensor argument has it, so give it (ewc-run "
          "--dim " +
          dim + "=SIZE; in Python dims={'" + dim + "': SIZE})");
  return bindings;
}

std::vector<int64_t> ewc::getTensorShape(llvm::ArrayRef<std::string> dims,
                                         const DimBindings &bindings) {
  std::vector<int64_t> shape;
  for (const std::string &dim : dims) {
    if (dim == kBatchDim)
      shape.insert(shape.end(), bindings.batchShape.begin(),
                   bindings.batchShape.end());
    else
      shape.push_back(bindings.extents.lookup(dim));
  }
  return shape;
}

std::vector<int64_t> ewc::getResultShape(const KernelSignature &kernel,
                                         const DimBindings &bindings,
                                         unsigned result) {
  return getTensorShape(kernel.results[result].dims, bindings);
}

std::optional<int64_t> LaunchPlan::getExtent(llvm::StringRef dim) const {
  for (const Descriptor &tensor : tensors)
    for (auto [name, extent] : llvm::zip(tensor.dims, tensor.extents))
      if (name == dim)
        return extent;
  return std::nullopt;
}

uint64_t LaunchPlan::getLongestRow(
    const std::vector<std::vector<std::string>> &rowDims) const {
  uint64_t longest = 0;
  for (const std::vector<std::string> &row : rowDims) {
    // Saturating: a row past 2^64 elements is long, not short.
    uint64_t length = 1;
    for (const std::string &dim : row) {
      uint64_t extent = std::max<int64_t>(0, getExtent(dim).value_or(1));
      length = llvm::SaturatingMultiply(length, extent);
    }
    longest = std::max(longest, length);
  }
  return longest;
}

uint64_t LaunchPlan::getResultBytes(const KernelSignature &kernel) const {
  uint64_t bytes = 0;
  size_t first = tensors.size() - kernel.results.size();
  for (size_t t = first; t < tensors.size(); ++t) {
    uint64_t points = 1;
    for (int64_t extent : tensors[t].extents)
      points *= static_cast<uint64_t>(extent);
    bytes += points * tensors[t].elementSize;
  }
  return bytes;
}

/// Checks that no two elements of `output` share an address: along its
/// dimensions of extent above 1 sorted by stride, each stride is at least
/// the span of the ones before (a zero stride is the simplest failure).
static llvm::Error checkNoSelfOverlap(const Tensor &output,
                                      const llvm::StringMap<int64_t> &extents) {
  std::vector<std::pair<int64_t, int64_t>> dims; // stride, extent
  for (auto [dim, stride] : llvm::zip(output.dims, output.strides)) {
    int64_t extent = extents.lookup(dim);
    if (extent == 0)
      return llvm::Error::success();
    if (extent > 1 && stride == 0)
      return llvm::createStringError(llvm::formatv(
          "{0} has stride 0 along its dimension '{1}' (of extent {2}): an "
          "output cannot repeat an element (an expanded view); write into "
          "memory of its own",
          output.name, dim, extent));
    if (extent > 1)
      dims.emplace_back(stride, extent);
  }
  llvm::sort(dims);
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i].first < dims[i - 1].first * dims[i - 1].second)
      return llvm::createStringError(
          output.name + " overlaps itself: its strides let two elements share "
                        "an address; write into memory of its own");
  return llvm::Error::success();
}

/// The offset from its address of the last byte of a tensor's last element,
/// or nothing if it has no element.
static std::optional<uint64_t>
getLastByte(const Tensor &tensor, const llvm::StringMap<int64_t> &extents) {
  uint64_t span = 0;
  for (auto [dim, stride] : llvm::zip(tensor.dims, tensor.strides)) {
    int64_t extent = extents.lookup(dim);
    if (extent == 0)
      return std::nullopt;
    span += static_cast<uint64_t>(extent - 1) * stride;
  }
  return (span + 1) * tensor.elementSize - 1;
}

/// Whether two tensors whose byte ranges overlap may still share no element:
/// views of one storage that interleave, such as the two halves of a last
/// dimension (x[..., :h] and x[..., h:], rotary embedding's outputs). With
/// one element size and addresses a whole number of elements apart (d),
/// they share an element exactly when
///   sum_i a_i * k_i - sum_j b_j * l_j = d,  0 <= k_i < m_i, 0 <= l_j < n_j
/// for their strides a, b and extents m, n: a bounded linear Diophantine
/// equation, searched from the largest coefficient down with each term's
/// range cut to what the smaller ones can still make up (NumPy's
/// shares_memory solves the same). Views that nest their strides leave one
/// or two choices per term; past kMaxSteps the answer is "may overlap".
static bool mayShareElement(const LaunchPlan::Descriptor &a,
                            const LaunchPlan::Descriptor &b) {
  constexpr int64_t kMaxSteps = 1 << 16;
  if (a.elementSize != b.elementSize || a.elementSize == 0)
    return true;
  int64_t size = a.elementSize;
  int64_t delta =
      reinterpret_cast<intptr_t>(b.data) - reinterpret_cast<intptr_t>(a.data);
  if (delta % size != 0)
    return true;
  // Terms of one stride magnitude merge: c * k1 - c * k2 with k1 in [0, A]
  // and k2 in [0, B] is c * m for every m in [-B, A]. Two views of one
  // storage (rotary's halves of [2^21, 128] rows) then cost a step per
  // stride instead of a search over 2^21 rows of each.
  struct Term {
    int64_t coefficient, low, high; // c * m, m in [low, high]; c > 0
  };
  std::vector<Term> terms;
  auto add = [&](const LaunchPlan::Descriptor &t, int64_t sign) {
    for (auto [extent, stride] : llvm::zip(t.extents, t.strides)) {
      if (extent <= 1 || stride == 0)
        continue;
      int64_t c = std::abs(stride), top = extent - 1;
      bool positive = (stride > 0) == (sign > 0);
      auto found = llvm::find_if(
          terms, [&](const Term &other) { return other.coefficient == c; });
      Term &term =
          found != terms.end() ? *found : terms.emplace_back(Term{c, 0, 0});
      if (positive)
        term.high += top;
      else
        term.low -= top;
    }
  };
  add(a, 1);
  add(b, -1);
  llvm::sort(terms, [](const Term &x, const Term &y) {
    return x.coefficient > y.coefficient;
  });
  // reach[i]: the least and the most that terms i.. can sum to.
  std::vector<std::pair<int64_t, int64_t>> reach(terms.size() + 1, {0, 0});
  for (size_t i = terms.size(); i-- > 0;)
    reach[i] = {reach[i + 1].first + terms[i].coefficient * terms[i].low,
                reach[i + 1].second + terms[i].coefficient * terms[i].high};
  int64_t steps = 0;
  auto floorDiv = [](int64_t x, int64_t y) {
    return x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
  };
  auto ceilDiv = [&](int64_t x, int64_t y) { return -floorDiv(-x, y); };
  std::function<bool(size_t, int64_t)> solve = [&](size_t i,
                                                   int64_t target) -> bool {
    if (++steps > kMaxSteps)
      return true;
    if (target < reach[i].first || target > reach[i].second)
      return false;
    if (i == terms.size())
      return target == 0;
    // c * k + rest = target with rest in reach[i + 1].
    int64_t c = terms[i].coefficient;
    int64_t lo = target - reach[i + 1].second, hi = target - reach[i + 1].first;
    int64_t kLo = std::max(ceilDiv(lo, c), terms[i].low);
    int64_t kHi = std::min(floorDiv(hi, c), terms[i].high);
    for (int64_t k = kLo; k <= kHi; ++k)
      if (solve(i + 1, target - c * k))
        return true;
    return false;
  };
  return solve(0, delta / size);
}

/// "'x'" or "the result" for tensor `index` of a plan (tensor parameters,
/// then results).
static std::string describeTensor(const KernelSignature &kernel,
                                  unsigned index) {
  for (auto [p, param] : llvm::enumerate(kernel.params))
    if (param.isTensor && index-- == 0)
      return describe(kernel, false, p);
  return describe(kernel, true, index);
}

/// checkOutputOverlaps for the output `output` (an index into
/// plan.tensors).
static llvm::Error checkOutputOverlap(const KernelSignature &kernel,
                                      const LaunchPlan &plan, unsigned output) {
  const LaunchPlan::Descriptor &tensor = plan.tensors[output];
  if (!tensor.lastByte)
    return llvm::Error::success();
  auto first = reinterpret_cast<uintptr_t>(tensor.data);
  uintptr_t last = first + *tensor.lastByte;
  for (auto [index, other] : llvm::enumerate(plan.tensors)) {
    if (index == output || !other.lastByte)
      continue;
    auto otherFirst = reinterpret_cast<uintptr_t>(other.data);
    if (otherFirst + *other.lastByte < first || last < otherFirst)
      continue;
    if (other.data == tensor.data &&
        llvm::is_contained(plan.sameViews,
                           std::pair(output, static_cast<unsigned>(index))))
      continue;
    if (!mayShareElement(tensor, other))
      continue;
    return llvm::createStringError(
        describeTensor(kernel, output) + " overlaps " +
        describeTensor(kernel, index) +
        " in memory; an output may be an input itself (the same view, in "
        "place) but may not share memory with another tensor otherwise");
  }
  return llvm::Error::success();
}

llvm::Error ewc::checkOutputOverlaps(const KernelSignature &kernel,
                                     const LaunchPlan &plan) {
  for (size_t t = plan.tensors.size() - kernel.results.size();
       t < plan.tensors.size(); ++t)
    if (llvm::Error error = checkOutputOverlap(kernel, plan, t))
      return error;
  return llvm::Error::success();
}

llvm::Expected<LaunchPlan>
ewc::planLaunch(const KernelSignature &kernel,
                llvm::ArrayRef<const TensorArg *> inputs,
                llvm::ArrayRef<const TensorArg *> outputs,
                const llvm::StringMap<int64_t> &dims) {
  if (outputs.size() != kernel.results.size() ||
      llvm::is_contained(outputs, nullptr))
    return llvm::createStringError(
        llvm::formatv("kernel '{0}' has {1} results but got {2} outputs",
                      kernel.name, kernel.results.size(), outputs.size()));
  llvm::Expected<DimBindings> bound = bindDims(kernel, inputs, outputs, dims);
  if (!bound)
    return bound.takeError();
  llvm::StringMap<int64_t> extents = bound->extents;
  unsigned batchRank = bound->batchShape.size();
  for (unsigned i = 0; i < batchRank; ++i)
    extents[kBatchDim.str() + std::to_string(i)] = bound->batchShape[i];

  // The tensors, with the batch expanded.
  std::vector<Tensor> tensors;
  auto add = [&](const TensorArg &arg, const std::vector<std::string> &type,
                 DType dtype, std::string name, bool isOutput) {
    Tensor &tensor = tensors.emplace_back();
    tensor.name = std::move(name);
    for (const std::string &dim : type) {
      if (dim != kBatchDim) {
        tensor.dims.push_back(dim);
        continue;
      }
      for (unsigned i = 0; i < batchRank; ++i)
        tensor.dims.push_back(kBatchDim.str() + std::to_string(i));
    }
    tensor.strides = arg.strides;
    tensor.data = arg.data;
    tensor.elementSize = getDTypeSize(dtype);
    tensor.isOutput = isOutput;
  };
  for (auto [index, param] : llvm::enumerate(kernel.params))
    if (param.isTensor)
      add(*inputs[index], param.dims, param.dtype,
          describe(kernel, false, index), false);
  for (auto [index, result] : llvm::enumerate(kernel.results))
    add(*outputs[index], result.dims, result.dtype,
        describe(kernel, true, index), true);

  LaunchPlan plan;
  for (unsigned r = 0; r < kernel.results.size(); ++r) {
    int64_t points = 1;
    for (int64_t extent : getResultShape(kernel, *bound, r))
      if (__builtin_mul_overflow(points, extent, &points))
        return llvm::createStringError(
            describe(kernel, true, r) + " has " +
            formatShape(getResultShape(kernel, *bound, r)) +
            " elements: more than 2^63");
    plan.points = std::max(plan.points, points);
  }

  // The descriptors, in the tensors' order: their addresses and extents in
  // memory now, for the output checks, their dimensions once merged.
  plan.tensors.resize(tensors.size());
  for (auto [tensor, descriptor] : llvm::zip(tensors, plan.tensors)) {
    descriptor.data = tensor.data;
    descriptor.elementSize = tensor.elementSize;
    descriptor.lastByte = getLastByte(tensor, extents);
  }
  for (auto [o, output] : llvm::enumerate(tensors)) {
    if (!output.isOutput)
      continue;
    for (auto [i, input] : llvm::enumerate(tensors))
      if (!input.isOutput && input.dims == output.dims &&
          input.strides == output.strides &&
          input.elementSize == output.elementSize)
        plan.sameViews.emplace_back(o, i);
  }
  // Outputs: no element twice; and (checked last, on the descriptors) no
  // element shared with another tensor, except an output that is exactly
  // an input's view (in place: each element is read before it is written,
  // by the same thread).
  for (auto [o, output] : llvm::enumerate(tensors)) {
    if (!output.isOutput)
      continue;
    if (llvm::Error error = checkNoSelfOverlap(output, extents))
      return std::move(error);
  }

  // Dimensions of extent 1: their stride matters to nothing, so it becomes
  // the one that would make them contiguous with the next.
  auto normalize = [&] {
    for (Tensor &tensor : tensors)
      for (size_t i = tensor.dims.size(); i-- > 0;)
        if (extents.lookup(tensor.dims[i]) == 1)
          tensor.strides[i] =
              i + 1 < tensor.dims.size()
                  ? tensor.strides[i + 1] * extents.lookup(tensor.dims[i + 1])
                  : 1;
  };
  normalize();
  // Merge pairs of dimensions until none merges: (a, b) when every tensor
  // has both, a right before b and contiguous across them, or neither.
  auto position = [](const Tensor &tensor, llvm::StringRef dim) {
    auto it = llvm::find(tensor.dims, dim);
    return it == tensor.dims.end() ? -1 : int(it - tensor.dims.begin());
  };
  auto pinned = [&](llvm::StringRef dim) {
    return llvm::is_contained(kernel.pinnedDims, dim);
  };
  // A kernel that reads its batch position (index_flat()) pins `...`: the
  // batch's dimensions still merge among themselves, in order, which keeps
  // each point's row-major position, but not with a named one.
  bool batchPinned = pinned(kBatchDim);
  auto isBatch = [](llvm::StringRef dim) { return dim.starts_with(kBatchDim); };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Tensor &candidate : tensors)
      for (size_t i = 0; i + 1 < candidate.dims.size() && !changed; ++i) {
        std::string a = candidate.dims[i], b = candidate.dims[i + 1];
        if (pinned(a) || pinned(b) || extents[a] == 1 ||
            (batchPinned && isBatch(a) != isBatch(b)))
          continue;
        bool ok = llvm::all_of(tensors, [&](const Tensor &tensor) {
          int pa = position(tensor, a), pb = position(tensor, b);
          if (pa < 0 || pb < 0)
            return pa < 0 && pb < 0;
          return pb == pa + 1 &&
                 tensor.strides[pa] == tensor.strides[pb] * extents[b];
        });
        if (!ok)
          continue;
        extents[b] *= extents[a];
        extents[a] = 1;
        normalize();
        ++plan.merged;
        changed = true;
      }
  }

  // The batch: its dimensions of extent 1 go (it is anonymous and the same
  // in every tensor that has it), at least one stays.
  std::vector<std::string> dropped;
  for (unsigned i = 0; i < batchRank; ++i) {
    std::string dim = kBatchDim.str() + std::to_string(i);
    if (extents[dim] == 1)
      dropped.push_back(dim);
  }
  if (batchRank && dropped.size() == batchRank)
    dropped.pop_back();
  plan.variant.batchRank = std::max<unsigned>(1, batchRank - dropped.size());
  // A batch position (index_flat()) past 32 bits needs the wide variant.
  if (llvm::is_contained(kernel.pinnedDims, kBatchDim)) {
    uint64_t positions = 1;
    for (int64_t extent : bound->batchShape)
      positions = llvm::SaturatingMultiply(
          positions, static_cast<uint64_t>(std::max<int64_t>(0, extent)));
    plan.variant.wideBatch = positions > (uint64_t(1) << 32);
  }
  for (Tensor &tensor : tensors) {
    for (const std::string &dim : dropped) {
      int p = position(tensor, dim);
      if (p < 0)
        continue;
      tensor.dims.erase(tensor.dims.begin() + p);
      tensor.strides.erase(tensor.strides.begin() + p);
    }
  }
  // A rank-0 batch is one dimension of extent 1 to the compiled code.
  bool needsBatch = batchRank == 0 && kernel.hasBatch();

  unsigned index = 0;
  auto tensorIt = tensors.begin();
  auto addDescriptor = [&](const std::vector<std::string> &type) {
    const Tensor &tensor = *tensorIt++;
    LaunchPlan::Descriptor &descriptor = plan.tensors[index];
    bool batch = !type.empty() && type.front() == kBatchDim;
    if (needsBatch && batch) {
      descriptor.extents.push_back(1);
      descriptor.strides.push_back(0);
      descriptor.dims.push_back(kBatchDim.str() + "0");
    }
    for (auto [dim, stride] : llvm::zip(tensor.dims, tensor.strides)) {
      descriptor.extents.push_back(extents.lookup(dim));
      descriptor.strides.push_back(stride);
      descriptor.dims.push_back(dim);
    }
    if (needsBatch && batch)
      descriptor.strides.front() =
          descriptor.extents.size() > 1
              ? descriptor.strides[1] * descriptor.extents[1]
              : 1;
    // The innermost stride matters only along an extent above 1.
    if (!descriptor.extents.empty()) {
      if (descriptor.extents.back() == 1)
        descriptor.strides.back() = 1;
      if (descriptor.strides.back() != 1)
        plan.variant.stridedTensors.push_back(index);
    }
    ++index;
  };
  for (const ParamSignature &param : kernel.params)
    if (param.isTensor)
      addDescriptor(param.dims);
  for (const ResultSignature &result : kernel.results)
    addDescriptor(result.dims);
  // With the descriptors' extents and strides: two views whose bytes
  // overlap may still share no element (mayShareElement).
  if (llvm::Error error = checkOutputOverlaps(kernel, plan))
    return std::move(error);
  return plan;
}

std::vector<LaunchPlan> ewc::splitLaunch(const KernelSignature &kernel,
                                         const LaunchPlan &plan, unsigned parts,
                                         int64_t minPoints,
                                         int64_t alignBytes) {
  // Whole: no parts rather than one copy of the plan, so that the common
  // case (a launch under 2 x minPoints) copies nothing.
  std::vector<LaunchPlan> split;
  unsigned numParams = plan.tensors.size() - kernel.results.size();
  if (parts < 2 || kernel.results.empty() || plan.points < 2 * minPoints)
    return split;
  auto position = [](const LaunchPlan::Descriptor &tensor,
                     llvm::StringRef dim) -> int {
    for (auto [p, name] : llvm::enumerate(tensor.dims))
      if (name == dim)
        return p;
    return -1;
  };
  // The outermost dimension of the first result worth cutting.
  const LaunchPlan::Descriptor &first = plan.tensors[numParams];
  std::string chosen;
  int64_t extent = 0;
  for (auto [dim, dimExtent] : llvm::zip(first.dims, first.extents)) {
    // A cut along the batch would restart a part's batch positions at 0.
    bool pinned = llvm::is_contained(kernel.pinnedDims, dim) ||
                  (llvm::StringRef(dim).starts_with(kBatchDim) &&
                   llvm::is_contained(kernel.pinnedDims, kBatchDim));
    if (dimExtent < 2 || pinned)
      continue;
    bool everyResult = true;
    for (unsigned r = numParams; r < plan.tensors.size(); ++r)
      everyResult &= position(plan.tensors[r], dim) >= 0;
    if (!everyResult)
      continue;
    chosen = dim;
    extent = dimExtent;
    break;
  }
  if (chosen.empty())
    return split;
  // Points per row of the chosen dimension: the rest of the launch.
  int64_t rowPoints = plan.points / extent;
  int64_t maxParts =
      std::max<int64_t>(1, plan.points / std::max<int64_t>(minPoints, 1));
  int64_t count = std::min<int64_t>({int64_t(parts), extent, maxParts});
  if (count < 2)
    return split;
  // Balanced: the first (extent % count) parts have one row more.
  std::vector<int64_t> bounds(count + 1);
  for (int64_t part = 0; part <= count; ++part)
    bounds[part] = part * (extent / count) + std::min(part, extent % count);
  // Where a line of the first result holds several rows (a 1-D launch: a row
  // is a point), each inner boundary moves to the nearest row that starts a
  // line, so that no two threads write one line; a part differs from the
  // balanced one by at most half a line's rows.
  const LaunchPlan::Descriptor &firstResult = plan.tensors[numParams];
  int64_t rowBytes = firstResult.strides[position(firstResult, chosen)] *
                     int64_t(firstResult.elementSize);
  auto base = reinterpret_cast<uintptr_t>(firstResult.data);
  if (alignBytes > 1 && rowBytes > 0 && rowBytes < alignBytes &&
      alignBytes % rowBytes == 0 && base % rowBytes == 0) {
    int64_t step = alignBytes / rowBytes;
    // The first row that starts a line.
    int64_t aligned =
        int64_t((alignBytes - base % alignBytes) % alignBytes) / rowBytes;
    for (int64_t part = 1; part < count; ++part)
      bounds[part] = std::clamp<int64_t>(
          aligned +
              llvm::divideFloorSigned(bounds[part] - aligned + step / 2, step) *
                  step,
          0, extent);
  }
  for (int64_t part = 0; part < count; ++part) {
    int64_t begin = bounds[part], rows = bounds[part + 1] - begin;
    // Rounding can leave a part of a short launch empty.
    if (rows == 0)
      continue;
    LaunchPlan &piece = split.emplace_back(plan);
    piece.points = rowPoints * rows;
    for (LaunchPlan::Descriptor &tensor : piece.tensors) {
      int p = position(tensor, chosen);
      if (p < 0)
        continue;
      tensor.data =
          static_cast<char *>(tensor.data) +
          begin * tensor.strides[p] * static_cast<int64_t>(tensor.elementSize);
      tensor.extents[p] = rows;
    }
  }
  // One part left (the others empty) is the whole plan.
  if (split.size() < 2)
    split.clear();
  return split;
}
