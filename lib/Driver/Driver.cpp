//===- Driver.cpp - Compile .ew sources to loaded kernels -----------------===//
//
// The stages ewc-run used to run in its main, as a library: parse, MLIRGen,
// the ew-to-ptx stages or ew-to-cpu, PTX load or JIT, the kernel cache, and
// the variants compiled on demand. The launch through the ABI's argument
// array is Launch.cpp's.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/Driver.h"

#include "ewc/Conversion/EwToArith/KernelABI.h"
#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"
#include "ewc/Frontend/Frontend.h"
#include "ewc/MLIRGen/MLIRGen.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/KernelCache.h"

#include "CompiledModule.h"
#include "LoadedModuleImpl.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <tuple>

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
  // The binding is part of the source's meaning: T=f16 and T=bf16 compile
  // the same text to different kernels.
  std::string binding = formatTypeBinding(source.getAST().getBinding());
  return KernelCacheKey::get({"ewc kernel cache", KernelCache::getBuildId(),
                              text, binding, chip, features, optLevel,
                              llvmPasses, workarounds, float8, ptxasOption,
                              perThread, tileSize, rowsBlock, device.name,
                              device.getChipName(), driverVersion});
}

/// Everything that changes the CPU code compile() makes of `source`: the
/// source text, the ewc build, and `target` (CpuJit::getTargetDescription:
/// the triple, the CPU with its features, the optimization level).
KernelCacheKey getCpuCacheKey(Source &source, llvm::StringRef target) {
  llvm::SourceMgr &sourceMgr = source.getSourceMgr();
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  std::string binding = formatTypeBinding(source.getAST().getBinding());
  return KernelCacheKey::get({"ewc cpu kernel cache", KernelCache::getBuildId(),
                              text, binding, target});
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
              llvm::raw_ostream *diagnostics, const TypeBinding &binding) {
  std::unique_ptr<Source> source(new Source);
  source->sourceMgr = std::make_unique<llvm::SourceMgr>();
  source->sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  llvm::Error error = llvm::Error::success();
  {
    DiagnosticSink sink(*source->sourceMgr, diagnostics);
    source->ast = parseAndCheck(*source->sourceMgr, binding);
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

/// The ew module of a compilation again, parsed from its text
/// (LoadedModule::Impl::ewModule) in a context of its own whose diagnostics
/// collect in `diagnostics`: what a variant and a tiered compilation's
/// optimized code start from. `module` is null where the text does not
/// parse.
struct EwModuleCopy {
  explicit EwModuleCopy(llvm::StringRef text)
      : context(getRegistry(), mlir::MLIRContext::Threading::DISABLED),
        handler(&context, [this](mlir::Diagnostic &d) {
          stream << d << "\n";
          return mlir::success();
        }) {
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  }

  static mlir::DialectRegistry getRegistry() {
    mlir::DialectRegistry registry;
    mlir::ew::registerEwCompilerDialects(registry);
    return registry;
  }

  std::string diagnostics;
  llvm::raw_string_ostream stream{diagnostics};
  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler handler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// The CPU stages of the ew module, then the JIT; null if `stopAfter`
/// stopped after the LLVM stage. `optLevel` replaces the JIT's (a tiered
/// compilation's quick code).
llvm::Expected<std::unique_ptr<CpuJit>>
runCPUStages(mlir::ModuleOp module, const CompileOptions &options,
             HookPoint lowered, mlir::TimingScope &timing,
             llvm::function_ref<bool(Stage, mlir::ModuleOp)> stopAfter,
             llvm::function_ref<llvm::Error()> takeError,
             std::optional<unsigned> optLevel = std::nullopt) {
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
  CpuJitOptions jitOptions = getCpuJitOptions(options);
  if (optLevel)
    jitOptions.optLevel = *optLevel;
  return CpuJit::create(module, jitOptions);
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
      if (llvm::Error error = loaded->createCudaContext(options.device))
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
    // Tiered: the quick code now, the optimized code on a thread (not when
    // the optimized IR is to be printed: that is the code asked for).
    bool tiered = options.tiered && !options.optimizedIR;
    llvm::Expected<std::unique_ptr<CpuJit>> jit = runCPUStages(
        *module, options, HookPoint::Lowered, timing, stopAfter, takeError,
        tiered ? std::optional<unsigned>(0) : std::nullopt);
    if (!jit)
      return jit.takeError();
    if (!*jit)
      return nullptr;
    impl.defaultJit = std::move(*jit);
    loaded->prepareDefaults({});
    if (tiered) {
      if (options.notes)
        *options.notes << "note: tiered: quick code (-O0) now, the "
                          "optimized code on a thread\n";
      loaded->startOptimizing();
      return std::move(loaded);
    }
    if (impl.isCaching())
      impl.storePayload(impl.cacheKey,
                        {impl.defaultJit->getImage().str(),
                         loaded->signatures,
                         {},
                         impl.ewModule},
                        options.notes);
    return std::move(loaded);
  }

  // Tiered: the quick code (LLVM at O0 before NVPTX, ptxas at -O0) now,
  // the optimized code on a thread; not where a hidden knob for measuring
  // names the levels or passes (Driver.h), whose code is the one asked for.
  bool tiered = options.tiered && !options.ptxOptLevel && !options.llvmPasses &&
                options.jitLink.ptxasOption.empty();
  mlir::ew::EwToPTXOptions quickOptions;
  quickOptions.copyOptionValuesFrom(ptxOptions);
  quickOptions.optLevel = 0;
  llvm::StringMap<LaunchDescriptor> launches;
  llvm::Expected<bool> stopped = runGPUStages(
      *module, options, HookPoint::Lowered, tiered ? quickOptions : ptxOptions,
      timing, launches, stopAfter, takeError);
  if (!stopped)
    return stopped.takeError();
  if (*stopped)
    return nullptr;
  if (!cuda) {
    mlir::TimingScope initTiming = timing.nest("CUDA driver initialisation");
    if (llvm::Error error = loaded->createCudaContext(options.device))
      return std::move(error);
    cuda = impl.ownedCuda.get();
  }
  // No kernel to compile (a file of generic kernels compiled without their
  // types): the stages make no binary, and there is nothing to load.
  if (loaded->signatures.empty()) {
    loaded->prepareDefaults({});
    loaded->cuda = cuda;
    return std::move(loaded);
  }
  mlir::TimingScope cubinTiming = timing.nest("PTX to cubin");
  llvm::Expected<std::vector<char>> cubin = assembleForDevice(
      mlir::ew::getPTX(*module), *cuda, options, options.notes, tiered);
  cubinTiming.stop();
  if (!cubin)
    return cubin.takeError();
  mlir::TimingScope loadTiming = timing.nest("module load");
  if (llvm::Error error = loaded->loadCubin(*cubin, *cuda, launches))
    return std::move(error);
  loadTiming.stop();
  if (tiered) {
    if (options.notes)
      *options.notes << "note: tiered: quick code (LLVM -O0, ptxas -O0) "
                        "now, the optimized code on a thread\n";
    loaded->startOptimizing();
    return std::move(loaded);
  }
  if (impl.isCaching())
    impl.storePayload(impl.cacheKey,
                      {std::string(cubin->begin(), cubin->end()),
                       loaded->signatures, launches, impl.ewModule},
                      options.notes);
  return std::move(loaded);
}

void LoadedModule::startOptimizing() {
  Impl *state = impl.get();
  state->tierFinished = false;
  std::vector<KernelSignature> kernels = signatures;
  CudaContext *context = cuda;
  for (std::unique_ptr<Variant> &variant : state->defaults)
    variant->tiered = true;
  state->tierThread = std::thread([state, kernels, context] {
    std::string error;
    // The default variants again from the ew module's text, as a variant is
    // made, at the full optimization levels.
    EwModuleCopy copy(state->ewModule);
    auto takeError = [&] {
      return llvm::createStringError(
          "the optimized code failed: " +
          llvm::StringRef(copy.diagnostics).trim().str());
    };
    mlir::OwningOpRef<mlir::ModuleOp> &module = copy.module;
    mlir::TimingScope untimed;
    auto never = [](Stage, mlir::ModuleOp) { return false; };
    std::unique_ptr<CpuJit> jit;
    std::unique_ptr<CudaModule> cudaModule;
    if (context) {
      // This thread assembles and loads into the module's context, which
      // each call makes current for itself (CudaContext.h).
      llvm::StringMap<LaunchDescriptor> launches;
      std::vector<CudaFunction> functions;
      std::vector<char> cubin;
      llvm::Error failed = [&]() -> llvm::Error {
        if (!module)
          return takeError();
        llvm::Expected<bool> stopped = runGPUStages(
            *module, state->options, HookPoint::Lowered, state->ptxOptions,
            untimed, launches, never, takeError);
        if (!stopped)
          return stopped.takeError();
        llvm::Expected<std::vector<char>> assembled =
            assembleForDevice(mlir::ew::getPTX(*module), *context,
                              state->options, /*notes=*/nullptr);
        if (!assembled)
          return assembled.takeError();
        cubin = std::move(*assembled);
        llvm::Expected<CudaModule> loaded = context->loadCubin(cubin);
        if (!loaded)
          return loaded.takeError();
        cudaModule = std::make_unique<CudaModule>(std::move(*loaded));
        for (const KernelSignature &kernel : kernels) {
          llvm::Expected<CudaFunction> function = cudaModule->getFunction(
              getKernelSymbol(kernel.name), kernel.name);
          if (!function)
            return function.takeError();
          functions.push_back(*function);
        }
        return llvm::Error::success();
      }();
      if (failed) {
        error = llvm::toString(std::move(failed));
        cudaModule.reset();
      } else {
        // The swap: a launch reads its variant's function once
        // (Variant::getDeviceFunction), so the calls around it run one code
        // or the other; the quick module stays loaded for the launches
        // still queued with its code.
        for (auto [index, function] : llvm::enumerate(functions)) {
          Variant &variant = *state->defaults[index];
          variant.optimizedFunction = function;
          variant.deviceFunction.store(&*variant.optimizedFunction,
                                       std::memory_order_release);
        }
        if (state->isCaching())
          state->storePayload(state->cacheKey,
                              {std::string(cubin.begin(), cubin.end()), kernels,
                               launches, state->ewModule},
                              /*notes=*/nullptr);
      }
    } else {
      std::vector<CpuJit::Function> functions;
      llvm::Expected<std::unique_ptr<CpuJit>> made =
          module ? runCPUStages(*module, state->options, HookPoint::Lowered,
                                untimed, never, takeError)
                 : llvm::Expected<std::unique_ptr<CpuJit>>(takeError());
      if (!made)
        error = llvm::toString(made.takeError());
      else
        jit = std::move(*made);
      // Each default variant's function, its code generated here, not at a
      // launch.
      for (auto [index, kernel] : llvm::enumerate(kernels)) {
        if (!jit)
          break;
        llvm::Expected<CpuJit::Function> function =
            jit->lookup(getKernelSymbol(kernel.name),
                        state->defaults[index]->arguments.size());
        if (!function) {
          error = llvm::toString(function.takeError());
          jit.reset();
          break;
        }
        functions.push_back(*function);
      }
      if (jit) {
        // The swap: a launch loads its variant's function once, atomically
        // (launchOnHost), so the calls around it run one code or the other.
        for (auto [index, function] : llvm::enumerate(functions)) {
          Variant &variant = *state->defaults[index];
          variant.optimizedHostFunction.store(function,
                                              std::memory_order_release);
          variant.hostFunction.store(function, std::memory_order_release);
        }
        if (state->isCaching())
          state->storePayload(
              state->cacheKey,
              {jit->getImage().str(), kernels, {}, state->ewModule},
              /*notes=*/nullptr);
      }
    }
    std::lock_guard<std::mutex> lock(state->tierMutex);
    state->optimizedJit = std::move(jit);
    state->optimizedModule = std::move(cudaModule);
    state->tierError = error;
    state->tierFinished = true;
    state->tierDone.notify_all();
  });
}

llvm::Error LoadedModule::waitForOptimized() {
  std::unique_lock<std::mutex> lock(impl->tierMutex);
  impl->tierDone.wait(lock, [&] { return impl->tierFinished; });
  if (!impl->tierError.empty())
    return llvm::createStringError(impl->tierError);
  return llvm::Error::success();
}

bool LoadedModule::isOptimized() const {
  std::lock_guard<std::mutex> lock(impl->tierMutex);
  return impl->tierFinished && impl->tierError.empty();
}

llvm::Error LoadedModule::createCudaContext(int ordinal) {
  auto created = CudaContext::create(ordinal);
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
    variant->setFunction(*function);
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
  return variant.deviceFunction.load(std::memory_order_acquire);
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
  variant.setFunction(*function);
  variant.launch = compiled->launches.lookup(kernel.name);
  return llvm::Error::success();
}

llvm::Expected<LoadedModule::Variant *>
LoadedModule::getVariant(size_t index, const LaunchPlan &plan,
                         llvm::raw_ostream *notes) {
  if (plan.variant.isDefault())
    return impl->defaults[index].get();
  std::lock_guard<std::mutex> lock(impl->variantsMutex);
  std::string key = plan.variant.getKey();
  std::unique_ptr<Variant> &slot = impl->variants[index][key];
  if (slot)
    return slot.get();
  const KernelSignature &kernel = signatures[index];
  auto variant = std::make_unique<Variant>();
  variant->arguments = getABIArguments(kernel, plan.variant.batchRank);

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
  EwModuleCopy copy(impl->ewModule);
  auto takeError = [&] {
    return llvm::createStringError("cannot compile variant " + key +
                                   " of kernel '" + kernel.name +
                                   "': " + copy.diagnostics);
  };
  mlir::OwningOpRef<mlir::ModuleOp> &module = copy.module;
  if (!module)
    return takeError();
  for (auto other :
       llvm::make_early_inc_range(module->getOps<mlir::ew::KernelOp>())) {
    if (other.getSymName() != kernel.name) {
      other.erase();
      continue;
    }
    mlir::ew::setKernelVariant(other, plan.variant);
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
    variant->setFunction(*function);
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
