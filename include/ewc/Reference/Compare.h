//===- Compare.h - Comparing kernel outputs with the reference --*- C++ -*-===//
//
// Decides whether a kernel's output matches the reference, with
// torch.allclose semantics: |got - expected| <= atol + rtol * |expected|
// elementwise, NaN matching NaN at the same place, infinities matching only
// themselves, and integers and bools compared exactly.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_COMPARE_H
#define EWC_REFERENCE_COMPARE_H

#include "ewc/Reference/HostArray.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ewc {

/// A relative and an absolute tolerance.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

/// The default tolerance of `dtype` (torch.testing's defaults): f32 and f64
/// rtol 1e-5 atol 1e-8, f16 rtol 1e-3 atol 1e-5, bf16 rtol 1.6e-2 atol 1e-5,
/// zero (exact) for bool and integers.
Tolerance getDefaultTolerance(DType dtype);

/// The outcome of a comparison: whether it passed, how many elements failed
/// and the first that did.
struct CompareResult {
  bool ok = true;
  /// Elements out of tolerance.
  int64_t numMismatches = 0;
  /// The first failing element, or -1.
  int64_t firstIndex = -1;
  double got = 0;
  double expected = 0;
  /// For integer types, the exact values (got/expected round beyond 2^53).
  int64_t gotInt = 0;
  int64_t expectedInt = 0;
  /// Set when the arrays cannot be compared at all (type or length).
  std::string error;

  DType dtype = DType::F32;
  Tolerance tolerance;
  int64_t size = 0;

  /// Prints one line such as "3 of 1024 elements differ; first at [17]: got
  /// 1.5, expected 1.25 (rtol 1e-05, atol 1e-08)", or "all 1024 elements
  /// match".
  void print(llvm::raw_ostream &os) const;
};

/// Compares `got` with `expected` using `tolerance`.
CompareResult compare(const HostArray &got, const HostArray &expected,
                      Tolerance tolerance);

/// Compares with the default tolerance of `expected`'s type.
CompareResult compare(const HostArray &got, const HostArray &expected);

} // namespace ewc

#endif // EWC_REFERENCE_COMPARE_H
