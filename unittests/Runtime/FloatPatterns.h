//===- FloatPatterns.h - Test inputs for float conversions ------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Bit patterns of f32 and f64 that exercise a rounding to f16 or bf16: for
// every exponent (so every normal, subnormal and overflowing result range),
// mantissas just below, at and just above a tie at every bit position, with
// the kept bit even and odd; infinities and NaNs with various payloads; and
// random patterns. The expected results come from llvm::APFloat.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_UNITTESTS_RUNTIME_FLOATPATTERNS_H
#define EWC_UNITTESTS_RUNTIME_FLOATPATTERNS_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <cstdint>
#include <random>
#include <vector>

namespace ewc::test {

/// Patterns of a binary format with `expBits` exponent and `mantBits`
/// mantissa bits (at most 64 bits in all), as described above, plus
/// `numRandom` random patterns.
inline std::vector<uint64_t>
makeRoundingPatterns(unsigned expBits, unsigned mantBits, unsigned numRandom) {
  std::mt19937_64 rng(20261130);
  const uint64_t mantMask = (uint64_t(1) << mantBits) - 1;
  std::vector<uint64_t> mantissas = {0, mantMask, 1};
  for (unsigned k = 0; k < mantBits; ++k) {
    uint64_t tie = uint64_t(1) << k; // A tie when k bits are dropped + 1.
    uint64_t odd = tie | (tie << 1); // The same tie with the kept bit odd.
    for (uint64_t m : {tie, odd})
      for (uint64_t delta : {uint64_t(0), uint64_t(1), ~uint64_t(0)})
        mantissas.push_back((m + delta) & mantMask);
  }
  for (int i = 0; i < 16; ++i)
    mantissas.push_back(rng() & mantMask);

  std::vector<uint64_t> patterns;
  const uint64_t numExponents = uint64_t(1) << expBits;
  for (uint64_t sign = 0; sign < 2; ++sign)
    for (uint64_t exp = 0; exp < numExponents; ++exp)
      for (uint64_t mant : mantissas)
        patterns.push_back((sign << (expBits + mantBits)) | (exp << mantBits) |
                           mant);
  const unsigned totalBits = 1 + expBits + mantBits;
  for (unsigned i = 0; i < numRandom; ++i)
    patterns.push_back(totalBits == 64 ? rng() : rng() >> (64 - totalBits));
  return patterns;
}

/// The bits of `bits` (a value of `from`) converted to `to` by APFloat,
/// rounding to nearest, ties to even.
inline uint64_t convertWithAPFloat(uint64_t bits,
                                   const llvm::fltSemantics &from,
                                   const llvm::fltSemantics &to) {
  llvm::APFloat value(from,
                      llvm::APInt(llvm::APFloat::getSizeInBits(from), bits));
  bool losesInfo;
  value.convert(to, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return value.bitcastToAPInt().getZExtValue();
}

} // namespace ewc::test

#endif // EWC_UNITTESTS_RUNTIME_FLOATPATTERNS_H
