//===- TestPasses.h - ewc test passes ---------------------------*- C++ -*-===//
//
// Registration of the test-only passes. ewc-opt links them; ewc-run and
// ewc-fuzz never do: they load the plugin EwcTestPasses.so
// (`--load-pass-plugin`), whose registration calls this, and name the pass
// ew-test-mutate by its argument (tools/Support/PassPlugins.h).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TEST_TRANSFORMS_TESTPASSES_H
#define EWC_TEST_TRANSFORMS_TESTPASSES_H

namespace mlir {
namespace ew {
namespace test {

/// Registers ew-test-mutate with the global pass registry.
void registerTestPasses();

} // namespace test
} // namespace ew
} // namespace mlir

#endif // EWC_TEST_TRANSFORMS_TESTPASSES_H
