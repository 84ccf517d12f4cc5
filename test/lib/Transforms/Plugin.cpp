//===- Plugin.cpp - The test passes as an MLIR pass plugin ----------------===//
//
// EwcTestPasses.so: ew-test-mutate for the tools that do not link test code
// (ewc-run, ewc-fuzz: `--load-pass-plugin=EwcTestPasses.so`). It links none
// of ewc, MLIR or LLVM: their symbols resolve against libewc-core.so, which
// the loading tool links, so the plugin's passes and the tool's share one
// registry and one ew dialect.
//
//===----------------------------------------------------------------------===//

#include "Transforms/TestPasses.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "EwcTestPasses", LLVM_VERSION_STRING,
          [] { mlir::ew::test::registerTestPasses(); }};
}
