//===- Passes.h - ew conversion passes --------------------------*- C++ -*-===//
//
// Declares and registers the passes that lower out of the ew dialect, and
// the serialization to PTX.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_PASSES_H
#define EWC_CONVERSION_PASSES_H

#include "ewc/Conversion/ArithFloat8/ExpandFloat8.h"
#include "ewc/Conversion/EwToGPU/EwToGPU.h"
#include "ewc/Conversion/EwToGPU/VectorizeGPULoops.h"
#include "ewc/Conversion/EwToLoops/EwToLoops.h"
#include "ewc/Conversion/GPUToPTX/GPUToPTX.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace ew {

#define GEN_PASS_REGISTRATION
#include "ewc/Conversion/Passes.h.inc"

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_PASSES_H
