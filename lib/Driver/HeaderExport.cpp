//===- HeaderExport.cpp - Ahead-of-time export as a C++ header ------------===//
//
// Writes the header of HeaderExport.h. The grid it computes at run time is
// computeElementwiseLaunchShape's (LaunchShape.h), with that header's block
// size and wave cap written in as numbers when the header is generated; the
// cubins come from nvJitLink (CudaJitLink.h) at that time too.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/HeaderExport.h"
#include "ewc/Pipelines/Pipelines.h"

#include "ewc/ABI/VectorAccess.h"
#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Runtime/CudaJitLink.h"
#include "ewc/Runtime/LaunchShape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace ewc;

/// The header's loading, the same for every header: per context (by
/// cuCtxGetId, which no later context reuses, where its address may be
/// reused), each image's module and each kernel's function, loaded at the
/// first launch in that context. A launch reads its kernel's table without
/// a lock; loads take one mutex. A process has a primary context per device
/// and few others: past kMaxContexts a launch fails.
static constexpr llvm::StringLiteral kContextTables =
    R"(/// Contexts that an image or a kernel keeps loaded (every device's primary
/// context and a few more); a launch in one more fails.
inline constexpr int kMaxContexts = 64;

/// What was loaded into one context: a module, or a kernel's function.
template <typename Handle> struct Loaded {
  /// The context's cuCtxGetId, 0 while the slot is free (ids start at 1).
  std::atomic<unsigned long long> id{0};
  Handle handle = nullptr;
};

/// An image (the PTX and its cubins) and its modules, one per context.
struct Image {
  ::CUresult (*load)(::CUmodule *);
  Loaded<::CUmodule> modules[kMaxContexts];
};

/// A kernel's function in each context it was launched in.
struct Kernel {
  Loaded<::CUfunction> functions[kMaxContexts];
};

/// The one lock of every load (a kernel's first launch in a context).
inline std::mutex &getLoadMutex() {
  static std::mutex mutex;
  return mutex;
}

/// The slot of context `id` in `slots`, else the first free one (null when
/// every one is taken). A slot's id is stored last, under the load mutex,
/// after its handle: a slot whose id is seen has its handle.
template <typename Handle>
Loaded<Handle> *findSlot(Loaded<Handle> (&slots)[kMaxContexts],
                         unsigned long long id) {
  for (Loaded<Handle> &slot : slots) {
    unsigned long long held = slot.id.load(std::memory_order_acquire);
    if (held == id || held == 0)
      return &slot;
  }
  return nullptr;
}

/// `kernel`'s function in the current context: loaded there (the image's
/// module, then the function) at its first launch in it.
inline ::CUresult getFunction(Image &image, const char *symbol,
                              Kernel &kernel, ::CUfunction *function) {
  ::CUcontext context = nullptr;
  unsigned long long id = 0;
  if (::CUresult result = ::cuCtxGetCurrent(&context))
    return result;
  if (!context)
    return ::CUDA_ERROR_INVALID_CONTEXT;
  if (::CUresult result = ::cuCtxGetId(context, &id))
    return result;
  Loaded<::CUfunction> *slot = findSlot(kernel.functions, id);
  if (slot && slot->id.load(std::memory_order_acquire) == id) {
    *function = slot->handle;
    return ::CUDA_SUCCESS;
  }
  std::lock_guard<std::mutex> lock(getLoadMutex());
  slot = findSlot(kernel.functions, id);
  Loaded<::CUmodule> *module = findSlot(image.modules, id);
  if (!slot || !module)
    return ::CUDA_ERROR_OUT_OF_MEMORY;
  if (slot->id.load(std::memory_order_relaxed) != id) {
    if (module->id.load(std::memory_order_relaxed) != id) {
      if (::CUresult result = image.load(&module->handle))
        return result;
      module->id.store(id, std::memory_order_release);
    }
    if (::CUresult result =
            ::cuModuleGetFunction(&slot->handle, module->handle, symbol))
      return result;
    slot->id.store(id, std::memory_order_release);
  }
  *function = slot->handle;
  return ::CUDA_SUCCESS;
}

)";

/// C++20's keywords and alternative tokens: names a header cannot declare.
/// `and`, `or` and `not` are builtins of .ew, and any identifier may name a
/// kernel or a parameter there.
static constexpr llvm::StringLiteral kCxxKeywords[] = {
    "alignas",       "alignof",     "and",
    "and_eq",        "asm",         "auto",
    "bitand",        "bitor",       "bool",
    "break",         "case",        "catch",
    "char",          "char8_t",     "char16_t",
    "char32_t",      "class",       "compl",
    "concept",       "const",       "consteval",
    "constexpr",     "constinit",   "const_cast",
    "continue",      "co_await",    "co_return",
    "co_yield",      "decltype",    "default",
    "delete",        "do",          "double",
    "dynamic_cast",  "else",        "enum",
    "explicit",      "export",      "extern",
    "false",         "float",       "for",
    "friend",        "goto",        "if",
    "inline",        "int",         "long",
    "mutable",       "namespace",   "new",
    "noexcept",      "not",         "not_eq",
    "nullptr",       "operator",    "or",
    "or_eq",         "private",     "protected",
    "public",        "register",    "reinterpret_cast",
    "requires",      "return",      "short",
    "signed",        "sizeof",      "static",
    "static_assert", "static_cast", "struct",
    "switch",        "template",    "this",
    "thread_local",  "throw",       "true",
    "try",           "typedef",     "typeid",
    "typename",      "union",       "unsigned",
    "using",         "virtual",     "void",
    "volatile",      "wchar_t",     "while",
    "xor",           "xor_eq"};

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

/// The chip of the PTX's `.target` directive ("sm_90"), or "".
static llvm::StringRef getPTXTarget(llvm::StringRef ptx) {
  size_t at = ptx.find("\n.target ");
  if (at == llvm::StringRef::npos)
    return "";
  return ptx.substr(at + 9).take_until(
      [](char c) { return c == '\n' || c == ',' || c == ' '; });
}

/// The C++ loader of one image's PTX and cubins, with each cubin's bytes;
/// its names end in `suffix` ("" for the first image, "_1" for the second).
static llvm::Error writeImage(llvm::raw_ostream &os, llvm::StringRef ptx,
                              llvm::StringRef suffix,
                              llvm::ArrayRef<std::string> cubinChips,
                              const JitLinkOptions &jitLink) {
  os << "inline constexpr char kPTX" << suffix << "[] = R\"ewc_ptx(" << ptx
     << ")ewc_ptx\";\n\n";
  std::string choose;
  llvm::StringRef target = getPTXTarget(ptx);
  std::optional<unsigned> targetCapability = getComputeCapability(target);
  for (const std::string &chip : cubinChips) {
    std::optional<unsigned> capability = getComputeCapability(chip);
    if (!capability)
      return llvm::createStringError("cannot embed a cubin for '" + chip +
                                     "': not a chip name (sm_XX)");
    if (llvm::Error error = mlir::ew::checkChip(chip))
      return llvm::createStringError("cannot embed a cubin for " + chip + ": " +
                                     llvm::toString(std::move(error)));
    // ptxas assembles PTX for sm_XY for sm_XY and later chips only (an
    // sm_XYa target for that chip alone): say so before nvJitLink does in
    // three lines of its own.
    if (targetCapability && (*capability < *targetCapability ||
                             (target.ends_with("a") && chip != target)))
      return llvm::createStringError(
          "cannot embed a cubin for " + chip + ": the PTX is for " + target +
          " (--chip), which ptxas assembles for " + target +
          (target.ends_with("a") ? " alone" : " and later chips only") +
          "; generate it with --chip " + chip +
          " (the oldest chip the header is to run on)");
    std::string whyNot;
    if (!isJitLinkAvailable(jitLink, &whyNot))
      return llvm::createStringError(
          "cannot embed a cubin for " + chip + " without nvJitLink (" + whyNot +
          "); for a header with PTX only, set EWC_HEADER_CUBINS=none");
    llvm::Expected<std::vector<char>> cubin =
        compilePTXToCubin(ptx, chip, jitLink);
    if (!cubin)
      return llvm::createStringError("cannot embed a cubin for " + chip + ": " +
                                     llvm::toString(cubin.takeError()));
    std::string name = "kCubin_" + chip + suffix.str();
    // The driver reads the ELF image in place: aligned as a file would be.
    os << "// " << chip << ", assembled by nvJitLink "
       << getJitLinkVersion(jitLink)
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
  os << R"(/// The cubin for the current context's device where there is one, else the
/// PTX, which the driver JIT-compiles.
inline ::CUresult loadModule)"
     << suffix << R"((::CUmodule *module) {
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
  return ::cuModuleLoadData(module, kPTX)"
     << suffix << R"();
}

/// The modules of loadModule)"
     << suffix << R"(, one per context.
inline Image image)"
     << suffix << R"({loadModule)" << suffix << R"(, {}};

)";
  return llvm::Error::success();
}

llvm::Expected<std::string> driver::emitCudaHeader(
    llvm::ArrayRef<HeaderImage> images, llvm::StringRef namespaceName,
    llvm::StringRef sourceName, llvm::ArrayRef<std::string> cubinChips,
    const JitLinkOptions &jitLink) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by `ewc-run --emit header` from " << sourceName
     << ": the\n// kernels below, compiled to PTX and to cubins for "
     << (cubinChips.empty() ? "no chip" : llvm::join(cubinChips, ", "))
     << ", with\n// a typed launch function each. Needs only the CUDA driver "
        "API (cuda.h,\n// -lcuda). Tensors are device pointers (f16 and bf16 "
        "as uint16_t bit\n// patterns, bool as one byte 0 or 1); a launch is "
        "queued on the stream, in\n// the current context, into which the "
        "module is loaded at a kernel's\n// first launch there: the cubin of "
        "the device's chip, else the PTX,\n// JIT-compiled. Safe to call from "
        "several threads and contexts.\n"
     << "#pragma once\n\n#include <cuda.h>\n\n#include <algorithm>\n#include "
        "<atomic>\n#include <cstdint>\n#include <mutex>\n\n"
     << "namespace " << namespaceName << " {\nnamespace detail {\n\n"
     << "/// See getLoadedImage().\ninline std::atomic<const char *> "
        "loadedImage{nullptr};\n\n"
     << kContextTables;
  auto getSuffix = [](size_t image) {
    return image ? "_" + std::to_string(image) : std::string();
  };
  for (auto [index, image] : llvm::enumerate(images))
    if (llvm::Error error =
            writeImage(os, image.ptx, getSuffix(index), cubinChips, jitLink))
      return std::move(error);
  os << llvm::formatv(
      R"(// The grid of computeElementwiseLaunchShape (ewc's LaunchShape.h) for the
// kernel's launch descriptor, with a cap of {0} waves (0: none).
// The CUDA names are qualified (::cuLaunchKernel, ::CUresult): a kernel may
// be called like any of them, and its launch function would hide it here.
// The kernel `symbol` of `image` runs in the current context, loaded there
// at its first launch in it (getFunction).
inline ::CUresult launch(Image &image, const char *symbol, Kernel &kernel,
                         ::CUstream stream, std::int64_t points,
                         unsigned blockSize, unsigned elementsPerThread,
                         unsigned sharedMemory, void **args) {{
  if (points < 0)
    return ::CUDA_ERROR_INVALID_VALUE;
  if (points == 0)
    return ::CUDA_SUCCESS;
  ::CUfunction function = nullptr;
  if (::CUresult result = getFunction(image, symbol, kernel, &function))
    return result;
  const std::uint64_t perBlock = std::uint64_t(blockSize) * elementsPerThread;
  std::uint64_t grid = (std::uint64_t(points) + perBlock - 1) / perBlock;
{1}  if (grid > 0x7fffffff)
    grid = 0x7fffffff;
  return ::cuLaunchKernel(function, unsigned(grid), 1, 1, blockSize, 1, 1,
                          sharedMemory, stream, args, nullptr);
}

} // namespace detail

/// What the latest load loaded (a kernel's first launch in a context):
/// "cubin sm_XX", or "PTX" where the header has no cubin for the device's
/// chip; null before any launch.
inline const char *getLoadedImage() {{ return detail::loadedImage.load(); }
)",
      kElementwiseWaves,
      // The cap, where the launch rule has one: the device's SMs times the
      // blocks each holds, times the waves.
      kElementwiseWaves == 0 ? std::string()
                             : llvm::formatv(R"(  {{
    ::CUdevice device;
    int sms = 0, threads = 0;
    if (::CUresult result = ::cuCtxGetDevice(&device))
      return result;
    ::cuDeviceGetAttribute(&sms, ::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                           device);
    ::cuDeviceGetAttribute(
        &threads, ::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, device);
    const std::uint64_t cap = std::uint64_t(sms) * (threads / blockSize) * {0};
    if (cap && grid > cap)
      grid = cap;
  }
)",
                                             kElementwiseWaves)
                                   .str());
  // The header's own names in the kernels' namespace; a kernel named like
  // one of them (or a C++ keyword) gets a trailing `_` (docs/abi.md).
  llvm::StringSet<> kernelNames = {"detail", "getLoadedImage"};
  for (auto [imageIndex, image] : llvm::enumerate(images))
    for (auto [kernel, functionName] :
         llvm::zip(image.kernels, image.functionNames)) {
      std::string suffix = getSuffix(imageIndex);
      std::string function = getCxxName(functionName, kernelNames);
      LaunchDescriptor launch = image.launches.lookup(kernel.name);
      // The launch functions' own locals (the 1-D one's shape and strides
      // too); a parameter named like one of them (or like `out0`, `x_shape`,
      // which the header adds) is renamed the same way.
      llvm::StringSet<> locals = {"stream",  "function",  "args",
                                  "zero",    "points",    "shape",
                                  "strides", "workspace", "kernel"};
      // Per tensor (tensor parameters, then results): its names in the
      // header, its dimensions (the batch as one) and its element type.
      struct TensorNames {
        std::string pointer, shape, strides;
        std::vector<std::string> dims;
        unsigned bytes = 0;
      };
      std::vector<TensorNames> tensors;
      std::vector<std::string> scalars(kernel.params.size());
      std::string params;
      auto addTensor = [&](llvm::StringRef name, DType dtype, bool isConst,
                           const std::vector<std::string> &dims) {
        TensorNames &tensor = tensors.emplace_back();
        tensor.pointer = getCxxName(name, locals);
        tensor.shape = getCxxName(tensor.pointer + "_shape", locals);
        tensor.strides = getCxxName(tensor.pointer + "_strides", locals);
        tensor.dims = dims;
        tensor.bytes = getDTypeSize(dtype);
        params += llvm::formatv(
            ", {0}{1} *{2}, const std::int64_t (&{3})[{5}], "
            "const std::int64_t (&{4})[{5}]",
            isConst ? "const " : "", getDTypeCxxType(dtype), tensor.pointer,
            tensor.shape, tensor.strides, dims.size());
      };
      for (auto [index, param] : llvm::enumerate(kernel.params)) {
        if (param.isTensor) {
          addTensor(param.name, param.dtype, true, param.dims);
          continue;
        }
        scalars[index] = getCxxName(param.name, locals);
        params +=
            ", " + getDTypeCxxType(param.dtype).str() + " " + scalars[index];
      }
      for (auto [index, result] : llvm::enumerate(kernel.results))
        addTensor("out" + std::to_string(index), result.dtype, false,
                  result.dims);

      // The argument array in the ABI's order, the batch as one dimension
      // (the header embeds the default variant only: docs/api.md).
      std::string args;
      for (const ABIArgument &argument : getABIArguments(kernel, 1)) {
        using Kind = ABIArgument::Kind;
        const TensorNames *tensor =
            argument.kind == Kind::Scalar ? nullptr : &tensors[argument.tensor];
        std::string value;
        switch (argument.kind) {
        case Kind::Scalar:
          value = scalars[argument.param];
          break;
        case Kind::AllocatedPointer:
        case Kind::AlignedPointer:
          value = tensor->pointer;
          break;
        case Kind::Offset:
          value = "zero";
          break;
        case Kind::Extent:
          value = tensor->shape + "[" + std::to_string(argument.dim) + "]";
          break;
        case Kind::Stride:
          value = tensor->strides + "[" + std::to_string(argument.dim) + "]";
          break;
        }
        args += (args.empty() ? "" : ", ") + ("(void *)&" + value);
      }
      // A kernel with a workspace (the columns schedule's, a split scan's, a
      // split row's of decode attention) takes it after the ABI's arguments.
      // The header passes none: the columns schedule's grid (a block per 256
      // points) gives it one split per tile (ColumnAccess.h: splits = max(1,
      // grid / tiles)), which needs none, and a null workspace makes a scan a
      // warp per row (ScanAccess.h) and a row with its points on the lanes one
      // block's (RowAccess.h): correct, not split across blocks (docs/api.md).
      bool workspace = launch.workspace != 0;
      if (workspace)
        args += ", (void *)&workspace";
      // Every dimension name one extent; every innermost stride 1 (the
      // default variant); the grid covers the largest result.
      std::string checks;
      llvm::StringMap<std::string> first;
      for (const TensorNames &tensor : tensors) {
        for (auto [position, dim] : llvm::enumerate(tensor.dims)) {
          std::string extent =
              tensor.shape + "[" + std::to_string(position) + "]";
          auto [it, inserted] = first.try_emplace(dim, extent);
          if (!inserted)
            checks += "  if (" + extent + " != " + it->second +
                      ")\n    return ::CUDA_ERROR_INVALID_VALUE;\n";
        }
        std::string last = std::to_string(tensor.dims.size() - 1);
        checks += "  if (" + tensor.strides + "[" + last + "] != 1 && " +
                  tensor.shape + "[" + last +
                  "] > 1)\n    return ::CUDA_ERROR_INVALID_VALUE;\n";
        // The rows schedule's default variant reads and writes a row of one
        // dimension in 16-byte runs: every row of such a tensor starts
        // aligned (VectorAccess.h, isRowVectorAligned, which the runtime
        // checks to launch the unaligned variant instead).
        bool alongRow =
            launch.schedule == mlir::ew::kRowsSchedule &&
            launch.laneDims.empty() &&
            llvm::any_of(launch.rowDims, [&](const auto &row) {
              return row.size() == 1 && row.front() == tensor.dims.back();
            });
        if (!alongRow)
          continue;
        checks += "  if (reinterpret_cast<std::uintptr_t>(" + tensor.pointer +
                  ") % " + std::to_string(kVectorBytes) +
                  " != 0)\n    return ::CUDA_ERROR_INVALID_VALUE;\n";
        for (size_t d = 0; d + 1 < tensor.dims.size(); ++d) {
          std::string at = "[" + std::to_string(d) + "]";
          checks += "  if (" + tensor.shape + at + " > 1 && " + tensor.strides +
                    at + " * " + std::to_string(tensor.bytes) + " % " +
                    std::to_string(kVectorBytes) +
                    " != 0)\n    return ::CUDA_ERROR_INVALID_VALUE;\n";
        }
      }
      // The default variant takes the batch position (index_flat()) for a
      // 32-bit value: more than 2^32 positions need the wide one
      // (LaunchPlan::wideBatch), which the header does not embed.
      if (llvm::is_contained(kernel.pinnedDims, kBatchDim)) {
        auto batched = llvm::find_if(tensors, [](const TensorNames &tensor) {
          return !tensor.dims.empty() && tensor.dims.front() == kBatchDim;
        });
        if (batched != tensors.end())
          checks += "  if (" + batched->shape +
                    "[0] > (std::int64_t(1) << 32))\n    return "
                    "::CUDA_ERROR_INVALID_VALUE;\n";
      }
      std::string points;
      for (size_t r = 0; r < kernel.results.size(); ++r) {
        const TensorNames &tensor =
            tensors[tensors.size() - kernel.results.size() + r];
        std::string product = "std::int64_t(1)";
        for (size_t d = 0; d < tensor.dims.size(); ++d)
          product += " * " + tensor.shape + "[" + std::to_string(d) + "]";
        points += (r ? ", " : "") + product;
      }

      os << "\n/// " << kernel.str()
         << "\n/// Each tensor is a device pointer to its element at index 0, "
            "its extents and\n/// its strides (elements) in its declared "
            "order, "
            "the leading dimensions\n/// `...` as one; innermost strides are 1."
         << "\ninline ::CUresult " << function << "(::CUstream stream" << params
         << ") {\n"
         << checks << "  const std::int64_t points = std::max({" << points
         << "});\n  std::int64_t zero = 0;\n"
         << (workspace ? "  void *workspace = nullptr;\n" : "")
         << "  static detail::Kernel kernel;\n  void *args[] = {" << args
         << "};\n  return detail::launch(detail::image" << suffix << ", \""
         << getKernelSymbol(kernel.name) << "\", kernel, stream, points, "
         << launch.blockSize << ", " << launch.elementsPerThread << ", "
         << launch.sharedMemory << ", args);\n}\n";

      // Kernels whose every tensor has one and the same dimension (a named
      // one, or the batch `...` alone) also take n and bare pointers.
      bool oneDimensional = kernel.dims.size() == 1;
      if (!oneDimensional)
        continue;
      os << "\n/// " << kernel.str() << ", every tensor of n elements.\n"
         << "inline ::CUresult " << function << "(::CUstream stream";
      std::string call;
      unsigned t = 0;
      for (auto [index, param] : llvm::enumerate(kernel.params)) {
        if (!param.isTensor) {
          os << ", " << getDTypeCxxType(param.dtype) << " " << scalars[index];
          call += ", " + scalars[index];
          continue;
        }
        os << ", const " << getDTypeCxxType(param.dtype) << " *"
           << tensors[t].pointer;
        call += ", " + tensors[t++].pointer + ", shape, strides";
      }
      for (size_t r = 0; r < kernel.results.size(); ++r, ++t) {
        os << ", " << getDTypeCxxType(kernel.results[r].dtype) << " *"
           << tensors[t].pointer;
        call += ", " + tensors[t].pointer + ", shape, strides";
      }
      std::string n = getCxxName("n", locals);
      os << ", std::int64_t " << n << ") {\n  const std::int64_t shape[1] = {"
         << n << "}, strides[1] = {1};\n  return " << function << "(stream"
         << call << ");\n}\n";
    }
  os << "\n} // namespace " << namespaceName << "\n";
  return text;
}
