//===- Driver.cpp - Compile .ew sources to loaded kernels -----------------===//
//
// The stages ewc-run used to run in its main, as a library: parse, MLIRGen,
// the ew-to-ptx stages or ew-to-cpu, PTX load or JIT, and the launch through
// the ABI's argument array.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/Driver.h"

#include "ewc/ABI/ColumnAccess.h"
#include "ewc/ABI/LaunchPlanCache.h"
#include "ewc/ABI/RowAccess.h"
#include "ewc/ABI/ScanAccess.h"
#include "ewc/ABI/TiledAccess.h"
#include "ewc/ABI/VectorAccess.h"
#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"
#include "ewc/Frontend/Frontend.h"
#include "ewc/MLIRGen/MLIRGen.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/CudaJitLink.h"
#include "ewc/Runtime/HostPool.h"
#include "ewc/Runtime/KernelCache.h"
#include "ewc/Runtime/LaunchShape.h"

#include "CompiledModule.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

#include <unistd.h>

using namespace ewc;
using namespace ewc::driver;

char ReportedError::ID;

void ReportedError::log(llvm::raw_ostream &) const {}

std::error_code ReportedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

namespace {

/// Sends a SourceMgr's diagnostics (the front end's, and MLIR's through
/// SourceMgrDiagnosticHandler, which prints through the SourceMgr) to the
/// caller's stream or into a string for the error.
class DiagnosticSink {
public:
  DiagnosticSink(llvm::SourceMgr &sourceMgr, llvm::raw_ostream *stream)
      : stream(stream ? stream : &collected) {
    sourceMgr.setDiagHandler(
        [](const llvm::SMDiagnostic &diagnostic, void *context) {
          auto *self = static_cast<DiagnosticSink *>(context);
          diagnostic.print(/*ProgName=*/nullptr, *self->stream,
                           /*ShowColors=*/false);
          // A compilation that succeeds still reports its warnings: the
          // APIs hand each one over (Python: as a warnings.warn).
          if (self->collecting &&
              diagnostic.getKind() == llvm::SourceMgr::DK_Warning) {
            std::string warning;
            llvm::raw_string_ostream os(warning);
            diagnostic.print(/*ProgName=*/nullptr, os, /*ShowColors=*/false);
            while (!warning.empty() && warning.back() == '\n')
              warning.pop_back();
            self->warnings.push_back(std::move(warning));
          }
        },
        this);
    collecting = !stream;
  }

  llvm::raw_ostream &getStream() { return *stream; }

  /// The warnings reported while collecting, one diagnostic each.
  std::vector<std::string> takeWarnings() { return std::move(warnings); }

  /// The error for a failure whose diagnostics went to the sink.
  llvm::Error takeError() {
    if (!collecting)
      return llvm::make_error<ReportedError>();
    std::string message = text;
    // The SourceMgr prints each message with a final newline.
    while (!message.empty() && message.back() == '\n')
      message.pop_back();
    if (message.empty())
      message = "compilation failed";
    return llvm::createStringError(message);
  }

private:
  std::string text;
  llvm::raw_string_ostream collected{text};
  llvm::raw_ostream *stream;
  bool collecting;
  std::vector<std::string> warnings;
};

/// The DType of an ew element type, or none for a type the language lacks.
std::optional<DType> getDType(mlir::Type type) {
  if (type.isInteger(1))
    return DType::Bool;
  if (auto integer = llvm::dyn_cast<mlir::IntegerType>(type)) {
    bool isUnsigned = integer.isUnsigned();
    for (DType dtype : getAllDTypes())
      if (isInteger(dtype) && getIntegerBitWidth(dtype) == integer.getWidth() &&
          isUnsignedInteger(dtype) == isUnsigned && !integer.isSigned())
        return dtype;
    return std::nullopt;
  }
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (llvm::isa<mlir::Float8E4M3FNType>(type))
    return DType::F8E4M3;
  if (llvm::isa<mlir::Float8E5M2Type>(type))
    return DType::F8E5M2;
  return std::nullopt;
}

/// The signature of an ew.kernel as the compiled IR has it (parameter names
/// aside, which the IR does not keep), defaults included: a kernel runs with
/// these, the reference with the source's, so a compiler that gets a default
/// wrong shows as a mismatch.
llvm::Expected<KernelSignature>
getCompiledSignature(mlir::ew::KernelOp kernel) {
  KernelSignature signature;
  signature.name = kernel.getSymName().str();
  auto unsupported = [&](mlir::Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "kernel '" << signature.name << "' has type " << type
       << ", which has no dtype";
    return llvm::createStringError(text);
  };
  auto dimsOf = [](mlir::Type type) {
    std::vector<std::string> dims;
    for (mlir::StringAttr dim : mlir::ew::getDims(type))
      dims.push_back(dim.str());
    return dims;
  };
  for (mlir::StringAttr dim : kernel.getDims())
    signature.dims.push_back(dim.str());
  // The dimensions that launches must keep whole and apart: those whose
  // coordinates or extents the body reads, and those it reduces or scans
  // (a part of a launch cut along one would combine a part of it).
  kernel.walk([&](mlir::Operation *op) {
    llvm::SmallVector<llvm::StringRef> dims;
    if (auto index = llvm::dyn_cast<mlir::ew::IndexOp>(op))
      dims.push_back(index.getDim());
    else if (auto size = llvm::dyn_cast<mlir::ew::SizeOp>(op))
      dims.push_back(size.getDim());
    else if (auto reduce = llvm::dyn_cast<mlir::ew::ReduceOp>(op))
      dims = reduce.getDimNames();
    else if (auto scan = llvm::dyn_cast<mlir::ew::ScanOp>(op))
      dims = scan.getDimNames();
    for (llvm::StringRef dim : dims)
      if (!llvm::is_contained(signature.pinnedDims, dim))
        signature.pinnedDims.push_back(dim.str());
  });
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    ParamSignature &param = signature.params.emplace_back();
    std::optional<DType> dtype = getDType(mlir::ew::getElementType(type));
    if (!dtype)
      return unsupported(type);
    param.dtype = *dtype;
    param.isTensor = mlir::ew::isTensor(type);
    param.dims = dimsOf(type);
    mlir::TypedAttr value = kernel.getArgDefault(i);
    if (!value)
      continue;
    std::optional<DType> valueDType = getDType(value.getType());
    if (!valueDType)
      continue;
    ScalarValue scalar;
    scalar.dtype = *valueDType;
    if (auto f = llvm::dyn_cast<mlir::FloatAttr>(value))
      scalar.floatValue = f.getValueAsDouble();
    else if (auto n = llvm::dyn_cast<mlir::IntegerAttr>(value))
      scalar.intValue = value.getType().isInteger(1)
                            ? n.getValue().getZExtValue()
                            : n.getValue().getSExtValue();
    param.defaultValue = scalar;
  }
  for (mlir::Type type : kernel.getResultTypes()) {
    std::optional<DType> dtype = getDType(mlir::ew::getElementType(type));
    if (!dtype)
      return unsupported(type);
    signature.results.push_back({*dtype, dimsOf(type)});
  }
  return signature;
}

/// Runs the passes `build` adds, configured as `options` asks and timed as
/// `name` under `timing` (its passes nested); diagnostics go to the context's
/// handler.
bool runPipeline(mlir::ModuleOp module, const CompileOptions &options,
                 mlir::TimingScope &timing, llvm::StringRef name,
                 llvm::function_ref<void(mlir::OpPassManager &)> build) {
  mlir::PassManager pm(module.getContext());
  mlir::TimingScope scope = timing.nest(name);
  pm.enableTiming(scope);
  if (options.configurePassManager &&
      mlir::failed(options.configurePassManager(pm)))
    return false;
  build(pm);
  return mlir::succeeded(pm.run(module));
}

/// The kernel cache compile() reads and writes, or none: options.noCache, a
/// hook that changes the code (addPasses: a test mutation is not in the
/// key), or no directory.
std::optional<KernelCache> openCache(const CompileOptions &options) {
  if (options.noCache || options.addPasses || options.cacheDir.empty())
    return std::nullopt;
  return KernelCache(options.cacheDir);
}

/// Everything that changes the GPU code compile() makes of `source`: the
/// source text, the options, the ewc build (which fixes the passes, the
/// launch shape's numbers and the entry's meaning), and the device with its
/// driver (a newer driver may load differently). Not the PTX assembler: a
/// cubin from nvJitLink and one from the driver's JIT both run on the device,
/// and asking which one is there would load nvJitLink's 99 MB on every hit.
KernelCacheKey getCacheKey(Source &source, const CompileOptions &options,
                           const mlir::ew::EwToPTXOptions &ptxOptions,
                           const CudaDeviceInfo &device) {
  llvm::SourceMgr &sourceMgr = source.getSourceMgr();
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  std::string perThread = options.vectorsPerThread
                              ? std::to_string(*options.vectorsPerThread)
                              : "default";
  std::string tileSize =
      options.tileSize ? std::to_string(*options.tileSize) : "default";
  std::string rowsBlock = options.rowsBlockSize
                              ? std::to_string(*options.rowsBlockSize)
                              : "default";
  std::string chip = ptxOptions.chip, features = ptxOptions.features;
  std::string optLevel = std::to_string(ptxOptions.optLevel);
  std::string llvmPasses = ptxOptions.llvmPasses;
  std::string workarounds = ptxOptions.ptxasWorkarounds;
  std::string float8 = ptxOptions.float8Conversions;
  std::string driverVersion = std::to_string(device.driverVersion);
  // The hidden extra ptxas option changes the cubin too: without it here, a
  // run at -Xptxas=-O0 was answered by the -O3 entry.
  std::string ptxasOption = options.jitLink.ptxasOption;
  return KernelCacheKey::get(
      {"ewc kernel cache", KernelCache::getBuildId(), text, chip, features,
       optLevel, llvmPasses, workarounds, float8, ptxasOption, perThread,
       tileSize, rowsBlock, device.name, device.getChipName(), driverVersion});
}

/// Everything that changes the CPU code compile() makes of `source`: the
/// source text, the ewc build, and `target` (CpuJit::getTargetDescription:
/// the triple, the CPU with its features, the optimization level).
KernelCacheKey getCpuCacheKey(Source &source, llvm::StringRef target) {
  llvm::SourceMgr &sourceMgr = source.getSourceMgr();
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  return KernelCacheKey::get(
      {"ewc cpu kernel cache", KernelCache::getBuildId(), text, target});
}

/// How the CPU JIT compiles with `options`.
CpuJitOptions getCpuJitOptions(const CompileOptions &options) {
  CpuJitOptions jitOptions;
  jitOptions.targetCpu = options.cpuTarget;
  jitOptions.optimizedIR = options.optimizedIR;
  return jitOptions;
}

/// The key of one variant of one kernel of the module whose key is `module`.
KernelCacheKey getVariantCacheKey(const KernelCacheKey &module,
                                  llvm::StringRef kernel,
                                  llvm::StringRef variant) {
  std::string base = module.str();
  return KernelCacheKey::get({"ewc kernel variant", base, kernel, variant});
}

} // namespace

//===----------------------------------------------------------------------===//
// Source
//===----------------------------------------------------------------------===//

Source::~Source() = default;

llvm::Expected<std::unique_ptr<Source>>
Source::parse(std::unique_ptr<llvm::MemoryBuffer> buffer,
              llvm::raw_ostream *diagnostics) {
  std::unique_ptr<Source> source(new Source);
  source->sourceMgr = std::make_unique<llvm::SourceMgr>();
  source->sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  llvm::Error error = llvm::Error::success();
  {
    DiagnosticSink sink(*source->sourceMgr, diagnostics);
    source->ast = parseAndCheck(*source->sourceMgr);
    if (!source->ast)
      error = sink.takeError();
    source->warnings = sink.takeWarnings();
  }
  // Warnings of later stages print as the caller asks again.
  source->sourceMgr->setDiagHandler(nullptr);
  if (error)
    return std::move(error);
  return std::move(source);
}

//===----------------------------------------------------------------------===//
// LoadedModule
//===----------------------------------------------------------------------===//

/// The compiled code of one variant of one kernel and how to call it.
struct LoadedModule::Variant {
  /// GPU: the module that holds the function where it is the variant's own
  /// (null: the module of every kernel's default variant).
  std::unique_ptr<CudaModule> module;
  std::optional<CudaFunction> function;
  LaunchDescriptor launch;
  /// CPU: the JIT that holds the function where it is the variant's own.
  std::unique_ptr<CpuJit> ownedJit;
  CpuJit *jit = nullptr;
  /// CPU: the function, once a launch has looked it up (the JIT generates
  /// its code then): later launches skip the JIT's two maps and the symbol.
  std::atomic<CpuJit::Function> hostFunction{nullptr};
  /// The ABI's order for this variant's ranks.
  std::vector<ABIArgument> arguments;
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
    std::string payload = module.serialize();
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

  ~Impl() {
    // The modules unload before the context that holds them is released.
    for (auto &perKernel : variants)
      perKernel.clear();
    defaults.clear();
    defaultModule.reset();
    ownedCuda.reset();
  }
};

LoadedModule::LoadedModule() : impl(std::make_unique<Impl>()) {}

LoadedModule::~LoadedModule() = default;

llvm::StringMap<LaunchDescriptor>
driver::getLaunchDescriptors(mlir::ModuleOp module) {
  llvm::StringMap<LaunchDescriptor> launches;
  module->walk([&](mlir::gpu::GPUFuncOp func) {
    auto attr =
        func->getAttrOfType<mlir::ew::LaunchAttr>(mlir::ew::kLaunchAttrName);
    std::optional<llvm::StringRef> kernel =
        getKernelNameOfSymbol(func.getName());
    if (!attr || !kernel)
      return;
    LaunchDescriptor &launch = launches[*kernel];
    launch = {attr.getSchedule().str(),
              attr.getBlockSize(),
              attr.getElementsPerThread(),
              attr.getSharedMemory(),
              {},
              attr.getWorkspace()};
    if (mlir::ArrayAttr rows = attr.getRowDims())
      for (mlir::Attribute row : rows) {
        std::vector<std::string> &dims = launch.rowDims.emplace_back();
        for (mlir::Attribute dim : llvm::cast<mlir::ArrayAttr>(row))
          dims.push_back(llvm::cast<mlir::StringAttr>(dim).str());
      }
    if (mlir::ArrayAttr lanes = attr.getLaneDims())
      for (mlir::Attribute dim : lanes)
        launch.laneDims.push_back(llvm::cast<mlir::StringAttr>(dim).str());
  });
  return launches;
}

Target driver::resolveTarget(Target target, std::string *whyNotCuda) {
  if (target != Target::Auto)
    return target;
  return CudaContext::isDeviceAvailable(whyNotCuda) ? Target::Cuda
                                                    : Target::Cpu;
}

namespace {

/// The ew module's GPU stages with `options`, one at a time so that
/// `stopAfter` may stop after any (it returns true for that), and each
/// kernel's launch descriptor after the GPU stage. `addPasses` adds the
/// hook's passes.
llvm::Expected<bool>
runGPUStages(mlir::ModuleOp module, const CompileOptions &options,
             HookPoint lowered, const mlir::ew::EwToPTXOptions &ptxOptions,
             mlir::TimingScope &timing,
             llvm::StringMap<LaunchDescriptor> &launches,
             llvm::function_ref<bool(Stage, mlir::ModuleOp)> stopAfter,
             llvm::function_ref<llvm::Error()> takeError) {
  auto addPasses = [&](mlir::OpPassManager &pm, HookPoint point) {
    if (options.addPasses)
      options.addPasses(pm, point);
  };
  using BuildFn = std::function<void(mlir::OpPassManager &)>;
  std::tuple<Stage, llvm::StringRef, BuildFn> stages[] = {
      {Stage::GPU, "ew-to-gpu",
       [&](mlir::OpPassManager &pm) {
         mlir::ew::buildEwToGPUPipeline(pm);
         // Set on the pipeline's own passes, for measuring them.
         auto setOption = [&](llvm::StringRef passName, llvm::StringRef option,
                              std::optional<unsigned> value) {
           if (!value)
             return;
           for (mlir::Pass &pass : pm.getPasses())
             if (pass.getArgument() == passName)
               (void)pass.initializeOptions(
                   (option + "=" + llvm::Twine(*value)).str(),
                   [](const llvm::Twine &) { return mlir::failure(); });
         };
         setOption("ew-vectorize-gpu-loops", "vectors-per-thread",
                   options.vectorsPerThread);
         setOption("convert-ew-to-gpu", "tile-size", options.tileSize);
         setOption("convert-ew-to-gpu", "rows-block-size",
                   options.rowsBlockSize);
         addPasses(pm, lowered);
       }},
      {Stage::LLVM, "gpu-to-nvvm",
       [&](mlir::OpPassManager &pm) {
         mlir::ew::buildGPUToNVVMPipeline(pm, ptxOptions);
       }},
      {Stage::PTX, "nvvm-to-ptx (PTX)", [&](mlir::OpPassManager &pm) {
         mlir::ew::buildNVVMToPTXPipeline(pm, ptxOptions);
       }}};
  for (auto &[stage, name, build] : stages) {
    if (!runPipeline(module, options, timing, name, build))
      return takeError();
    if (stage == Stage::GPU)
      launches = getLaunchDescriptors(module);
    if (stopAfter(stage, module))
      return true;
  }
  return false;
}

/// The CPU stages of the ew module, then the JIT; null if `stopAfter`
/// stopped after the LLVM stage.
llvm::Expected<std::unique_ptr<CpuJit>>
runCPUStages(mlir::ModuleOp module, const CompileOptions &options,
             HookPoint lowered, mlir::TimingScope &timing,
             llvm::function_ref<bool(Stage, mlir::ModuleOp)> stopAfter,
             llvm::function_ref<llvm::Error()> takeError) {
  if (!runPipeline(module, options, timing, "ew-to-cpu",
                   [&](mlir::OpPassManager &pm) {
                     mlir::ew::buildEwToLoopsPipeline(pm);
                     if (options.addPasses)
                       options.addPasses(pm, lowered);
                     mlir::ew::buildLoopsToLLVMPipeline(pm);
                   }))
    return takeError();
  if (stopAfter(Stage::LLVM, module))
    return nullptr;
  mlir::TimingScope jitTiming = timing.nest("JIT (LLVM IR to machine code)");
  return CpuJit::create(module, getCpuJitOptions(options));
}

} // namespace

/// `options` without what only speaks to the first compilation (its
/// diagnostics, timing, stop and notes): what the variants compile with.
static CompileOptions getVariantOptions(const CompileOptions &options) {
  CompileOptions variant = options;
  variant.diagnostics = nullptr;
  variant.timing = nullptr;
  variant.stopAfter = nullptr;
  variant.optimizedIR = nullptr;
  variant.notes = nullptr;
  return variant;
}

llvm::Expected<std::unique_ptr<LoadedModule>>
LoadedModule::compile(Source &source, const CompileOptions &options,
                      CudaContext *cuda) {
  bool onGPU = options.target != Target::Cpu;
  std::unique_ptr<LoadedModule> loaded(new LoadedModule);
  Impl &impl = *loaded->impl;
  DiagnosticSink sink(source.getSourceMgr(), options.diagnostics);
  auto stopAfter = [&](Stage stage, mlir::ModuleOp module) {
    return options.stopAfter && options.stopAfter(stage, module);
  };
  auto takeError = [&] { return sink.takeError(); };

  mlir::TimingScope untimed;
  mlir::TimingScope &timing = options.timing ? *options.timing : untimed;
  // On the GPU, the device before anything is compiled where no hook looks
  // at the stages: its chip is the one to compile for, and the cache's key
  // names it.
  mlir::ew::EwToPTXOptions &ptxOptions = impl.ptxOptions;
  if (onGPU) {
    if (!cuda && !options.stopAfter) {
      mlir::TimingScope initTiming = timing.nest("CUDA driver initialisation");
      if (llvm::Error error = loaded->createCudaContext())
        return std::move(error);
      cuda = impl.ownedCuda.get();
    }
    if (!options.chip.empty())
      ptxOptions.chip = options.chip;
    else if (cuda)
      ptxOptions.chip = cuda->getDeviceInfo().getChipName();
    // The hidden knobs for measuring and for diagnosing ptxas (Driver.h).
    if (options.ptxOptLevel) {
      if (*options.ptxOptLevel > 3)
        return llvm::createStringError(
            "the PTX optimization level must be 0, 1, 2 or 3, not " +
            std::to_string(*options.ptxOptLevel));
      ptxOptions.optLevel = *options.ptxOptLevel;
    }
    if (options.llvmPasses)
      ptxOptions.llvmPasses = *options.llvmPasses;
    if (options.ptxasWorkarounds)
      ptxOptions.ptxasWorkarounds = *options.ptxasWorkarounds;
    if (options.float8Conversions)
      ptxOptions.float8Conversions = *options.float8Conversions;
    if (llvm::Error error = mlir::ew::checkEwToPTXOptions(ptxOptions))
      return std::move(error);
    if (cuda)
      impl.cache = openCache(options);
    if (impl.cache)
      impl.cacheKey =
          getCacheKey(source, options, ptxOptions, cuda->getDeviceInfo());
  } else if (!options.optimizedIR) {
    // On the CPU, unless the optimized IR is to be printed (a hit makes
    // none). As on the GPU, a hit runs no stage: stopAfter hears nothing.
    impl.cache = openCache(options);
    impl.memoryCache = !options.noCache && !options.addPasses;
    if (impl.isCaching()) {
      llvm::Expected<std::string> target =
          CpuJit::getTargetDescription(getCpuJitOptions(options));
      if (!target)
        return target.takeError();
      impl.cacheKey = getCpuCacheKey(source, *target);
    }
  }
  if (impl.isCaching()) {
    mlir::TimingScope cacheTiming = timing.nest("kernel cache lookup");
    std::string whyMiss, where;
    if (loaded->loadFromCache(impl.cacheKey, onGPU ? cuda : nullptr, whyMiss,
                              where)) {
      // What a variant compiles from, as a compilation leaves it below.
      impl.options = getVariantOptions(options);
      if (options.notes)
        *options.notes << "note: kernel cache hit: " << where << "\n";
      return std::move(loaded);
    }
    if (options.notes)
      *options.notes << "note: kernel cache miss (" << whyMiss
                     << "): compiling\n";
  }

  mlir::DialectRegistry registry;
  mlir::ew::registerEwCompilerDialects(registry);
  // One small module: a thread pool would cost more than it saves.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::SourceMgrDiagnosticHandler diagnostics(source.getSourceMgr(), &context,
                                               sink.getStream());
  mlir::TimingScope mlirGenTiming = timing.nest("MLIRGen");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlirGen(context, source.getAST(), source.getSourceMgr());
  mlirGenTiming.stop();
  if (!module)
    return sink.takeError();
  if (options.addPasses &&
      !runPipeline(*module, options, timing, "ew hook passes",
                   [&](mlir::OpPassManager &pm) {
                     options.addPasses(pm, HookPoint::Ew);
                   }))
    return sink.takeError();
  // Read after the ew-level hook, which may change a default.
  std::vector<KernelSignature> signatures;
  for (auto kernel : module->getOps<mlir::ew::KernelOp>()) {
    llvm::Expected<KernelSignature> signature = getCompiledSignature(kernel);
    if (!signature)
      return signature.takeError();
    for (const auto &astKernel : source.getAST().getKernels())
      if (astKernel->getName() == signature->name)
        for (auto [param, astParam] :
             llvm::zip(signature->params, astKernel->getParams()))
          param.name = astParam->getName().str();
    signatures.push_back(std::move(*signature));
  }
  // Other variants start again from here.
  {
    llvm::raw_string_ostream os(impl.ewModule);
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  }
  impl.options = getVariantOptions(options);
  loaded->signatures = std::move(signatures);
  if (stopAfter(Stage::MLIR, *module))
    return nullptr;

  if (!onGPU) {
    llvm::Expected<std::unique_ptr<CpuJit>> jit = runCPUStages(
        *module, options, HookPoint::Lowered, timing, stopAfter, takeError);
    if (!jit)
      return jit.takeError();
    if (!*jit)
      return nullptr;
    impl.defaultJit = std::move(*jit);
    loaded->prepareDefaults({});
    if (impl.isCaching())
      impl.storePayload(impl.cacheKey,
                        {impl.defaultJit->getImage().str(),
                         loaded->signatures,
                         {},
                         impl.ewModule},
                        options.notes);
    return std::move(loaded);
  }

  llvm::StringMap<LaunchDescriptor> launches;
  llvm::Expected<bool> stopped =
      runGPUStages(*module, options, HookPoint::Lowered, ptxOptions, timing,
                   launches, stopAfter, takeError);
  if (!stopped)
    return stopped.takeError();
  if (*stopped)
    return nullptr;
  if (!cuda) {
    mlir::TimingScope initTiming = timing.nest("CUDA driver initialisation");
    if (llvm::Error error = loaded->createCudaContext())
      return std::move(error);
    cuda = impl.ownedCuda.get();
  }
  mlir::TimingScope cubinTiming = timing.nest("PTX to cubin");
  llvm::Expected<std::vector<char>> cubin = assembleForDevice(
      mlir::ew::getPTX(*module), *cuda, options, options.notes);
  cubinTiming.stop();
  if (!cubin)
    return cubin.takeError();
  mlir::TimingScope loadTiming = timing.nest("module load");
  if (llvm::Error error = loaded->loadCubin(*cubin, *cuda, launches))
    return std::move(error);
  loadTiming.stop();
  if (impl.isCaching())
    impl.storePayload(impl.cacheKey,
                      {std::string(cubin->begin(), cubin->end()),
                       loaded->signatures, launches, impl.ewModule},
                      options.notes);
  return std::move(loaded);
}

llvm::Error LoadedModule::createCudaContext() {
  auto created = CudaContext::create();
  if (!created)
    return created.takeError();
  impl->ownedCuda = std::move(*created);
  return llvm::Error::success();
}

void LoadedModule::prepareDefaults(
    const llvm::StringMap<LaunchDescriptor> &launches) {
  impl->defaults.clear();
  impl->variants.clear();
  for (const KernelSignature &kernel : signatures) {
    auto variant = std::make_unique<Variant>();
    variant->launch = launches.lookup(kernel.name);
    variant->jit = impl->defaultJit.get();
    variant->arguments = getABIArguments(kernel, /*batchRank=*/1);
    impl->defaults.push_back(std::move(variant));
  }
  impl->variants.resize(signatures.size());
  impl->plans = std::make_unique<LaunchPlanCache[]>(signatures.size());
}

llvm::Error
LoadedModule::loadCubin(llvm::ArrayRef<char> cubin, CudaContext &context,
                        const llvm::StringMap<LaunchDescriptor> &launches) {
  auto module = context.loadCubin(cubin);
  if (!module)
    return module.takeError();
  auto cudaModule = std::make_unique<CudaModule>(std::move(*module));
  prepareDefaults(launches);
  for (auto [kernel, variant] : llvm::zip(signatures, impl->defaults)) {
    auto function =
        cudaModule->getFunction(getKernelSymbol(kernel.name), kernel.name);
    if (!function)
      return function.takeError();
    variant->function = *function;
  }
  cuda = &context;
  impl->defaultModule = std::move(cudaModule);
  return llvm::Error::success();
}

bool LoadedModule::loadFromCache(const KernelCacheKey &key,
                                 CudaContext *context, std::string &whyMiss,
                                 std::string &where) {
  std::optional<std::string> payload = impl->lookupPayload(key, whyMiss, where);
  if (!payload)
    return false;
  llvm::Expected<CompiledModule> compiled =
      CompiledModule::deserialize(*payload);
  if (!compiled) {
    whyMiss = llvm::toString(compiled.takeError());
    return false;
  }
  // Without its IR a module could not compile its kernels' other variants
  // (an entry of an ewc before them): rebuilt, as a damaged one.
  if (compiled->ewModule.empty()) {
    whyMiss = "the entry has no ew IR for the variants";
    return false;
  }
  signatures = std::move(compiled->kernels);
  impl->ewModule = std::move(compiled->ewModule);
  // An entry whose code the driver or the JIT refuses (a driver update the
  // key missed) is rebuilt like a damaged one.
  llvm::Error error = llvm::Error::success();
  if (context) {
    error =
        loadCubin(llvm::ArrayRef(compiled->code.data(), compiled->code.size()),
                  *context, compiled->launches);
  } else if (llvm::Expected<std::unique_ptr<CpuJit>> jit =
                 CpuJit::load(compiled->code)) {
    impl->defaultJit = std::move(*jit);
    prepareDefaults({});
  } else {
    error = jit.takeError();
  }
  if (error) {
    whyMiss = llvm::toString(std::move(error));
    signatures.clear();
    impl->defaultJit.reset();
    return false;
  }
  return true;
}

const KernelSignature *LoadedModule::lookupKernel(llvm::StringRef name) const {
  for (const KernelSignature &kernel : signatures)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

const CudaFunction *
LoadedModule::getCudaFunction(llvm::StringRef kernel) const {
  const KernelSignature *signature = lookupKernel(kernel);
  if (!signature || !cuda)
    return nullptr;
  const Variant &variant = *impl->defaults[signature - signatures.data()];
  return variant.function ? &*variant.function : nullptr;
}

const LaunchDescriptor *
LoadedModule::getLaunchDescriptor(llvm::StringRef kernel) const {
  const KernelSignature *signature = lookupKernel(kernel);
  if (!signature || !cuda)
    return nullptr;
  return &impl->defaults[signature - signatures.data()]->launch;
}

llvm::Error LoadedModule::loadCachedVariant(const KernelCacheKey &key,
                                            const KernelSignature &kernel,
                                            Variant &variant) {
  std::string whyMiss, where;
  std::optional<std::string> payload = impl->lookupPayload(key, whyMiss, where);
  if (!payload)
    return llvm::createStringError(whyMiss);
  llvm::Expected<CompiledModule> compiled =
      CompiledModule::deserialize(*payload);
  if (!compiled)
    return compiled.takeError();
  if (!cuda) {
    llvm::Expected<std::unique_ptr<CpuJit>> jit = CpuJit::load(compiled->code);
    if (!jit)
      return jit.takeError();
    variant.ownedJit = std::move(*jit);
    variant.jit = variant.ownedJit.get();
    return llvm::Error::success();
  }
  auto module = cuda->loadCubin(
      llvm::ArrayRef(compiled->code.data(), compiled->code.size()));
  if (!module)
    return module.takeError();
  auto owned = std::make_unique<CudaModule>(std::move(*module));
  auto function = owned->getFunction(getKernelSymbol(kernel.name), kernel.name);
  if (!function)
    return function.takeError();
  variant.module = std::move(owned);
  variant.function = *function;
  variant.launch = compiled->launches.lookup(kernel.name);
  return llvm::Error::success();
}

llvm::Expected<LoadedModule::Variant *>
LoadedModule::getVariant(size_t index, const LaunchPlan &plan,
                         llvm::raw_ostream *notes) {
  if (plan.isDefaultVariant())
    return impl->defaults[index].get();
  std::lock_guard<std::mutex> lock(impl->variantsMutex);
  std::string key = plan.getVariantKey();
  std::unique_ptr<Variant> &slot = impl->variants[index][key];
  if (slot)
    return slot.get();
  const KernelSignature &kernel = signatures[index];
  auto variant = std::make_unique<Variant>();
  variant->arguments = getABIArguments(kernel, plan.batchRank);

  // A cached variant runs no compiler stage.
  std::optional<KernelCacheKey> cacheKey;
  if (impl->isCaching()) {
    cacheKey = getVariantCacheKey(impl->cacheKey, kernel.name, key);
    // A miss, or an entry that does not load, is compiled below.
    if (llvm::Error error = loadCachedVariant(*cacheKey, kernel, *variant)) {
      llvm::consumeError(std::move(error));
    } else {
      if (notes)
        *notes << "note: kernel '" << kernel.name << "', variant " << key
               << ": kernel cache hit\n";
      slot = std::move(variant);
      return slot.get();
    }
  }

  // The ew module again, with the one kernel and the variant's attributes.
  mlir::DialectRegistry registry;
  mlir::ew::registerEwCompilerDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  std::string diagnosticText;
  llvm::raw_string_ostream diagnosticStream(diagnosticText);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    diagnosticStream << d << "\n";
    return mlir::success();
  });
  auto takeError = [&] {
    return llvm::createStringError("cannot compile variant " + key +
                                   " of kernel '" + kernel.name +
                                   "': " + diagnosticText);
  };
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(impl->ewModule, &context);
  if (!module)
    return takeError();
  for (auto other :
       llvm::make_early_inc_range(module->getOps<mlir::ew::KernelOp>())) {
    if (other.getSymName() != kernel.name) {
      other.erase();
      continue;
    }
    mlir::Builder builder(&context);
    other->setAttr(mlir::ew::kBatchRankAttrName,
                   builder.getI64IntegerAttr(plan.batchRank));
    if (!plan.stridedTensors.empty())
      other->setAttr(mlir::ew::kStridedTensorsAttrName,
                     builder.getDenseI64ArrayAttr(plan.stridedTensors));
    if (plan.unaligned)
      other->setAttr(mlir::ew::kUnalignedAttrName, builder.getUnitAttr());
    if (!plan.tiledTensors.empty())
      other->setAttr(mlir::ew::kTiledTensorsAttrName,
                     builder.getDenseI64ArrayAttr(plan.tiledTensors));
    if (!plan.shiftedTensors.empty()) {
      llvm::SmallVector<int64_t> pairs;
      for (auto [tensor, shift] : plan.shiftedTensors)
        pairs.append({tensor, shift});
      other->setAttr(mlir::ew::kShiftedTensorsAttrName,
                     builder.getDenseI64ArrayAttr(pairs));
    }
    if (plan.streamingStores)
      other->setAttr(mlir::ew::kStreamingStoresAttrName, builder.getUnitAttr());
    if (plan.rowsBlockSize)
      other->setAttr(mlir::ew::kRowsBlockSizeAttrName,
                     builder.getI64IntegerAttr(plan.rowsBlockSize));
    if (plan.splitScans)
      other->setAttr(mlir::ew::kSplitScansAttrName, builder.getUnitAttr());
    if (plan.rowsResident)
      other->setAttr(mlir::ew::kRowsResidentAttrName,
                     builder.getI64IntegerAttr(plan.rowsResident));
    if (plan.rowsTeam)
      other->setAttr(mlir::ew::kRowsTeamAttrName,
                     builder.getI64IntegerAttr(plan.rowsTeam));
    if (plan.lanePass)
      other->setAttr(mlir::ew::kLanePassAttrName,
                     builder.getI64IntegerAttr(plan.lanePass));
  }
  mlir::TimingScope untimed;
  auto never = [](Stage, mlir::ModuleOp) { return false; };
  if (!cuda) {
    llvm::Expected<std::unique_ptr<CpuJit>> jit =
        runCPUStages(*module, impl->options, HookPoint::LoweredVariant, untimed,
                     never, takeError);
    if (!jit)
      return jit.takeError();
    variant->ownedJit = std::move(*jit);
    variant->jit = variant->ownedJit.get();
    if (cacheKey)
      impl->storePayload(*cacheKey,
                         {variant->jit->getImage().str(), {kernel}, {}, {}},
                         /*notes=*/nullptr);
  } else {
    llvm::StringMap<LaunchDescriptor> launches;
    llvm::Expected<bool> stopped =
        runGPUStages(*module, impl->options, HookPoint::LoweredVariant,
                     impl->ptxOptions, untimed, launches, never, takeError);
    if (!stopped)
      return stopped.takeError();
    llvm::Expected<std::vector<char>> cubin = assembleForDevice(
        mlir::ew::getPTX(*module), *cuda, impl->options, notes);
    if (!cubin)
      return cubin.takeError();
    auto loadedModule = cuda->loadCubin(*cubin);
    if (!loadedModule)
      return loadedModule.takeError();
    variant->module = std::make_unique<CudaModule>(std::move(*loadedModule));
    auto function =
        variant->module->getFunction(getKernelSymbol(kernel.name), kernel.name);
    if (!function)
      return function.takeError();
    variant->function = *function;
    variant->launch = launches.lookup(kernel.name);
    if (cacheKey)
      impl->storePayload(*cacheKey,
                         {std::string(cubin->begin(), cubin->end()),
                          {kernel},
                          launches,
                          /*ewModule=*/{}},
                         /*notes=*/nullptr);
  }
  if (notes)
    *notes << "note: kernel '" << kernel.name << "', variant " << key
           << ": compiled\n";
  slot = std::move(variant);
  return slot.get();
}

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
                                       const LaunchOptions &launchOptions) {
  CpuJit::Function function =
      variant.hostFunction.load(std::memory_order_acquire);
  if (!function) {
    llvm::Expected<CpuJit::Function> found = variant.jit->lookup(
        getKernelSymbol(kernel.name), variant.arguments.size());
    if (!found)
      return found.takeError();
    function = *found;
    variant.hostFunction.store(function, std::memory_order_release);
  }
  unsigned threads = getHostThreads(launchOptions.threads);
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
              plan.tiledTensors = chooseTiledTensors(kernel, plan);
            if (rows)
              plan.rowsBlockSize = rowsVariant(
                  getRowsBlockSize(plan.getLongestRow(base.rowDims)));
          }))
    return error;
  // Set on every launch: the cached plan is reused for other addresses and
  // other launch options.
  planned.shiftedTensors.clear();
  planned.unaligned = false;
  planned.streamingStores = false;
  // A scan whose rows are split into tiles is a variant of its own, in
  // blocks of kScanSplitBlockSize whatever its rows' length (ScanAccess.h
  // says why).
  planned.splitScans = false;
  if (rows && base.workspace && base.laneDims.empty()) {
    const CudaDeviceInfo &device = cuda->getDeviceInfo();
    std::uint64_t length = planned.getLongestRow(base.rowDims);
    std::uint64_t rowCount = length ? planned.points / length : 0;
    planned.splitScans =
        rowCount &&
        launchOptions.splits.value_or(chooseScanSplits(
            rowCount, length, kScanSplitBlockSize, device.multiprocessorCount,
            device.maxThreadsPerMultiprocessor)) > 1;
    if (planned.splitScans && !launchOptions.rowsBlockSize)
      planned.rowsBlockSize = rowsVariant(kScanSplitBlockSize);
  }
  if (rows && launchOptions.rowsBlockSize)
    planned.rowsBlockSize = rowsVariant(*launchOptions.rowsBlockSize);
  // The pass of a kernel with its points on the lanes, by their extent (a
  // variant each: RowAccess.h, getLanePass).
  planned.lanePass = rows && !base.laneDims.empty()
                         ? getLanePass(planned.getLongestRow({base.laneDims}))
                         : 0;
  // A row kept in registers where the launch asks for it (RowAccess.h,
  // kRowResidentElements: not the runtime's choice yet, by measurement); a
  // scan's rows are not (its warp walks them).
  planned.rowsResident = 0;
  planned.rowsTeam = 0;
  if (rows && !base.workspace && launchOptions.rowsResident.value_or(0)) {
    unsigned block =
        planned.rowsBlockSize ? planned.rowsBlockSize : base.blockSize;
    planned.rowsResident = *launchOptions.rowsResident;
    planned.rowsTeam = getRowsResidentTeam(planned.getLongestRow(base.rowDims),
                                           block, planned.rowsResident);
  }
  if (cuda) {
    // A kernel of the rows or columns schedule has reductions or scans, so
    // none of its nests is a vector loop (convert-ew-to-gpu gives no
    // combining kernel's nest a layout): the vector loop's alignment
    // variants do not apply; the rows schedule's runs have their own check
    // below.
    if (planned.tiledTensors.empty() && !combining &&
        !isVectorAligned(kernel, planned)) {
      planned.shiftedTensors = getVectorShifts(kernel, planned);
      planned.unaligned = planned.shiftedTensors.empty();
    }
    // The rows schedule reads (and writes) a row of one dimension in runs
    // of vectors where every row starts aligned (RowAccess.h,
    // kRowVectorBytes); else its unaligned variant, the lanes' elements one
    // at a time. Decode attention's points on the lanes have no runs.
    if (rows && base.laneDims.empty() &&
        !isRowVectorAligned(planned, base.rowDims))
      planned.unaligned = true;
  } else {
    // x86 only: the kernels order their non-temporal stores with SFENCE
    // (EwToLoops.cpp).
    static const bool isX86 =
        llvm::Triple(llvm::sys::getProcessTriple()).isX86();
    planned.streamingStores = isX86 && planned.points > 0 &&
                              planned.getResultBytes(kernel) >=
                                  launchOptions.streamingStoreBytes.value_or(
                                      getDefaultStreamingStoreBytes());
  }
  if (launchOptions.notes)
    *launchOptions.notes << "note: kernel '" << kernel.name
                         << "': " << planned.points << " points, variant "
                         << planned.getVariantKey() << ", " << planned.merged
                         << " dimension(s) merged\n";
  llvm::Expected<Variant *> chosen =
      getVariant(index, planned, launchOptions.notes);
  if (!chosen)
    return chosen.takeError();
  Variant &variant = **chosen;

  if (!cuda)
    return launchOnHost(kernel, variant, planned, params, launchOptions);
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
                launchOptions.gridWaves.value_or(kElementwiseWaves),
                launchOptions.blockSize.value_or(launch.blockSize));
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
    if (planned.splitScans) {
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
  llvm::Error launched =
      launchOptions.synchronize && !launchOptions.stream
          ? cuda->launch(*variant.function, shape, args.data())
          : cuda->enqueue(*variant.function, shape, args.data(),
                          launchOptions.stream);
  if (workspace)
    if (llvm::Error error = cuda->freeOnStream(workspace, launchOptions.stream))
      return llvm::joinErrors(std::move(launched), std::move(error));
  return launched;
}
