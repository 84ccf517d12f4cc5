//===- LaunchPlan.h - From tensors of any shape to one launch ---*- C++ -*-===//
//
// What a launch of a kernel on strided tensors of any shape takes, worked out
// on the host before every launch, the same way for the GPU and the CPU:
//
//   1. bind the dimensions: each name gets one extent from the tensors that
//      have it (or from the caller, for a dimension only results have), the
//      batch `...` one shape shared exactly by every tensor that writes it;
//      a disagreement is an error naming the dimension and both extents;
//   2. check the outputs: none may overlap itself (a zero stride) or another
//      tensor, unless it is exactly an input (in place);
//   3. merge dimensions: two dimensions next to each other in every tensor
//      that has either, contiguous across in every one (stride of the outer
//      = stride of the inner x its extent), become one, as TensorIterator
//      coalesces them, so that a contiguous tensor of any rank runs as one
//      row. The compiled code reads extents from the descriptors, so a
//      merged dimension is the inner one with the product of both extents
//      and the outer one an extent of 1: no other code is needed. The batch
//      drops its dimensions of extent 1;
//   4. pick the variant (KernelVariant.h): the batch rank, and the tensors
//      whose innermost stride is not 1 (on the GPU, the runtime adds whether
//      the addresses allow vectors: VectorAccess.h).
//
// Pure C++ on LLVM Support: the runtime, the APIs, ewc-run and the unit
// tests share it, and it knows nothing of CUDA or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_LAUNCHPLAN_H
#define EWC_ABI_LAUNCHPLAN_H

#include "ewc/ABI/KernelSignature.h"
#include "ewc/ABI/KernelVariant.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ewc {

/// A tensor as a launch takes it: the address of its element at index 0,
/// its extents and its strides (in elements, any value from 0), as DLPack's
/// DLTensor has them.
struct TensorArg {
  void *data = nullptr;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

/// The row-major strides of a tensor of `shape`.
std::vector<int64_t> getContiguousStrides(llvm::ArrayRef<int64_t> shape);

/// The extents of a kernel's dimensions in one launch.
struct DimBindings {
  /// Every named dimension's extent.
  llvm::StringMap<int64_t> extents;
  /// The batch `...`'s shape, outermost first (empty for none or rank 0).
  std::vector<int64_t> batchShape;
};

/// Binds the dimensions of `kernel` from the shapes of `inputs` (one per
/// parameter: null for a scalar) and `outputs` (one per result: null where
/// the caller has none yet), and `dims`, extents by name for what no tensor
/// has (ewc-run --dim). The errors name the dimension, the tensors and both
/// extents, e.g. "'b' has n = 768 but 'x' has n = 1024".
llvm::Expected<DimBindings> bindDims(const KernelSignature &kernel,
                                     llvm::ArrayRef<const TensorArg *> inputs,
                                     llvm::ArrayRef<const TensorArg *> outputs,
                                     const llvm::StringMap<int64_t> &dims);

/// The shape of a tensor of dimensions `dims` (a signature's, "..." for the
/// batch) under `bindings`: its extents in order, the batch expanded.
std::vector<int64_t> getTensorShape(llvm::ArrayRef<std::string> dims,
                                    const DimBindings &bindings);

/// The shape of result `result` under `bindings` (getTensorShape).
std::vector<int64_t> getResultShape(const KernelSignature &kernel,
                                    const DimBindings &bindings,
                                    unsigned result);

/// A launch, planned: the variant it needs and the descriptor of every
/// tensor (tensor parameters, then results) in the variant's ranks.
struct LaunchPlan {
  struct Descriptor {
    void *data = nullptr;
    std::vector<int64_t> extents, strides;
    /// The name of each dimension ("...0", "...1" for the batch's), and the
    /// bytes of one element: what splitLaunch needs.
    std::vector<std::string> dims;
    unsigned elementSize = 0;
    /// The offset from `data` of its last element's last byte, or none if it
    /// has no element: with `data`, the bytes the output checks compare
    /// (checkOutputOverlaps). The whole tensor's in splitLaunch's parts.
    std::optional<uint64_t> lastByte;
  };
  /// The variant the launch needs: planLaunch sets the batch rank, the
  /// strided tensors and the wide batch; the runtime the GPU's and the CPU's
  /// choices (KernelVariant.h).
  KernelVariant variant;
  std::vector<Descriptor> tensors;
  /// The points of the kernel's largest loop nest (its largest result):
  /// what the grid covers.
  int64_t points = 0;
  /// How many dimensions the merging took away, for --verbose.
  unsigned merged = 0;
  /// The (output, input) pairs of `tensors` whose views are the same
  /// (dimensions, strides, element size): an output may be such an input
  /// itself (in place) where their addresses are equal.
  std::vector<std::pair<unsigned, unsigned>> sameViews;

  /// The extent of dimension `dim` in this launch (any tensor that has it),
  /// or none.
  std::optional<int64_t> getExtent(llvm::StringRef dim) const;
  /// The most elements of any row of `rowDims` (LaunchDescriptor::rowDims):
  /// the product of its dimensions' extents; 0 for none.
  uint64_t
  getLongestRow(const std::vector<std::vector<std::string>> &rowDims) const;
  /// The bytes of all the results of `kernel` (the plan's) in this launch.
  uint64_t getResultBytes(const KernelSignature &kernel) const;
};

/// Plans a launch of `kernel` on `inputs` (one per parameter: null for a
/// scalar) and `outputs` (one per result), with `dims` as in bindDims.
llvm::Expected<LaunchPlan>
planLaunch(const KernelSignature &kernel,
           llvm::ArrayRef<const TensorArg *> inputs,
           llvm::ArrayRef<const TensorArg *> outputs,
           const llvm::StringMap<int64_t> &dims = {});

/// Checks that no output of `plan` overlaps another tensor at the
/// descriptors' addresses, unless it is exactly an input (in place: a pair of
/// `sameViews` at one address). planLaunch checks this itself; a caller that
/// reuses a plan for other addresses (LaunchPlanCache) checks again.
llvm::Error checkOutputOverlaps(const KernelSignature &kernel,
                                const LaunchPlan &plan);

/// Splits `plan` into at most `parts` launches that together cover it once,
/// for the CPU's threads: along the outermost dimension of the first result
/// with an extent above 1 that every result has and that the kernel reads no
/// coordinate or extent of (`kernel.pinnedDims`: index(d) and size(d) would
/// see the part's), each part at least `minPoints` points. Every tensor with
/// that dimension gets its part of the rows (its address moved, its extent
/// cut); the others are whole in every part. Where `alignBytes` (a power of
/// two) holds several rows of the first result, as in a 1-D launch whose
/// rows are points, the parts start at rows whose address in the first
/// result is a multiple of it. No parts (run `plan` itself) where no
/// dimension qualifies or the launch is too small to split.
std::vector<LaunchPlan> splitLaunch(const KernelSignature &kernel,
                                    const LaunchPlan &plan, unsigned parts,
                                    int64_t minPoints, int64_t alignBytes = 1);

} // namespace ewc

#endif // EWC_ABI_LAUNCHPLAN_H
