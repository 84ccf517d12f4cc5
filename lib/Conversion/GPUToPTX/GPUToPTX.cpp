//===- GPUToPTX.cpp - gpu.module to PTX with libdevice --------------------===//
//
// Upstream's gpu-module-to-binary takes bitcode libraries to link as file
// paths only, NVVM's serializer adds libdevice from a CUDA toolkit that it
// finds through CUDA_HOME and friends, and the LLVM passes it runs are always
// LLVM's default<On>. This pass serializes each gpu.module with ewc's own
// subclass of that serializer (PTXSerializer.h): ewc's embedded libdevice,
// in memory and only when called, so no toolkit and no temporary file are
// needed at compile time; and the LLVM passes that ewc's kernels need.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/GPUToPTX/GPUToPTX.h"
#include "ewc/Conversion/StageCheck.h"

#include "PTXSerializer.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_GPUMODULETOPTX
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

/// Where upstream's serializer declares the functions it needs from
/// libdevice (convert-gpu-to-nvvm lowers math ops to calls of these).
static constexpr llvm::StringLiteral kLibdevicePrefix = "__nv_";

/// The first libdevice function that `module` calls, or null.
static LLVM::LLVMFuncOp findLibdeviceCall(gpu::GPUModuleOp module) {
  LLVM::LLVMFuncOp found;
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (func.isExternal() && func.getSymName().starts_with(kLibdevicePrefix)) {
      found = func;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// The embedded libdevice as a resource attribute, the in-memory form that
/// the serializer's bitcode loader accepts (any BlobAttr). The blob is
/// unmanaged: it points at the embedded bytes, which live as long as ewc.
static Attribute getLibdeviceAttr(MLIRContext *context,
                                  ArrayRef<char> bitcode) {
  static constexpr llvm::StringLiteral kBlobName = "ewc_libdevice";
  auto type = RankedTensorType::get({static_cast<int64_t>(bitcode.size())},
                                    IntegerType::get(context, 8));
  auto &manager = DenseResourceElementsHandle::getManagerInterface(context);
  if (DialectResourceBlobManager::BlobEntry *blob =
          manager.getBlobManager().lookup(kBlobName))
    return DenseResourceElementsAttr::get(
        type, DenseResourceElementsHandle(
                  blob, context->getLoadedDialect<BuiltinDialect>()));
  return DenseResourceElementsAttr::get(
      type, kBlobName, UnmanagedAsmResourceBlob::allocateInferAlign(bitcode));
}

/// True for the errors NVVM's serializer reports when CUDA_HOME, CUDA_PATH
/// or CUDA_ROOT names no toolkit with a libdevice. It looks there on every
/// run (and goes on without it); ewc links its own copy, so an unrelated
/// environment variable must not print errors.
static bool isToolkitSearchError(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error)
    return false;
  std::string message = diag.str();
  return StringRef(message).starts_with("CUDA path: ") ||
         StringRef(message).starts_with("LibDevice path: ");
}

namespace {

struct GPUModuleToPTXPass
    : mlir::ew::impl::GPUModuleToPTXBase<GPUModuleToPTXPass> {
  using GPUModuleToPTXBase::GPUModuleToPTXBase;

  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(getOperation(), getArgument(),
                                      "the NVVM gpu.module of ew-gpu-to-nvvm",
                                      "--ew-to-gpu and --ew-gpu-to-nvvm")))
      return signalPassFailure();
    // Upstream's serializer looks for a toolkit in the environment on every
    // module; ewc links its own libdevice, so that search's errors are noise.
    ScopedDiagnosticHandler dropToolkitSearchErrors(
        &getContext(),
        [](Diagnostic &diag) { return success(isToolkitSearchError(diag)); });
    for (gpu::GPUModuleOp module :
         llvm::make_early_inc_range(getOperation().getOps<gpu::GPUModuleOp>()))
      if (failed(serialize(module)))
        return signalPassFailure();
  }

  /// Replaces `module` by a gpu.binary with one PTX object per target, as
  /// gpu-module-to-binary{format=isa} does.
  LogicalResult serialize(gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || targets.empty())
      return module.emitError("has no target to serialize for (expected an "
                              "#nvvm.target, see gpu-nvvm-attach-target)");
    SmallVector<Attribute, 1> libraries;
    // Parsing libdevice (470 KB) costs time, so only kernels that call it
    // link it.
    if (LLVM::LLVMFuncOp call = findLibdeviceCall(module)) {
      ArrayRef<char> libdevice = getEmbeddedLibdevice();
      if (libdevice.empty())
        return call.emitError("'")
               << call.getSymName()
               << "' is in libdevice, which this ewc was built without: "
                  "configure ewc with -DEWC_LIBDEVICE=/path/to/libdevice.10.bc";
      libraries.push_back(getLibdeviceAttr(&getContext(), libdevice));
    }
    Builder builder(&getContext());
    SmallVector<Attribute, 1> objects;
    for (Attribute attr : targets) {
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!target)
        return module.emitError("can only serialize for #nvvm.target, not ")
               << attr;
      std::optional<std::string> ptx =
          serializeToPTX(module, target, libraries, llvmPasses);
      if (!ptx)
        return failure();
      // "isa" is PTX text, which the driver or nvJitLink assembles for the
      // device at load time; the properties hold the target's O, as
      // upstream's object for PTX does.
      objects.push_back(gpu::ObjectAttr::get(
          target, gpu::CompilationTarget::Assembly, builder.getStringAttr(*ptx),
          builder.getDictionaryAttr(builder.getNamedAttr(
              "O", builder.getI32IntegerAttr(target.getO())))));
    }
    OpBuilder before(module);
    gpu::BinaryOp::create(before, module.getLoc(), module.getName(),
                          module.getOffloadingHandlerAttr(), objects);
    module.erase();
    return success();
  }
};

} // namespace
