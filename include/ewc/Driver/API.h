//===- API.h - The C++ API's options as the driver's ------------*- C++ -*-===//
//
// How ewc::Options (ewc/ewc.h, standard-library types only) become
// driver::CompileOptions: one function, so that a unit test can check that
// every public option reaches the driver.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DRIVER_API_H
#define EWC_DRIVER_API_H

#include "ewc/Driver/Driver.h"
#include "ewc/ewc.h"

namespace ewc {
namespace driver {

/// The driver's options for `options`, with Target::Auto resolved
/// (resolveTarget; `whyNotCuda` as there).
CompileOptions getCompileOptions(const Options &options,
                                 std::string *whyNotCuda = nullptr);

} // namespace driver
} // namespace ewc

#endif // EWC_DRIVER_API_H
