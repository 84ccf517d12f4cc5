//===- Evaluator.h - Reference evaluation of ew kernels ---------*- C++ -*-===//
//
// Computes what a kernel should return by walking its checked AST, with no
// MLIR involved, so that a wrong lowering cannot also be wrong here. Floats
// are computed in double precision and rounded to the result type once, at
// the end; integers in int64, wrapped around to their type's width after
// every op, as the hardware does.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_EVALUATOR_H
#define EWC_REFERENCE_EVALUATOR_H

#include "ewc/Reference/HostArray.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace ewc {

class Kernel;

/// Evaluates every result of `kernel`, which must have passed sema, for
/// length `n`. `inputs` holds one array per parameter, of the parameter's
/// DType: `n` elements for a tensor, one for a scalar. Returns one array of
/// `n` elements per result, of the result's DType, or an error describing
/// the first input that does not fit the signature.
///
/// Each node is evaluated over a block of elements at a time, not element
/// by element, so a small kernel over 10^7 elements takes a fraction of a
/// second; a `let` is computed once per block, at its first use.
llvm::Expected<std::vector<HostArray>>
evaluate(const Kernel &kernel, llvm::ArrayRef<HostArray> inputs, int64_t n);

} // namespace ewc

#endif // EWC_REFERENCE_EVALUATOR_H
