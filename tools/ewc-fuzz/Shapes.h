//===- Shapes.h - The extents of a random program's run ---------*- C++ -*-===//
//
// Each program of ewc-fuzz runs over a shape of its own, drawn from its seed
// alone (not its text, so that a reduced program keeps the shape its
// failure had): an extent for every dimension the program may use
// (ProgramDims, Generator.h), 0 and 1 now and then, mostly 2 to 9, some up
// to 300, and a batch of rank 0 to 3 if its tensors may have `...`, with all
// the extents together bounded so that every tensor stays small and a run
// fast. ewc-fuzz passes it as InputSpec::dims and ::batch and prints it as
// ewc-run's --dim and --batch.
//
// Reproducible as the generator is: std::mt19937_64's output reduced by
// integer arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TOOLS_EWC_FUZZ_SHAPES_H
#define EWC_TOOLS_EWC_FUZZ_SHAPES_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ewc {
namespace fuzz {

/// The extents of one program's run.
struct ProgramShape {
  /// Every name of ProgramDims::names, in its order, with its extent.
  std::vector<std::pair<std::string, int64_t>> dims;
  /// The shape of `...` (outermost first; empty: rank 0), if the program's
  /// tensors may have it.
  std::optional<std::vector<int64_t>> batch;
};

/// The shape of the program seeded by `seed`, whose extents (the named
/// ones and the batch's; a 0 as a 1) multiply to at most `maxPoints`, so
/// that no tensor of the program has more elements: the largest extent is
/// halved until they do (a 0 or a 1 stays as drawn).
ProgramShape drawProgramShape(uint64_t seed, uint64_t maxPoints);

/// The ewc-run spelling of a batch shape: "4x3", and "" for rank 0.
std::string formatBatch(const std::vector<int64_t> &batch);

} // namespace fuzz
} // namespace ewc

#endif // EWC_TOOLS_EWC_FUZZ_SHAPES_H
