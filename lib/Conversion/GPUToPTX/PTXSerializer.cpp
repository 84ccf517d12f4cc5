//===- PTXSerializer.cpp - One gpu.module to PTX text ---------------------===//
//
// The steps are upstream's (ModuleToObject::run): translate to LLVM IR, link
// the bitcode libraries, optimize, then NVPTX code generation. This subclass
// replaces two of them; translation and code generation are upstream's.
//
//===----------------------------------------------------------------------===//

#include "PTXSerializer.h"

#include "mlir/Target/LLVM/NVVM/Utils.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

namespace {

class PTXSerializer : public NVVM::SerializeGPUModuleBase {
public:
  PTXSerializer(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target,
                ArrayRef<Attribute> libraries, StringRef llvmPasses)
      : SerializeGPUModuleBase(*module, target), llvmPasses(llvmPasses) {
    // The base class has added the libraries of the target attribute and a
    // CUDA toolkit's libdevice if it found one. Parsing that libdevice costs
    // 1.5 ms even lazily, for kernels that call none of it: link exactly
    // what the caller asks for.
    librariesToLink.assign(libraries.begin(), libraries.end());
  }

protected:
  LogicalResult optimizeModule(llvm::Module &module, int optLevel) override;
  FailureOr<SmallVector<char, 0>> moduleToObject(llvm::Module &module) override;

private:
  StringRef llvmPasses;
};

} // namespace

LogicalResult PTXSerializer::optimizeModule(llvm::Module &module,
                                            int optLevel) {
  if (llvmPasses.empty())
    return ModuleToObject::optimizeModule(module, optLevel);
  FailureOr<llvm::TargetMachine *> targetMachine = getOrCreateTargetMachine();
  if (failed(targetMachine))
    return getOperation().emitError()
           << "no NVPTX target machine for '" << triple << "'";
  // Code generation at the target's level, as upstream does: NVPTX forms
  // FMAs and reduces the loops' address arithmetic only above -O0.
  (*targetMachine)->setOptLevel(static_cast<llvm::CodeGenOptLevel>(optLevel));

  // The pass builder takes the target machine, which registers NVPTX's own
  // passes (nvvm-reflect) and its target information (TTI) for the others.
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(*targetMachine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(passes, llvmPasses))
    return getOperation().emitError()
           << "invalid LLVM pass pipeline '" << llvmPasses
           << "': " << llvm::toString(std::move(error));
  passes.run(module, modules);
  return success();
}

FailureOr<SmallVector<char, 0>>
PTXSerializer::moduleToObject(llvm::Module &module) {
  FailureOr<llvm::TargetMachine *> targetMachine = getOrCreateTargetMachine();
  if (failed(targetMachine))
    return getOperation().emitError()
           << "no NVPTX target machine for '" << triple << "'";
  FailureOr<SmallString<0>> ptx = translateModuleToISA(
      module, **targetMachine, [&] { return getOperation().emitError(); });
  if (failed(ptx))
    return failure();
  return SmallVector<char, 0>(ptx->begin(), ptx->end());
}

std::optional<std::string>
mlir::ew::serializeToPTX(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target,
                         ArrayRef<Attribute> libraries, StringRef llvmPasses) {
  PTXSerializer::init();
  PTXSerializer serializer(module, target, libraries, llvmPasses);
  std::optional<SmallVector<char, 0>> ptx = serializer.run();
  if (!ptx)
    return std::nullopt;
  return std::string(ptx->begin(), ptx->end());
}
