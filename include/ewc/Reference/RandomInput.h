//===- RandomInput.h - Seeded kernel inputs ---------------------*- C++ -*-===//
//
// Reproducible inputs for validation runs: the same seed gives the same bits
// with any C++ standard library, because the distributions are written here
// on top of std::mt19937_64 (whose output the standard fixes) instead of
// using std::normal_distribution (whose algorithm it does not).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_RANDOMINPUT_H
#define EWC_REFERENCE_RANDOMINPUT_H

#include "ewc/Reference/HostArray.h"

#include <cstdint>
#include <vector>

namespace ewc {

class Kernel;
class Param;

/// `n` random elements of `dtype`: standard normal values for float types
/// (Box-Muller, rounded to the type), integers uniform in [-100, 100], or
/// fair random bools.
HostArray makeRandomInput(DType dtype, int64_t n, uint64_t seed);

/// makeRandomInput for parameter `paramIndex` of a run seeded with `seed`:
/// each parameter draws from its own stream (see deriveParamSeed).
HostArray makeRandomInput(DType dtype, int64_t n, uint64_t seed,
                          unsigned paramIndex);

/// The seed of parameter `paramIndex` for a run seeded with `seed`: mixed
/// (splitmix64) so that parameters, and neighbouring seeds, get unrelated
/// streams.
uint64_t deriveParamSeed(uint64_t seed, unsigned paramIndex);

/// One input per parameter of `kernel` (which must have passed sema): a
/// tensor gets makeRandomInput(dtype, n, deriveParamSeed(seed, index)); a
/// scalar gets a one-element array holding its default value, or, without
/// one, a random value drawn the same way.
std::vector<HostArray> makeRandomInputs(const Kernel &kernel, int64_t n,
                                        uint64_t seed);

/// A one-element array holding the default value of scalar `param`, which
/// must have one.
HostArray getDefaultValue(const Param &param);

} // namespace ewc

#endif // EWC_REFERENCE_RANDOMINPUT_H
