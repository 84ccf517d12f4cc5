//===- Evaluator.h - Reference check of ew kernels --------------*- C++ -*-===//
//
// Decides whether the outputs of a compiled kernel are right by computing,
// from the checked AST and with no MLIR involved, what each element must be,
// so that a wrong lowering cannot also be wrong here.
//
// The reference follows the language's semantics op by op
// (docs/language.md): every float op is computed in its compute type (f32
// for f16, bf16 and f32; f64 for f64) and rounded to it, as IEEE arithmetic
// without contraction does, so correct compiled code matches it exactly for
// + - * / sqrt, comparisons and casts. Math functions (exp, tanh, ...) may be
// off by their stated ulps; the reference carries, for every element, a
// bound on how far correct code can be from it (its "slack"), propagated
// through the ops that follow, and a comparison whose operands are within
// their slack of each other may go either way. Integers are exact.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_EVALUATOR_H
#define EWC_REFERENCE_EVALUATOR_H

#include "ewc/Reference/Compare.h"
#include "ewc/Reference/HostArray.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace ewc {

class KernelDecl;

/// How results are compared.
struct CheckOptions {
  /// Override the per-dtype defaults of getDefaultTolerance.
  std::optional<double> rtol, atol;
  /// How many of the worst elements each result keeps for printing.
  unsigned numWorst = 1;
};

/// A tensor argument as the reference reads (an input) or checks (an
/// output) it: the elements of `array` at `offset` + sum of index[k] x
/// strides[k] for every index within `shape`, which is the tensor's shape
/// with its batch `...` expanded. A scalar is a view of rank 0 of a
/// one-element array.
struct ArrayView {
  const HostArray *array = nullptr;
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;
  /// An output only, optional: the same output of a second run over the
  /// second poison pattern (HostArray::fillPoison). An element that holds
  /// the poison in `array` but not here was written, with the poison's bits
  /// as its value (a bitcast can make them).
  const HostArray *secondRun = nullptr;

  /// All of `array`, contiguous, as one dimension (or as `shape`).
  static ArrayView of(const HostArray &array);
  static ArrayView of(const HostArray &array, std::vector<int64_t> shape);
  int64_t getNumElements() const;
};

/// Checks the `outputs` of `kernel` (which must have passed sema) against
/// the reference for `inputs`, one view per parameter, and returns one
/// CompareResult per result, or an error if a view does not fit the
/// signature. The reference binds the dimensions from the views' shapes
/// itself (an extent per name, one shape for the batch).
///
/// Each result is evaluated over its own dimensions a block of points at a
/// time, and each block is compared as soon as it is computed, so no
/// expected array of a whole result is ever stored.
llvm::Expected<std::vector<CompareResult>>
checkKernel(const KernelDecl &kernel, llvm::ArrayRef<ArrayView> inputs,
            llvm::ArrayRef<ArrayView> outputs,
            const CheckOptions &options = {});

} // namespace ewc

#endif // EWC_REFERENCE_EVALUATOR_H
