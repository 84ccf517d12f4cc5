//===- TestPasses.h - ewc test passes ---------------------------*- C++ -*-===//
//
// Registration of the test-only passes, and the hook through which ewc-run
// applies a mutation (`--test-mutation NAME`) at the point of its staged
// compile where that mutation acts.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TEST_TRANSFORMS_TESTPASSES_H
#define EWC_TEST_TRANSFORMS_TESTPASSES_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;

namespace ew {
namespace test {

/// The IR a mutation rewrites.
enum class MutationStage {
  /// The ew module, before any lowering (wrong-default).
  Ew,
  /// The output of convert-ew-to-loops or convert-ew-to-gpu (the rest).
  Lowered,
  /// The same for one kernel's variant, compiled at its first launch: a
  /// module with that kernel alone, where a mutation may find nothing to
  /// change (the module's other kernels had what it changes).
  LoweredVariant,
};

/// Registers ew-test-mutate with the global pass registry.
void registerTestPasses();

/// Adds `ew-test-mutate{mutation=NAME}` to `pm` if mutation NAME acts at
/// `stage`. An unknown NAME is added at every stage, so the pass reports it
/// at the first.
void addTestMutation(OpPassManager &pm, llvm::StringRef mutation,
                     MutationStage stage);

} // namespace test
} // namespace ew
} // namespace mlir

#endif // EWC_TEST_TRANSFORMS_TESTPASSES_H
