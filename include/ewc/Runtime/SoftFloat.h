//===- SoftFloat.h - f16/bf16 conversions for the CPU JIT ------*- C++ -*-===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Where the CPU lacks instructions for them (no F16C, no AVX512-BF16), LLVM
// lowers conversions between f16/bf16 and f32/f64 to calls of compiler-rt's
// helpers (__extendhfsf2, __truncsfbf2, ...). The host's libgcc may lack some
// of them (Debian 12's has no bf16 helpers at all), so ewc brings its own and
// the CPU JIT resolves those names to them on every host. The conversions are
// integer code only: they give the same bits on every CPU.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_RUNTIME_SOFTFLOAT_H
#define EWC_RUNTIME_SOFTFLOAT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace ewc {

//===----------------------------------------------------------------------===//
// Bit-level conversions
//===----------------------------------------------------------------------===//
//
// IEEE semantics: narrowing rounds to nearest, ties to even, with gradual
// underflow and overflow to infinity; widening is exact. A NaN stays a NaN of
// the same sign, quieted (the top mantissa bit set), keeping the top bits of
// its payload, as compiler-rt, F16C and AVX512-BF16 do.

/// f16 bits -> f32 (exact).
float extendHalfToFloat(uint16_t bits);
/// bf16 bits -> f32 (exact).
float extendBFloatToFloat(uint16_t bits);
/// f32 -> f16 bits.
uint16_t truncateFloatToHalf(float value);
/// f64 -> f16 bits, rounded once (not through f32).
uint16_t truncateDoubleToHalf(double value);
/// f32 -> bf16 bits.
uint16_t truncateFloatToBFloat(float value);
/// f64 -> bf16 bits, rounded once (not through f32).
uint16_t truncateDoubleToBFloat(double value);

//===----------------------------------------------------------------------===//
// The helpers JIT-compiled code calls
//===----------------------------------------------------------------------===//

/// One libcall that LLVM may emit for an f16/bf16 conversion, and the address
/// of ewc's implementation of it. The implementation has the libcall's C
/// signature with every f16 or bf16 value in an XMM register, as the x86-64
/// psABI passes _Float16 and __bf16 and as LLVM passes `half` and `bfloat`.
struct SoftFloatSymbol {
  llvm::StringLiteral name;
  void *address;
};

/// Every helper: __extendhfsf2, __truncsfhf2, __truncdfhf2, __truncsfbf2,
/// __truncdfbf2 (what LLVM 22 emits for a baseline x86-64 CPU) and
/// __extendbfsf2 (which it does not, since bf16 -> f32 is a shift, but other
/// back ends name). The JIT maps each name to its address; the process's own
/// symbols of those names (libgcc's, where it has them) are never touched.
llvm::ArrayRef<SoftFloatSymbol> getSoftFloatSymbols();

} // namespace ewc

#endif // EWC_RUNTIME_SOFTFLOAT_H
