//===- Combine.cpp - Reductions and scans in the reference ----------------===//
//
// Combine.h says what a fold is and why its slack is what it is.
//
//===----------------------------------------------------------------------===//

#include "Combine.h"

#include "Semantics.h"

#include "ewc/Reference/HostArray.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ewc;
using namespace ewc::ref;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double ref::getSummationGamma(int64_t k, DType dtype) {
  double u = dtype == DType::F64 ? 0x1p-53 : 0x1p-24;
  double ku = static_cast<double>(k) * u;
  if (ku >= 0.5)
    return kInfinity;
  return ku / (1 - ku);
}

Folder::Folder(OpKind kind, DType dtype) : dtype(dtype) {
  switch (kind) {
  case OpKind::Sum:
  case OpKind::Mean:
  case OpKind::Cumsum:
    combine = Combine::Add;
    break;
  case OpKind::Amax:
  case OpKind::Cummax:
    combine = Combine::Max;
    break;
  case OpKind::Amin:
  case OpKind::Cummin:
    combine = Combine::Min;
    break;
  case OpKind::Any:
    combine = Combine::Or;
    break;
  case OpKind::All:
    combine = Combine::And;
    break;
  default:
    llvm_unreachable("not a reduction or a scan");
  }
  // The identities, as the compiled code starts from them.
  // An integer type's extremes are where -inf and +inf saturate.
  if (combine == Combine::Max) {
    best = -kInfinity;
    if (isInteger(dtype))
      bestInt = convertFloatToInt(-kInfinity, dtype);
  } else if (combine == Combine::Min) {
    best = kInfinity;
    if (isInteger(dtype))
      bestInt = convertFloatToInt(kInfinity, dtype);
  }
}

void Folder::addFloat(double value, double slack, double reach) {
  ++count;
  if (std::isinf(slack))
    infiniteSlack = true;
  largestSlack = std::max(largestSlack, slack);
  if (std::isnan(value)) {
    nan = true;
    return;
  }
  switch (combine) {
  case Combine::Add: {
    if (std::isinf(value)) {
      (value > 0 ? positiveInfinity : negativeInfinity) = true;
      return;
    }
    // Neumaier's compensated sum.
    double next = sum + value;
    if (std::fabs(sum) >= std::fabs(value))
      compensation += (sum - next) + value;
    else
      compensation += (value - next) + sum;
    sum = next;
    magnitudes += std::fabs(value);
    reaches += std::fmax(reach, std::fabs(value)); // a NaN reach: |value|
    slacks += slack;
    return;
  }
  case Combine::Max:
    best = maximum(best, value);
    return;
  case Combine::Min:
    best = minimum(best, value);
    return;
  case Combine::Or:
  case Combine::And:
    llvm_unreachable("a float in a bool fold");
  }
}

void Folder::addInt(int64_t value, bool unsure) {
  ++count;
  anyUnsure |= unsure;
  switch (combine) {
  case Combine::Add:
    wrapped += static_cast<uint64_t>(value);
    return;
  case Combine::Max:
    if (lessInt(bestInt, value, dtype))
      bestInt = value;
    return;
  case Combine::Min:
    if (lessInt(value, bestInt, dtype))
      bestInt = value;
    return;
  case Combine::Or:
    sureTrue |= value && !unsure;
    bestInt |= value != 0;
    return;
  case Combine::And:
    sureFalse |= !value && !unsure;
    bestInt = count == 1 ? value != 0 : (bestInt && value);
    return;
  }
}

Folded Folder::finish() const {
  Folded folded;
  if (!isFloat(dtype)) {
    switch (combine) {
    case Combine::Add: {
      // Wrapped to the type: i32 sums keep their low 32 bits, signed.
      folded.intValue = wrapToIntegerType(static_cast<int64_t>(wrapped), dtype);
      folded.unsure = anyUnsure;
      break;
    }
    case Combine::Max:
    case Combine::Min:
      folded.intValue = bestInt;
      folded.unsure = anyUnsure;
      break;
    case Combine::Or:
      // Empty: false; a sure true decides it.
      folded.intValue = count ? bestInt : 0;
      folded.unsure = anyUnsure && !sureTrue;
      break;
    case Combine::And:
      folded.intValue = count ? bestInt : 1;
      folded.unsure = anyUnsure && !sureFalse;
      break;
    }
    return folded;
  }
  if (combine != Combine::Add) {
    folded.value = nan ? std::nan("") : best;
    folded.slack = infiniteSlack ? kInfinity : nan ? 0 : largestSlack;
    return folded;
  }
  double exact = sum + compensation;
  double gamma = getSummationGamma(std::max<int64_t>(count - 1, 0), dtype);
  double bound = magnitudes + slacks;
  // Some order of the additions of the finite elements may overflow, and
  // then anything follows (an infinity of the other sign meets the
  // overflow's: NaN), unless a NaN decides it. An online group's partial
  // sums hold its terms at up to their reaches (ewc-fuzz --seed 9158 on an
  // H100, program 1200000185: a row of 7 split 7 ways, four of its terms
  // -DBL_MAX times exp(a - M) of 0.14 to 0.24, -1.3e308 with the rest; two
  // splits' states, each -DBL_MAX against its own max, met before the
  // row's max came, and the sum was -inf).
  bool mayOverflow = infiniteSlack || std::isinf(gamma) ||
                     (reaches + slacks) * (1 + gamma) >= getMaxFinite(dtype);
  if (nan || (positiveInfinity && negativeInfinity)) {
    folded.value = std::nan("");
    folded.slack = infiniteSlack ? kInfinity : 0;
    return folded;
  }
  if (positiveInfinity || negativeInfinity) {
    folded.value = positiveInfinity ? kInfinity : -kInfinity;
    folded.slack = mayOverflow ? kInfinity : 0;
    return folded;
  }
  folded.value = roundTo(exact, dtype);
  if (mayOverflow || std::isinf(folded.value)) {
    folded.slack = kInfinity;
    return folded;
  }
  folded.slack = gamma * bound + slacks + std::fabs(folded.value - exact);
  return folded;
}
