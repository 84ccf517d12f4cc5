//===- Reference.h - The reference evaluator and validation -----*- C++ -*-===//
//
// Everything a driver needs to validate a compiled kernel: seeded inputs
// (RandomInput.h), host arrays in the ABI's layout (HostArray.h), the
// independent evaluation of the AST (Evaluator.h) and the allclose comparison
// (Compare.h).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_REFERENCE_H
#define EWC_REFERENCE_REFERENCE_H

#include "ewc/Reference/Compare.h"
#include "ewc/Reference/Evaluator.h"
#include "ewc/Reference/HostArray.h"
#include "ewc/Reference/RandomInput.h"

#endif // EWC_REFERENCE_REFERENCE_H
