//===- Inputs.h - The values a checked kernel runs with ---------*- C++ -*-===//
//
// Argument marshalling for a validation run: the extents of the kernel's
// dimensions (--n, --dim, --batch, or the shapes of the --input files),
// scalar values given as text, tensors read from .npy files, seeded random
// inputs for the rest, each tensor laid out in memory as the run's layout
// says (contiguous, padded rows, transposed, strided, shifted by an offset),
// and the values the compiled kernel launches with, where a scalar nobody
// set takes the compiled IR's default while the reference takes the
// source's, so a compiler that loses a default shows as a mismatch. ewc-run,
// ewc-fuzz and the unit tests share it (KernelRunner.h runs and checks with
// it).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CHECK_INPUTS_H
#define EWC_CHECK_INPUTS_H

#include "ewc/ABI/KernelSignature.h"
#include "ewc/ABI/LaunchPlan.h"
#include "ewc/Reference/Evaluator.h"
#include "ewc/Reference/HostArray.h"
#include "ewc/Reference/Npy.h"
#include "ewc/Reference/RandomInput.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace ewc {
class KernelDecl;

namespace check {

/// One scalar argument whose value is still text (ewc-run --arg NAME=VALUE).
struct ScalarArg {
  std::string name;
  std::string value;
};

/// A parameter or result name with a file (ewc-run --input and --save).
struct NamedFile {
  std::string name;
  std::string path;
};

/// Tensor inputs by parameter name (the --input files), with their shapes.
using InputArrays = llvm::StringMap<NpyArray>;

/// A tensor or scalar of a run, on the host: its storage, and where its
/// elements lie in it (ArrayView). Elements of the storage outside the view
/// hold the poison pattern, so that a kernel reading or writing them shows.
struct StridedArray {
  HostArray storage;
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;

  /// A one-element array as a view of rank 0 (a scalar).
  static StridedArray ofScalar(HostArray value);
  /// `array` as it is, row-major over `shape` (Fortran order: column-major).
  static StridedArray ofContiguous(HostArray array, std::vector<int64_t> shape,
                                   bool fortranOrder = false);

  ArrayView getView() const;
  int64_t getNumElements() const;
  /// The storage element of point `index` (row-major over `shape`).
  int64_t getElement(int64_t index) const;
  /// The elements, row-major over `shape`, as one contiguous array (what
  /// --save writes).
  HostArray toContiguous() const;
};

/// How a run lays its tensors out in memory (ewc-run --layout). The layouts
/// other than contiguous are the views users pass: a slice of a padded
/// buffer, a transpose, every other element.
enum class Layout {
  /// Row-major and dense: every dimension merges (LaunchPlan.h).
  Contiguous,
  /// Row-major, each row 3 elements longer than its extent (a slice of a
  /// wider buffer): the innermost stride is 1, the dimensions do not merge,
  /// and rows start at every alignment. Rank 1: contiguous.
  Padded,
  /// Column-major (the strides of the reversed shape, a `.T`): the innermost
  /// stride is not 1 from rank 2 up (the strided variant). Rank 1:
  /// contiguous.
  Transposed,
  /// Every stride doubled (x[..., ::2]): the strided variant at every rank.
  Strided,
  /// Each tensor one of the above, drawn from the seed and its position,
  /// with its own offset of 0 to 3 elements (getOffsetOf).
  Random,
};

/// The ewc-run spelling of `layout`: "contiguous", "padded", "transposed",
/// "strided", "random".
llvm::StringRef getLayoutName(Layout layout);
/// Parses a spelling of getLayoutName; std::nullopt if unknown.
std::optional<Layout> parseLayoutName(llvm::StringRef name);
/// Every spelling, for --help and errors: "contiguous, padded, ...".
std::string getLayoutNames();

/// What the inputs of one run are.
struct InputSpec {
  /// The extent of every named dimension that neither `dims` nor a file
  /// sets (ewc-run --n).
  int64_t n = 1024;
  /// Extents by name (ewc-run --dim NAME=N).
  llvm::StringMap<int64_t> dims;
  /// The shape of the batch `...` (ewc-run --batch). Unset: the files' if
  /// any has it, else [n] for a kernel with no named dimension and [] (no
  /// leading dimension) otherwise.
  std::optional<std::vector<int64_t>> batch;
  uint64_t seed = 0;
  InputKind kind = InputKind::Normal;
  /// How every tensor, input and output, lies in memory, and how many
  /// elements past the start of its allocation its view starts (misaligned
  /// base pointers).
  Layout layout = Layout::Contiguous;
  int64_t offset = 0;
  /// Per tensor position (the parameters' tensors, then the results), more
  /// elements past `offset` (ewc-run --offset NAME=K): one tensor's
  /// alignment apart from the others'. Missing positions add 0.
  std::vector<int64_t> tensorOffsets;
  /// Scalar values; names the kernel lacks are skipped (the caller checks
  /// that some kernel has each).
  std::vector<ScalarArg> args;
  /// Tensors that replace random ones (laid out as `layout` says); names
  /// the kernel lacks are skipped. May be null.
  const InputArrays *files = nullptr;
};

/// Parses the text of a scalar of `dtype` given for parameter `name` into a
/// one-element array, the form the reference and the ABI both take: bools
/// true/false/1/0, integers in any C base within the type's range, floats
/// anything strtod reads whole (inf and nan included), rounded once to
/// `dtype` (parseDecimal).
llvm::Expected<HostArray> parseScalar(DType dtype, llvm::StringRef text,
                                      llvm::StringRef name);

/// Reads each file as the dtype of the first of `kernels` with a tensor
/// parameter of its name, with the shape it holds.
llvm::Expected<InputArrays>
loadInputFiles(llvm::ArrayRef<NamedFile> files,
               llvm::ArrayRef<const KernelDecl *> kernels);

/// The extents of the dimensions of one run of `kernel`: the files' shapes,
/// then spec.dims, then spec.n; the batch from spec.batch, the files, or
/// the default. A disagreement is an error naming the dimension.
llvm::Expected<DimBindings> bindRunDims(const KernelDecl &kernel,
                                        const InputSpec &spec);

/// The layout of tensor `tensor` (tensor parameters, then results) of a run
/// of `spec`: spec.layout, or for Random the one drawn for it.
Layout getLayoutOf(const InputSpec &spec, unsigned tensor);

/// How many elements into its storage the view of tensor `tensor` starts:
/// spec.offset plus the tensor's spec.tensorOffsets, and for Random 0 to 3 more
/// drawn for the tensor, so that every combination of alignments (an input one
/// element in beside an aligned output, and the reverse) occurs.
int64_t getOffsetOf(const InputSpec &spec, unsigned tensor);

/// Where the elements of a tensor of `shape` lie when laid out as `layout`
/// (not Random) with its view `offset` elements into its storage.
struct TensorPlacement {
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;
  /// The elements the storage spans, the offset included.
  int64_t storageElements = 0;
};
TensorPlacement placeTensor(std::vector<int64_t> shape, Layout layout,
                            int64_t offset);

/// A tensor of `dtype` placed as placeTensor says, every element poisoned
/// (with the second pattern if `secondPoison`: HostArray::fillPoison).
StridedArray makePoisonedTensor(DType dtype, std::vector<int64_t> shape,
                                Layout layout, int64_t offset,
                                bool secondPoison = false);

/// The reference's inputs of one run of `kernel` (which passed sema) under
/// `bindings`: one array per parameter, laid out as `spec` says; seeded
/// random tensors or the files, and for each scalar its given value, else
/// its source default, else a seeded random value (makeRandomInputs), so
/// that ewc-fuzz's programs rerun in ewc-run as they ran.
llvm::Expected<std::vector<StridedArray>>
makeInputs(const KernelDecl &kernel, const InputSpec &spec,
           const DimBindings &bindings);

/// The values a kernel launches with: the reference's inputs, except that a
/// scalar with a default that no ScalarArg sets takes the default of the
/// compiled kernel (`compiled`, LoadedModule::lookupKernel).
struct LaunchValues {
  /// One per parameter, pointing into the inputs or `compiledDefaults`.
  std::vector<const StridedArray *> params;
  /// The compiled defaults in use, one-element arrays in the ABI's layout.
  std::vector<StridedArray> compiledDefaults;
};
llvm::Expected<LaunchValues>
getLaunchValues(const KernelDecl &kernel, const KernelSignature &compiled,
                llvm::ArrayRef<StridedArray> inputs,
                llvm::ArrayRef<ScalarArg> args);

/// Checks that the host arrays of a run of `kernel` under `bindings` fit in
/// this machine's memory: an allocation that fails would abort the process
/// instead of reporting.
llvm::Error checkHostMemory(const KernelDecl &kernel, const InputSpec &spec,
                            const DimBindings &bindings);

} // namespace check
} // namespace ewc

#endif // EWC_CHECK_INPUTS_H
