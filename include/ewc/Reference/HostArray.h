//===- HostArray.h - Typed host arrays for validation -----------*- C++ -*-===//
//
// A host array of one element type, stored in that type's natural byte layout
// (f16 and bf16 as their 16-bit patterns, bool as one byte 0 or 1), so its
// data() can be copied to the device or handed to the CPU JIT as is. The
// accessors convert to and from double and int64 for the evaluator, the
// input generator and the comparison.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_HOSTARRAY_H
#define EWC_REFERENCE_HOSTARRAY_H

#include "ewc/Frontend/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace ewc {

namespace detail {
/// Frees a HostArray's buffer (llvm::deallocate_buffer needs its size).
struct AlignedDelete {
  size_t numBytes = 0;
  void operator()(uint8_t *ptr) const;
};
} // namespace detail

/// An owning array of `size()` elements of one DType.
class HostArray {
public:
  /// The alignment of data(): enough for any vector load the CPU JIT emits.
  static constexpr size_t kAlignment = 64;

  /// An empty bool array.
  HostArray() = default;
  /// `size` zeros (false, 0, +0.0) of `dtype`.
  HostArray(DType dtype, int64_t size);
  /// `size` elements of `dtype` with any contents, for an array whose every
  /// element is written next (random inputs, poisoned outputs): no zero
  /// fill, so the first touch of its pages happens in that parallel write.
  static HostArray getUninitialized(DType dtype, int64_t size);

  HostArray(const HostArray &other);
  HostArray &operator=(const HostArray &other);
  HostArray(HostArray &&other) noexcept = default;
  HostArray &operator=(HostArray &&other) noexcept = default;

  /// A one-element array, the form of a scalar kernel argument.
  static HostArray getScalar(DType dtype, double value);

  DType getDType() const { return dtype; }
  int64_t size() const { return numElements; }
  size_t getSizeInBytes() const {
    return static_cast<size_t>(numElements) * getDTypeSize(dtype);
  }
  /// The raw elements, kAlignment-aligned (null if empty).
  void *data() { return bytes.get(); }
  const void *data() const { return bytes.get(); }
  /// Sets every byte to `byte`, e.g. to poison an output buffer so that an
  /// element a kernel fails to write shows up as a mismatch. Large arrays
  /// are filled (and copied) on all cores.
  void fillBytes(uint8_t byte);

  /// Fills every element with its dtype's poison pattern, so that an element
  /// a kernel fails to write shows: for floats a signaling NaN, which no
  /// arithmetic produces (NaN results are quiet); for bool the byte 0x7f,
  /// which is neither 0 nor 1; for integers an unlikely value. `second`
  /// takes a second pattern of each dtype, another signaling NaN for the
  /// floats: a bitcast can write the first (check::runAndCheck runs again
  /// with the second where elements still hold the first).
  void fillPoison(bool second = false);
  /// True if element `i` holds the poison pattern that fillPoison wrote
  /// last (the first if it never ran).
  bool isPoison(int64_t i) const;

  /// Element `i` as a double: exact for floats, bool is 0 or 1, integers
  /// round beyond 2^53.
  double getAsDouble(int64_t i) const;
  /// Element `i` as an integer: floats truncate toward zero, saturating at
  /// the int64 range (NaN gives 0); bool is 0 or 1. The reference holds every
  /// integer type's values in an int64 (wrapToIntegerType's form), u64's
  /// from 2^63 on as their bits: negative.
  int64_t getAsInt(int64_t i) const;
  /// Stores `value` rounded to nearest-even in a float type; an integer type
  /// truncates toward zero, saturating at its range (NaN stores 0); bool
  /// stores `value != 0`.
  void setFromDouble(int64_t i, double value);
  /// Stores `value`, wrapped around to the width of an integer type; a float
  /// type rounds to nearest-even; bool stores `value != 0`.
  void setFromInt(int64_t i, int64_t value);

  /// Bulk forms of the accessors above, for elements [begin, begin + size
  /// of the other array): they convert alike but switch on the type once.
  void readDoubles(int64_t begin, llvm::MutableArrayRef<double> out) const;
  void readInts(int64_t begin, llvm::MutableArrayRef<int64_t> out) const;
  void writeDoubles(int64_t begin, llvm::ArrayRef<double> values);
  void writeInts(int64_t begin, llvm::ArrayRef<int64_t> values);

  /// All elements as doubles / integers.
  std::vector<double> toDoubles() const;
  std::vector<int64_t> toInts() const;

private:
  struct Uninitialized {};
  HostArray(DType dtype, int64_t size, Uninitialized);

  DType dtype = DType::Bool;
  int64_t numElements = 0;
  std::unique_ptr<uint8_t[], detail::AlignedDelete> bytes;
  bool secondPoison = false;
};

//===----------------------------------------------------------------------===//
// Scalar conversions
//===----------------------------------------------------------------------===//

/// Rounds `value` to the nearest f16 (ties to even) and returns its bits.
uint16_t convertToHalfBits(double value);
/// Rounds `value` to the nearest bf16 (ties to even) and returns its bits.
uint16_t convertToBFloatBits(double value);
/// The exact value of an f16 / bf16 bit pattern.
double convertHalfBitsToDouble(uint16_t bits);
double convertBFloatBitsToDouble(uint16_t bits);
/// Rounds `value` to the nearest f8e4m3 or f8e5m2 (`dtype`; ties to even)
/// and returns its bits, with torch's rules: f8e4m3 has no infinity (what
/// rounds past 448, and infinities, give NaN), f8e5m2 overflows to
/// infinity; NaN is 0x7F with the sign in both.
uint8_t convertToFloat8Bits(double value, DType dtype);
/// The exact value of an f8e4m3 or f8e5m2 bit pattern.
double convertFloat8BitsToDouble(uint8_t bits, DType dtype);

/// The bit pattern of `value` (a value of the float type `dtype`, which
/// holds it exactly; a NaN gives the type's quiet NaN with its sign) in the
/// low bits; and the value of a float type's bit pattern.
uint64_t getFloatBits(double value, DType dtype);
double getFloatFromBits(uint64_t bits, DType dtype);

/// Rounds `value` to the nearest value of the float type `dtype` (identity
/// for f64): what storing it in a HostArray of `dtype` and reading it back
/// gives.
double roundToFloatType(double value, DType dtype);

/// The number `text` (strtod's syntax, inf and nan included) rounded once,
/// to nearest even, to the float type `dtype`; std::nullopt unless all of
/// `text` is one number. Independent of the compiler's APFloat: glibc's
/// strtod, rounding toward zero and away from it, gives the decimal rounded
/// to odd in double, and from there one nearest-even rounding to a type of
/// at most 51 bits is the decimal's own (Boldo and Melquiond, "Emulation of
/// FMA and correctly rounded sums: proved algorithms using rounding to odd",
/// 2008). strtod to double and then to f32 would round twice, which picks
/// the wrong neighbour next to an f32 tie.
std::optional<double> parseDecimal(llvm::StringRef text, DType dtype);

/// Wraps `value` around to the width of the integer type `dtype`, as
/// two's-complement hardware does: its low bits, sign-extended for a signed
/// type and zero-extended for an unsigned one (u64: the bits as they are).
int64_t wrapToIntegerType(int64_t value, DType dtype);

} // namespace ewc

#endif // EWC_REFERENCE_HOSTARRAY_H
