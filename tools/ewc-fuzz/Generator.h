//===- Generator.h - Random well-typed .ew programs -------------*- C++ -*-===//
//
// A generator of random, valid .ew programs for differential testing
// (docs/fuzzing.md, "Random programs"). It types every expression as it
// builds it, by the rules of docs/language.md, so that the front end accepts
// everything it writes: a program the front end rejects is a bug in the
// generator or in the front end, and ewc-fuzz reports it as one.
//
// Programs are N-D: each program draws a few dimension names (and maybe the
// batch `...`), and every tensor names a subset of them in an order of its
// own, so that values broadcast by name, transpose and form outer products
// as the language defines (docs/language.md, "Broadcasting by name").
//
// Reproducible: a seed gives the same text on every platform, because every
// choice is std::mt19937_64's output (which the standard fixes) reduced by
// integer arithmetic here, never by std::uniform_*_distribution (whose
// algorithm the standard leaves open).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TOOLS_EWC_FUZZ_GENERATOR_H
#define EWC_TOOLS_EWC_FUZZ_GENERATOR_H

#include <cstdint>
#include <string>
#include <vector>

namespace ewc {
namespace fuzz {

/// How big the programs are: the number of kernels, results and lets, and
/// the depth of expressions, all grow with `size` (1 is tiny; 4 the default).
struct GeneratorOptions {
  unsigned size = 4;
  /// Whether expressions may be reductions and scans (`sum(e, n)`,
  /// `cumsum(e, n)`): off by default, so that a seed's programs without
  /// them stay what they were, and until they have a GPU schedule.
  bool reductions = false;
  /// Whether expressions may be random numbers (`rand(seed, offset)`,
  /// `randn`, `randint`, with `index_flat()` among the offsets): off by
  /// default for the same reason.
  bool random = false;
};

/// The .ew text of the program seeded by `seed`.
std::string generateProgram(uint64_t seed, const GeneratorOptions &options);

/// A program made generic, and the specialization to run it at.
struct GenericProgram {
  std::string text;
  /// The binding to check it under, as ewc-run's --type spells it
  /// ("T0=bf16,T1=i64"); empty when no kernel could be made generic.
  std::string binding;
};

/// `text` (generateProgram's, seeded by `seed`) with, in each kernel, one
/// element type of its signature among f16, bf16, f32, f64 (then `T<i>:
/// float`) or i32, i64 (`T<i>: int`) replaced by a type parameter wherever
/// the kernel names it, and a binding of those parameters drawn from the
/// types they admit. The type written is one of them, so the generic kernel
/// is the program itself at that binding; whether every other admitted type
/// also passes sema is the front end's to say (ewc-fuzz keeps the concrete
/// program where it does not).
GenericProgram makeGeneric(const std::string &text, uint64_t seed);

/// The dimensions that the types of the program seeded by `seed` draw from:
/// one to four names, mostly m, n, k and d (now and then one that is also a
/// parameter, builtin or dtype name: dimensions have their own namespace),
/// and whether its tensors may have the batch `...`. Not every kernel uses
/// every one; a kernel uses no other. Drawn from a stream of its own, so
/// that the shape of a run (Shapes.h) needs only the seed.
struct ProgramDims {
  std::vector<std::string> names;
  bool batch = false;
};
ProgramDims chooseProgramDims(uint64_t seed);

/// The seed of program `index` of a run seeded with `seed` (splitmix64), so
/// that program I of a run can be made alone (ewc-fuzz --first I --count 1).
uint64_t deriveProgramSeed(uint64_t seed, uint64_t index);

} // namespace fuzz
} // namespace ewc

#endif // EWC_TOOLS_EWC_FUZZ_GENERATOR_H
