//===- Version.h - ewc's version and source revision ------------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// What `ewc-run --version`, `ewc-opt --version`, ewcGetVersion() and
// ewc.__version__ report. The version is defined once, by project() in the
// top-level CMakeLists.txt (setup.py reads it from there too); the revision is
// written at build time by cmake/EwcVersion.cmake.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DRIVER_VERSION_H
#define EWC_DRIVER_VERSION_H

#include "llvm/Support/raw_ostream.h"

namespace ewc {
namespace driver {

/// ewc's version, "MAJOR.MINOR.PATCH".
const char *getVersion();

/// The commit this build was made from (12 hex digits, then "+" when tracked
/// files differed from it), or "unknown" when built outside a git checkout.
const char *getRevision();

/// LLVM's version that ewc was built against ("22.1.8").
const char *getLLVMVersion();

/// The tools' `--version` text: ewc's version and revision on the first line,
/// then LLVM's as LLVM's own tools print it.
void printVersion(llvm::raw_ostream &os);

} // namespace driver
} // namespace ewc

#endif // EWC_DRIVER_VERSION_H
