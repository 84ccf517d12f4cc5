//===- CpuJit.cpp - Run LLVM-dialect kernels on the host CPU --------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Translation, packed wrappers, optimization for the host or a named CPU and
// code generation to an object file; the object in an image (a header and
// its bytes) that ORC's LLJIT loads, with ewc's own f16/bf16 conversion
// helpers; translation diagnostics folded into the error, and argument-count
// checks before calls.
//
// Not MLIR's ExecutionEngine: it compiles inside LLJIT and keeps the object
// to itself (dumpToObjectFile writes it to a file), so a kernel cache could
// neither get the object nor hand one back. What it adds that ewc uses, the
// packed wrappers, is addPackedWrappers below.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/SoftFloat.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <string>

using namespace ewc;

/// Registers the host target with LLVM, once per process.
static llvm::Error initializeNativeTarget() {
  // Both calls return true on failure (no target for this host compiled in).
  static const bool failed = llvm::InitializeNativeTarget() ||
                             llvm::InitializeNativeTargetAsmPrinter();
  if (failed)
    return llvm::createStringError(
        "LLVM has no code generator for this host CPU");
  return llvm::Error::success();
}

static llvm::CodeGenOptLevel getCodeGenOptLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// The machine builder for `cpu`: the host's CPU and features for "host",
/// else the named CPU of the host's architecture with only the features that
/// CPU implies.
static llvm::Expected<llvm::orc::JITTargetMachineBuilder>
getMachineBuilder(llvm::StringRef cpu) {
  if (cpu == CpuJitOptions::kHostCpu) {
    llvm::Expected<llvm::orc::JITTargetMachineBuilder> host =
        llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!host)
      return host.takeError();
    // VCVTNEPS2BF16 (AVX512-BF16, and AVX-NE-CONVERT's VEX form) reads f32
    // subnormals as zero, whatever MXCSR says: on this machine's Xeon 207 of
    // 100,384 f32 patterns rounded to bf16 differently from IEEE (and from
    // the GPU's cvt.rn.bf16.f32). Without them LLVM calls __truncsfbf2, so
    // the bits do not depend on the host.
    if (host->getTargetTriple().isX86())
      for (const char *feature : {"avx512bf16", "avxneconvert"})
        host->getFeatures().AddFeature(feature, /*Enable=*/false);
    return host;
  }
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);
  // Asked with an unknown name, the target machine would only print a
  // warning and fall back to a generic CPU. A subtarget of the generic CPU
  // knows the valid names without printing anything.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpu))
    return llvm::createStringError(llvm::formatv(
        "unknown CPU '{0}' for {1} (`llc -mtriple={1} -mcpu=help` lists the "
        "known ones; '{2}' means this machine's)",
        cpu, triple.str(), CpuJitOptions::kHostCpu));
  llvm::orc::JITTargetMachineBuilder builder(triple);
  builder.setCPU(cpu.str());
  return builder;
}

/// The packed wrapper's name of function `name`.
static std::string getPackedName(llvm::StringRef name) {
  return ("_mlir_" + name).str();
}

/// For each function `f` that `module` defines and exports, adds
/// `void _mlir_f(ptr args)`: it loads parameter i from the value args[i]
/// points to, calls `f`, and stores a result through args[#params]. Returns
/// each wrapper's pointer count by the function's name.
static llvm::StringMap<unsigned> addPackedWrappers(llvm::Module &module) {
  llvm::StringMap<unsigned> counts;
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  llvm::SmallVector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !function.hasLocalLinkage())
      functions.push_back(&function);
  llvm::Type *ptrType = builder.getPtrTy();
  for (llvm::Function *function : functions) {
    auto *wrapperType = llvm::FunctionType::get(builder.getVoidTy(), {ptrType},
                                                /*isVarArg=*/false);
    auto *wrapper =
        llvm::Function::Create(wrapperType, llvm::GlobalValue::ExternalLinkage,
                               getPackedName(function->getName()), module);
    builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", wrapper));
    llvm::Value *args = wrapper->getArg(0);
    auto slot = [&](unsigned index) {
      llvm::Value *address = builder.CreateConstGEP1_64(ptrType, args, index);
      return builder.CreateLoad(ptrType, address);
    };
    llvm::SmallVector<llvm::Value *> values;
    for (llvm::Argument &arg : function->args())
      values.push_back(builder.CreateLoad(arg.getType(), slot(arg.getArgNo())));
    llvm::CallInst *call = builder.CreateCall(function, values);
    unsigned count = function->arg_size();
    if (!function->getReturnType()->isVoidTy())
      builder.CreateStore(call, slot(count++));
    builder.CreateRetVoid();
    counts[function->getName()] = count;
  }
  return counts;
}

//===----------------------------------------------------------------------===//
// The image: what load() reads back
//===----------------------------------------------------------------------===//

// "ewc-cpu-image 1\n", "triple T\n", "function NAME COUNT\n" per function,
// an empty line, then the object file. A new layout changes the number.
static constexpr llvm::StringLiteral kImageMagic = "ewc-cpu-image 1";

static std::string makeImage(llvm::StringRef triple,
                             const llvm::StringMap<unsigned> &counts,
                             llvm::StringRef object) {
  std::string image;
  llvm::raw_string_ostream os(image);
  os << kImageMagic << "\ntriple " << triple << "\n";
  // Sorted: the same module makes the same bytes.
  llvm::SmallVector<llvm::StringRef> names;
  for (const auto &entry : counts)
    names.push_back(entry.getKey());
  llvm::sort(names);
  for (llvm::StringRef name : names)
    os << "function " << name << " " << counts.lookup(name) << "\n";
  os << "\n" << object;
  return image;
}

namespace {
struct ParsedImage {
  llvm::StringRef triple;
  llvm::StringMap<unsigned> counts;
  llvm::StringRef object;
};
} // namespace

static llvm::Expected<ParsedImage> parseImage(llvm::StringRef image) {
  auto bad = [](llvm::StringRef why) {
    return llvm::createStringError("not a CPU image of this ewc: " + why);
  };
  ParsedImage parsed;
  llvm::StringRef line;
  std::tie(line, image) = image.split('\n');
  if (line != kImageMagic)
    return bad("its first line is not '" + kImageMagic.str() + "'");
  std::tie(line, image) = image.split('\n');
  if (!line.consume_front("triple ") || line.empty())
    return bad("no target triple");
  parsed.triple = line;
  while (true) {
    if (image.empty())
      return bad("it ends in its header");
    std::tie(line, image) = image.split('\n');
    if (line.empty())
      break;
    // "function NAME COUNT"
    llvm::StringRef rest = line;
    unsigned value;
    if (!rest.consume_front("function "))
      return bad("a header line is '" + line.str() + "'");
    auto [name, count] = rest.rsplit(' ');
    if (name.empty() || count.getAsInteger(10, value))
      return bad("a header line is '" + line.str() + "'");
    parsed.counts[name] = value;
  }
  if (image.empty())
    return bad("it has no object file");
  parsed.object = image;
  return parsed;
}

//===----------------------------------------------------------------------===//
// CpuJit
//===----------------------------------------------------------------------===//

CpuJit::CpuJit(std::unique_ptr<llvm::orc::LLJIT> jit,
               llvm::StringMap<unsigned> packedArgCounts, std::string image)
    : jit(std::move(jit)), packedArgCounts(std::move(packedArgCounts)),
      image(std::move(image)) {}

CpuJit::~CpuJit() = default;

llvm::Expected<std::unique_ptr<CpuJit>>
CpuJit::create(mlir::ModuleOp llvmDialectModule, unsigned optLevel) {
  CpuJitOptions options;
  options.optLevel = optLevel;
  return create(llvmDialectModule, options);
}

/// The machine builder for `options` at its optimization level, after
/// checking the level: makeOptimizingTransformer fails exactly on levels
/// above 3.
static llvm::Expected<llvm::orc::JITTargetMachineBuilder>
getCheckedMachineBuilder(const CpuJitOptions &options) {
  if (options.optLevel > 3)
    return llvm::createStringError(llvm::formatv(
        "CPU optimization level must be 0 to 3, not {0}", options.optLevel));
  if (llvm::Error error = initializeNativeTarget())
    return std::move(error);
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      getMachineBuilder(options.targetCpu);
  if (builder)
    builder->setCodeGenOptLevel(getCodeGenOptLevel(options.optLevel));
  return builder;
}

llvm::Expected<std::string>
CpuJit::getTargetDescription(const CpuJitOptions &options) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      getCheckedMachineBuilder(options);
  if (!builder)
    return builder.takeError();
  // detectHost names the host's CPU and lists its features; a named CPU
  // implies its own.
  return llvm::formatv("{0} cpu={1} features={2} O{3}",
                       builder->getTargetTriple().str(), builder->getCPU(),
                       builder->getFeatures().getString(), options.optLevel)
      .str();
}

llvm::Expected<std::unique_ptr<CpuJit>>
CpuJit::create(mlir::ModuleOp llvmDialectModule,
               const CpuJitOptions &jitOptions) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder =
      getCheckedMachineBuilder(jitOptions);
  if (!machineBuilder)
    return machineBuilder.takeError();
  // Optimize for the target CPU, as MLIR's JitRunner does for the host: the
  // target machine gives the IR optimizer the CPU's cost model (vector width,
  // features) for vectorizing the kernel loops, and generates the code.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> targetMachine =
      machineBuilder->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  mlir::MLIRContext *context = llvmDialectModule.getContext();
  mlir::registerBuiltinDialectTranslation(*context);
  mlir::registerLLVMDialectTranslation(*context);
  // Translation reports why it fails through the context's diagnostics; keep
  // them for the error instead of letting them reach stderr unattributed.
  std::string diagnostics;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module;
  {
    mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &diag) {
      if (!diagnostics.empty())
        diagnostics += "\n";
      diagnostics += diag.str();
      return mlir::success();
    });
    module = mlir::translateModuleToLLVMIR(llvmDialectModule.getOperation(),
                                           llvmContext, "ewc");
  }
  if (!module) {
    std::string message = "cannot compile the module for the CPU: cannot "
                          "translate it to LLVM IR";
    if (!diagnostics.empty())
      message += ": " + diagnostics;
    return llvm::createStringError(message);
  }
  llvm::TargetMachine &machine = **targetMachine;
  module->setDataLayout(machine.createDataLayout());
  module->setTargetTriple(machine.getTargetTriple());
  llvm::StringMap<unsigned> counts = addPackedWrappers(*module);

  auto optimize = mlir::makeOptimizingTransformer(jitOptions.optLevel,
                                                  /*sizeLevel=*/0, &machine);
  if (llvm::Error error = optimize(module.get()))
    return std::move(error);
  if (jitOptions.optimizedIR)
    module->print(*jitOptions.optimizedIR, /*AAW=*/nullptr);

  llvm::orc::SimpleCompiler compiler(machine);
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> object =
      compiler(*module);
  if (!object)
    return object.takeError();
  return load(makeImage(machine.getTargetTriple().str(), counts,
                        (*object)->getBuffer()));
}

llvm::Expected<std::unique_ptr<CpuJit>> CpuJit::load(llvm::StringRef image) {
  llvm::Expected<ParsedImage> parsed = parseImage(image);
  if (!parsed)
    return parsed.takeError();
  if (llvm::Error error = initializeNativeTarget())
    return std::move(error);
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> host =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!host)
    return host.takeError();
  if (host->getTargetTriple().getArch() !=
          llvm::Triple(parsed->triple).getArch() ||
      host->getTargetTriple().getOS() != llvm::Triple(parsed->triple).getOS())
    return llvm::createStringError(
        llvm::formatv("the image is code for {0}, and this process runs on {1}",
                      parsed->triple, host->getTargetTriple().str()));
  // Code is linked in this thread at the first lookup: a kernel module is
  // small, and a compile thread pool would cost more than it saves.
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*host))
          .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  // The C library's functions (libm's expf, ...) as this process has them.
  llvm::Expected<std::unique_ptr<llvm::orc::DynamicLibrarySearchGenerator>>
      process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  dylib.addGenerator(std::move(*process));
  // Without F16C or AVX512-BF16, conversions of f16/bf16 become calls that
  // the host's libgcc may not define: ewc's own, first.
  llvm::orc::MangleAndInterner mangle((*jit)->getExecutionSession(),
                                      (*jit)->getDataLayout());
  llvm::orc::SymbolMap symbols;
  for (const SoftFloatSymbol &symbol : getSoftFloatSymbols())
    symbols[mangle(symbol.name)] = {
        llvm::orc::ExecutorAddr::fromPtr(symbol.address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (llvm::Error error =
          dylib.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    return std::move(error);
  if (llvm::Error error = (*jit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(parsed->object, "ewc-cpu")))
    return std::move(error);
  llvm::StringMap<unsigned> counts = std::move(parsed->counts);
  return std::unique_ptr<CpuJit>(
      new CpuJit(std::move(*jit), std::move(counts), image.str()));
}

llvm::Expected<CpuJit::Function> CpuJit::lookup(llvm::StringRef kernel,
                                                size_t numArgs) {
  auto it = packedArgCounts.find(kernel);
  if (it == packedArgCounts.end())
    return llvm::createStringError(
        llvm::formatv("no function '{0}' in the JIT-compiled module", kernel));
  if (numArgs != it->second)
    return llvm::createStringError(
        llvm::formatv("function '{0}' takes {1} arguments, not {2}", kernel,
                      it->second, numArgs));
  // Looked up once: a lookup in the JIT on every call cost most of a launch
  // at n = 1024 (ExecutionEngine::invokePacked did that).
  auto &function = packedFunctions[kernel];
  if (!function) {
    llvm::Expected<llvm::orc::ExecutorAddr> found =
        jit->lookup(getPackedName(kernel));
    if (!found)
      return found.takeError();
    function = found->toPtr<Function>();
  }
  return function;
}

llvm::Error CpuJit::invoke(llvm::StringRef kernel,
                           llvm::MutableArrayRef<void *> args) {
  llvm::Expected<Function> function = lookup(kernel, args.size());
  if (!function)
    return function.takeError();
  (*function)(args.data());
  return llvm::Error::success();
}
