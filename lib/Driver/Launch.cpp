//===- Launch.cpp - Plan and launch loaded kernels ------------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// LoadedModule's launch side: the arguments checked against the kernel, the
// launch planned (LaunchPlan: shapes, strides, the variant), the ABI's
// argument array built once per launch, and the code run, on the GPU with
// the launch shape the variant's descriptor gives, or on the host split
// among its threads.
//
//===----------------------------------------------------------------------===//

#include "LoadedModuleImpl.h"

#include "ewc/ABI/ColumnAccess.h"
#include "ewc/ABI/RowAccess.h"
#include "ewc/ABI/ScanAccess.h"
#include "ewc/ABI/TiledAccess.h"
#include "ewc/ABI/VectorAccess.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Runtime/Bench.h"
#include "ewc/Runtime/DeviceBuffer.h"
#include "ewc/Runtime/LaunchShape.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <unistd.h>

#include <chrono>

using namespace ewc;
using namespace ewc::driver;

/// The tensors of a launch as planLaunch takes them.
static void collectTensors(const KernelSignature &kernel,
                           llvm::ArrayRef<LaunchArg> params,
                           llvm::ArrayRef<TensorArg> outputs,
                           llvm::SmallVectorImpl<const TensorArg *> &inputs,
                           llvm::SmallVectorImpl<const TensorArg *> &results) {
  for (const LaunchArg &arg : params)
    inputs.push_back(arg.tensor);
  for (const TensorArg &output : outputs)
    results.push_back(&output);
}

/// The kernel of `requested` in `module` if `params` and `outputs` fit it
/// (their counts, a tensor or a scalar for each parameter), or why not.
static llvm::Expected<const KernelSignature *>
checkArguments(const LoadedModule &module, const KernelSignature &requested,
               llvm::ArrayRef<LaunchArg> params,
               llvm::ArrayRef<TensorArg> outputs) {
  const KernelSignature *kernel = module.lookupKernel(requested.name);
  if (!kernel)
    return llvm::createStringError("no kernel '" + requested.name + "'");
  if (params.size() != kernel->params.size() ||
      outputs.size() != kernel->results.size())
    return llvm::createStringError(
        "kernel '" + kernel->name + "' takes " +
        std::to_string(kernel->params.size()) + " parameter(s) and " +
        std::to_string(kernel->results.size()) + " output(s), got " +
        std::to_string(params.size()) + " and " +
        std::to_string(outputs.size()));
  for (auto [param, arg] : llvm::zip(kernel->params, params))
    if (param.isTensor != (arg.tensor != nullptr) ||
        (!param.isTensor && !arg.scalar))
      return llvm::createStringError(
          "parameter '" + param.name + "' of kernel '" + kernel->name +
          "' is a " + (param.isTensor ? "tensor" : "scalar") +
          ", and its argument is not");
  return kernel;
}

llvm::Expected<LaunchPlan>
LoadedModule::plan(const KernelSignature &requested,
                   llvm::ArrayRef<LaunchArg> params,
                   llvm::ArrayRef<TensorArg> outputs,
                   const llvm::StringMap<int64_t> &dims) const {
  llvm::Expected<const KernelSignature *> kernel =
      checkArguments(*this, requested, params, outputs);
  if (!kernel)
    return kernel.takeError();
  llvm::SmallVector<const TensorArg *, 8> inputs, results;
  collectTensors(**kernel, params, outputs, inputs, results);
  return planLaunch(**kernel, inputs, results, dims);
}

namespace {
/// The ABI's array of one launch: each entry points at one argument's value,
/// a scalar's bytes (the caller's) or a descriptor field (stored here; the
/// vectors never grow past their reserve, so the pointers stay valid).
struct ABIArgs {
  llvm::SmallVector<void *, 48> args;
  llvm::SmallVector<void *, 16> pointers;
  llvm::SmallVector<int64_t, 48> fields;

  ABIArgs(llvm::ArrayRef<ABIArgument> arguments, const LaunchPlan &plan,
          llvm::ArrayRef<LaunchArg> params) {
    pointers.reserve(arguments.size());
    fields.reserve(arguments.size());
    for (const ABIArgument &argument : arguments) {
      using Kind = ABIArgument::Kind;
      const LaunchPlan::Descriptor *tensor =
          argument.kind == Kind::Scalar ? nullptr
                                        : &plan.tensors[argument.tensor];
      switch (argument.kind) {
      case Kind::Scalar:
        // The kernel only reads its arguments; the ABI's array is not const.
        args.push_back(const_cast<void *>(params[argument.param].scalar));
        continue;
      case Kind::AllocatedPointer:
      case Kind::AlignedPointer:
        pointers.push_back(tensor->data);
        args.push_back(&pointers.back());
        continue;
      case Kind::Offset:
        fields.push_back(0);
        break;
      case Kind::Extent:
        fields.push_back(tensor->extents[argument.dim]);
        break;
      case Kind::Stride:
        fields.push_back(tensor->strides[argument.dim]);
        break;
      }
      args.push_back(&fields.back());
    }
  }
  ABIArgs(const ABIArgs &) = delete;
};
} // namespace

uint64_t driver::getDefaultStreamingStoreBytes() {
  static const uint64_t bytes = [] {
    long cache = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (cache <= 0)
      cache = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    // A sixteenth: on the H200's host (sysconf: 300 MiB of L3, 16 threads)
    // streaming stores made f32 and bf16 [4096, 4096] LeakyReLU (64 and 32
    // MiB of results) faster on 1 and on 16 threads (0.73 against 0.96 ms,
    // 0.38 against 0.56 ms on 16; 2026-12-02, docs/performance.md): a cache
    // that one launch shares with the other tenants and cores keeps far
    // less of its results than its size says.
    return cache > 0 ? static_cast<uint64_t>(cache) / 16 : uint64_t(8) << 20;
  }();
  return bytes;
}

unsigned driver::getHostThreads(unsigned requested) {
  // Counted once: compute_thread_count asks the kernel each time
  // (sched_getaffinity), a system call that took about a sixth of a 3.7 us
  // CPU launch at n = 1024 (perf, on the development VM).
  static const unsigned hardwareThreads =
      llvm::hardware_concurrency().compute_thread_count();
  return requested ? requested : hardwareThreads;
}

llvm::Error LoadedModule::launchOnHost(const KernelSignature &kernel,
                                       Variant &variant, const LaunchPlan &plan,
                                       llvm::ArrayRef<LaunchArg> params,
                                       const LaunchOptions &launchOptions,
                                       unsigned requestedThreads) {
  CpuJit::Function function =
      variant.hostFunction.load(std::memory_order_acquire);
  if (!function) {
    llvm::Expected<CpuJit::Function> found = variant.jit->lookup(
        getKernelSymbol(kernel.name), variant.arguments.size());
    if (!found)
      return found.takeError();
    function = *found;
    // Unless a tiered compilation's optimized code came in meanwhile
    // (startOptimizing), which stays.
    CpuJit::Function none = nullptr;
    variant.hostFunction.compare_exchange_strong(none, function,
                                                 std::memory_order_acq_rel);
  }
  if (variant.tiered && launchOptions.notes)
    *launchOptions.notes << "note: kernel '" << kernel.name << "': the "
                         << (function == variant.optimizedHostFunction.load(
                                             std::memory_order_acquire)
                                 ? "optimized"
                                 : "quick")
                         << " code\n";
  unsigned threads = getHostThreads(requestedThreads);
  std::vector<LaunchPlan> parts = splitLaunch(
      kernel, plan, threads, kMinHostPointsPerThread, kHostCacheLine);
  if (parts.empty()) {
    ABIArgs abi(variant.arguments, plan, params);
    function(abi.args.data());
    return llvm::Error::success();
  }
  if (launchOptions.notes)
    *launchOptions.notes << "note: kernel '" << kernel.name
                         << "': " << parts.size() << " parts on " << threads
                         << " threads\n";
  std::vector<std::unique_ptr<ABIArgs>> arrays;
  for (const LaunchPlan &part : parts)
    arrays.push_back(
        std::make_unique<ABIArgs>(variant.arguments, part, params));
  std::shared_ptr<HostPool> pool = impl->getHostPool(threads);
  pool->run(arrays.size(),
            [&](unsigned p) { function(arrays[p]->args.data()); });
  return llvm::Error::success();
}

llvm::Error LoadedModule::launch(const KernelSignature &requested,
                                 llvm::ArrayRef<LaunchArg> params,
                                 llvm::ArrayRef<TensorArg> outputs,
                                 const LaunchOptions &launchOptions) {
  llvm::Expected<const KernelSignature *> found =
      checkArguments(*this, requested, params, outputs);
  if (!found)
    return found.takeError();
  const KernelSignature &kernel = **found;
  size_t index = &kernel - signatures.data();
  llvm::SmallVector<const TensorArg *, 8> inputs, results;
  collectTensors(kernel, params, outputs, inputs, results);
  // One plan per thread, assigned from the kernel's cached plans: its
  // vectors keep their room from one launch to the next, so a launch on the
  // shapes of a recent one allocates nothing here (LaunchPlanCache.h).
  static thread_local LaunchPlan planned;
  // The GPU's vector loop and its scalar loop for other addresses are
  // variants of their own (VectorAccess.h says why), and so are the tiled
  // nest for tensors read across their rows (TiledAccess.h) and the rows
  // schedule's larger blocks for long rows (RowAccess.h); the CPU has one
  // loop. The tiled tensors and the rows' block follow from the plan alone,
  // so the cache keeps them; the alignment is this launch's addresses'.
  // Every variant of a kernel has the default's schedule and rows (they
  // differ in strides, batch and addresses, not in their nests).
  const LaunchDescriptor &base = impl->defaults[index]->launch;
  bool rows = cuda && base.schedule == mlir::ew::kRowsSchedule;
  // A kernel of the columns schedule combines too: no vector loop.
  bool combining =
      rows || (cuda && base.schedule == mlir::ew::kColumnsSchedule);
  auto rowsVariant = [&](unsigned block) {
    return block == base.blockSize ? 0 : block;
  };
  if (llvm::Error error = impl->plans[index].get(
          kernel, inputs, results, launchOptions.dims, planned,
          [&](LaunchPlan &plan) {
            if (cuda)
              plan.variant.tiledTensors = chooseTiledTensors(kernel, plan);
            if (rows)
              plan.variant.rowsBlockSize = rowsVariant(
                  getRowsBlockSize(plan.getLongestRow(base.rowDims)));
          }))
    return error;
  // Set on every launch: the cached plan is reused for other addresses and
  // other launch options.
  planned.variant.shiftedTensors.clear();
  planned.variant.unaligned = false;
  planned.variant.streamingStores = false;
  // A scan whose rows are split into tiles is a variant of its own, in
  // blocks of kScanSplitBlockSize whatever its rows' length (ScanAccess.h
  // says why).
  planned.variant.splitScans = false;
  if (rows && base.workspace && base.laneDims.empty()) {
    const CudaDeviceInfo &device = cuda->getDeviceInfo();
    std::uint64_t length = planned.getLongestRow(base.rowDims);
    std::uint64_t rowCount = length ? planned.points / length : 0;
    planned.variant.splitScans =
        rowCount &&
        launchOptions.splits.value_or(chooseScanSplits(
            rowCount, length, kScanSplitBlockSize, device.multiprocessorCount,
            device.maxThreadsPerMultiprocessor)) > 1;
    if (planned.variant.splitScans && !launchOptions.rowsBlockSize)
      planned.variant.rowsBlockSize = rowsVariant(kScanSplitBlockSize);
  }
  if (rows && launchOptions.rowsBlockSize)
    planned.variant.rowsBlockSize = rowsVariant(*launchOptions.rowsBlockSize);
  // The pass of a kernel with its points on the lanes, by their extent (a
  // variant each: RowAccess.h, getLanePass).
  planned.variant.lanePass =
      rows && !base.laneDims.empty()
          ? getLanePass(planned.getLongestRow({base.laneDims}))
          : 0;
  // A row kept in registers where the launch asks for it (RowAccess.h,
  // kRowResidentElements: not the runtime's choice yet, by measurement); a
  // scan's rows are not (its warp walks them).
  planned.variant.rowsResident = 0;
  planned.variant.rowsTeam = 0;
  if (rows && !base.workspace && launchOptions.rowsResident.value_or(0)) {
    unsigned block = planned.variant.rowsBlockSize
                         ? planned.variant.rowsBlockSize
                         : base.blockSize;
    planned.variant.rowsResident = *launchOptions.rowsResident;
    planned.variant.rowsTeam =
        getRowsResidentTeam(planned.getLongestRow(base.rowDims), block,
                            planned.variant.rowsResident);
  }
  if (cuda) {
    // A kernel of the rows or columns schedule has reductions or scans, so
    // none of its nests is a vector loop (convert-ew-to-gpu gives no
    // combining kernel's nest a layout): the vector loop's alignment
    // variants do not apply; the rows schedule's runs have their own check
    // below.
    if (planned.variant.tiledTensors.empty() && !combining &&
        !isVectorAligned(kernel, planned)) {
      planned.variant.shiftedTensors = getVectorShifts(kernel, planned);
      planned.variant.unaligned = planned.variant.shiftedTensors.empty();
    }
    // The rows schedule reads (and writes) a row of one dimension in runs
    // of vectors where every row starts aligned (RowAccess.h,
    // kRowVectorBytes); else its unaligned variant, the lanes' elements one
    // at a time. Decode attention's points on the lanes have no runs.
    if (rows && base.laneDims.empty() &&
        !isRowVectorAligned(planned, base.rowDims))
      planned.variant.unaligned = true;
  } else {
    // x86 only: the kernels order their non-temporal stores with SFENCE
    // (EwToLoops.cpp).
    static const bool isX86 =
        llvm::Triple(llvm::sys::getProcessTriple()).isX86();
    planned.variant.streamingStores =
        isX86 && planned.points > 0 &&
        planned.getResultBytes(kernel) >=
            launchOptions.streamingStoreBytes.value_or(
                getDefaultStreamingStoreBytes());
  }
  if (launchOptions.notes)
    *launchOptions.notes << "note: kernel '" << kernel.name
                         << "': " << planned.points << " points, variant "
                         << planned.variant.getKey() << ", " << planned.merged
                         << " dimension(s) merged\n";
  llvm::Expected<Variant *> chosen =
      getVariant(index, planned, launchOptions.notes);
  if (!chosen)
    return chosen.takeError();
  Variant &variant = **chosen;

  // Autotuning, unless the launch sets the parameters itself.
  std::optional<unsigned> gridWaves = launchOptions.gridWaves;
  std::optional<unsigned> blockSize = launchOptions.blockSize;
  unsigned threads = launchOptions.threads;
  if (impl->options.autotune && planned.points > 0 && !gridWaves &&
      !blockSize && !threads) {
    TunedLaunch tuned;
    if (llvm::Error error = getTunedLaunch(kernel, variant, planned, params,
                                           launchOptions, tuned))
      return error;
    gridWaves = tuned.gridWaves;
    blockSize = tuned.blockSize;
    threads = tuned.threads;
  }

  if (!cuda)
    return launchOnHost(kernel, variant, planned, params, launchOptions,
                        threads);
  ABIArgs abi(variant.arguments, planned, params);
  llvm::SmallVectorImpl<void *> &args = abi.args;
  if (planned.points == 0)
    return llvm::Error::success();
  // The grid by the descriptor's schedule (LaunchShape.h). A tiled or rows
  // kernel requires its block size (known_block_size): no override.
  const LaunchDescriptor &launch = variant.launch;
  const CudaDeviceInfo &device = cuda->getDeviceInfo();
  LaunchShape shape =
      launch.schedule == mlir::ew::kTiledSchedule
          ? computeTiledLaunchShape(
                countTiles(kernel, planned, getTileSize(launch)),
                launch.blockSize)
      : launch.schedule == mlir::ew::kRowsSchedule
          ? computeRowsLaunchShape(
                planned.points, launch.blockSize, device.multiprocessorCount,
                device.maxThreadsPerMultiprocessor, launchOptions.blocksPerSM)
          : computeElementwiseLaunchShape(
                planned.points, launch.elementsPerThread,
                device.multiprocessorCount, device.maxThreadsPerMultiprocessor,
                gridWaves.value_or(kElementwiseWaves),
                blockSize.value_or(launch.blockSize));
  // The columns schedule: the splits by the reduction's length, and with
  // more than one a workspace for this launch alone, after the ABI's
  // arguments (ColumnAccess.h). Allocated and freed in the launch's stream
  // order, so that launches on other streams never share one.
  std::uint64_t workspace = 0;
  if (launch.schedule == mlir::ew::kColumnsSchedule) {
    std::uint64_t splits = launchOptions.splits.value_or(chooseColumnSplits(
        planned.points, planned.getLongestRow(launch.rowDims),
        device.multiprocessorCount, device.maxThreadsPerMultiprocessor));
    shape = computeColumnsLaunchShape(
        planned.points, std::max<uint64_t>(1, splits), launch.blockSize);
    // What the kernel derives from the grid.
    std::uint64_t tiles = getColumnTiles(planned.points);
    splits = std::max<uint64_t>(1, shape.gridSize / tiles);
    std::uint64_t words =
        getColumnWorkspaceWords(planned.points, splits, launch.workspace);
    if (words) {
      llvm::Expected<std::uint64_t> allocated =
          cuda->allocateOnStream(words * 8, tiles * 8, launchOptions.stream);
      if (!allocated)
        return allocated.takeError();
      workspace = *allocated;
    }
    if (launchOptions.notes)
      *launchOptions.notes << "note: kernel '" << kernel.name << "': " << tiles
                           << " tile(s) x " << splits
                           << " split(s), workspace of " << words * 8
                           << " bytes\n";
    args.push_back(&workspace);
  }
  // A rows kernel with its points on the lanes whose rows may be split:
  // for few rows, each row's S split across blocks that meet in a
  // workspace for this launch alone (RowAccess.h), else a null one.
  if (launch.schedule == mlir::ew::kRowsSchedule && launch.workspace &&
      !launch.laneDims.empty()) {
    std::uint64_t points = planned.getLongestRow({launch.laneDims});
    std::uint64_t rowCount = points ? planned.points / points : 0;
    std::uint64_t length = planned.getLongestRow(launch.rowDims);
    std::uint64_t splits = launchOptions.splits.value_or(chooseLaneSplits(
        rowCount, length, launch.blockSize, device.multiprocessorCount));
    splits = std::max<std::uint64_t>(
        1,
        std::min<std::uint64_t>(splits, rowCount ? 0x7fffffff / rowCount : 1));
    std::uint64_t passes = getLanePasses(points);
    std::uint64_t words =
        getLaneWorkspaceWords(rowCount, passes, splits, launch.workspace);
    if (words) {
      // The grid the kernel derives its splits from: max(1, gridDim.x /
      // rows).
      shape.gridSize = static_cast<std::uint32_t>(rowCount * splits);
      llvm::Expected<std::uint64_t> allocated = cuda->allocateOnStream(
          words * 8, rowCount * passes * 8, launchOptions.stream);
      if (!allocated)
        return allocated.takeError();
      workspace = *allocated;
    }
    if (launchOptions.notes)
      *launchOptions.notes << "note: kernel '" << kernel.name
                           << "': " << rowCount << " row(s) x "
                           << (words ? splits : 1) << " split(s), workspace of "
                           << words * 8 << " bytes\n";
    args.push_back(&workspace);
  }
  // A rows kernel whose one nest scans along rows: a warp per row (a null
  // workspace) or, for few long rows, each row split into tiles that meet
  // in a workspace for this launch alone (ScanAccess.h).
  if (launch.schedule == mlir::ew::kRowsSchedule && launch.workspace &&
      launch.laneDims.empty()) {
    std::uint64_t length = planned.getLongestRow(launch.rowDims);
    std::uint64_t rows = length ? planned.points / length : 0;
    std::uint64_t splits = launchOptions.splits.value_or(chooseScanSplits(
        rows, length, launch.blockSize, device.multiprocessorCount,
        device.maxThreadsPerMultiprocessor));
    if (planned.variant.splitScans) {
      shape = computeScanLaunchShape(rows, length, splits, launch.blockSize);
      // What the kernel derives from the grid.
      std::uint64_t tiles =
          rows * getScanSplits(rows, length, launch.blockSize, shape.gridSize);
      std::uint64_t words = getScanWorkspaceWords(tiles, launch.workspace);
      llvm::Expected<std::uint64_t> allocated =
          cuda->allocateOnStream(words * 8, words * 8, launchOptions.stream);
      if (!allocated)
        return allocated.takeError();
      workspace = *allocated;
      if (launchOptions.notes)
        *launchOptions.notes << "note: kernel '" << kernel.name << "': " << rows
                             << " row(s) x " << tiles / rows
                             << " tile(s), workspace of " << words * 8
                             << " bytes\n";
    } else if (launchOptions.notes) {
      *launchOptions.notes << "note: kernel '" << kernel.name << "': " << rows
                           << " row(s), a warp each\n";
    }
    args.push_back(&workspace);
  }
  const CudaFunction &function = variant.getDeviceFunction();
  // The quick code's function stays in `function`; the swap points the
  // variant at `optimizedFunction`.
  if (variant.tiered && launchOptions.notes)
    *launchOptions.notes << "note: kernel '" << kernel.name << "': the "
                         << (&function == &*variant.function ? "quick"
                                                             : "optimized")
                         << " code\n";
  llvm::Error launched =
      launchOptions.synchronize && !launchOptions.stream
          ? cuda->launch(function, shape, args.data())
          : cuda->enqueue(function, shape, args.data(), launchOptions.stream);
  if (workspace)
    if (llvm::Error error = cuda->freeOnStream(workspace, launchOptions.stream))
      return llvm::joinErrors(std::move(launched), std::move(error));
  return launched;
}

//===----------------------------------------------------------------------===//
// Autotuning
//===----------------------------------------------------------------------===//

llvm::Error LoadedModule::getTunedLaunch(const KernelSignature &kernel,
                                         Variant &variant,
                                         const LaunchPlan &plan,
                                         llvm::ArrayRef<LaunchArg> params,
                                         const LaunchOptions &launchOptions,
                                         TunedLaunch &tuned) {
  std::string key =
      kernel.name + "/" + getTuningKey(plan.variant.getKey(), plan.points);
  {
    std::lock_guard<std::mutex> lock(impl->tunedMutex);
    auto it = impl->tuned.find(key);
    if (it != impl->tuned.end()) {
      tuned = it->second;
      return llvm::Error::success();
    }
  }
  llvm::raw_ostream *notes = launchOptions.notes;
  // The module's key names the source, the binding, the options, the
  // device and its driver; this one the kernel, its variant and the bucket.
  std::string moduleKey = impl->cacheKey.str();
  KernelCacheKey cacheKey =
      KernelCacheKey::get({"ewc tuned launch", moduleKey, key});
  if (impl->isCaching()) {
    std::string whyMiss, where;
    if (std::optional<std::string> payload =
            impl->lookupPayload(cacheKey, whyMiss, where))
      if (std::optional<TunedLaunch> stored =
              TunedLaunch::deserialize(*payload)) {
        if (notes)
          *notes << "note: kernel '" << kernel.name << "': tuned launch for "
                 << key << " from " << where << ": " << stored->str() << "\n";
        tuned = *stored;
        std::lock_guard<std::mutex> lock(impl->tunedMutex);
        impl->tuned[key] = tuned;
        return llvm::Error::success();
      }
  }

  // A tiered compilation's quick code is not what the choice is for: the
  // optimized code first (a tuning is a first launch's cost anyway). Where
  // it failed, the quick code stays and is what gets tuned.
  bool pending;
  {
    std::lock_guard<std::mutex> lock(impl->tierMutex);
    pending = !impl->tierFinished;
  }
  if (pending) {
    if (notes)
      *notes << "note: kernel '" << kernel.name
             << "': tuning waits for the optimized code\n";
    llvm::consumeError(waitForOptimized());
  }

  // The candidates: on the GPU, the elementwise schedule's block and grid
  // (the other schedules' blocks are compiled in: the default alone, not
  // measured); on the CPU, the threads.
  const LaunchDescriptor &launch = variant.launch;
  bool elementwise = cuda && launch.schedule == mlir::ew::kElementwiseSchedule;
  std::vector<TunedLaunch> candidates =
      !cuda         ? getHostCandidates(getHostThreads(0))
      : elementwise ? getDeviceCandidates(launch.blockSize)
                    : std::vector<TunedLaunch>{TunedLaunch()};

  // Scratch outputs: each result's view in a buffer of its own, at the
  // caller's address modulo 256 bytes (so the variant's alignment holds);
  // the caller's outputs, and inputs written in place, stay untouched.
  auto start = std::chrono::steady_clock::now();
  auto elapsedMs = [&] {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  };
  LaunchPlan scratch = plan;
  size_t firstResult = plan.tensors.size() - kernel.results.size();
  std::vector<DeviceBuffer> deviceBuffers;
  std::vector<std::unique_ptr<uint8_t[]>> hostBuffers;
  if (candidates.size() > 1) {
    for (size_t t = firstResult; t < scratch.tensors.size(); ++t) {
      LaunchPlan::Descriptor &tensor = scratch.tensors[t];
      if (!tensor.lastByte)
        continue;
      uint64_t offset = reinterpret_cast<uintptr_t>(tensor.data) % 256;
      uint64_t bytes = *tensor.lastByte + 1 + 256 + offset;
      if (cuda) {
        llvm::Expected<DeviceBuffer> buffer =
            DeviceBuffer::allocate(*cuda, bytes);
        if (!buffer)
          return buffer.takeError();
        deviceBuffers.push_back(std::move(*buffer));
        uint64_t base = (deviceBuffers.back().getAddress() + 255) / 256 * 256;
        tensor.data = reinterpret_cast<void *>(base + offset);
      } else {
        hostBuffers.push_back(std::make_unique<uint8_t[]>(bytes));
        uintptr_t base =
            (reinterpret_cast<uintptr_t>(hostBuffers.back().get()) + 255) /
            256 * 256;
        tensor.data = reinterpret_cast<void *>(base + offset);
      }
    }
  }

  // Each candidate that starts within the budget: one launch untimed, then
  // kTuneRepetitions timed, the median (GPU: between events; CPU: the
  // steady clock).
  auto measure = [&](const TunedLaunch &candidate, unsigned warmup,
                     unsigned repetitions) -> llvm::Expected<double> {
    if (cuda) {
      ABIArgs abi(variant.arguments, scratch, params);
      const CudaDeviceInfo &device = cuda->getDeviceInfo();
      LaunchShape shape = computeElementwiseLaunchShape(
          scratch.points, launch.elementsPerThread, device.multiprocessorCount,
          device.maxThreadsPerMultiprocessor,
          candidate.gridWaves.value_or(kElementwiseWaves),
          candidate.blockSize.value_or(launch.blockSize));
      return timeDeviceLaunches(*cuda, warmup, repetitions, [&] {
        return cuda->enqueue(variant.getDeviceFunction(), shape,
                             abi.args.data(), nullptr);
      });
    }
    std::vector<double> times;
    for (unsigned r = 0; r < warmup + repetitions; ++r) {
      auto begin = std::chrono::steady_clock::now();
      if (llvm::Error error = launchOnHost(kernel, variant, scratch, params, {},
                                           candidate.threads))
        return std::move(error);
      if (r >= warmup)
        times.push_back(std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - begin)
                            .count());
    }
    llvm::sort(times);
    return times[times.size() / 2];
  };
  // One launch first: a kernel whose two candidates' measurements alone
  // would take more than the budget keeps its default (a launch that long
  // gains nothing measurable from its parameters' launch cost anyway).
  double probeMs = 0;
  if (candidates.size() > 1) {
    llvm::Expected<double> probe = measure(candidates.front(), 0, 1);
    if (!probe)
      return probe.takeError();
    probeMs = *probe;
    if (2 * (kTuneRepetitions + 1) * probeMs > kTuneBudgetMs)
      candidates.resize(1);
  }
  std::string report;
  llvm::raw_string_ostream out(report);
  double bestMs = 0;
  size_t best = 0, measured = 0;
  for (size_t c = 0; c < candidates.size() && candidates.size() > 1; ++c) {
    // A candidate starts only where its launches (at about the probe's
    // time each) end within the budget: checking the time spent alone let
    // the last one run past it (55 ms for f32 at 2^30 on the H200, where a
    // launch takes 3 ms and a candidate 12).
    if (c > 0 && elapsedMs() + (kTuneRepetitions + 1) * probeMs > kTuneBudgetMs)
      break;
    const TunedLaunch &candidate = candidates[c];
    llvm::Expected<double> ms = measure(candidate, 1, kTuneRepetitions);
    if (!ms)
      return ms.takeError();
    out << (c ? "; " : "") << candidate.str() << " "
        << llvm::format("%.4f", *ms) << " ms";
    ++measured;
    if (c == 0 || *ms < kTuneMargin * bestMs) {
      bestMs = *ms;
      best = c;
    }
  }
  tuned = candidates[best];
  if (notes) {
    if (candidates.size() > 1)
      *notes << "note: kernel '" << kernel.name << "': tuned " << key << ": "
             << report << " -> " << tuned.str() << " (" << measured << " of "
             << candidates.size() << " candidates, "
             << llvm::format("%.1f", elapsedMs()) << " ms)\n";
    else if (probeMs > 0)
      *notes << "note: kernel '" << kernel.name << "': " << key
             << ": one launch takes " << llvm::format("%.1f", probeMs)
             << " ms, too long to tune within "
             << llvm::format("%.0f", kTuneBudgetMs) << " ms: the default\n";
    else
      *notes << "note: kernel '" << kernel.name << "': " << key
             << ": nothing to tune ("
             << (cuda ? "the " + launch.schedule +
                            " schedule's block is "
                            "compiled in"
                      : std::string("one hardware thread"))
             << "): the default\n";
  }
  impl->storePayload(cacheKey, tuned.serialize(), notes);
  std::lock_guard<std::mutex> lock(impl->tunedMutex);
  impl->tuned[key] = tuned;
  return llvm::Error::success();
}
