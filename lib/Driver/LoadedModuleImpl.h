//===- LoadedModuleImpl.h - What a LoadedModule holds -------------*- C++
//-*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Driver: the state behind driver::LoadedModule, shared by
// Driver.cpp (compiling, loading and caching modules and their variants) and
// Launch.cpp (planning and launching them on the GPU or the host's threads).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_DRIVER_LOADEDMODULEIMPL_H
#define EWC_LIB_DRIVER_LOADEDMODULEIMPL_H

#include "ewc/ABI/LaunchPlanCache.h"
#include "ewc/Driver/Driver.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/HostPool.h"
#include "ewc/Runtime/KernelCache.h"

#include "Autotune.h"
#include "CompiledModule.h"

#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ewc {
namespace driver {

/// The compiled code of one variant of one kernel and how to call it.
struct LoadedModule::Variant {
  /// GPU: the module that holds the function where it is the variant's own
  /// (null: the module of every kernel's default variant).
  std::unique_ptr<CudaModule> module;
  std::optional<CudaFunction> function;
  /// GPU, tiered compilation: the optimized code's function, once made
  /// (LoadedModule::startOptimizing; a default variant's only).
  std::optional<CudaFunction> optimizedFunction;
  /// GPU: the function a launch runs, `function` or `optimizedFunction`,
  /// read once per launch: the swap to the optimized code is one store, so
  /// each launch runs one code or the other.
  std::atomic<const CudaFunction *> deviceFunction{nullptr};
  LaunchDescriptor launch;
  /// CPU: the JIT that holds the function where it is the variant's own.
  std::unique_ptr<CpuJit> ownedJit;
  CpuJit *jit = nullptr;
  /// CPU: the function, once a launch has looked it up (the JIT generates
  /// its code then): later launches skip the JIT's two maps and the symbol.
  std::atomic<CpuJit::Function> hostFunction{nullptr};
  /// CPU, tiered compilation: the optimized code's function, stored before
  /// hostFunction takes it (launch notes say which code ran).
  std::atomic<CpuJit::Function> optimizedHostFunction{nullptr};
  /// A default variant of a tiered compilation: it starts with the quick
  /// code (LoadedModule::startOptimizing sets it before the thread starts).
  bool tiered = false;
  /// The ABI's order for this variant's ranks.
  std::vector<ABIArgument> arguments;

  /// GPU: `loaded` becomes the variant's function (before any launch).
  void setFunction(CudaFunction loaded) {
    function = std::move(loaded);
    deviceFunction.store(&*function, std::memory_order_release);
  }
  /// GPU: the function this launch runs.
  const CudaFunction &getDeviceFunction() const {
    return *deviceFunction.load(std::memory_order_acquire);
  }
};

struct LoadedModule::Impl {
  std::unique_ptr<CudaContext> ownedCuda;
  /// The default variants of all kernels, in one module or JIT.
  std::unique_ptr<CudaModule> defaultModule;
  std::unique_ptr<CpuJit> defaultJit;
  /// Per kernel: its default variant, and the others compiled so far.
  std::vector<std::unique_ptr<Variant>> defaults;
  std::vector<std::map<std::string, std::unique_ptr<Variant>>> variants;
  std::mutex variantsMutex;
  /// Per kernel: the plans of its recent launches (a cache holds a mutex,
  /// so no vector).
  std::unique_ptr<LaunchPlanCache[]> plans;

  /// What a variant's compilation starts from: the ew module after MLIRGen
  /// and the ew hooks, as text, and the options without the ones that only
  /// speak to the first compilation (diagnostics go into the error).
  std::string ewModule;
  CompileOptions options;
  mlir::ew::EwToPTXOptions ptxOptions;
  /// The kernel cache on disk, if any, and for CPU code the process's
  /// memory too; the module's key in both.
  std::optional<KernelCache> cache;
  bool memoryCache = false;
  KernelCacheKey cacheKey;

  bool isCaching() const { return cache || memoryCache; }

  /// The payload stored under `key`: from memory where CPU code is kept
  /// there, else from the directory; or none, and `whyMiss` says why.
  /// `where` names the entry's file, or "this process".
  std::optional<std::string> lookupPayload(const KernelCacheKey &key,
                                           std::string &whyMiss,
                                           std::string &where) {
    if (memoryCache)
      if (std::optional<std::string> payload =
              KernelMemoryCache::getProcessCache().lookup(key)) {
        where = "this process";
        return payload;
      }
    whyMiss = "no entry";
    if (!cache)
      return std::nullopt;
    where = cache->getEntryPath(key);
    std::optional<std::string> payload = cache->lookup(key, &whyMiss);
    if (payload && memoryCache)
      KernelMemoryCache::getProcessCache().store(key, *payload);
    return payload;
  }

  /// Stores `module` under `key` wherever this module caches. A directory
  /// that cannot be written costs the next run a compile, no more: `notes`
  /// hears why, if given.
  void storePayload(const KernelCacheKey &key, const CompiledModule &module,
                    llvm::raw_ostream *notes) {
    storePayload(key, module.serialize(), notes);
  }
  /// The same for a payload of another kind (autotuning's choices).
  void storePayload(const KernelCacheKey &key, std::string payload,
                    llvm::raw_ostream *notes) {
    if (cache)
      if (llvm::Error error = cache->store(key, payload)) {
        if (notes)
          *notes << "note: kernel cache not written: "
                 << llvm::toString(std::move(error)) << "\n";
        else
          llvm::consumeError(std::move(error));
      }
    if (memoryCache)
      KernelMemoryCache::getProcessCache().store(key, std::move(payload));
  }

  /// Autotuning's choices, by kernel name and tuning key (Autotune.h).
  std::map<std::string, TunedLaunch> tuned;
  std::mutex tunedMutex;

  /// The CPU's threads, made at the first launch that splits and again when
  /// a launch asks for another number of them (LaunchOptions::threads).
  std::shared_ptr<HostPool> hostPool;
  std::mutex hostPoolMutex;

  std::shared_ptr<HostPool> getHostPool(unsigned threads) {
    std::lock_guard<std::mutex> lock(hostPoolMutex);
    if (!hostPool || hostPool->getThreads() != threads)
      hostPool = std::make_shared<HostPool>(threads);
    return hostPool;
  }

  /// Tiered compilation (CompileOptions::tiered): the thread that makes the
  /// optimized default variants, the JIT or module that holds them once
  /// made (the quick one stays: a launch may still be running its code),
  /// and how it ended.
  std::thread tierThread;
  std::unique_ptr<CpuJit> optimizedJit;
  /// GPU: the optimized code's module (the quick one stays loaded too).
  std::unique_ptr<CudaModule> optimizedModule;
  std::mutex tierMutex;
  std::condition_variable tierDone;
  bool tierFinished = true;
  std::string tierError;

  ~Impl() {
    // The optimizing thread reads this object: it ends first.
    if (tierThread.joinable())
      tierThread.join();
    // The modules unload before the context that holds them is released.
    for (auto &perKernel : variants)
      perKernel.clear();
    defaults.clear();
    optimizedModule.reset();
    defaultModule.reset();
    ownedCuda.reset();
  }
};

} // namespace driver
} // namespace ewc

#endif // EWC_LIB_DRIVER_LOADEDMODULEIMPL_H
