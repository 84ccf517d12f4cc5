//===- Pipelines.cpp - The named ewc pipelines ----------------------------===//
//
// One builder per pipeline; ewc-opt registers them and ewc-run runs them.
//
//===----------------------------------------------------------------------===//

#include "ewc/Pipelines/Pipelines.h"

#include "ewc/Conversion/GPUToPTX/PtxasWorkarounds.h"
#include "ewc/Conversion/Passes.h"

#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace mlir::ew;

llvm::Error mlir::ew::checkEwToPTXOptions(const EwToPTXOptions &options) {
  static constexpr const char *kTriple = "nvptx64-nvidia-cuda";
  static const bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    return true;
  }();
  (void)initialized;
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(kTriple), error);
  if (!target)
    return llvm::createStringError("the NVPTX back end is missing: " + error);
  // The generic subtarget: creating one for an unknown chip would print
  // NVPTX's own warnings before ours.
  std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(
      llvm::Triple(kTriple), /*CPU=*/"", /*Features=*/""));
  if (llvm::Error error = checkChip(options.chip))
    return error;
  if (!info->isCPUStringValid(options.chip))
    return llvm::createStringError("unknown GPU architecture '" + options.chip +
                                   "' (expected a chip LLVM " +
                                   LLVM_VERSION_STRING + " knows, e.g. sm_90)");
  for (llvm::StringRef feature :
       llvm::split(llvm::StringRef(options.features), ',')) {
    if (feature.empty())
      continue;
    llvm::StringRef name = feature.drop_front();
    if (!(feature.starts_with("+") || feature.starts_with("-")) ||
        !llvm::any_of(
            info->getAllProcessorFeatures(),
            [&](const llvm::SubtargetFeatureKV &kv) { return name == kv.Key; }))
      return llvm::createStringError("unknown NVPTX feature '" + feature +
                                     "' (expected e.g. +ptx86)");
  }
  if (llvm::Expected<unsigned> workarounds =
          parsePtxasWorkarounds(options.ptxasWorkarounds);
      !workarounds)
    return workarounds.takeError();
  if (options.float8Conversions != "hardware" &&
      options.float8Conversions != "integer")
    return llvm::createStringError("float8-conversions must be 'hardware' or "
                                   "'integer', not '" +
                                   options.float8Conversions + "'");
  return llvm::Error::success();
}

llvm::ArrayRef<llvm::StringRef> mlir::ew::getSupportedChips() {
  // `ptxas --help`'s list of CUDA 13.0 (2026-12-05), every one of which
  // LLVM 22's NVPTX knows (`llc -march=nvptx64 -mcpu=help`).
  static constexpr llvm::StringRef kChips[] = {
      "sm_75",   "sm_80",   "sm_86",  "sm_87",   "sm_88",   "sm_89",
      "sm_90",   "sm_90a",  "sm_100", "sm_100a", "sm_100f", "sm_103",
      "sm_103a", "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120",
      "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f"};
  return kChips;
}

llvm::Error mlir::ew::checkChip(llvm::StringRef chip) {
  if (llvm::is_contained(getSupportedChips(), chip))
    return llvm::Error::success();
  return llvm::createStringError(
      "unsupported GPU architecture '" + chip +
      "': expected one that LLVM's NVPTX and CUDA 13's ptxas both take: " +
      llvm::join(getSupportedChips(), ", "));
}

bool ChipParser::parse(llvm::cl::Option &option, llvm::StringRef argName,
                       llvm::StringRef arg, std::string &value) {
  if (llvm::Error error = checkChip(arg))
    return option.error(llvm::toString(std::move(error)), argName);
  value = arg.str();
  return false;
}

bool mlir::ew::chipHasFloat8Conversions(llvm::StringRef chip) {
  unsigned number = 0;
  if (!chip.consume_front("sm_"))
    return false;
  // "90a": the digits before the suffix.
  llvm::StringRef digits = chip.take_while(llvm::isDigit);
  return !digits.getAsInteger(10, number) && number >= 89;
}

void mlir::ew::buildEwCleanupPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::ew::buildEwToGPUPipeline(OpPassManager &pm) {
  buildEwCleanupPipeline(pm);
  pm.addPass(createConvertEwToGPU());
  // The layouts convert-ew-to-gpu proposed, realized: 16-byte accesses
  // where the runtime finds the tensors aligned. A module pass, not one
  // nested on the gpu.module: the driver finds it by its argument among the
  // top-level passes to set vectors-per-thread.
  pm.addPass(createEwVectorizeGPULoops());
}

void mlir::ew::buildGPUToNVVMPipeline(OpPassManager &pm,
                                      const EwToPTXOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  // The loop nests' delinearizations of the flat index into coordinates.
  gpu.addPass(affine::createAffineExpandIndexOpsPass());
  gpu.addPass(createSCFToControlFlowPass());
  // The 8-bit floats' conversions, which the LLVM lowering lacks.
  EwExpandFloat8Options float8;
  float8.hardware = options.float8Conversions == "hardware" &&
                    chipHasFloat8Conversions(options.chip);
  gpu.addPass(createEwExpandFloat8(float8));
  // Philox's products as mul.lo and mul.hi, not a 64-bit multiply.
  gpu.addPass(createEwGPUMulHi());
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
  // gpu-module-to-binary{format=isa} with ewc's embedded libdevice.
  pm.addPass(createGPUModuleToPTX(GPUModuleToPTXOptions{options.llvmPasses}));
  pm.addPass(createPtxasWorkarounds(
      PtxasWorkaroundsOptions{options.ptxasWorkarounds}));
}

void mlir::ew::buildEwToPTXPipeline(OpPassManager &pm,
                                    const EwToPTXOptions &options) {
  buildEwToGPUPipeline(pm);
  buildGPUToNVVMPipeline(pm, options);
  buildNVVMToPTXPipeline(pm, options);
}

void mlir::ew::buildEwToLoopsPipeline(OpPassManager &pm) {
  buildEwCleanupPipeline(pm);
  pm.addPass(createConvertEwToLoops());
}

void mlir::ew::buildLoopsToLLVMPipeline(OpPassManager &pm) {
  // The 8-bit floats' conversions as integer code (x86 has none).
  pm.addPass(createEwExpandFloat8());
  // Math ops: libm calls for expm1 and log1p, which convert-math-to-llvm
  // would expand inaccurately; LLVM intrinsics where LLVM has them (exp,
  // log, tanh, sin, fabs, ...), which become libm calls or instructions;
  // libm calls for the rest (erf, erfc, asinh, ...). The JIT resolves libm's
  // symbols in the process.
  pm.addPass(createEwCPUMathToLibm());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createSCFToControlFlowPass());
  // The tensors' memref descriptors and accesses; the function arguments
  // become the descriptors' fields (ABI, KernelABI.h).
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // No bfloat for LLVM's vectorizer: the x86 back end scalarizes its selects.
  pm.addPass(createEwCPUBF16AsI16());
  // No minimum/maximum for LLVM 22's x86 lowering, which returns the other
  // operand for a signaling NaN: the same in compares and selects.
  pm.addPass(createEwCPUExpandMinMax());
}

void mlir::ew::buildEwToCPUPipeline(OpPassManager &pm) {
  buildEwToLoopsPipeline(pm);
  buildLoopsToLLVMPipeline(pm);
}

std::string mlir::ew::getPTX(ModuleOp module) {
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
        if (gpuObject.getFormat() == gpu::CompilationTarget::Assembly)
          return gpuObject.getObject().str();
  return {};
}

/// Registers a GPU pipeline whose options are checked by checkEwToPTXOptions
/// before it is built (PassPipelineRegistration cannot fail).
static void registerPTXPipeline(StringRef arg, StringRef description,
                                void (*build)(OpPassManager &,
                                              const EwToPTXOptions &)) {
  registerPassPipeline(
      arg, description,
      [build](OpPassManager &pm, StringRef text,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        EwToPTXOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (llvm::Error error = checkEwToPTXOptions(options))
          return errorHandler(llvm::toString(std::move(error)));
        build(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(EwToPTXOptions());
      });
}

void mlir::ew::registerEwPipelines() {
  PassPipelineRegistration<>("ew-to-gpu",
                             "Lower ew kernels to gpu.func kernels",
                             buildEwToGPUPipeline);
  registerPTXPipeline("ew-gpu-to-nvvm",
                      "Lower the gpu.module to the NVVM and LLVM dialects",
                      buildGPUToNVVMPipeline);
  registerPTXPipeline("ew-nvvm-to-ptx",
                      "Serialize the gpu.module to PTX in a gpu.binary",
                      buildNVVMToPTXPipeline);
  registerPTXPipeline("ew-to-ptx",
                      "Lower ew kernels to PTX (ew-to-gpu, ew-gpu-to-nvvm, "
                      "ew-nvvm-to-ptx)",
                      buildEwToPTXPipeline);
  PassPipelineRegistration<>("ew-to-loops",
                             "Lower ew kernels to func.func element loops",
                             buildEwToLoopsPipeline);
  PassPipelineRegistration<>(
      "ew-loops-to-llvm",
      "Lower the element loops to LLVM-dialect functions for the CPU",
      buildLoopsToLLVMPipeline);
  PassPipelineRegistration<>(
      "ew-to-cpu", "Lower ew kernels to LLVM-dialect functions for the CPU",
      buildEwToCPUPipeline);
}

void mlir::ew::registerEwCompilerDialects(DialectRegistry &registry) {
  registry.insert<ew::EwDialect, affine::AffineDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();
  // convert-gpu-to-nvvm lowers the other dialects in the gpu.module through
  // their ConvertToLLVMPatternInterface; arith, cf, memref (the tensors'
  // descriptors and accesses), ub and vector are the ones we emit (it turns
  // the math ops we emit into libdevice calls itself).
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}
