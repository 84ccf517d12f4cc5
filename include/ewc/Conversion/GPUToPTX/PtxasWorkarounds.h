//===- PtxasWorkarounds.h - PTX that ptxas 13.0 gets right ------*- C++ -*-===//
//
// CUDA 13.0's ptxas miscompiles a few PTX instructions at every optimization
// level above -O0 (docs/ptxas-bug/README.md, with a reproducer): it takes
// abs.s64 as never negative, folds a compare of abs.f32 as if NaN were not
// there, loses the sign of -0.0 in selp.f32, combines chains of integer
// min/max wrongly, leaves neg.s16 of -32768 as +32768, loses the low word
// of a 64-bit register that an f64 instruction wrote when a .b32 store
// reads it, and stores a byte of an f16/bf16 conversion's register as the
// float converted to an integer. ewc found each with ewc-fuzz on an H200 or
// an H100. These rewrites put the same computation into
// instructions that ptxas assembles right; each is exact (bit for bit the
// instruction the PTX ISA defines).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_GPUTOPTX_PTXASWORKAROUNDS_H
#define EWC_CONVERSION_GPUTOPTX_PTXASWORKAROUNDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace ew {

/// A set of rewrites, by bit. The names are those of the pass option.
enum PtxasWorkaround : unsigned {
  /// abs.s16/s32/s64 d, a -> d = (a ^ (a >> N-1)) - (a >> N-1).
  kIntAbs = 1u << 0,
  /// abs.f16/bf16/f32/f64 d, a -> and.bN d, a, (sign bit clear).
  kFloatAbs = 1u << 1,
  /// selp.f32/f64 -> selp.b32/b64, float immediates as their bits.
  kFloatSelect = 1u << 2,
  /// min/max.{s,u}{16,32,64} d, a, b -> setp.lt/gt then selp.
  kIntMinMax = 1u << 3,
  /// neg.s16 d, a -> not.b16 d, a; add.s16 d, d, 1.
  kIntNeg = 1u << 4,
  /// st.*.b32 [a], %rdN -> mov.b64 {lo, hi}, %rdN; st.*.b32 [a], lo.
  kWideStore = 1u << 5,
  /// st.*.b8 [a], %rsN -> cvt.u32.u16 w, %rsN; st.*.b8 [a], w.
  kNarrowStore = 1u << 6,
  kAllPtxasWorkarounds = kIntAbs | kFloatAbs | kFloatSelect | kIntMinMax |
                         kIntNeg | kWideStore | kNarrowStore,
};

/// Parses a comma-separated list of int-abs, float-abs, float-select,
/// int-minmax, int-neg, wide-store and narrow-store, or "all", or "none"
/// (the empty list).
llvm::Expected<unsigned> parsePtxasWorkarounds(llvm::StringRef list);

/// `ptx` with the rewrites of `workarounds` applied to every instruction
/// they name.
std::string applyPtxasWorkarounds(llvm::StringRef ptx, unsigned workarounds);

} // namespace ew
} // namespace mlir

#endif // EWC_CONVERSION_GPUTOPTX_PTXASWORKAROUNDS_H
