//===- Reducer.h - Shrinking a failing .ew program --------------*- C++ -*-===//
//
// A delta reduction of a failing program to a smaller one that fails the same
// way, as Csmith's users do with C-Reduce, but on .ew's few shapes: drop
// whole kernels, drop `let`s, replace a parenthesized or called
// subexpression by a name or a small literal, drop parameters, and drop
// dimensions from types. The candidates are textual and need not be well
// typed: the front end rejects those that are not, and `stillFails` (which
// runs the front end) says no to them. Only the text changes: the caller
// runs every candidate over the same shape (ewc-fuzz: the one the program's
// seed draws, whatever dimensions the candidate still has).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TOOLS_EWC_FUZZ_REDUCER_H
#define EWC_TOOLS_EWC_FUZZ_REDUCER_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace ewc {
namespace fuzz {

/// The candidates a reduction tries at most, by default.
constexpr unsigned kMaxReduceAttempts = 2000;

/// The smallest program found from `text` for which `stillFails` holds,
/// trying at most `maxAttempts` candidates. `improved`, where given, sees
/// each smaller program as it is found, so that a reduction stopped by a
/// time limit (a device call's) leaves its best so far.
std::string
reduceProgram(const std::string &text,
              llvm::function_ref<bool(const std::string &)> stillFails,
              unsigned maxAttempts = kMaxReduceAttempts,
              llvm::function_ref<void(const std::string &)> improved = {});

} // namespace fuzz
} // namespace ewc

#endif // EWC_TOOLS_EWC_FUZZ_REDUCER_H
