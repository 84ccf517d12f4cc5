//===- Inputs.h - The values a checked kernel runs with ---------*- C++ -*-===//
//
// Argument marshalling for a validation run: scalar values given as text,
// tensors read from .npy files, seeded random inputs for the rest, and the
// values the compiled kernel launches with, where a scalar nobody set takes
// the compiled IR's default while the reference takes the source's, so a
// compiler that loses a default shows as a mismatch. ewc-run, ewc-fuzz and
// the unit tests share it (KernelRunner.h runs and checks with it).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CHECK_INPUTS_H
#define EWC_CHECK_INPUTS_H

#include "ewc/ABI/KernelSignature.h"
#include "ewc/Reference/HostArray.h"
#include "ewc/Reference/RandomInput.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ewc {
class Kernel;

namespace check {

/// One scalar argument whose value is still text (ewc-run --arg NAME=VALUE).
struct ScalarArg {
  std::string name;
  std::string value;
};

/// A parameter or result name with a file (ewc-run --input and --save).
struct NamedFile {
  std::string name;
  std::string path;
};

/// Tensor inputs by parameter name (the --input files).
using InputArrays = llvm::StringMap<HostArray>;

/// What the inputs of one run are.
struct InputSpec {
  /// Elements per tensor.
  int64_t n = 1024;
  uint64_t seed = 0;
  InputKind kind = InputKind::Normal;
  /// Scalar values; names the kernel lacks are skipped (the caller checks
  /// that some kernel has each).
  std::vector<ScalarArg> args;
  /// Tensors that replace random ones, each `n` long; names the kernel lacks
  /// are skipped. May be null.
  const InputArrays *files = nullptr;
};

/// Parses the text of a scalar of `dtype` given for parameter `name` into a
/// one-element array, the form the reference and the ABI both take: bools
/// true/false/1/0, integers in any C base within the type's range, floats
/// anything strtod reads whole (inf and nan included), rounded once to
/// `dtype` (parseDecimal).
llvm::Expected<HostArray> parseScalar(DType dtype, llvm::StringRef text,
                                      llvm::StringRef name);

/// Reads each file as the dtype of the first of `kernels` with a tensor
/// parameter of its name. All must have one length, which must be `n` if
/// given; the caller takes the length from any array.
llvm::Expected<InputArrays> loadInputFiles(llvm::ArrayRef<NamedFile> files,
                                           llvm::ArrayRef<const Kernel *> kernels,
                                           std::optional<int64_t> n);

/// The reference's inputs of one run of `kernel` (which passed sema): one
/// array per parameter, `spec.n` elements for a tensor, one for a scalar;
/// seeded random tensors or the files, and for each scalar its given value,
/// else its source default, else a seeded random value (makeRandomInputs),
/// so that ewc-fuzz's programs rerun in ewc-run as they ran.
llvm::Expected<std::vector<HostArray>> makeInputs(const Kernel &kernel,
                                                  const InputSpec &spec);

/// The values a kernel launches with: the reference's inputs, except that a
/// scalar with a default that no ScalarArg sets takes the default of the
/// compiled kernel (`compiled`, LoadedModule::lookupKernel).
struct LaunchValues {
  /// One per parameter, pointing into the inputs or `compiledDefaults`.
  std::vector<const HostArray *> params;
  /// The compiled defaults in use, one-element arrays in the ABI's layout.
  std::vector<HostArray> compiledDefaults;
};
llvm::Expected<LaunchValues>
getLaunchValues(const Kernel &kernel, const KernelSignature &compiled,
                llvm::ArrayRef<HostArray> inputs,
                llvm::ArrayRef<ScalarArg> args);

/// Checks that the host arrays of a run of `kernel` over `n` elements fit in
/// this machine's memory: an allocation that fails would abort the process
/// instead of reporting.
llvm::Error checkHostMemory(const Kernel &kernel, int64_t n);

} // namespace check
} // namespace ewc

#endif // EWC_CHECK_INPUTS_H
