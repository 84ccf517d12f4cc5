//===- GPUToPTX.cpp - gpu.module to PTX with libdevice --------------------===//
//
// Upstream's gpu-module-to-binary takes bitcode libraries to link as file
// paths only, and NVVM's serializer adds libdevice from a CUDA toolkit that
// it finds through CUDA_HOME and friends. This pass calls the same
// serialization (gpu::transformGpuModulesToBinaries) with target options
// that carry ewc's embedded libdevice in memory, as a resource blob: no
// toolkit and no temporary file are needed at compile time.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/GPUToPTX/GPUToPTX.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
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
static LLVM::LLVMFuncOp findLibdeviceCall(ModuleOp module) {
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
    ModuleOp module = getOperation();
    SmallVector<Attribute, 1> libraries;
    // Parsing libdevice (470 KB) costs time, so only kernels that call it
    // link it.
    if (LLVM::LLVMFuncOp call = findLibdeviceCall(module)) {
      ArrayRef<char> libdevice = getEmbeddedLibdevice();
      if (libdevice.empty()) {
        call.emitError("'")
            << call.getSymName()
            << "' is in libdevice, which this ewc was built without: "
               "configure ewc with -DEWC_LIBDEVICE=/path/to/libdevice.10.bc";
        return signalPassFailure();
      }
      libraries.push_back(getLibdeviceAttr(&getContext(), libdevice));
    }
    // "isa" is PTX text: the driver JIT-compiles it for the device at load
    // time, so no CUDA toolkit is needed where ewc compiles.
    gpu::TargetOptions options(/*toolkitPath=*/{}, libraries,
                               /*cmdOptions=*/{}, /*elfSection=*/{},
                               gpu::CompilationTarget::Assembly);
    ScopedDiagnosticHandler dropToolkitSearchErrors(
        &getContext(),
        [](Diagnostic &diag) { return success(isToolkitSearchError(diag)); });
    if (failed(gpu::transformGpuModulesToBinaries(module, nullptr, options)))
      signalPassFailure();
  }
};

} // namespace
