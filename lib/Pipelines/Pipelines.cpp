//===- Pipelines.cpp - The named ewc pipelines ----------------------------===//
//
// One builder per pipeline; ewc-opt registers them and ewc-run runs them.
//
//===----------------------------------------------------------------------===//

#include "ewc/Pipelines/Pipelines.h"

#include "ewc/Conversion/Passes.h"

#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ew;

void mlir::ew::buildEwCleanupPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::ew::buildEwToGPUPipeline(OpPassManager &pm) {
  buildEwCleanupPipeline(pm);
  pm.addPass(createConvertEwToGPU());
}

void mlir::ew::buildGPUToNVVMPipeline(OpPassManager &pm,
                                      const EwToPTXOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(createSCFToControlFlowPass());
  // 64-bit indices: element counts past 2^31 must not wrap.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  gpu.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  gpu.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::ew::buildNVVMToPTXPipeline(OpPassManager &pm,
                                      const EwToPTXOptions &options) {
  // "isa" is PTX text: the driver JIT-compiles it for the device at load
  // time, so no CUDA toolkit is needed where ewc compiles.
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::ew::buildEwToPTXPipeline(OpPassManager &pm,
                                    const EwToPTXOptions &options) {
  buildEwToGPUPipeline(pm);
  buildGPUToNVVMPipeline(pm, options);
  buildNVVMToPTXPipeline(pm, options);
}

void mlir::ew::buildEwToCPUPipeline(OpPassManager &pm) {
  buildEwCleanupPipeline(pm);
  pm.addPass(createConvertEwToLoops());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

std::string mlir::ew::getPTX(ModuleOp module) {
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
        if (gpuObject.getFormat() == gpu::CompilationTarget::Assembly)
          return gpuObject.getObject().str();
  return {};
}

void mlir::ew::registerEwPipelines() {
  PassPipelineRegistration<>("ew-to-gpu",
                             "Lower ew kernels to gpu.func kernels",
                             buildEwToGPUPipeline);
  PassPipelineRegistration<EwToPTXOptions>(
      "ew-gpu-to-nvvm", "Lower the gpu.module to the NVVM and LLVM dialects",
      buildGPUToNVVMPipeline);
  PassPipelineRegistration<EwToPTXOptions>(
      "ew-nvvm-to-ptx", "Serialize the gpu.module to PTX in a gpu.binary",
      buildNVVMToPTXPipeline);
  PassPipelineRegistration<EwToPTXOptions>(
      "ew-to-ptx",
      "Lower ew kernels to PTX (ew-to-gpu, ew-gpu-to-nvvm, "
      "ew-nvvm-to-ptx)",
      buildEwToPTXPipeline);
  PassPipelineRegistration<>(
      "ew-to-cpu", "Lower ew kernels to LLVM-dialect functions for the CPU",
      buildEwToCPUPipeline);
}

void mlir::ew::registerEwCompilerDialects(DialectRegistry &registry) {
  registry.insert<ew::EwDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect, scf::SCFDialect>();
  // convert-gpu-to-nvvm lowers the other dialects in the gpu.module through
  // their ConvertToLLVMPatternInterface; arith and cf are the ones we emit.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}
