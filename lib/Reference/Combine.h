//===- Combine.h - Reductions and scans in the reference --------*- C++ -*-===//
//
// The fold of one run of a reduction or a scan (the elements it combines, in
// order), exact or nearly so, with the slack that allows for the order and
// rounding of the compiled code. Private to lib/Reference.
//
// Sums add in double with Neumaier's compensation, far below an f32 sum's
// error and about an ulp of an f64 one. A compiled sum of k elements in the
// compute type (unit roundoff u: 2^-24 for f32, 2^-53 for f64), in any order
// of pairwise additions from +0.0, is within gamma(k - 1) = (k - 1) u /
// (1 - (k - 1) u) times the sum of the magnitudes of the exact sum of its
// operands (Higham, Accuracy and Stability, 4.2); the slack adds that, the
// operands' own slacks and the rounding of the exact sum to the compute
// type. A sum whose magnitudes could overflow the type in some order, and a
// run with an operand of infinite slack, may be anything; so may an online
// group's sum whose terms against a running max below the row's (their
// reaches) could (docs/design.md, "Online groups"). NaN and
// infinities are exact: a NaN or both infinities give NaN, one infinity
// that infinity. The maximum and minimum are exact up to the largest
// operand slack (they move by no more than their operands); integers and
// bools are exact, sums wrapping in their type.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_REFERENCE_COMBINE_H
#define EWC_LIB_REFERENCE_COMBINE_H

#include "ewc/Frontend/AST.h"

#include <cstdint>

namespace ewc {
namespace ref {

/// A combined value: a float's value and slack, or an integer's or bool's
/// value and whether correct code may give another.
struct Folded {
  double value = 0;
  double slack = 0;
  int64_t intValue = 0;
  bool unsure = false;
};

/// The error bound factor gamma(k) = k u / (1 - k u) of k roundings in
/// `dtype` (f32 or f64); infinite once k u reaches 1/2.
double getSummationGamma(int64_t k, DType dtype);

/// Folds a run of elements of compute type `dtype` with the combination of
/// reduction or scan `kind` (Sum, Mean and Cumsum add; Amax and Cummax,
/// Amin and Cummin take IEEE maximum and minimum; Any and All). Mean's fold
/// is the sum; the division is the evaluator's.
class Folder {
public:
  Folder(OpKind kind, DType dtype);

  /// `reach`: the largest magnitude the element may have in a partial sum
  /// of the compiled code's (an online group's term against a running max
  /// below the row's: Column::reach in Evaluator.cpp); |value| by default.
  void addFloat(double value, double slack, double reach = 0);
  void addInt(int64_t value, bool unsure);
  /// The value of the elements added so far (a scan asks after each).
  Folded finish() const;

private:
  enum class Combine { Add, Max, Min, Or, And };
  Combine combine;
  DType dtype;
  int64_t count = 0;
  // Floats: the compensated sum, magnitudes, slacks; the maximum or
  // minimum so far; the special values seen.
  double sum = 0, compensation = 0, magnitudes = 0, slacks = 0, reaches = 0;
  double best = 0, largestSlack = 0;
  bool nan = false, positiveInfinity = false, negativeInfinity = false;
  bool infiniteSlack = false;
  // Integers and bools.
  uint64_t wrapped = 0;
  int64_t bestInt = 0;
  bool anyUnsure = false, sureTrue = false, sureFalse = false;
};

} // namespace ref
} // namespace ewc

#endif // EWC_LIB_REFERENCE_COMBINE_H
