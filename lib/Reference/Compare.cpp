//===- Compare.cpp - Comparing kernel outputs with the reference ----------===//
//
// The element verdict of Compare.h. Infinities are compared as the first
// value past the largest finite one where a slack allows an overflow either
// way, so exp(88.7) may be FLT_MAX or inf when its true value lies between.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/Compare.h"

#include "Semantics.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ewc;

Tolerance ewc::getDefaultTolerance(DType dtype) {
  // torch.testing.assert_close's defaults, per result dtype (the table).
#define EWC_TOLERANCE(NAME, RTOL, ATOL)                                        \
  if (dtype == DType::NAME)                                                    \
    return {RTOL, ATOL};
#include "ewc/Reference/Tolerances.def"
  return {0, 0};
}

std::string ewc::describeDefaultTolerances(bool relative) {
  std::string text;
  llvm::raw_string_ostream os(text);
#define EWC_TOLERANCE(NAME, RTOL, ATOL)                                        \
  os << (text.empty() ? "" : ", ") << getDTypeName(DType::NAME) << ' '         \
     << llvm::format("%g", relative ? RTOL : ATOL);
#include "ewc/Reference/Tolerances.def"
  return text;
}

static std::string formatFloat(double value, DType dtype) {
  // %.9g shows every digit an f32 has; f64 needs %.17g.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format(dtype == DType::F64 ? "%.17g" : "%.9g", value);
  return text;
}

ResultComparer::ResultComparer(const HostArray &got, Tolerance tolerance,
                               unsigned numWorst, const HostArray *secondRun)
    : got(got), secondRun(secondRun), numWorst(numWorst) {
  result.dtype = got.getDType();
  result.tolerance = tolerance;
  result.size = 0; // counts the elements checked (a range of `got`)
}

void ResultComparer::fail(int64_t index, std::string gotText,
                          std::string expectedText, double severity) {
  Mismatch mismatch{index, std::move(gotText), std::move(expectedText),
                    severity};
  if (result.numMismatches++ == 0)
    result.first = mismatch;
  // Keep the `numWorst` most severe, worst first; ties keep the earliest.
  auto position =
      std::upper_bound(result.worst.begin(), result.worst.end(), mismatch,
                       [](const Mismatch &a, const Mismatch &b) {
                         return a.severity > b.severity;
                       });
  if (static_cast<unsigned>(position - result.worst.begin()) >= numWorst)
    return;
  result.worst.insert(position, std::move(mismatch));
  if (result.worst.size() > numWorst)
    result.worst.pop_back();
}

void ResultComparer::sample(int64_t index,
                            llvm::function_ref<std::string()> gotText,
                            llvm::function_ref<std::string()> expectedText) {
  if (result.samples.size() < CompareResult::kSamples)
    result.samples.push_back({index, gotText(), expectedText(), 0});
}

void ResultComparer::check(int64_t index, int64_t element,
                           const ExpectedElement &expected) {
  ++result.size;
  const double infinity = std::numeric_limits<double>::infinity();
  DType dtype = got.getDType();
  // Integer, bool and 8-bit float poison is a valid-looking value (bool's
  // is the byte 0x7f): it only names why an element is wrong. Other float
  // poison is a signaling NaN that no arithmetic produces, so it is wrong
  // even where a NaN is expected, unless a second run over the second
  // pattern wrote the element (a bitcast made the first pattern's bits).
  bool poison =
      got.isPoison(element) && (!secondRun || secondRun->isPoison(element));
  auto failElement = [&](std::string gotText, std::string expectedText,
                         double severity) {
    if (poison) {
      ++result.numUnwritten;
      gotText = "unwritten (still the poison pattern)";
    }
    fail(index, std::move(gotText), std::move(expectedText), severity);
  };

  if (dtype == DType::Bool) {
    uint8_t byte = static_cast<const uint8_t *>(got.data())[element];
    auto name = [](int64_t v) { return v ? "true" : "false"; };
    sample(
        index,
        [&] { return std::string(byte > 1 ? "not a bool" : name(byte)); },
        [&] {
          return std::string(expected.unsure ? "any" : name(expected.intValue));
        });
    if (byte > 1) {
      char text[16];
      snprintf(text, sizeof(text), "byte 0x%02x", byte);
      failElement(text, "byte 0 or 1", infinity);
    } else if (!expected.unsure && byte != expected.intValue) {
      failElement(name(byte), name(expected.intValue), infinity);
    }
    return;
  }
  if (!isFloat(dtype)) {
    int64_t value = got.getAsInt(element);
    sample(
        index, [&] { return std::to_string(value); },
        [&] {
          return expected.unsure ? std::string("any")
                                 : std::to_string(expected.intValue);
        });
    if (!expected.unsure && value != expected.intValue)
      failElement(std::to_string(value), std::to_string(expected.intValue),
                  infinity);
    return;
  }
  if (poison && !isFloat8(dtype)) {
    failElement("", "a value", infinity);
    return;
  }

  double value = got.getAsDouble(element);
  double want = expected.value, slack = expected.slack;
  auto describe = [&] {
    if (std::isinf(slack))
      return std::string("any");
    std::string text = formatFloat(want, dtype);
    if (slack > 0)
      text += " +- " + formatFloat(slack, dtype);
    return text;
  };
  sample(
      index, [&] { return formatFloat(value, dtype); }, describe);
  if (std::isinf(slack))
    return;
  if (std::isnan(want) || std::isnan(value)) {
    if (std::isnan(want) != std::isnan(value))
      fail(index, formatFloat(value, dtype), describe(), infinity);
    return;
  }
  if ((std::isinf(want) || std::isinf(value)) && slack == 0) {
    if (value != want)
      fail(index, formatFloat(value, dtype), describe(), infinity);
    return;
  }
  if (want == 0 && value == 0 && slack == 0) {
    if (std::signbit(want) != std::signbit(value))
      fail(index, formatFloat(value, dtype), describe() + " (sign of zero)",
           infinity);
    return;
  }
  if (value == want) // equal infinities included
    return;
  // With a slack, an infinity stands for the first value past the largest
  // finite one. Distances are taken at half scale: for f64 that value is
  // past double's own range (found by ewc-fuzz: log(0.0) in f64 was -inf on
  // both sides, yet "differed" by inf - inf).
  auto halfFinite = [&](double v) {
    if (!std::isinf(v))
      return v / 2;
    double max = ref::getMaxFinite(dtype);
    return std::copysign(max / 2 + ref::getUlp(max, dtype) / 2, v);
  };
  double halfDistance = std::fabs(halfFinite(value) - halfFinite(want));
  double halfAllowed = result.tolerance.atol / 2 +
                       result.tolerance.rtol * std::fabs(halfFinite(want)) +
                       slack / 2;
  if (halfDistance <= halfAllowed) {
    // Within the tolerance: the farthest such element, for --verbose.
    double severity =
        halfDistance / std::max(halfAllowed, ref::getUlp(want, dtype) / 2);
    if (result.largest.index < 0 || severity > result.largest.severity)
      result.largest = {index, formatFloat(value, dtype), describe(), severity};
    return;
  }
  // Exact results (no tolerance) are ranked by their distance in ulps.
  fail(index, formatFloat(value, dtype), describe(),
       halfDistance / std::max(halfAllowed, ref::getUlp(want, dtype) / 2));
}

void CompareResult::merge(const CompareResult &later, unsigned numWorst) {
  if (numMismatches == 0)
    first = later.first;
  numMismatches += later.numMismatches;
  numUnwritten += later.numUnwritten;
  size += later.size;
  std::vector<Mismatch> all = std::move(worst);
  all.insert(all.end(), later.worst.begin(), later.worst.end());
  // Stable: among equally bad elements the earlier stays first.
  std::stable_sort(all.begin(), all.end(),
                   [](const Mismatch &a, const Mismatch &b) {
                     return a.severity > b.severity;
                   });
  if (all.size() > numWorst)
    all.resize(numWorst);
  worst = std::move(all);
  if (later.largest.index >= 0 &&
      (largest.index < 0 || later.largest.severity > largest.severity))
    largest = later.largest;
  for (const Mismatch &element : later.samples)
    if (samples.size() < kSamples)
      samples.push_back(element);
}

std::string CompareResult::formatIndex(int64_t index) const {
  // Row-major over the result's shape: [i, j] rather than the flat index.
  std::vector<int64_t> coords(std::max<size_t>(shape.size(), 1));
  if (shape.empty())
    coords[0] = index;
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t extent = std::max<int64_t>(shape[d], 1);
    coords[d] = index % extent;
    index /= extent;
  }
  std::string text = "[";
  for (auto [i, coord] : llvm::enumerate(coords))
    text += (i ? ", " : "") + std::to_string(coord);
  return text + "]";
}

void CompareResult::print(llvm::raw_ostream &os) const {
  if (ok()) {
    os << "all " << size << " elements match";
    return;
  }
  os << numMismatches << " of " << size << " elements differ";
  if (numUnwritten)
    os << " (" << numUnwritten << " never written)";
  os << "; first at " << formatIndex(first.index) << ": got " << first.got
     << ", expected " << first.expected;
  if (isFloat(dtype)) {
    os << " ";
    printTolerance(os);
  }
}

void CompareResult::printTolerance(llvm::raw_ostream &os) const {
  os << "(rtol " << llvm::format("%g", tolerance.rtol) << ", atol "
     << llvm::format("%g", tolerance.atol) << ")";
}
