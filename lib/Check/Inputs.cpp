//===- Inputs.cpp - The values a checked kernel runs with -----------------===//
//
// The messages name the command-line flags (--arg, --input, --n) that the
// values come from in ewc-run, their main user.
//
//===----------------------------------------------------------------------===//

#include "ewc/Check/Inputs.h"

#include "ewc/Frontend/AST.h"
#include "ewc/Reference/Npy.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <unistd.h>

using namespace ewc;
using namespace ewc::check;

llvm::Expected<HostArray> check::parseScalar(DType dtype, llvm::StringRef text,
                                             llvm::StringRef name) {
  auto bad = [&](llvm::StringRef expected) {
    return llvm::createStringError("invalid value '" + text + "' for --arg " +
                                   name + ": expected " + expected);
  };
  HostArray value(dtype, 1);
  if (dtype == DType::Bool) {
    if (text != "true" && text != "false" && text != "1" && text != "0")
      return bad("true or false");
    value.setFromInt(0, text == "true" || text == "1");
    return value;
  }
  if (isInteger(dtype)) {
    long long parsed;
    unsigned bits = getIntegerBitWidth(dtype);
    if (text.getAsInteger(0, parsed) ||
        (bits == 32 && (parsed < INT32_MIN || parsed > INT32_MAX)))
      return bad(bits == 32 ? "a 32-bit integer" : "a 64-bit integer");
    value.setFromInt(0, parsed);
    return value;
  }
  // Rounded once to the parameter's type, as a literal is (inf and nan
  // read too).
  std::optional<double> parsed = parseDecimal(text, dtype);
  if (!parsed)
    return bad("a number");
  value.setFromDouble(0, *parsed);
  return value;
}

llvm::Expected<InputArrays>
check::loadInputFiles(llvm::ArrayRef<NamedFile> files,
                      llvm::ArrayRef<const Kernel *> kernels,
                      std::optional<int64_t> n) {
  InputArrays arrays;
  const NamedFile *first = nullptr;
  for (const NamedFile &input : files) {
    const Param *param = nullptr;
    const Kernel *owner = nullptr;
    for (const Kernel *kernel : kernels)
      if ((param = kernel->lookupParam(input.name))) {
        owner = kernel;
        break;
      }
    if (!param)
      return llvm::createStringError("unknown --input '" + input.name +
                                     "': no kernel has a parameter of that "
                                     "name");
    if (!param->isTensor())
      return llvm::createStringError(
          "--input " + input.name + ": '" + input.name +
          "' is a scalar parameter; give its value with --arg " + input.name +
          "=VALUE");
    llvm::Expected<HostArray> array =
        readNpyFile(input.path, param->getDType());
    if (!array)
      return llvm::createStringError(
          "--input " + input.name +
          (kernels.size() > 1 ? " (of kernel '" + owner->getName() + "')"
                              : llvm::Twine()) +
          ": " + llvm::toString(array.takeError()));
    if (first && array->size() != arrays[first->name].size())
      return llvm::createStringError(
          llvm::formatv("--input {0}: '{1}' holds {2} elements, but --input "
                        "{3} ('{4}') holds {5}; all inputs need the same "
                        "length",
                        input.name, input.path, array->size(), first->name,
                        first->path, arrays[first->name].size())
              .str());
    first = first ? first : &input;
    arrays[input.name] = std::move(*array);
  }
  if (first && n && *n != arrays[first->name].size())
    return llvm::createStringError(
        llvm::formatv("--n {0} disagrees with --input {1} ('{2}'), which "
                      "holds {3} elements",
                      *n, first->name, first->path,
                      arrays[first->name].size())
            .str());
  return arrays;
}

llvm::Expected<std::vector<HostArray>> check::makeInputs(const Kernel &kernel,
                                                         const InputSpec &spec) {
  std::vector<HostArray> inputs =
      makeRandomInputs(kernel, spec.n, spec.seed, spec.kind);
  if (spec.files)
    for (const auto &file : *spec.files) {
      const Param *param = kernel.lookupParam(file.getKey());
      if (!param)
        continue;
      if (!param->isTensor() ||
          param->getDType() != file.getValue().getDType())
        return llvm::createStringError(
            "--input " + file.getKey() + ": kernel '" + kernel.getName() +
            "' takes '" + file.getKey() + "' as " +
            (param->isTensor() ? "" : "a scalar ") +
            getDTypeName(param->getDType()) + ", but another kernel as a " +
            getDTypeName(file.getValue().getDType()) + " tensor");
      inputs[param->getIndex()] = file.getValue();
    }
  for (const ScalarArg &arg : spec.args) {
    const Param *param = kernel.lookupParam(arg.name);
    if (!param)
      continue;
    if (param->isTensor())
      return llvm::createStringError(
          "--arg " + arg.name + ": '" + arg.name +
          "' is a tensor parameter; only scalar parameters take values");
    llvm::Expected<HostArray> value =
        parseScalar(param->getDType(), arg.value, arg.name);
    if (!value)
      return value.takeError();
    inputs[param->getIndex()] = std::move(*value);
  }
  return inputs;
}

llvm::Expected<LaunchValues>
check::getLaunchValues(const Kernel &kernel, const KernelSignature &compiled,
                       llvm::ArrayRef<HostArray> inputs,
                       llvm::ArrayRef<ScalarArg> args) {
  LaunchValues values;
  // The pointers into it stay valid: it never grows beyond this.
  values.compiledDefaults.reserve(kernel.getParams().size());
  for (const auto &param : kernel.getParams()) {
    const HostArray *input = &inputs[param->getIndex()];
    bool given = llvm::any_of(
        args, [&](const ScalarArg &arg) { return arg.name == param->getName(); });
    if (param->hasDefault() && !given) {
      const ParamSignature *compiledParam =
          param->getIndex() < compiled.params.size()
              ? &compiled.params[param->getIndex()]
              : nullptr;
      if (!compiledParam || !compiledParam->defaultValue)
        return llvm::createStringError(
            "the compiled kernel '" + kernel.getName() +
            "' has no default for parameter '" + param->getName() + "'");
      // The ABI's own bytes of the value: a one-element HostArray holds
      // exactly that layout.
      HostArray &value = values.compiledDefaults.emplace_back(
          compiledParam->defaultValue->dtype, 1);
      compiledParam->defaultValue->toBytes(value.data());
      input = &value;
    }
    values.params.push_back(input);
  }
  return values;
}

llvm::Error check::checkHostMemory(const Kernel &kernel, int64_t n) {
  // Per element: each tensor input, and each result twice (the output and
  // the reference's array of it). The reference works in blocks beyond that.
  uint64_t bytesPerElement = 0;
  for (const auto &param : kernel.getParams())
    if (param->isTensor())
      bytesPerElement += getDTypeSize(param->getDType());
  for (unsigned r = 0; r < kernel.getResults().size(); ++r)
    bytesPerElement += 2 * getDTypeSize(kernel.getResultType(r).dtype);
  bool overflow = false;
  uint64_t needed = llvm::SaturatingMultiply(static_cast<uint64_t>(n),
                                             bytesPerElement, &overflow);
  uint64_t available = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                       static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  if (!overflow && needed <= available)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::formatv("--n {0} needs {1:F1} GiB of host memory for kernel "
                    "'{2}', more than this machine's {3:F1} GiB",
                    n, needed / double(1ull << 30), kernel.getName(),
                    available / double(1ull << 30))
          .str());
}
