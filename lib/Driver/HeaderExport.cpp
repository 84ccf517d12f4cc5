//===- HeaderExport.cpp - Ahead-of-time export as a C++ header ------------===//
//
// Writes the header of HeaderExport.h. The grid it computes at run time is
// computeElementwiseLaunchShape's (LaunchShape.h), with that header's block
// size and wave cap written in as numbers when the header is generated; the
// cubins come from nvJitLink (CudaJitLink.h) at that time too.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/HeaderExport.h"

#include "ewc/Runtime/CudaJitLink.h"
#include "ewc/Runtime/LaunchShape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace ewc;

/// The C++ type of an element in device memory and of a scalar by value.
static llvm::StringRef getCxxType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "bool";
  case DType::I32:
    return "std::int32_t";
  case DType::I64:
    return "std::int64_t";
  case DType::F16:
  case DType::BF16:
    // Bit patterns: C++17 has no 16-bit float type.
    return "std::uint16_t";
  case DType::F32:
    return "float";
  case DType::F64:
    return "double";
  }
  return "void";
}

/// C++20's keywords and alternative tokens: names a header cannot declare.
/// `and`, `or` and `not` are builtins of .ew, and any identifier may name a
/// kernel or a parameter there.
static constexpr llvm::StringLiteral kCxxKeywords[] = {
    "alignas",   "alignof",      "and",          "and_eq",
    "asm",       "auto",         "bitand",       "bitor",
    "bool",      "break",        "case",         "catch",
    "char",      "char8_t",      "char16_t",     "char32_t",
    "class",     "compl",        "concept",      "const",
    "consteval", "constexpr",    "constinit",    "const_cast",
    "continue",  "co_await",     "co_return",    "co_yield",
    "decltype",  "default",      "delete",       "do",
    "double",    "dynamic_cast", "else",         "enum",
    "explicit",  "export",       "extern",       "false",
    "float",     "for",          "friend",       "goto",
    "if",        "inline",       "int",          "long",
    "mutable",   "namespace",    "new",          "noexcept",
    "not",       "not_eq",       "nullptr",      "operator",
    "or",        "or_eq",        "private",      "protected",
    "public",    "register",     "reinterpret_cast", "requires",
    "return",    "short",        "signed",       "sizeof",
    "static",    "static_assert", "static_cast", "struct",
    "switch",    "template",     "this",         "thread_local",
    "throw",     "true",         "try",          "typedef",
    "typeid",    "typename",     "union",        "unsigned",
    "using",     "virtual",      "void",         "volatile",
    "wchar_t",   "while",        "xor",          "xor_eq"};

/// `name` as a C++ name that is no keyword and none of `taken` (the names
/// the header itself declares in that scope): the name itself, else with
/// `_` appended until it is free. Adds the result to `taken`.
static std::string getCxxName(llvm::StringRef name, llvm::StringSet<> &taken) {
  std::string cxx = name.str();
  while (llvm::is_contained(kCxxKeywords, cxx) || taken.contains(cxx))
    cxx += '_';
  taken.insert(cxx);
  return cxx;
}

std::vector<std::string> driver::getHeaderCubinChips() {
  const char *list = std::getenv("EWC_HEADER_CUBINS");
  if (!list)
    return {"sm_90"};
  std::vector<std::string> chips;
  for (llvm::StringRef chip : llvm::split(list, ','))
    if (!chip.trim().empty() && chip.trim() != "none")
      chips.push_back(chip.trim().str());
  return chips;
}

/// The compute capability a cubin for `chip` runs on, as major * 10 + minor
/// (sm_90 and sm_90a: 90), or none for a name that is no sm_XX.
static std::optional<unsigned> getComputeCapability(llvm::StringRef chip) {
  unsigned number = 0;
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  // Arch-specific (sm_90a) and family (sm_100f) cubins: the same device.
  if (chip.ends_with("a") || chip.ends_with("f"))
    chip = chip.drop_back();
  if (chip.getAsInteger(10, number))
    return std::nullopt;
  return number;
}

/// The C++ loader of the embedded images, with each cubin's bytes.
static llvm::Error writeImages(llvm::raw_ostream &os, llvm::StringRef ptx,
                               llvm::ArrayRef<std::string> cubinChips) {
  os << "inline constexpr char kPTX[] = R\"ewc_ptx(" << ptx
     << ")ewc_ptx\";\n\n";
  std::string choose;
  for (const std::string &chip : cubinChips) {
    std::optional<unsigned> capability = getComputeCapability(chip);
    if (!capability)
      return llvm::createStringError("cannot embed a cubin for '" + chip +
                                     "': not a chip name (sm_XX)");
    std::string whyNot;
    if (!isJitLinkAvailable(&whyNot))
      return llvm::createStringError(
          "cannot embed a cubin for " + chip + " without nvJitLink (" + whyNot +
          "); for a header with PTX only, set EWC_HEADER_CUBINS=none");
    llvm::Expected<std::vector<char>> cubin = compilePTXToCubin(ptx, chip);
    if (!cubin)
      return llvm::createStringError("cannot embed a cubin for " + chip +
                                     ": " + llvm::toString(cubin.takeError()));
    std::string name = "kCubin_" + chip;
    // The driver reads the ELF image in place: aligned as a file would be.
    os << "// " << chip << ", assembled by nvJitLink " << getJitLinkVersion()
       << " when this header was generated.\nalignas(64) inline constexpr "
          "unsigned char "
       << name << "[] = {";
    for (auto [i, byte] : llvm::enumerate(*cubin))
      os << (i % 16 ? " " : "\n    ")
         << llvm::formatv("{0:x2},", static_cast<unsigned char>(byte));
    os << "};\n\n";
    choose += llvm::formatv("  if (chip == {0}) {{\n    loadedImage = \"cubin "
                            "{1}\";\n    return ::cuModuleLoadData(module, "
                            "{2});\n  }\n",
                            *capability, chip, name)
                  .str();
  }
  os << R"(/// See getLoadedImage().
inline const char *loadedImage = nullptr;

/// The cubin for the current context's device where there is one, else the
/// PTX, which the driver JIT-compiles.
inline ::CUresult loadModule(::CUmodule *module) {
  ::CUdevice device;
  int major = 0, minor = 0;
  if (::CUresult result = ::cuCtxGetDevice(&device))
    return result;
  if (::CUresult result = ::cuDeviceGetAttribute(
          &major, ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device))
    return result;
  if (::CUresult result = ::cuDeviceGetAttribute(
          &minor, ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device))
    return result;
  const int chip = major * 10 + minor;
  (void)chip;
)" << choose
     << R"(  loadedImage = "PTX";
  return ::cuModuleLoadData(module, kPTX);
}

)";
  return llvm::Error::success();
}

llvm::Expected<std::string> driver::emitCudaHeader(
    llvm::StringRef ptx, llvm::ArrayRef<KernelSignature> kernels,
    const llvm::StringMap<unsigned> &elementsPerThread,
    llvm::StringRef namespaceName, llvm::StringRef sourceName,
    llvm::ArrayRef<std::string> cubinChips) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by `ewc-run --emit header` from " << sourceName
     << ": the\n// kernels below, compiled to PTX and to cubins for "
     << (cubinChips.empty() ? "no chip" : llvm::join(cubinChips, ", "))
     << ", with\n// a typed launch function each. Needs only the CUDA driver "
        "API (cuda.h,\n// -lcuda). Tensors are device pointers (f16 and bf16 "
        "as uint16_t bit\n// patterns, bool as one byte 0 or 1); a launch is "
        "queued on the stream, and\n// the module is loaded into the current "
        "context at the first launch of a\n// kernel: the cubin of the "
        "device's chip, else the PTX, JIT-compiled.\n"
     << "#pragma once\n\n#include <cuda.h>\n\n#include <cstdint>\n\n"
     << "namespace " << namespaceName << " {\nnamespace detail {\n\n";
  if (llvm::Error error = writeImages(os, ptx, cubinChips))
    return std::move(error);
  os << llvm::formatv(
      R"(// The grid of computeElementwiseLaunchShape (ewc's LaunchShape.h) with
// {0} threads per block and a cap of {1} waves (0: none).
// The CUDA names are qualified (::cuLaunchKernel, ::CUresult): a kernel may
// be called like any of them, and its launch function would hide it here.
inline ::CUresult launch(const char *symbol, ::CUfunction *function,
                         ::CUstream stream, std::int64_t n,
                         unsigned elementsPerThread, void **args) {{
  if (n < 0)
    return ::CUDA_ERROR_INVALID_VALUE;
  if (n == 0)
    return ::CUDA_SUCCESS;
  if (!*function) {{
    static ::CUmodule module = nullptr;
    if (!module)
      if (::CUresult result = loadModule(&module))
        return result;
    if (::CUresult result = ::cuModuleGetFunction(function, module, symbol))
      return result;
  }
  const std::uint64_t perBlock = std::uint64_t({0}) * elementsPerThread;
  std::uint64_t grid = (std::uint64_t(n) + perBlock - 1) / perBlock;
  if ({1} != 0) {{
    ::CUdevice device;
    int sms = 0, threads = 0;
    if (::CUresult result = ::cuCtxGetDevice(&device))
      return result;
    ::cuDeviceGetAttribute(&sms, ::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                           device);
    ::cuDeviceGetAttribute(
        &threads, ::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, device);
    const std::uint64_t cap = std::uint64_t(sms) * (threads / {0}) * {1};
    if (cap && grid > cap)
      grid = cap;
  }
  if (grid > 0x7fffffff)
    grid = 0x7fffffff;
  return ::cuLaunchKernel(*function, unsigned(grid), 1, 1, {0}, 1, 1, 0,
                          stream, args, nullptr);
}

} // namespace detail

/// What the first launch loaded: "cubin sm_XX", or "PTX" where the header
/// has no cubin for the device's chip; null before any launch.
inline const char *getLoadedImage() {{ return detail::loadedImage; }
)",
      kElementwiseBlockSize, kElementwiseWaves);
  // The header's own names in the kernels' namespace; a kernel named like
  // one of them (or a C++ keyword) gets a trailing `_` (docs/abi.md).
  llvm::StringSet<> kernelNames = {"detail", "getLoadedImage"};
  for (const KernelSignature &kernel : kernels) {
    std::string function = getCxxName(kernel.name, kernelNames);
    // The launch function's own locals; a parameter named like one of them
    // (or `n` or `out0`, which the ABI adds) is renamed the same way.
    llvm::StringSet<> locals = {"stream", "function", "args"};
    os << "\n/// " << kernel.str() << "\ninline ::CUresult " << function
       << "(::CUstream stream";
    std::string args, count;
    for (ABIArgument argument :
         getABIArguments(kernel.params.size(), kernel.results.size())) {
      std::string name;
      switch (argument.kind) {
      case ABIArgument::Kind::Param: {
        const ParamSignature &param = kernel.params[argument.index];
        name = getCxxName(param.name, locals);
        os << ", " << (param.isTensor ? "const " : "")
           << getCxxType(param.dtype) << (param.isTensor ? " *" : " ")
           << name;
        break;
      }
      case ABIArgument::Kind::Result:
        name = getCxxName("out" + std::to_string(argument.index), locals);
        os << ", " << getCxxType(kernel.results[argument.index]) << " *"
           << name;
        break;
      case ABIArgument::Kind::NumElements:
        name = count = getCxxName("n", locals);
        os << ", std::int64_t " << name;
        break;
      }
      args += (args.empty() ? "" : ", ") + ("(void *)&" + name);
    }
    os << ") {\n  static ::CUfunction function = nullptr;\n  void *args[] = {"
       << args << "};\n  return detail::launch(\""
       << getKernelSymbol(kernel.name) << "\", &function, stream, " << count
       << ", " << std::max(1u, elementsPerThread.lookup(kernel.name))
       << ", args);\n}\n";
  }
  os << "\n} // namespace " << namespaceName << "\n";
  return text;
}
