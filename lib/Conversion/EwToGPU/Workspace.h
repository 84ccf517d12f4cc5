//===- Workspace.h - Words of a kernel's workspace ------------*- C++ -*-===//
//
// Private to lib/Conversion/EwToGPU: what the schedules that split a
// reduction or a scan across blocks (the columns schedule, ColumnAccess.h;
// the scans split into tiles, ScanAccess.h) share to meet in the workspace
// that the runtime allocates per launch: a word's address, a combined value
// as a word and back, and the scope of their fences.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_CONVERSION_EWTOGPU_WORKSPACE_H
#define EWC_LIB_CONVERSION_EWTOGPU_WORKSPACE_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace ew {

/// The scope of the workspace's fences and atomics: every block of the grid
/// (PTX's .gpu; NVPTX's name for it).
constexpr llvm::StringLiteral kDeviceScope = "device";

/// The address of 8-byte word `index` (an index value) of `workspace` (a
/// pointer in the global address space).
Value getWordAddress(OpBuilder &builder, Location loc, Value workspace,
                     Value index);

/// Draws a ticket at word `ticket` (an index value) of `workspace` for a
/// block, by one of its threads, and returns whether it is the last of
/// `count` (an index value), an i1: fence, atomic add, fence, CUDA's
/// threadFenceReduction (NVPTX, LLVM 22, PTX 7.8, emits an acq_rel
/// atomicrmw as a plain, relaxed `atom`: the fences order it on any back
/// end). The block's other words are written and fenced (release) before.
Value drawLastTicket(OpBuilder &builder, Location loc, Value workspace,
                     Value ticket, Value count);

/// A combined value (an integer or a float of at most 64 bits) as a
/// workspace word (an i64), and back.
Value toWord(OpBuilder &builder, Location loc, Value value);
Value fromWord(OpBuilder &builder, Location loc, Value word, Type type);

} // namespace ew
} // namespace mlir

#endif // EWC_LIB_CONVERSION_EWTOGPU_WORKSPACE_H
