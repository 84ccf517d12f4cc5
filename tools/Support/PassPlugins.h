//===- PassPlugins.h - Pass plugins, test mutations ------------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// ewc-run and ewc-fuzz link no test code: the deliberate miscompilations of
// test/Mutations (ew-test-mutate) come from the MLIR pass plugin
// EwcTestPasses.so, loaded with `--load-pass-plugin`, and are named here by
// the pass's argument alone. The same option loads any other plugin's passes.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TOOLS_SUPPORT_PASSPLUGINS_H
#define EWC_TOOLS_SUPPORT_PASSPLUGINS_H

#include "ewc/Driver/Driver.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ewc {
namespace tools {

/// Loads each MLIR pass plugin (mlir::PassPlugin) of `paths` and registers its
/// passes; an error names the first file that fails.
llvm::Error loadPassPlugins(llvm::ArrayRef<std::string> paths);

/// The CompileOptions::addPasses hook that applies ew-test-mutate's
/// `mutation` where it acts in the driver's staged compile. An error if no
/// loaded plugin registered ew-test-mutate (it names the plugin to load).
llvm::Expected<decltype(driver::CompileOptions::addPasses)>
getTestMutationHook(llvm::StringRef mutation);

} // namespace tools
} // namespace ewc

#endif // EWC_TOOLS_SUPPORT_PASSPLUGINS_H
