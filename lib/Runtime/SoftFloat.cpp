//===- SoftFloat.cpp - f16/bf16 conversion helpers for the CPU JIT --------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// One narrowing and one widening routine, parameterized by the two binary
// formats, in the manner of compiler-rt's fp_trunc_impl/fp_extend_impl; the
// libcall entry points only move bits between registers and these routines.
// Written by hand because the host's libgcc is what is missing them, and
// compiler-rt's builtins library is not packaged for static linking here.
// HostArray.cpp rounds double to f16/bf16 alike for the reference; the two
// stay apart on purpose, so that each checks the other.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/SoftFloat.h"

#include "llvm/ADT/bit.h"

using namespace ewc;

namespace {

/// An IEEE binary format: `ExpBits` exponent bits, `MantBits` stored
/// mantissa bits, held in the unsigned integer type `Bits`.
template <typename BitsT, unsigned ExpBits, unsigned MantBits> struct Format {
  using Bits = BitsT;
  static constexpr unsigned kExpBits = ExpBits;
  static constexpr unsigned kMantBits = MantBits;
  static constexpr int kBias = (1 << (ExpBits - 1)) - 1;
  static constexpr Bits kSignBit = Bits(1) << (ExpBits + MantBits);
  static constexpr Bits kAbsMask = kSignBit - 1;
  static constexpr Bits kMantMask = (Bits(1) << MantBits) - 1;
  static constexpr Bits kInf = Bits((Bits(1) << ExpBits) - 1) << MantBits;
  static constexpr Bits kQuietBit = Bits(1) << (MantBits - 1);
};

using Half = Format<uint16_t, 5, 10>;
using BFloat = Format<uint16_t, 8, 7>;
using Single = Format<uint32_t, 8, 23>;
using Double = Format<uint64_t, 11, 52>;

/// Rounds a value of format Src to the narrower format Dst, to nearest with
/// ties to even.
template <typename Src, typename Dst>
typename Dst::Bits truncate(typename Src::Bits bits) {
  using SrcBits = typename Src::Bits;
  using DstBits = typename Dst::Bits;
  static_assert(Src::kMantBits > Dst::kMantBits &&
                    Src::kExpBits >= Dst::kExpBits,
                "not a narrowing conversion");
  DstBits sign = (bits & Src::kSignBit) ? Dst::kSignBit : 0;
  SrcBits abs = bits & Src::kAbsMask;
  constexpr unsigned kDropped = Src::kMantBits - Dst::kMantBits;

  if (abs > Src::kInf) // NaN: quiet, with the top of the payload.
    return sign | Dst::kInf | Dst::kQuietBit |
           DstBits((abs >> kDropped) & Dst::kMantMask);
  if (abs == Src::kInf)
    return sign | Dst::kInf;

  // value = significand * 2^(exponent - Src::kMantBits); a subnormal has
  // the least exponent and no implicit bit.
  int biasedExp = static_cast<int>(abs >> Src::kMantBits);
  SrcBits significand = abs & Src::kMantMask;
  if (biasedExp != 0)
    significand |= SrcBits(1) << Src::kMantBits;
  int exponent = (biasedExp == 0 ? 1 : biasedExp) - Src::kBias;
  if (exponent > Dst::kBias) // At least 2^(max exponent + 1).
    return sign | Dst::kInf;

  // Below Dst's normal range, the result keeps fewer bits.
  constexpr int kDstMinExp = 1 - Dst::kBias;
  bool tiny = exponent < kDstMinExp || biasedExp == 0;
  unsigned shift = kDropped;
  if (exponent < kDstMinExp)
    shift += kDstMinExp - exponent;
  // From here on, the value is below half of Dst's least subnormal.
  if (shift > Src::kMantBits + 1)
    return sign;
  SrcBits kept = significand >> shift;
  SrcBits rest = significand & ((SrcBits(1) << shift) - 1);
  SrcBits half = SrcBits(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;

  // A subnormal that rounds up to 2^(min exponent) becomes the least normal
  // through the carry into the exponent field, as does a normal whose
  // mantissa carries (up to infinity).
  if (tiny)
    return sign | DstBits(kept);
  return sign | DstBits((SrcBits(exponent + Dst::kBias) << Dst::kMantBits) +
                        (kept - (SrcBits(1) << Dst::kMantBits)));
}

/// Converts a value of format Src to the wider format Dst, exactly.
template <typename Src, typename Dst>
typename Dst::Bits extend(typename Src::Bits bits) {
  using DstBits = typename Dst::Bits;
  static_assert(Dst::kMantBits > Src::kMantBits &&
                    Dst::kExpBits >= Src::kExpBits,
                "not a widening conversion");
  DstBits sign = (bits & Src::kSignBit) ? Dst::kSignBit : 0;
  DstBits abs = bits & Src::kAbsMask;
  constexpr unsigned kAdded = Dst::kMantBits - Src::kMantBits;

  if (abs > Src::kInf) // NaN: quiet, payload kept.
    return sign | Dst::kInf | Dst::kQuietBit |
           ((abs & Src::kMantMask) << kAdded);
  if (abs == Src::kInf)
    return sign | Dst::kInf;
  if (abs == 0)
    return sign;

  int biasedExp = static_cast<int>(abs >> Src::kMantBits);
  DstBits mant = abs & Src::kMantMask;
  if (biasedExp != 0)
    return sign |
           (DstBits(biasedExp - Src::kBias + Dst::kBias) << Dst::kMantBits) |
           (mant << kAdded);
  // A subnormal: value = mant * 2^(1 - bias - mantBits).
  if (Dst::kExpBits == Src::kExpBits) // Still subnormal in Dst.
    return sign | (mant << kAdded);
  // Normal in Dst: move the leading one to the implicit bit.
  int lead = 0;
  while ((mant >> (lead + 1)) != 0)
    ++lead;
  int exponent = lead + 1 - Src::kBias - int(Src::kMantBits);
  DstBits fraction = (mant << (Dst::kMantBits - lead)) & Dst::kMantMask;
  return sign | (DstBits(exponent + Dst::kBias) << Dst::kMantBits) | fraction;
}

} // namespace

float ewc::extendHalfToFloat(uint16_t bits) {
  return llvm::bit_cast<float>(extend<Half, Single>(bits));
}

float ewc::extendBFloatToFloat(uint16_t bits) {
  return llvm::bit_cast<float>(extend<BFloat, Single>(bits));
}

uint16_t ewc::truncateFloatToHalf(float value) {
  return truncate<Single, Half>(llvm::bit_cast<uint32_t>(value));
}

uint16_t ewc::truncateDoubleToHalf(double value) {
  return truncate<Double, Half>(llvm::bit_cast<uint64_t>(value));
}

uint16_t ewc::truncateFloatToBFloat(float value) {
  return truncate<Single, BFloat>(llvm::bit_cast<uint32_t>(value));
}

uint16_t ewc::truncateDoubleToBFloat(double value) {
  return truncate<Double, BFloat>(llvm::bit_cast<uint64_t>(value));
}

//===----------------------------------------------------------------------===//
// Libcall entry points
//===----------------------------------------------------------------------===//
//
// The x86-64 psABI passes and returns _Float16 and __bf16 in the low 16 bits
// of an XMM register, and LLVM does the same for `half` and `bfloat`. GCC 12
// has _Float16 but no usable __bf16, so every 16-bit value, f16 or bf16,
// crosses the boundary as a _Float16 that only carries bits: no _Float16
// arithmetic happens here (it would itself become a libcall without F16C).

namespace {

using Carrier = _Float16;
static_assert(sizeof(Carrier) == 2, "_Float16 must be 16 bits");

uint16_t toBits(Carrier value) { return llvm::bit_cast<uint16_t>(value); }
Carrier fromBits(uint16_t bits) { return llvm::bit_cast<Carrier>(bits); }

float extendhfsf2(Carrier value) { return extendHalfToFloat(toBits(value)); }
float extendbfsf2(Carrier value) { return extendBFloatToFloat(toBits(value)); }
Carrier truncsfhf2(float value) { return fromBits(truncateFloatToHalf(value)); }
Carrier truncdfhf2(double value) {
  return fromBits(truncateDoubleToHalf(value));
}
Carrier truncsfbf2(float value) {
  return fromBits(truncateFloatToBFloat(value));
}
Carrier truncdfbf2(double value) {
  return fromBits(truncateDoubleToBFloat(value));
}

} // namespace

llvm::ArrayRef<SoftFloatSymbol> ewc::getSoftFloatSymbols() {
  static const SoftFloatSymbol symbols[] = {
      {"__extendhfsf2", reinterpret_cast<void *>(&extendhfsf2)},
      {"__extendbfsf2", reinterpret_cast<void *>(&extendbfsf2)},
      {"__truncsfhf2", reinterpret_cast<void *>(&truncsfhf2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&truncdfhf2)},
      {"__truncsfbf2", reinterpret_cast<void *>(&truncsfbf2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&truncdfbf2)},
  };
  return symbols;
}
