//===- CudaContext.h - A GPU, its PTX modules, kernel launches --*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Runs PTX produced by the ew-to-ptx pipeline on an NVIDIA GPU through the
// CUDA driver API. The driver is loaded at run time (see docs/runtime.md), so
// a binary using this header starts on machines without a GPU and reports the
// absence as an llvm::Error when a context is requested.
//
// Objects made from a context (modules, their functions, device buffers) must
// be destroyed before it. Loads, launches and workspaces make the context
// current on the calling thread for the call where another is current (or
// none), and put the caller's back after (cuCtxPushCurrent, cuCtxPopCurrent):
// any thread may call them, and a caller's current device (torch's) never
// moves under it. Device buffers (DeviceBuffer.h) assume the context is
// current, as create() leaves it where none was.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_CUDACONTEXT_H
#define EWC_RUNTIME_CUDACONTEXT_H

#include "ewc/Runtime/LaunchShape.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ewc {
namespace cuda {
struct DriverApi;
} // namespace cuda

class CudaContext;

/// What the runtime knows about the device it runs on.
struct CudaDeviceInfo {
  int ordinal = 0;
  std::string name;
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  int multiprocessorCount = 0;
  int maxThreadsPerMultiprocessor = 0;
  /// Bytes of L2 cache: benchmarks rotate buffers until they exceed it.
  int l2CacheBytes = 0;
  size_t totalMemoryBytes = 0;
  /// As cuDriverGetVersion reports it: 1000 * major + 10 * minor.
  int driverVersion = 0;

  /// The chip name PTX targets, e.g. "sm_90".
  std::string getChipName() const;
  /// One line for notes and run records, e.g.
  /// "NVIDIA H200 (sm_90, 132 SMs, 140 GiB), CUDA driver 13.0".
  std::string getSummary() const;
};

/// A kernel entry point of a loaded module. It is valid while the module that
/// produced it is alive.
class CudaFunction {
public:
  /// The kernel's symbol name, as the .ew program names it.
  llvm::StringRef getName() const { return name; }

private:
  friend class CudaModule;
  friend class CudaContext;
  CudaFunction(void *handle, llvm::StringRef name)
      : handle(handle), name(name.str()) {}

  /// The driver's CUfunction.
  void *handle;
  std::string name;
};

/// A PTX module loaded into a context; unloaded on destruction (in that
/// context).
class CudaModule {
public:
  CudaModule(CudaModule &&other) noexcept;
  CudaModule &operator=(CudaModule &&other) noexcept;
  CudaModule(const CudaModule &) = delete;
  CudaModule &operator=(const CudaModule &) = delete;
  ~CudaModule();

  /// Looks up the kernel whose PTX `.entry` is `symbol`; messages about it
  /// call it `name` (the symbol when empty).
  llvm::Expected<CudaFunction> getFunction(llvm::StringRef symbol,
                                           llvm::StringRef name = {}) const;

private:
  friend class CudaContext;
  CudaModule(const cuda::DriverApi &api, void *context, void *module)
      : api(&api), context(context), module(module) {}

  const cuda::DriverApi *api;
  /// The driver's CUcontext the module was loaded into.
  void *context;
  /// The driver's CUmodule; null once moved from.
  void *module;
};

/// A device's primary context (the one the CUDA runtime, and so torch, uses
/// for that device), retained for the lifetime of this object.
class CudaContext {
public:
  /// Loads the driver, initializes it, and retains the primary context of
  /// device `ordinal`, which it makes current on the calling thread where no
  /// context is (a caller's current context stays). Fails with "cannot load
  /// the CUDA driver (libcuda.so.1): ..." where no driver is installed, with
  /// "no CUDA device found" where the driver sees no GPU, and with "no CUDA
  /// device 3: the driver sees 2 device(s), numbered from 0" for an ordinal
  /// it does not see.
  static llvm::Expected<std::unique_ptr<CudaContext>> create(int ordinal = 0);

  /// How many devices the driver sees (0: none). Fails as create() does
  /// where the driver does not load.
  static llvm::Expected<int> getDeviceCount();

  /// The ordinal of the device whose context is current on the calling
  /// thread (a torch program's current device, once torch has used it), or
  /// -1 where none is. Fails as create() does where the driver does not load.
  static llvm::Expected<int> getCurrentDevice();

  /// Whether create() could find a device: loads and initializes the driver
  /// and counts devices, but creates no context. When it returns false and
  /// `whyNot` is not null, `*whyNot` gets the message create() would fail
  /// with. Meant for `--device auto`.
  static bool isDeviceAvailable(std::string *whyNot = nullptr);

  CudaContext(const CudaContext &) = delete;
  CudaContext &operator=(const CudaContext &) = delete;
  /// Releases the primary context.
  ~CudaContext();

  const CudaDeviceInfo &getDeviceInfo() const { return info; }
  int getOrdinal() const { return info.ordinal; }

  /// The ordinal of the device that holds the memory at `pointer` (from
  /// cuMemAlloc, a pool, torch's caching allocator, or host memory
  /// registered for a device), or -1 where the driver knows none: memory of
  /// the host only, or no allocation. One cuPointerGetAttribute (no context
  /// needs to be current).
  int getDeviceOf(const void *pointer) const;

  /// Loads PTX text (compiled by the driver's built-in ptxas for this device).
  /// On failure the error carries the driver's JIT error log after the
  /// failing call, e.g. "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a
  /// PTX JIT compilation failed)\nptxas application ptx input, line 9; ...".
  /// When `jitInfoLog` is not null, the JIT runs verbosely and its information
  /// log (registers and spills per kernel) is stored there.
  llvm::Expected<CudaModule> loadModule(llvm::StringRef ptx,
                                        std::string *jitInfoLog = nullptr);

  /// Assembles PTX into a cubin for this device with the driver's own JIT
  /// (cuLinkCreate, cuLinkAddData, cuLinkComplete): the same ptxas that
  /// loadModule runs, with the cubin handed back for the kernel cache. The
  /// error carries the JIT's log, as loadModule's does. `optLevel`, if
  /// given, is ptxas's optimization level (CU_JIT_OPTIMIZATION_LEVEL, 0 to
  /// 4; the JIT's default is 4): a tiered compilation's quick code takes 0.
  llvm::Expected<std::vector<char>>
  assemblePTX(llvm::StringRef ptx,
              std::optional<unsigned> optLevel = std::nullopt);

  /// Loads a cubin compiled for this device's chip (compilePTXToCubin,
  /// CudaJitLink.h): no JIT runs. A cubin for another chip fails with
  /// CUDA_ERROR_NO_BINARY_FOR_GPU.
  llvm::Expected<CudaModule> loadCubin(llvm::ArrayRef<char> cubin);

  /// Launches `function` on `shape` (a rule of LaunchShape.h for its
  /// schedule) and returns once it is queued on `stream` (a CUstream; null:
  /// the default stream). Nothing is launched for a grid of 0 blocks.
  llvm::Error enqueue(const CudaFunction &function, LaunchShape shape,
                      void **params, void *stream = nullptr);

  /// Like enqueue on the default stream, and waits for the kernel. `params`
  /// follows cuLaunchKernel: element i points to the value of kernel
  /// parameter i, in the kernel ABI's order. Errors the kernel raises while
  /// it runs (e.g. CUDA_ERROR_ILLEGAL_ADDRESS) are reported by name, with the
  /// kernel's; they leave the context unusable, as the driver documents.
  llvm::Error launch(const CudaFunction &function, LaunchShape shape,
                     void **params);

  /// A device buffer of `bytes` bytes for work queued on `stream`, its first
  /// `zeroBytes` (a multiple of 4) zeroed in stream order, to be handed to
  /// freeOnStream after that work: the workspace of one launch
  /// (cuMemAllocAsync from the device's default pool, cuMemsetD32Async,
  /// cuMemFreeAsync), so that launches on other streams never share one.
  /// Fails with a message where the driver lacks stream-ordered allocation
  /// (before CUDA 11.2).
  llvm::Expected<std::uint64_t>
  allocateOnStream(std::size_t bytes, std::size_t zeroBytes, void *stream);
  llvm::Error freeOnStream(std::uint64_t pointer, void *stream);

private:
  friend class DeviceBuffer;
  /// cuModuleLoadDataEx of PTX text or a cubin, with the JIT's logs.
  llvm::Expected<CudaModule> loadImage(const void *image,
                                       std::string *jitInfoLog);

  CudaContext(const cuda::DriverApi &api, int device, void *context,
              CudaDeviceInfo info)
      : api(api), device(device), context(context), info(std::move(info)) {}

  const cuda::DriverApi &api;
  /// The driver's CUdevice.
  int device;
  /// The driver's CUcontext (the device's primary context).
  void *context;
  CudaDeviceInfo info;
};

} // namespace ewc

#endif // EWC_RUNTIME_CUDACONTEXT_H
