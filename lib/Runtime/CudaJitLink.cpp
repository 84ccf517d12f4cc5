//===- CudaJitLink.cpp - PTX to cubin in process with nvJitLink -----------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Opens libnvJitLink with dlopen, binds the few entry points ewc uses, and
// assembles PTX into a cubin. The declarations are copied from nvJitLink.h
// of CUDA 13.0, so that the build needs no toolkit.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/CudaJitLink.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdint>
#include <dlfcn.h>
#include <map>
#include <mutex>

using namespace ewc;

namespace {

/// nvJitLinkResult, nvJitLinkHandle and NVJITLINK_INPUT_PTX of nvJitLink.h.
using Result = int;
using Handle = struct nvJitLink *;
constexpr Result kSuccess = 0;
constexpr int kInputPTX = 2;

/// The entry points, under their unversioned names: libnvJitLink.so.12 and
/// .so.13 both export those (nvJitLink.h maps them onto versioned symbols
/// such as __nvJitLinkCreate_13_0 that one release alone has).
struct JitLinkApi {
  Result (*create)(Handle *handle, uint32_t numOptions, const char **options);
  Result (*destroy)(Handle *handle);
  Result (*addData)(Handle handle, int inputType, const void *data, size_t size,
                    const char *name);
  Result (*complete)(Handle handle);
  Result (*getLinkedCubinSize)(Handle handle, size_t *size);
  Result (*getLinkedCubin)(Handle handle, void *cubin);
  Result (*getErrorLogSize)(Handle handle, size_t *size);
  Result (*getErrorLog)(Handle handle, char *log);
  Result (*version)(unsigned *major, unsigned *minor);
};

struct LoadedJitLink {
  JitLinkApi api = {};
  std::string version;
  /// Empty when the library loaded with every entry point.
  std::string error;
};

} // namespace

/// The names of nvJitLinkResult's values, in order (nvJitLink.h, 13.0).
static const char *getResultName(Result result) {
  static const char *const kNames[] = {
      "NVJITLINK_SUCCESS",
      "NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
      "NVJITLINK_ERROR_MISSING_ARCH",
      "NVJITLINK_ERROR_INVALID_INPUT",
      "NVJITLINK_ERROR_PTX_COMPILE",
      "NVJITLINK_ERROR_NVVM_COMPILE",
      "NVJITLINK_ERROR_INTERNAL",
      "NVJITLINK_ERROR_THREADPOOL",
      "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
      "NVJITLINK_ERROR_FINALIZE",
      "NVJITLINK_ERROR_NULL_INPUT",
      "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
      "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE",
      "NVJITLINK_ERROR_ARCH_MISMATCH",
      "NVJITLINK_ERROR_OUTDATED_LIBRARY",
      "NVJITLINK_ERROR_MISSING_FATBIN",
      "NVJITLINK_ERROR_UNRECOGNIZED_ARCH",
      "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
      "NVJITLINK_ERROR_LTO_NOT_ENABLED",
  };
  if (result >= 0 && size_t(result) < std::size(kNames))
    return kNames[result];
  return "an unknown nvJitLink error";
}

/// Where to look, in order (JitLinkOptions::library says).
static llvm::SmallVector<std::string>
getCandidates(const JitLinkOptions &options) {
  if (!options.library.empty())
    return {options.library};
  llvm::SmallVector<std::string> candidates = {"libnvJitLink.so.13",
                                               "libnvJitLink.so.12"};
  for (const std::string &root : options.toolkitRoots)
    if (!root.empty())
      candidates.push_back(root + "/lib64/libnvJitLink.so.13");
  candidates.push_back("/usr/local/cuda/lib64/libnvJitLink.so.13");
  return candidates;
}

template <typename FunctionPtr>
static void bind(void *library, const char *symbol, FunctionPtr &slot,
                 std::string &error) {
  slot = reinterpret_cast<FunctionPtr>(dlsym(library, symbol));
  if (!slot && error.empty())
    error = llvm::formatv("nvJitLink lacks {0}", symbol).str();
}

static LoadedJitLink loadJitLink(llvm::ArrayRef<std::string> candidates) {
  LoadedJitLink loaded;
  void *library = nullptr;
  std::string tried;
  for (const std::string &candidate : candidates) {
    if (candidate == "none") {
      // The tools' spelling of it, which is where "none" comes from.
      tried = "EWC_NVJITLINK=none";
      break;
    }
    library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library)
      break;
    const char *why = dlerror();
    tried += (tried.empty() ? "" : "; ") + std::string(why ? why : candidate);
  }
  if (!library) {
    loaded.error = "cannot load nvJitLink: " + tried;
    return loaded;
  }
  JitLinkApi &api = loaded.api;
  std::string &error = loaded.error;
  bind(library, "nvJitLinkCreate", api.create, error);
  bind(library, "nvJitLinkDestroy", api.destroy, error);
  bind(library, "nvJitLinkAddData", api.addData, error);
  bind(library, "nvJitLinkComplete", api.complete, error);
  bind(library, "nvJitLinkGetLinkedCubinSize", api.getLinkedCubinSize, error);
  bind(library, "nvJitLinkGetLinkedCubin", api.getLinkedCubin, error);
  bind(library, "nvJitLinkGetErrorLogSize", api.getErrorLogSize, error);
  bind(library, "nvJitLinkGetErrorLog", api.getErrorLog, error);
  bind(library, "nvJitLinkVersion", api.version, error);
  unsigned major = 0, minor = 0;
  if (error.empty() && api.version(&major, &minor) == kSuccess)
    loaded.version = llvm::formatv("{0}.{1}", major, minor).str();
  // Never closed, like the driver: the process pays for the load once.
  return loaded;
}

/// The nvJitLink `options` names, loaded at its first use: one per list of
/// candidates (a process asks for one, tests for a few), kept for the
/// process's life (std::map's nodes do not move).
static const LoadedJitLink &getJitLink(const JitLinkOptions &options) {
  static std::mutex mutex;
  static std::map<std::string, LoadedJitLink> loaded;
  llvm::SmallVector<std::string> candidates = getCandidates(options);
  std::string key = llvm::join(candidates, "\n");
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(key);
  if (it == loaded.end())
    it = loaded.emplace(key, loadJitLink(candidates)).first;
  return it->second;
}

bool ewc::isJitLinkAvailable(const JitLinkOptions &options,
                             std::string *whyNot) {
  const LoadedJitLink &loaded = getJitLink(options);
  if (whyNot)
    *whyNot = loaded.error;
  return loaded.error.empty();
}

std::string ewc::getJitLinkVersion(const JitLinkOptions &options) {
  const LoadedJitLink &loaded = getJitLink(options);
  return loaded.error.empty() ? loaded.version : std::string();
}

llvm::Expected<std::vector<char>>
ewc::compilePTXToCubin(llvm::StringRef ptx, llvm::StringRef chip,
                       const JitLinkOptions &jitLinkOptions) {
  const LoadedJitLink &loaded = getJitLink(jitLinkOptions);
  if (!loaded.error.empty())
    return llvm::createStringError(loaded.error);
  const JitLinkApi &api = loaded.api;

  std::string arch = ("-arch=" + chip).str();
  llvm::SmallVector<const char *, 2> options = {arch.c_str()};
  // The extra option tells ptxas's optimizations from the PTX's meaning
  // (docs/fuzzing.md, the GPU mismatches of 2026-11-30).
  const std::string &extra = jitLinkOptions.ptxasOption;
  if (!extra.empty())
    options.push_back(extra.c_str());
  Handle handle = nullptr;
  if (Result result = api.create(&handle, options.size(), options.data()))
    return llvm::createStringError(
        llvm::formatv("nvJitLinkCreate for {0} failed: {1}", chip,
                      getResultName(result))
            .str());
  // Destroyed on every path out; the log is read before.
  struct Destroy {
    const JitLinkApi &api;
    Handle &handle;
    ~Destroy() { api.destroy(&handle); }
  } destroy{api, handle};

  // One line: the result's name, then the log's first line that says what
  // went wrong (ptxas's "ptxas fatal : ..."; the log's last line only
  // repeats the result's name), its runs of spaces squeezed.
  auto fail = [&](Result result) -> llvm::Error {
    std::string message =
        llvm::formatv("nvJitLink failed ({0})", getResultName(result)).str();
    size_t size = 0;
    if (api.getErrorLogSize(handle, &size) == kSuccess && size > 1) {
      std::string log(size, '\0');
      if (api.getErrorLog(handle, log.data()) == kSuccess) {
        llvm::SmallVector<llvm::StringRef> lines;
        llvm::StringRef(log.c_str()).split(lines, '\n', -1, false);
        for (llvm::StringRef line : lines) {
          line = line.trim();
          if (line.empty() || line.starts_with("ERROR NVJITLINK"))
            continue;
          llvm::SmallVector<llvm::StringRef> words;
          line.split(words, ' ', -1, false);
          message += ": " + llvm::join(words, " ");
          break;
        }
      }
    }
    return llvm::createStringError(message);
  };
  if (Result result =
          api.addData(handle, kInputPTX, ptx.data(), ptx.size(), "ewc.ptx"))
    return fail(result);
  if (Result result = api.complete(handle))
    return fail(result);
  size_t size = 0;
  if (Result result = api.getLinkedCubinSize(handle, &size))
    return fail(result);
  std::vector<char> cubin(size);
  if (Result result = api.getLinkedCubin(handle, cubin.data()))
    return fail(result);
  return cubin;
}
