//===- Version.cpp - ewc's version and source revision --------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/Version.h"

// EWC_VERSION_STRING and EWC_REVISION_STRING, written by
// cmake/EwcVersion.cmake before this file compiles (target EWCVersionInfo).
#include "ewc/Driver/VersionInfo.inc"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

const char *ewc::driver::getVersion() { return EWC_VERSION_STRING; }

const char *ewc::driver::getRevision() { return EWC_REVISION_STRING; }

const char *ewc::driver::getLLVMVersion() { return LLVM_VERSION_STRING; }

void ewc::driver::printVersion(llvm::raw_ostream &os) {
  os << "ewc version " << getVersion() << " (revision " << getRevision()
     << ")\n";
  // LLVM's own text (the vendor's line, "Optimized build." ...): the
  // version printer in use, the default one, not a tool's override.
  llvm::cl::PrintVersionMessage();
}
