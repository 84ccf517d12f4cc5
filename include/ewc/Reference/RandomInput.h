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

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ewc {

class KernelDecl;
class ParamDecl;

/// What the random inputs look like (ewc-run --inputs). Bools are fair coin
/// flips in every kind.
enum class InputKind {
  /// Floats standard normal (Box-Muller, rounded to the type); integers
  /// uniform in [-100, 100].
  Normal,
  /// Floats uniform in [-1, 1), as multiples of the type's epsilon, so that
  /// rounding never reaches 1; integers uniform in [-100, 100].
  Uniform,
  /// Values that break wrong code. Floats: quiet NaNs of both signs, +-inf,
  /// +-0, random subnormals of the type, its extremes (+-max finite, +-least
  /// normal, +-least and +-greatest subnormal), values within two ulps of
  /// +-1, and ordinary values (random mantissa, magnitude in [2^-4, 2^5)).
  /// Integers: the type's min and max and their neighbours, 0, +-1, small
  /// values and random values of the full width, so that arithmetic wraps.
  /// And across parameters, exact ties: at about one index in eight (chosen
  /// by the seed alone), every tensor parameter holds the same value, taken
  /// from +-0, +-1, 2, 0.5, -3, +-inf, NaN or an ordinary value and converted
  /// to each parameter's type.
  Special,
  /// Floats and integers uniform over the integers in [-8, 8]: many exact
  /// ties and zeros, and results that are exact in every type.
  Ints,
};

/// The ewc-run spelling of `kind`: "normal", "uniform", "special", "ints".
llvm::StringRef getInputKindName(InputKind kind);
/// Parses a spelling of getInputKindName; std::nullopt if unknown.
std::optional<InputKind> parseInputKindName(llvm::StringRef name);

/// `n` random elements of `dtype` of `kind`, without the ties across
/// parameters that makeRandomInputs adds for InputKind::Special.
HostArray makeRandomInput(DType dtype, int64_t n, uint64_t seed,
                          InputKind kind = InputKind::Normal);

/// makeRandomInput for parameter `paramIndex` of a run seeded with `seed`:
/// each parameter draws from its own stream (see deriveParamSeed).
HostArray makeRandomInput(DType dtype, int64_t n, uint64_t seed,
                          unsigned paramIndex,
                          InputKind kind = InputKind::Normal);

/// The seed of parameter `paramIndex` for a run seeded with `seed`: mixed
/// (splitmix64) so that parameters, and neighbouring seeds, get unrelated
/// streams.
uint64_t deriveParamSeed(uint64_t seed, unsigned paramIndex);

/// For InputKind::Special: the value every tensor parameter holds at element
/// `index` of a run seeded with `seed`, or std::nullopt where the parameters
/// draw independently.
std::optional<double> getSpecialTieValue(uint64_t seed, int64_t index);

/// One input per parameter of `kernel` (which must have passed sema): tensor
/// parameter i gets makeRandomInput(dtype, sizes[i], seed, i, kind), its
/// elements in row-major order over its shape, with the ties of
/// getSpecialTieValue written over it for InputKind::Special (at element
/// `index` of each tensor that has one: parameters of one shape tie at the
/// same points); a scalar gets a one-element array holding its default
/// value, or, without one, a random value drawn the same way (never a tie;
/// its entry of `sizes` is ignored).
std::vector<HostArray> makeRandomInputs(const KernelDecl &kernel,
                                        llvm::ArrayRef<int64_t> sizes,
                                        uint64_t seed,
                                        InputKind kind = InputKind::Normal);

/// A one-element array holding the default value of scalar `param`, which
/// must have one.
HostArray getDefaultValue(const ParamDecl &param);

} // namespace ewc

#endif // EWC_REFERENCE_RANDOMINPUT_H
