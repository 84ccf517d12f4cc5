//===- Compare.cpp - Comparing kernel outputs with the reference ----------===//
//
// The comparison loops convert both arrays in bulk first, so 10^7 elements
// compare in a few passes over memory.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/Compare.h"

#include "llvm/Support/Format.h"

#include <cmath>

using namespace ewc;

Tolerance ewc::getDefaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return {1e-3, 1e-5};
  case DType::BF16:
    return {1.6e-2, 1e-5};
  case DType::F32:
  case DType::F64:
    return {1e-5, 1e-8};
  case DType::Bool:
  case DType::I32:
  case DType::I64:
    return {0, 0};
  }
  return {0, 0};
}

/// torch.allclose on one pair (with equal_nan=True).
static bool isClose(double got, double expected, Tolerance tolerance) {
  if (std::isnan(got) || std::isnan(expected))
    return std::isnan(got) && std::isnan(expected);
  if (std::isinf(got) || std::isinf(expected))
    return got == expected;
  return std::fabs(got - expected) <=
         tolerance.atol + tolerance.rtol * std::fabs(expected);
}

CompareResult ewc::compare(const HostArray &got, const HostArray &expected,
                           Tolerance tolerance) {
  CompareResult result;
  result.dtype = expected.getDType();
  result.tolerance = tolerance;
  result.size = expected.size();
  if (got.getDType() != expected.getDType()) {
    result.ok = false;
    result.error = "element type mismatch: got " +
                   getDTypeName(got.getDType()).str() + ", expected " +
                   getDTypeName(expected.getDType()).str();
    return result;
  }
  if (got.size() != expected.size()) {
    result.ok = false;
    result.error = "length mismatch: got " + std::to_string(got.size()) +
                   " elements, expected " + std::to_string(expected.size());
    return result;
  }

  bool exact = !isFloat(expected.getDType());
  // Bulk conversion keeps the per-element loop free of type dispatch.
  if (exact) {
    std::vector<int64_t> g = got.toInts(), e = expected.toInts();
    for (int64_t i = 0, size = expected.size(); i < size; ++i) {
      if (g[i] == e[i])
        continue;
      if (result.numMismatches++ == 0) {
        result.firstIndex = i;
        result.gotInt = g[i];
        result.expectedInt = e[i];
        result.got = static_cast<double>(g[i]);
        result.expected = static_cast<double>(e[i]);
      }
    }
  } else {
    std::vector<double> g = got.toDoubles(), e = expected.toDoubles();
    for (int64_t i = 0, size = expected.size(); i < size; ++i) {
      if (isClose(g[i], e[i], tolerance))
        continue;
      if (result.numMismatches++ == 0) {
        result.firstIndex = i;
        result.got = g[i];
        result.expected = e[i];
      }
    }
  }
  result.ok = result.numMismatches == 0;
  return result;
}

CompareResult ewc::compare(const HostArray &got, const HostArray &expected) {
  return compare(got, expected, getDefaultTolerance(expected.getDType()));
}

void CompareResult::print(llvm::raw_ostream &os) const {
  if (!error.empty()) {
    os << error;
    return;
  }
  if (ok) {
    os << "all " << size << " elements match";
    return;
  }
  os << numMismatches << " of " << size << " elements differ; first at ["
     << firstIndex << "]: ";
  if (isFloat(dtype)) {
    // %.9g shows every digit an f32 has; f64 gets %.17g.
    const char *fmt = dtype == DType::F64 ? "%.17g" : "%.9g";
    os << "got " << llvm::format(fmt, got) << ", expected "
       << llvm::format(fmt, expected) << " (rtol "
       << llvm::format("%g", tolerance.rtol) << ", atol "
       << llvm::format("%g", tolerance.atol) << ")";
    return;
  }
  if (dtype == DType::Bool)
    os << "got " << (gotInt ? "true" : "false") << ", expected "
       << (expectedInt ? "true" : "false");
  else
    os << "got " << gotInt << ", expected " << expectedInt;
}
