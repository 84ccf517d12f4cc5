//===- RandomInput.cpp - Seeded kernel inputs -----------------------------===//
//
// Box-Muller on std::mt19937_64 for floats, rejection sampling for integers:
// only the generator's output is fixed by the standard, so everything on top
// of it is written here.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/RandomInput.h"

#include "ewc/Frontend/AST.h"

#include <cassert>
#include <cmath>
#include <random>

using namespace ewc;

/// A double uniform in [0, 1) from the top 53 bits of one draw.
static double uniform01(std::mt19937_64 &rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

HostArray ewc::makeRandomInput(DType dtype, int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  HostArray result(dtype, n);
  if (isFloat(dtype)) {
    std::vector<double> values(n);
    // Box-Muller gives two independent normals per pair of uniforms. u1 is
    // taken from (0, 1] so that log(u1) is finite.
    const double twoPi = 6.283185307179586476925286766559;
    for (int64_t i = 0; i < n; i += 2) {
      double u1 = 1.0 - uniform01(rng);
      double u2 = uniform01(rng);
      double radius = std::sqrt(-2.0 * std::log(u1));
      values[i] = radius * std::cos(twoPi * u2);
      if (i + 1 < n)
        values[i + 1] = radius * std::sin(twoPi * u2);
    }
    result.writeDoubles(0, values);
    return result;
  }
  if (dtype == DType::Bool) {
    for (int64_t i = 0; i < n; ++i)
      result.setFromInt(i, static_cast<int64_t>(rng() >> 63));
    return result;
  }
  // 201 values; rejecting the top partial block of 2^64 keeps it unbiased.
  const uint64_t range = 201;
  const uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t draw;
    do
      draw = rng();
    while (draw >= limit);
    result.setFromInt(i, static_cast<int64_t>(draw % range) - 100);
  }
  return result;
}

HostArray ewc::makeRandomInput(DType dtype, int64_t n, uint64_t seed,
                               unsigned paramIndex) {
  return makeRandomInput(dtype, n, deriveParamSeed(seed, paramIndex));
}

uint64_t ewc::deriveParamSeed(uint64_t seed, unsigned paramIndex) {
  // splitmix64 of a combination that differs for every (seed, index) pair.
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (uint64_t(paramIndex) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<HostArray> ewc::makeRandomInputs(const Kernel &kernel, int64_t n,
                                             uint64_t seed) {
  std::vector<HostArray> inputs;
  for (const std::unique_ptr<Param> &param : kernel.getParams()) {
    if (!param->isTensor() && param->hasDefault()) {
      inputs.push_back(getDefaultValue(*param));
      continue;
    }
    inputs.push_back(makeRandomInput(
        param->getDType(), param->isTensor() ? n : 1, seed, param->getIndex()));
  }
  return inputs;
}

HostArray ewc::getDefaultValue(const Param &param) {
  assert(param.hasDefault() && "parameter has no default");
  HostArray value(param.getDType(), 1);
  if (isFloat(param.getDType()))
    value.setFromDouble(0, *param.getDefaultAsDouble());
  else
    value.setFromInt(0, *param.getDefaultAsInt());
  return value;
}
