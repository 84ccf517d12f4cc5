//===- Driver.cpp - Compile .ew sources to loaded kernels -----------------===//
//
// The stages ewc-run used to run in its main, as a library: parse, MLIRGen,
// the ew-to-ptx stages or ew-to-cpu, PTX load or JIT, and the launch through
// the ABI's argument array.
//
//===----------------------------------------------------------------------===//

#include "ewc/Driver/Driver.h"

#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"
#include "ewc/Frontend/Frontend.h"
#include "ewc/MLIRGen/MLIRGen.h"
#include "ewc/Pipelines/Pipelines.h"
#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/CudaContext.h"
#include "ewc/Runtime/CudaJitLink.h"
#include "ewc/Runtime/KernelCache.h"

#include "GPUImage.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

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
        },
        this);
    collecting = !stream;
  }

  llvm::raw_ostream &getStream() { return *stream; }

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
};

/// The DType of an ew element type, or none for a type the language lacks.
std::optional<DType> getDType(mlir::Type type) {
  if (type.isInteger(1))
    return DType::Bool;
  if (type.isInteger(32))
    return DType::I32;
  if (type.isInteger(64))
    return DType::I64;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
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
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    ParamSignature &param = signature.params.emplace_back();
    std::optional<DType> dtype = getDType(mlir::ew::getElementType(type));
    if (!dtype)
      return unsupported(type);
    param.dtype = *dtype;
    param.isTensor = mlir::ew::isTensor(type);
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
    signature.results.push_back(*dtype);
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

/// The kernel cache compile() reads and writes, or none: options.noCache,
/// EWC_NO_CACHE set (to anything but 0), a hook that changes the code
/// (addPasses: a test mutation is not in the key), or no directory.
std::optional<KernelCache> openCache(const CompileOptions &options) {
  llvm::StringRef off = getenv("EWC_NO_CACHE") ? getenv("EWC_NO_CACHE") : "";
  if (options.noCache || options.addPasses || (!off.empty() && off != "0"))
    return std::nullopt;
  std::string directory = options.cacheDir.empty()
                              ? KernelCache::getDefaultDirectory()
                              : options.cacheDir;
  if (directory.empty())
    return std::nullopt;
  return KernelCache(std::move(directory));
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
  std::string chip = ptxOptions.chip, features = ptxOptions.features;
  std::string optLevel = std::to_string(ptxOptions.optLevel);
  std::string llvmPasses = ptxOptions.llvmPasses;
  std::string workarounds = ptxOptions.ptxasWorkarounds;
  std::string driverVersion = std::to_string(device.driverVersion);
  // The hidden extra ptxas option changes the cubin too: without it here, a
  // run at -Xptxas=-O0 was answered by the -O3 entry.
  std::string ptxasOption = getExtraPtxasOption();
  return KernelCacheKey::get({"ewc kernel cache", KernelCache::getBuildId(),
                              text, chip, features, optLevel, llvmPasses,
                              workarounds, ptxasOption, perThread, device.name,
                              device.getChipName(), driverVersion});
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

LoadedModule::~LoadedModule() {
  // The module unloads before the context that holds it is released.
  cudaModule.reset();
  ownedCuda.reset();
}

llvm::StringMap<unsigned> driver::getElementsPerThread(mlir::ModuleOp module) {
  llvm::StringMap<unsigned> elementsPerThread;
  module->walk([&](mlir::gpu::GPUFuncOp func) {
    if (auto value = func->getAttrOfType<mlir::IntegerAttr>(
            mlir::ew::kElementsPerThreadAttrName))
      if (std::optional<llvm::StringRef> kernel =
              getKernelNameOfSymbol(func.getName()))
        elementsPerThread[*kernel] = value.getInt();
  });
  return elementsPerThread;
}

Target driver::resolveTarget(Target target, std::string *whyNotCuda) {
  if (target != Target::Auto)
    return target;
  return CudaContext::isDeviceAvailable(whyNotCuda) ? Target::Cuda
                                                    : Target::Cpu;
}

llvm::Expected<std::unique_ptr<LoadedModule>>
LoadedModule::compile(Source &source, const CompileOptions &options,
                      CudaContext *cuda) {
  bool onGPU = options.target != Target::Cpu;
  std::unique_ptr<LoadedModule> loaded(new LoadedModule);
  DiagnosticSink sink(source.getSourceMgr(), options.diagnostics);
  auto stopAfter = [&](Stage stage, mlir::ModuleOp module) {
    return options.stopAfter && options.stopAfter(stage, module);
  };
  auto addPasses = [&](mlir::OpPassManager &pm, HookPoint point) {
    if (options.addPasses)
      options.addPasses(pm, point);
  };

  mlir::TimingScope untimed;
  mlir::TimingScope &timing = options.timing ? *options.timing : untimed;
  // On the GPU, the device before anything is compiled where no hook looks
  // at the stages: its chip is the one to compile for, and the cache's key
  // names it.
  mlir::ew::EwToPTXOptions ptxOptions;
  std::optional<KernelCache> cache;
  KernelCacheKey cacheKey;
  if (onGPU) {
    if (!cuda && !options.stopAfter) {
      mlir::TimingScope initTiming = timing.nest("CUDA driver initialisation");
      if (llvm::Error error = loaded->createCudaContext())
        return std::move(error);
      cuda = loaded->ownedCuda.get();
    }
    if (!options.chip.empty())
      ptxOptions.chip = options.chip;
    else if (cuda)
      ptxOptions.chip = cuda->getDeviceInfo().getChipName();
    // Hidden, for measuring compile time against kernel speed: LLVM's
    // optimization level before NVPTX (ptxas optimizes the PTX again).
    if (const char *level = getenv("EWC_PTX_OPT_LEVEL")) {
      unsigned value = 0;
      if (llvm::StringRef(level).getAsInteger(10, value) || value > 3)
        return llvm::createStringError(
            "EWC_PTX_OPT_LEVEL must be 0, 1, 2 or 3, not '" +
            std::string(level) + "'");
      ptxOptions.optLevel = value;
    }
    // Hidden, for measuring too: the LLVM IR passes before NVPTX (empty:
    // LLVM's default<On>), as ewc-opt's llvm-passes option.
    if (const char *passes = getenv("EWC_LLVM_PASSES"))
      ptxOptions.llvmPasses = passes;
    // Hidden, for diagnosing ptxas: which PTX rewrites run (Pipelines.h).
    if (const char *workarounds = getenv("EWC_PTXAS_WORKAROUNDS"))
      ptxOptions.ptxasWorkarounds = workarounds;
    if (llvm::Error error = mlir::ew::checkEwToPTXOptions(ptxOptions))
      return std::move(error);
    if (cuda)
      cache = openCache(options);
    if (cache) {
      mlir::TimingScope cacheTiming = timing.nest("kernel cache lookup");
      cacheKey =
          getCacheKey(source, options, ptxOptions, cuda->getDeviceInfo());
      std::string whyMiss;
      if (loaded->loadFromCache(*cache, cacheKey, *cuda, whyMiss)) {
        if (options.notes)
          *options.notes << "note: kernel cache hit: "
                         << cache->getEntryPath(cacheKey) << "\n";
        loaded->prepareLaunches();
        return std::move(loaded);
      }
      if (options.notes)
        *options.notes << "note: kernel cache miss (" << whyMiss
                       << "): compiling\n";
    }
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
      !runPipeline(
          *module, options, timing, "ew hook passes",
          [&](mlir::OpPassManager &pm) { addPasses(pm, HookPoint::Ew); }))
    return sink.takeError();
  // Read after the ew-level hook, which may change a default.
  for (auto kernel : module->getOps<mlir::ew::KernelOp>()) {
    llvm::Expected<KernelSignature> signature = getCompiledSignature(kernel);
    if (!signature)
      return signature.takeError();
    for (const auto &astKernel : source.getAST().getKernels())
      if (astKernel->getName() == signature->name)
        for (auto [param, astParam] :
             llvm::zip(signature->params, astKernel->getParams()))
          param.name = astParam->getName().str();
    loaded->kernels.push_back(std::move(*signature));
  }
  if (stopAfter(Stage::MLIR, *module))
    return nullptr;

  if (!onGPU) {
    if (!runPipeline(*module, options, timing, "ew-to-cpu",
                     [&](mlir::OpPassManager &pm) {
                       mlir::ew::buildEwToLoopsPipeline(pm);
                       addPasses(pm, HookPoint::Lowered);
                       mlir::ew::buildLoopsToLLVMPipeline(pm);
                     }))
      return sink.takeError();
    if (stopAfter(Stage::LLVM, *module))
      return nullptr;
    CpuJitOptions jitOptions;
    jitOptions.targetCpu = options.cpuTarget;
    jitOptions.optimizedIR = options.optimizedIR;
    mlir::TimingScope jitTiming = timing.nest("JIT (LLVM IR to machine code)");
    auto jit = CpuJit::create(*module, jitOptions);
    if (!jit)
      return jit.takeError();
    loaded->jit = std::move(*jit);
    loaded->prepareLaunches();
    return std::move(loaded);
  }

  // The stages of ew-to-ptx one at a time, so that a caller can stop after
  // any of them.
  using BuildFn = std::function<void(mlir::OpPassManager &)>;
  std::tuple<Stage, llvm::StringRef, BuildFn> stages[] = {
      {Stage::GPU, "ew-to-gpu",
       [&](mlir::OpPassManager &pm) {
         mlir::ew::buildEwToGPUPipeline(pm);
         // Set on the pipeline's own convert-ew-to-gpu, for measuring it.
         if (options.vectorsPerThread)
           for (mlir::Pass &pass : pm.getPasses())
             if (pass.getArgument() == "convert-ew-to-gpu")
               (void)pass.initializeOptions(
                   "vectors-per-thread=" +
                       std::to_string(*options.vectorsPerThread),
                   [](const llvm::Twine &) { return mlir::failure(); });
         addPasses(pm, HookPoint::Lowered);
       }},
      {Stage::LLVM, "gpu-to-nvvm",
       [&](mlir::OpPassManager &pm) {
         mlir::ew::buildGPUToNVVMPipeline(pm, ptxOptions);
       }},
      {Stage::PTX, "nvvm-to-ptx (PTX)", [&](mlir::OpPassManager &pm) {
         mlir::ew::buildNVVMToPTXPipeline(pm, ptxOptions);
       }}};
  for (auto &[stage, name, build] : stages) {
    if (!runPipeline(*module, options, timing, name, build))
      return sink.takeError();
    if (stage == Stage::GPU)
      loaded->elementsPerThread = driver::getElementsPerThread(*module);
    if (stopAfter(stage, *module))
      return nullptr;
  }
  if (!cuda) {
    mlir::TimingScope initTiming = timing.nest("CUDA driver initialisation");
    if (llvm::Error error = loaded->createCudaContext())
      return std::move(error);
    cuda = loaded->ownedCuda.get();
  }
  mlir::TimingScope cubinTiming = timing.nest("PTX to cubin");
  llvm::Expected<std::vector<char>> cubin =
      assembleForDevice(mlir::ew::getPTX(*module), *cuda, options.notes);
  cubinTiming.stop();
  if (!cubin)
    return cubin.takeError();
  mlir::TimingScope loadTiming = timing.nest("module load");
  if (llvm::Error error = loaded->loadCubin(*cubin, *cuda))
    return std::move(error);
  loadTiming.stop();
  if (cache) {
    CompiledGPUModule compiled{std::string(cubin->begin(), cubin->end()),
                               loaded->kernels, loaded->elementsPerThread};
    // A cache that cannot be written costs the next run a compile, no more.
    if (llvm::Error error = cache->store(cacheKey, compiled.serialize())) {
      if (options.notes)
        *options.notes << "note: kernel cache not written: "
                       << llvm::toString(std::move(error)) << "\n";
      else
        llvm::consumeError(std::move(error));
    }
  }
  loaded->prepareLaunches();
  return std::move(loaded);
}

llvm::Error LoadedModule::createCudaContext() {
  auto created = CudaContext::create();
  if (!created)
    return created.takeError();
  ownedCuda = std::move(*created);
  return llvm::Error::success();
}

llvm::Error LoadedModule::loadCubin(llvm::ArrayRef<char> cubin,
                                    CudaContext &context) {
  auto module = context.loadCubin(cubin);
  if (!module)
    return module.takeError();
  auto cudaModule = std::make_unique<CudaModule>(std::move(*module));
  std::vector<CudaFunction> functions;
  for (const KernelSignature &kernel : kernels) {
    auto function =
        cudaModule->getFunction(getKernelSymbol(kernel.name), kernel.name);
    if (!function)
      return function.takeError();
    functions.push_back(*function);
  }
  cuda = &context;
  this->cudaModule = std::move(cudaModule);
  cudaFunctions = std::move(functions);
  return llvm::Error::success();
}

bool LoadedModule::loadFromCache(const KernelCache &cache,
                                 const KernelCacheKey &key,
                                 CudaContext &context, std::string &whyMiss) {
  std::optional<std::string> payload = cache.lookup(key, &whyMiss);
  if (!payload)
    return false;
  llvm::Expected<CompiledGPUModule> compiled =
      CompiledGPUModule::deserialize(*payload);
  if (!compiled) {
    whyMiss = llvm::toString(compiled.takeError());
    return false;
  }
  kernels = std::move(compiled->kernels);
  elementsPerThread = std::move(compiled->elementsPerThread);
  // An entry whose code the driver refuses (a driver update the key missed)
  // is rebuilt like a damaged one.
  if (llvm::Error error = loadCubin(
          llvm::ArrayRef(compiled->cubin.data(), compiled->cubin.size()),
          context)) {
    whyMiss = llvm::toString(std::move(error));
    kernels.clear();
    elementsPerThread.clear();
    return false;
  }
  return true;
}

void LoadedModule::prepareLaunches() {
  abiArguments.clear();
  for (const KernelSignature &kernel : kernels)
    abiArguments.push_back(
        getABIArguments(kernel.params.size(), kernel.results.size()));
}

const KernelSignature *LoadedModule::lookupKernel(llvm::StringRef name) const {
  for (const KernelSignature &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

const CudaFunction *
LoadedModule::getCudaFunction(llvm::StringRef kernel) const {
  for (auto [index, signature] : llvm::enumerate(kernels))
    if (signature.name == kernel && index < cudaFunctions.size())
      return &cudaFunctions[index];
  return nullptr;
}

unsigned LoadedModule::getElementsPerThread(llvm::StringRef kernel) const {
  return elementsPerThread.lookup(kernel);
}

llvm::Error LoadedModule::launch(const KernelSignature &requested,
                                 llvm::ArrayRef<const void *> params,
                                 llvm::ArrayRef<void *> outputs, int64_t n,
                                 const LaunchOptions &launchOptions) {
  // This module's own signature of the kernel, whose ABI order was computed
  // at load time: with it a launch allocates nothing up to 16 arguments (the
  // arrays below live on the stack; the host cost per launch is ~3.7 us,
  // docs/performance.md, and the three heap allocations paid here before
  // cost ~0.1 us).
  const KernelSignature *own = lookupKernel(requested.name);
  if (!own)
    return llvm::createStringError("no kernel '" + requested.name + "'");
  const KernelSignature &kernel = *own;
  size_t index = own - kernels.data();
  if (params.size() != kernel.params.size() ||
      outputs.size() != kernel.results.size())
    return llvm::createStringError(
        "kernel '" + kernel.name + "' takes " +
        std::to_string(kernel.params.size()) + " parameter(s) and " +
        std::to_string(kernel.results.size()) + " output(s), got " +
        std::to_string(params.size()) + " and " +
        std::to_string(outputs.size()));
  if (n < 0)
    return llvm::createStringError("n must not be negative, got " +
                                   std::to_string(n));
  // Each entry of the ABI's array points at one argument's value: a
  // tensor's pointer (stored here), a scalar's bytes (the caller's), or n.
  llvm::SmallVector<const void *, 16> pointers(kernel.params.size() +
                                               kernel.results.size());
  llvm::SmallVector<void *, 16> args;
  for (ABIArgument argument : abiArguments[index]) {
    switch (argument.kind) {
    case ABIArgument::Kind::Param:
      if (!kernel.params[argument.index].isTensor) {
        // The kernel only reads its arguments; the ABI's array is not const.
        args.push_back(const_cast<void *>(params[argument.index]));
        break;
      }
      pointers[argument.index] = params[argument.index];
      args.push_back(&pointers[argument.index]);
      break;
    case ABIArgument::Kind::Result: {
      const void *&slot = pointers[kernel.params.size() + argument.index];
      slot = outputs[argument.index];
      args.push_back(&slot);
      break;
    }
    case ABIArgument::Kind::NumElements:
      args.push_back(&n);
      break;
    }
  }
  if (!cudaModule)
    return jit->invoke(getKernelSymbol(kernel.name), args);
  const CudaFunction &function = cudaFunctions[index];
  unsigned perThread = getElementsPerThread(kernel.name);
  if (launchOptions.synchronize && !launchOptions.stream)
    return cuda->launchElementwise(function, n, args.data(), perThread,
                                   launchOptions.gridWaves,
                                   launchOptions.blockSize);
  return cuda->enqueueElementwise(
      function, n, args.data(), perThread, launchOptions.gridWaves,
      launchOptions.blockSize, launchOptions.stream);
}
