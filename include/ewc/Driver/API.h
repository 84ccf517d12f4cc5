//===- API.h - The C++ API over the driver's options ------------*- C++ -*-===//
//
// How ewc::Options (ewc/ewc.h, standard-library types only) become
// driver::CompileOptions: one function, so that a unit test can check that
// every public option reaches the driver; and ewc::compile's work with
// driver options as they are, for what the public options cannot say (the
// C API's test library, test/lib/CAPI, adds a failing pass hook). Internal:
// libewc.so exports none of it (lib/CAPI/ewc.map).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DRIVER_API_H
#define EWC_DRIVER_API_H

#include "ewc/Driver/Driver.h"
#include "ewc/ewc.h"

#include <memory>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace ewc {
namespace driver {

/// The driver's options for `options`, with Target::Auto resolved
/// (resolveTarget; `whyNotCuda` as there).
CompileOptions getCompileOptions(const Options &options,
                                 std::string *whyNotCuda = nullptr);

/// Parses and compiles `buffer` (its identifier names the file in the
/// diagnostics) with `options` into a module of the C++ API: what
/// ewc::compile and ewc::compileFile do after getCompileOptions, an LLVM
/// fatal error or a crash inside it turned into an error value.
Result<Module> compileModule(std::unique_ptr<llvm::MemoryBuffer> buffer,
                             const CompileOptions &options,
                             const TypeBinding &binding = {});

/// Options::types as the front end takes them (a repeated name: the last).
TypeBinding getTypeBinding(const Options &options);

} // namespace driver
} // namespace ewc

#endif // EWC_DRIVER_API_H
