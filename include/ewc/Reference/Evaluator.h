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

class Kernel;

/// How results are compared.
struct CheckOptions {
  /// Override the per-dtype defaults of getDefaultTolerance.
  std::optional<double> rtol, atol;
  /// How many of the worst elements each result keeps for printing.
  unsigned numWorst = 1;
};

/// Checks the `outputs` of `kernel` (which must have passed sema) against
/// the reference for `inputs`, one array per parameter (`n` elements for a
/// tensor, one for a scalar), and returns one CompareResult per result, or
/// an error if an array does not fit the signature.
///
/// The kernel is evaluated a block of elements at a time and each block is
/// compared as soon as it is computed, so no expected array of all n
/// elements is ever stored.
llvm::Expected<std::vector<CompareResult>>
checkKernel(const Kernel &kernel, llvm::ArrayRef<HostArray> inputs,
            llvm::ArrayRef<HostArray> outputs, int64_t n,
            const CheckOptions &options = {});

} // namespace ewc

#endif // EWC_REFERENCE_EVALUATOR_H
