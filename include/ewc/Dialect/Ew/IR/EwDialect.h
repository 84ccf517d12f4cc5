//===- EwDialect.h - The ew dialect -----------------------------*- C++ -*-===//
//
// Declares the ew dialect class. Include EwOps.h for the ops.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DIALECT_EW_IR_EWDIALECT_H
#define EWC_DIALECT_EW_IR_EWDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ewc/Dialect/Ew/IR/EwOpsDialect.h.inc"

#endif // EWC_DIALECT_EW_IR_EWDIALECT_H
