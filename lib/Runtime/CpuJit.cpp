//===- CpuJit.cpp - Run LLVM-dialect kernels on the host CPU --------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Wraps mlir::ExecutionEngine: optimization for the host or a named CPU,
// ewc's own f16/bf16 conversion helpers, translation diagnostics folded into
// the error, and argument-count checks before calls.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/CpuJit.h"
#include "ewc/Runtime/SoftFloat.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
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

CpuJit::CpuJit(std::unique_ptr<mlir::ExecutionEngine> engine,
               llvm::StringMap<unsigned> packedArgCounts)
    : engine(std::move(engine)), packedArgCounts(std::move(packedArgCounts)) {}

CpuJit::~CpuJit() = default;

llvm::Expected<std::unique_ptr<CpuJit>>
CpuJit::create(mlir::ModuleOp llvmDialectModule, unsigned optLevel) {
  CpuJitOptions options;
  options.optLevel = optLevel;
  return create(llvmDialectModule, options);
}

llvm::Expected<std::unique_ptr<CpuJit>>
CpuJit::create(mlir::ModuleOp llvmDialectModule,
               const CpuJitOptions &jitOptions) {
  unsigned optLevel = jitOptions.optLevel;
  // ExecutionEngine::create cannot report a failing transformer (it aborts),
  // and makeOptimizingTransformer fails exactly on levels above 3.
  if (optLevel > 3)
    return llvm::createStringError(llvm::formatv(
        "CPU optimization level must be 0 to 3, not {0}", optLevel));
  if (llvm::Error error = initializeNativeTarget())
    return std::move(error);

  mlir::MLIRContext *context = llvmDialectModule.getContext();
  mlir::registerBuiltinDialectTranslation(*context);
  mlir::registerLLVMDialectTranslation(*context);

  llvm::StringMap<unsigned> packedArgCounts;
  for (auto func : llvmDialectModule.getOps<mlir::LLVM::LLVMFuncOp>()) {
    // The engine wraps only definitions; declarations resolve to host symbols.
    if (func.isExternal())
      continue;
    mlir::LLVM::LLVMFunctionType type = func.getFunctionType();
    bool returnsValue =
        !llvm::isa<mlir::LLVM::LLVMVoidType>(type.getReturnType());
    packedArgCounts[func.getSymName()] = type.getNumParams() + returnsValue;
  }

  // Optimize for the target CPU, as MLIR's JitRunner does for the host: the
  // target machine gives the IR optimizer the CPU's cost model (vector width,
  // features) for vectorizing the kernel loops. The level set here is the
  // code generator's; the engine compiles with this machine, so
  // ExecutionEngineOptions::jitCodeGenOptLevel would not reach it.
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder =
      getMachineBuilder(jitOptions.targetCpu);
  if (!machineBuilder)
    return machineBuilder.takeError();
  machineBuilder->setCodeGenOptLevel(getCodeGenOptLevel(optLevel));
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> targetMachine =
      machineBuilder->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  // The engine owns the target machine once created; the transformer only
  // runs inside create(), while the pointer is still valid.
  auto optimize = mlir::makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                                  targetMachine->get());
  auto transformer = [&](llvm::Module *module) -> llvm::Error {
    if (llvm::Error error = optimize(module))
      return error;
    if (jitOptions.optimizedIR)
      module->print(*jitOptions.optimizedIR, /*AAW=*/nullptr);
    return llvm::Error::success();
  };
  // A function_ref: `transformer` outlives create() below.
  mlir::ExecutionEngineOptions options;
  options.transformer = transformer;

  // Translation reports why it fails through the context's diagnostics; keep
  // them for the error instead of letting them reach stderr unattributed.
  std::string diagnostics;
  llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>> engine = [&] {
    mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &diag) {
      if (!diagnostics.empty())
        diagnostics += "\n";
      diagnostics += diag.str();
      return mlir::success();
    });
    return mlir::ExecutionEngine::create(llvmDialectModule.getOperation(),
                                         options, std::move(*targetMachine));
  }();
  if (!engine) {
    std::string message = llvm::toString(engine.takeError());
    if (!diagnostics.empty())
      message += ": " + diagnostics;
    return llvm::createStringError("cannot compile the module for the CPU: " +
                                   message);
  }

  // Without F16C or AVX512-BF16, conversions of f16/bf16 become calls that
  // the host's libgcc may not define. Code is generated lazily, at the first
  // lookup, so defining them now is early enough.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner mangle) {
    llvm::orc::SymbolMap symbols;
    for (const SoftFloatSymbol &symbol : getSoftFloatSymbols())
      symbols[mangle(symbol.name)] = {
          llvm::orc::ExecutorAddr::fromPtr(symbol.address),
          llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    return symbols;
  });
  return std::unique_ptr<CpuJit>(
      new CpuJit(std::move(*engine), std::move(packedArgCounts)));
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
  // Looked up once: ExecutionEngine::invokePacked looks the symbol up in the
  // JIT on every call, which cost most of a launch at n = 1024.
  auto &function = packedFunctions[kernel];
  if (!function) {
    auto found = engine->lookupPacked(kernel);
    if (!found)
      return found.takeError();
    function = *found;
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
