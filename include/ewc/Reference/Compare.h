//===- Compare.h - Comparing kernel outputs with the reference --*- C++ -*-===//
//
// The verdict on one element and on one result. An element matches when
// |got - expected| <= atol + rtol * |expected| + slack, where the tolerances
// are torch.testing.assert_close's defaults for the result's dtype and the
// slack is the reference's bound on what correct code may differ by (zero
// unless math functions are involved). On top of that: NaN matches only
// NaN, an infinity only itself, an exact zero only a zero of the same sign,
// integers and bools exactly, a bool must be stored as the byte 0 or 1, and
// an element still holding the poison it was filled with was never written.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_COMPARE_H
#define EWC_REFERENCE_COMPARE_H

#include "ewc/Reference/HostArray.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace ewc {

/// A relative and an absolute tolerance.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

/// The default tolerance of `dtype`, torch.testing.assert_close's (the table
/// in Tolerances.def): f32 rtol 1.3e-6 atol 1e-5, f64 1e-7 and 1e-7, f16
/// 1e-3 and 1e-5, bf16 1.6e-2 and 1e-5; integers and bool exact.
Tolerance getDefaultTolerance(DType dtype);

/// The table's relative (or absolute) tolerances as one line for help
/// texts: "f32 1.3e-06, f64 1e-07, f16 0.001, bf16 0.016".
std::string describeDefaultTolerances(bool relative);

/// What the reference says one element must be.
struct ExpectedElement {
  /// Float results: the value, already rounded to the result's dtype, and
  /// how far correct code may be from it beyond the tolerance (0: exact, as
  /// for + - * /; infinity: anything, e.g. after an undecidable comparison).
  double value = 0;
  double slack = 0;
  /// Integer and bool results: the value, or any value if `unsure`.
  int64_t intValue = 0;
  bool unsure = false;
};

/// One element that failed.
struct Mismatch {
  int64_t index = -1;
  /// What the kernel wrote, formatted ("1.5", "true", "unwritten", "byte
  /// 0x02").
  std::string got;
  /// What the reference expects, formatted, with its slack if any.
  std::string expected;
  /// How badly it failed: the distance over the allowed distance (infinite
  /// for NaN, sign and unwritten mismatches); the worst come first.
  double severity = 0;
};

/// The verdict on one result.
struct CompareResult {
  DType dtype = DType::F32;
  Tolerance tolerance;
  /// Elements checked.
  int64_t size = 0;
  int64_t numMismatches = 0;
  /// Elements that still hold the poison pattern (a subset of mismatches).
  int64_t numUnwritten = 0;
  /// The first mismatch, and the worst ones (most severe first).
  Mismatch first;
  std::vector<Mismatch> worst;
  /// Among the float elements that match, the one farthest from the
  /// reference (severity: its distance over the allowed one, at most 1;
  /// index -1 while every element is exact), and the first kSamples elements
  /// checked, whatever their verdict: what `ewc-run --verbose` shows of a
  /// result that matches.
  Mismatch largest;
  static constexpr unsigned kSamples = 4;
  std::vector<Mismatch> samples;

  /// The result's shape (empty: indices print flat).
  std::vector<int64_t> shape;

  bool ok() const { return numMismatches == 0; }
  /// A point as its coordinates in `shape`: "[3, 17]".
  std::string formatIndex(int64_t index) const;

  /// Adds the verdict on a later range of the same result: counts add up,
  /// the first mismatch stays the earliest, the `numWorst` worst are kept.
  void merge(const CompareResult &later, unsigned numWorst);

  /// Prints one line such as "3 of 1024 elements differ; first at [17]: got
  /// 1.5, expected 1.25 (rtol 1.3e-06, atol 1e-05)", or "all 1024 elements
  /// match".
  void print(llvm::raw_ostream &os) const;
  /// "(rtol 1.3e-06, atol 1e-05)".
  void printTolerance(llvm::raw_ostream &os) const;
};

/// Accumulates the verdict on one result, element by element (or on a range
/// of it: CompareResult::merge joins ranges).
class ResultComparer {
public:
  /// `secondRun`: see ArrayView::secondRun.
  ResultComparer(const HostArray &got, Tolerance tolerance, unsigned numWorst,
                 const HostArray *secondRun = nullptr);

  /// Checks the output's point `index` (row-major over the result's
  /// shape), which is element `element` of its array, against `expected`.
  void check(int64_t index, int64_t element, const ExpectedElement &expected);

  CompareResult finish() { return std::move(result); }

private:
  void fail(int64_t index, std::string got, std::string expected,
            double severity);
  /// Keeps element `index` among the samples while there are too few.
  void sample(int64_t index, llvm::function_ref<std::string()> got,
              llvm::function_ref<std::string()> expected);

  const HostArray &got;
  const HostArray *secondRun;
  unsigned numWorst;
  CompareResult result;
};

} // namespace ewc

#endif // EWC_REFERENCE_COMPARE_H
