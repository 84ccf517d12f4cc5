//===- PassPlugins.cpp - Pass plugins and test mutations for the tools ----===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//

#include "Support/PassPlugins.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace ewc;

llvm::Error tools::loadPassPlugins(llvm::ArrayRef<std::string> paths) {
  for (const std::string &path : paths) {
    llvm::Expected<mlir::PassPlugin> plugin = mlir::PassPlugin::load(path);
    if (!plugin)
      return llvm::createStringError(
          llvm::formatv("cannot load pass plugin '{0}': {1}", path,
                        llvm::toString(plugin.takeError())));
    plugin->registerPassRegistryCallbacks();
  }
  return llvm::Error::success();
}

/// ew-test-mutate's `stage` option for each point of the staged compile.
static llvm::StringRef getStageName(driver::HookPoint point) {
  switch (point) {
  case driver::HookPoint::Ew:
    return "ew";
  case driver::HookPoint::Lowered:
    return "lowered";
  case driver::HookPoint::LoweredVariant:
    return "lowered-variant";
  }
  llvm_unreachable("unknown hook point");
}

llvm::Expected<decltype(driver::CompileOptions::addPasses)>
tools::getTestMutationHook(llvm::StringRef mutation) {
  const mlir::PassInfo *pass = mlir::PassInfo::lookup("ew-test-mutate");
  if (!pass)
    return llvm::createStringError(
        "--test-mutation needs the test passes: add "
        "--load-pass-plugin=<build>/lib/EwcTestPasses.so");
  // The pass reports an unknown mutation itself, at the first point; a name
  // is letters, digits and dashes, so that it cannot break the options text.
  if (mutation.empty() || !llvm::all_of(mutation, [](char c) {
        return llvm::isAlnum(c) || c == '-';
      }))
    return llvm::createStringError(
        llvm::formatv("--test-mutation: '{0}' is no mutation name", mutation));
  std::string name = mutation.str();
  return [pass, name](mlir::OpPassManager &pm, driver::HookPoint point) {
    std::string options =
        llvm::formatv("mutation={0} stage={1}", name, getStageName(point));
    // The options are ours and well formed; a failure is a bug here.
    if (mlir::failed(pass->addToPipeline(
            pm, options, [](const llvm::Twine &) { return mlir::failure(); })))
      llvm::report_fatal_error("ew-test-mutate rejected its options");
  };
}
