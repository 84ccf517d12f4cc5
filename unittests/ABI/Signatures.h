//===- Signatures.h - Kernel signatures for the ABI tests -------*- C++ -*-===//
//
// Builds KernelSignatures as getKernelSignature would for a checked kernel,
// without the front end: the dimensions in the order of their first
// appearance, `...` first where a tensor has it; and tensors to plan.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_UNITTESTS_ABI_SIGNATURES_H
#define EWC_UNITTESTS_ABI_SIGNATURES_H

#include "ewc/ABI/KernelSignature.h"
#include "ewc/ABI/LaunchPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ewc::test {

inline ParamSignature tensorParam(std::string name,
                                  std::vector<std::string> dims,
                                  DType dtype = DType::F32) {
  return {std::move(name), dtype, true, std::move(dims), std::nullopt};
}

inline ParamSignature scalarParam(std::string name, DType dtype = DType::F32) {
  return {std::move(name), dtype, false, {}, std::nullopt};
}

inline KernelSignature makeSignature(std::string name,
                                     std::vector<ParamSignature> params,
                                     std::vector<ResultSignature> results,
                                     std::vector<std::string> pinned = {}) {
  KernelSignature signature;
  signature.name = std::move(name);
  signature.params = std::move(params);
  signature.results = std::move(results);
  signature.pinnedDims = std::move(pinned);
  bool batch = false;
  std::vector<std::string> named;
  for (unsigned t = 0, e = signature.getNumTensors(); t < e; ++t)
    for (const std::string &dim : signature.getTensorDims(t)) {
      if (dim == kBatchDim)
        batch = true;
      else if (!llvm::is_contained(named, dim))
        named.push_back(dim);
    }
  if (batch)
    signature.dims.push_back(kBatchDim.str());
  signature.dims.insert(signature.dims.end(), named.begin(), named.end());
  return signature;
}

/// bias_add(x: f32[m, n], b: f32[n], s: f32) -> f32[m, n], and with `batch`
/// a `...` before m in x and the result.
inline KernelSignature makeBiasAdd(bool batch = false) {
  std::vector<std::string> xDims = {"m", "n"};
  if (batch)
    xDims.insert(xDims.begin(), kBatchDim.str());
  return makeSignature(
      "bias_add",
      {tensorParam("x", xDims), tensorParam("b", {"n"}), scalarParam("s")},
      {{DType::F32, xDims}});
}

/// A tensor at `data` of `shape`, row-major unless `strides` are given.
inline TensorArg tensor(std::vector<int64_t> shape,
                        std::vector<int64_t> strides = {},
                        uintptr_t data = 0x10000) {
  if (strides.empty())
    strides = getContiguousStrides(shape);
  return {reinterpret_cast<void *>(data), std::move(shape), std::move(strides)};
}

} // namespace ewc::test

#endif // EWC_UNITTESTS_ABI_SIGNATURES_H
