//===- EwToGPU.h - ew kernels to GPU kernels --------------------*- C++ -*-===//
//
// Lowers ew.kernel to gpu.func kernels with the kernel ABI (KernelABI.h) and
// a grid-stride loop over the points of each loop nest, each with its layout
// (#ew.blocked) and the kernel with its launch descriptor (#ew.launch).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_EWTOGPU_EWTOGPU_H
#define EWC_CONVERSION_EWTOGPU_EWTOGPU_H

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace ew {

#define GEN_PASS_DECL_CONVERTEWTOGPU
#define GEN_PASS_DECL_EWGPUMULHI
#include "ewc/Conversion/Passes.h.inc"

/// The attribute on each lowered loop nest with its thread-to-element layout
/// (#ew.blocked).
constexpr llvm::StringLiteral kLayoutAttrName = "ew.layout";

/// The attribute on each lowered gpu.func with its launch descriptor
/// (#ew.launch), which the runtime, the kernel cache and the exported header
/// take as they are.
constexpr llvm::StringLiteral kLaunchAttrName = "ew.launch";

/// The launch rule of the elementwise kernels (#ew.launch's schedule).
constexpr llvm::StringLiteral kElementwiseSchedule =
    LaunchAttr::kElementwiseSchedule;
/// The launch rule of a kernel whose nest is tiled (#ew.tiled): one block
/// per tile (ewc/ABI/TiledAccess.h).
constexpr llvm::StringLiteral kTiledSchedule = LaunchAttr::kTiledSchedule;
/// The launch rule of a kernel with reductions or scans along rows: a team
/// per row, the block by the longest row (ewc/ABI/RowAccess.h).
constexpr llvm::StringLiteral kRowsSchedule = LaunchAttr::kRowsSchedule;
/// A kernel whose one nest reduces across rows: tiles of its points, each
/// split across blocks that meet in a workspace (ewc/ABI/ColumnAccess.h).
constexpr llvm::StringLiteral kColumnsSchedule = LaunchAttr::kColumnsSchedule;

/// Threads per block: 4 warps. Measured on the H200, 2026-11-30, LeakyReLU at
/// n = 2^28 (docs/performance.md, run 2): 128-thread blocks reached 100.9% of
/// the copy (f32 and bf16, one vector per thread) against 99.6% / 99.5% with
/// 256, and 99.7% / 100.2% against 97.1% / 97.7% with two vectors per
/// thread. Smaller blocks finish and are replaced more evenly (16 resident
/// per SM instead of 8), which torch's (128) and Triton's (4 warps)
/// elementwise kernels also use. The kernels read blockDim, so any size is
/// correct.
constexpr unsigned kBlockSize = 128;

/// Populates the patterns of convert-ew-to-gpu: those of EwToArith, which
/// turn each ew.kernel into its element function. The pass then builds the
/// gpu.func's grid-stride loops around the element code (KernelABI.h).
void populateEwToGPUPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_EWTOGPU_EWTOGPU_H
