//===- HostArray.cpp - Typed host arrays for validation -------------------===//
//
// f16 and bf16 are decoded through tables built once with llvm::APFloat, and
// encoded by rounding the bits of the double directly. That rounding is
// checked against APFloat in the unit test; APFloat itself costs about 35 ns
// an element, a third of a second for 10^7, where the direct rounding costs
// a few.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/HostArray.h"

#include "Semantics.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

using namespace ewc;

//===----------------------------------------------------------------------===//
// Scalar conversions
//===----------------------------------------------------------------------===//

/// Rounds `value` to nearest-even in a binary format with `expBits` exponent
/// and `mantBits` stored mantissa bits (IEEE layout, with subnormals and
/// infinities) and returns its bit pattern. `finiteOnly` is f8e4m3's
/// layout (torch's float8_e4m3fn): no infinities, the top exponent holds
/// numbers, the all-ones pattern is the one NaN, and what rounds past the
/// largest number is NaN.
static uint16_t roundToSmallFloat(double value, unsigned expBits,
                                  unsigned mantBits, bool finiteOnly = false) {
  uint64_t bits = llvm::bit_cast<uint64_t>(value);
  uint32_t sign = static_cast<uint32_t>(bits >> 63) << (expBits + mantBits);
  uint64_t magnitude = bits & ~(uint64_t(1) << 63);
  uint32_t expMask = ((1u << expBits) - 1) << mantBits;
  uint32_t allOnes = expMask | ((1u << mantBits) - 1);
  const uint64_t doubleInf = 0x7ff0000000000000ull;
  if (finiteOnly && magnitude >= doubleInf)
    return sign | allOnes;
  if (magnitude > doubleInf) // NaN: the quiet NaN of the format.
    return sign | expMask | (1u << (mantBits - 1));
  if (magnitude == doubleInf)
    return sign | expMask;

  int bias = (1 << (expBits - 1)) - 1;
  int maxExponent = finiteOnly ? bias + 1 : bias;
  int exponent = static_cast<int>(magnitude >> 52) - 1023;
  if (exponent > maxExponent)
    return sign | (finiteOnly ? allOnes : expMask); // Overflow.
  if ((magnitude >> 52) == 0)
    return sign; // A double subnormal is far below any f16/bf16 value.

  uint64_t significand =
      (magnitude & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
  // Drop the bits below the target's precision; below the normal range the
  // target has fewer of them.
  int minExponent = 1 - bias;
  unsigned shift = 52 - mantBits;
  if (exponent < minExponent) {
    shift += minExponent - exponent;
    if (shift > 63)
      return sign;
  }
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;

  if (exponent < minExponent) // Subnormal; a carry makes it the least normal.
    return sign | static_cast<uint32_t>(kept);
  // A carry out of the mantissa bumps the exponent, up to infinity (up to
  // the NaN pattern where the format is finite only).
  uint64_t result = (static_cast<uint64_t>(exponent + bias) << mantBits) +
                    (kept - (uint64_t(1) << mantBits));
  if (finiteOnly && result > allOnes)
    result = allOnes;
  return sign | static_cast<uint32_t>(result);
}

uint16_t ewc::convertToHalfBits(double value) {
  return roundToSmallFloat(value, 5, 10);
}

uint16_t ewc::convertToBFloatBits(double value) {
  return roundToSmallFloat(value, 8, 7);
}

uint8_t ewc::convertToFloat8Bits(double value, DType dtype) {
  // NaN is 0x7F with the sign in both, as torch's casts give it.
  if (std::isnan(value))
    return std::signbit(value) ? 0xFF : 0x7F;
  if (dtype == DType::F8E4M3)
    return roundToSmallFloat(value, 4, 3, /*finiteOnly=*/true);
  assert(dtype == DType::F8E5M2 && "not an 8-bit float type");
  return roundToSmallFloat(value, 5, 2);
}

/// A table of the value of every pattern of `bits` bits of `semantics`.
static std::vector<double> buildDecodeTable(const llvm::fltSemantics &sem,
                                            unsigned bits = 16) {
  std::vector<double> table(size_t(1) << bits);
  for (uint32_t pattern = 0; pattern < table.size(); ++pattern)
    table[pattern] =
        llvm::APFloat(sem, llvm::APInt(bits, pattern)).convertToDouble();
  return table;
}

double ewc::convertFloat8BitsToDouble(uint8_t bits, DType dtype) {
  static const std::vector<double> e4m3 =
      buildDecodeTable(llvm::APFloat::Float8E4M3FN(), 8);
  static const std::vector<double> e5m2 =
      buildDecodeTable(llvm::APFloat::Float8E5M2(), 8);
  assert((dtype == DType::F8E4M3 || dtype == DType::F8E5M2) &&
         "not an 8-bit float type");
  return (dtype == DType::F8E4M3 ? e4m3 : e5m2)[bits];
}

double ewc::convertHalfBitsToDouble(uint16_t bits) {
  static const std::vector<double> table =
      buildDecodeTable(llvm::APFloat::IEEEhalf());
  return table[bits];
}

double ewc::convertBFloatBitsToDouble(uint16_t bits) {
  static const std::vector<double> table =
      buildDecodeTable(llvm::APFloat::BFloat());
  return table[bits];
}

uint64_t ewc::getFloatBits(double value, DType dtype) {
  switch (dtype) {
  case DType::F16:
    return convertToHalfBits(value);
  case DType::BF16:
    return convertToBFloatBits(value);
  case DType::F8E4M3:
  case DType::F8E5M2:
    return convertToFloat8Bits(value, dtype);
  case DType::F32:
    return llvm::bit_cast<uint32_t>(static_cast<float>(value));
  case DType::F64:
    return llvm::bit_cast<uint64_t>(value);
  default:
    llvm_unreachable("not a floating-point type");
  }
}

double ewc::getFloatFromBits(uint64_t bits, DType dtype) {
  switch (dtype) {
  case DType::F16:
    return convertHalfBitsToDouble(static_cast<uint16_t>(bits));
  case DType::BF16:
    return convertBFloatBitsToDouble(static_cast<uint16_t>(bits));
  case DType::F8E4M3:
  case DType::F8E5M2:
    return convertFloat8BitsToDouble(static_cast<uint8_t>(bits), dtype);
  case DType::F32:
    return llvm::bit_cast<float>(static_cast<uint32_t>(bits));
  case DType::F64:
    return llvm::bit_cast<double>(bits);
  default:
    llvm_unreachable("not a floating-point type");
  }
}

double ewc::roundToFloatType(double value, DType dtype) {
  switch (dtype) {
  case DType::F16:
    return convertHalfBitsToDouble(convertToHalfBits(value));
  case DType::BF16:
    return convertBFloatBitsToDouble(convertToBFloatBits(value));
  case DType::F8E4M3:
  case DType::F8E5M2:
    return convertFloat8BitsToDouble(convertToFloat8Bits(value, dtype), dtype);
  case DType::F32:
    return static_cast<double>(static_cast<float>(value));
  case DType::F64:
    return value;
  default:
    llvm_unreachable("not a floating-point type");
  }
}

std::optional<double> ewc::parseDecimal(llvm::StringRef text, DType dtype) {
  std::string copy = text.str();
  if (copy.empty() || std::isspace(static_cast<unsigned char>(copy.front())))
    return std::nullopt;
  // strtod under the rounding mode `mode`, restored after.
  auto read = [&](int mode) -> std::optional<double> {
    int saved = std::fegetround();
    std::fesetround(mode);
    char *end = nullptr;
    double value = std::strtod(copy.c_str(), &end);
    std::fesetround(saved);
    if (end != copy.c_str() + copy.size())
      return std::nullopt;
    return value;
  };
  if (dtype == DType::F64)
    return read(FE_TONEAREST);
  std::optional<double> towardZero = read(FE_TOWARDZERO);
  if (!towardZero || !std::isfinite(*towardZero))
    return towardZero ? std::optional(roundToFloatType(*towardZero, dtype))
                      : std::nullopt;
  std::optional<double> awayFromZero =
      read(std::signbit(*towardZero) ? FE_DOWNWARD : FE_UPWARD);
  double odd = *towardZero;
  // Inexact: the truncation with its last bit set is the decimal rounded to
  // odd (at DBL_MAX, whose last bit is set, an overflow rounds on to inf).
  if (awayFromZero && *awayFromZero != *towardZero)
    odd = llvm::bit_cast<double>(llvm::bit_cast<uint64_t>(odd) | 1);
  return roundToFloatType(odd, dtype);
}

/// Calls `f` with a value of the C++ type of integer type `dtype` (its type
/// is what `f` uses).
template <typename F> static auto visitInteger(DType dtype, F &&f) {
  switch (dtype) {
  case DType::I8:
    return f(int8_t());
  case DType::I16:
    return f(int16_t());
  case DType::I32:
    return f(int32_t());
  case DType::I64:
    return f(int64_t());
  case DType::U8:
    return f(uint8_t());
  case DType::U16:
    return f(uint16_t());
  case DType::U32:
    return f(uint32_t());
  case DType::U64:
    return f(uint64_t());
  default:
    llvm_unreachable("not an integer type");
  }
}

int64_t ewc::wrapToIntegerType(int64_t value, DType dtype) {
  // The low bits, sign- or zero-extended (u64: the bits themselves); the
  // conversions to narrower types are modular (C++20).
  return visitInteger(dtype, [&](auto t) {
    return static_cast<int64_t>(static_cast<decltype(t)>(value));
  });
}

/// Truncates toward zero into int64, saturating; NaN gives 0.
static int64_t truncateToInt64(double value) {
  if (std::isnan(value))
    return 0;
  if (value <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  if (value >= 9223372036854775808.0)
    return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(value);
}

/// An integer element's value as a double (u64 as unsigned).
static double integerToDouble(int64_t value, DType dtype) {
  return dtype == DType::U64 ? static_cast<double>(static_cast<uint64_t>(value))
                             : static_cast<double>(value);
}

//===----------------------------------------------------------------------===//
// HostArray
//===----------------------------------------------------------------------===//

void detail::AlignedDelete::operator()(uint8_t *ptr) const {
  llvm::deallocate_buffer(ptr, numBytes, HostArray::kAlignment);
}

/// Calls `fill(begin, end)` on ranges of elements [0, n), on all cores when
/// there are several ranges: one thread writing the 1 GiB of an n = 2^28 f32
/// array takes every page fault of the fresh allocation and 0.3 s or more of
/// memory bandwidth, where ewc-run's whole run should take 3 s (issue 6).
static void fillInParallel(int64_t n,
                           llvm::function_ref<void(int64_t, int64_t)> fill) {
  // 2^18 elements, 1 MiB in f32: large enough to amortize a task.
  constexpr int64_t kRange = int64_t(1) << 18;
  // An empty array has no storage: memset and memcpy must not see its null.
  if (n == 0)
    return;
  size_t numRanges = static_cast<size_t>((n + kRange - 1) / kRange);
  if (numRanges <= 1) {
    fill(0, n);
    return;
  }
  llvm::parallelFor(0, numRanges, [&](size_t range) {
    int64_t begin = static_cast<int64_t>(range) * kRange;
    fill(begin, std::min(n, begin + kRange));
  });
}

HostArray::HostArray(DType dtype, int64_t size, Uninitialized)
    : dtype(dtype), numElements(size) {
  assert(size >= 0 && "negative array size");
  size_t numBytes = getSizeInBytes();
  if (numBytes == 0)
    return;
  bytes = std::unique_ptr<uint8_t[], detail::AlignedDelete>(
      static_cast<uint8_t *>(llvm::allocate_buffer(numBytes, kAlignment)),
      detail::AlignedDelete{numBytes});
}

HostArray::HostArray(DType dtype, int64_t size)
    : HostArray(dtype, size, Uninitialized()) {
  fillBytes(0);
}

HostArray HostArray::getUninitialized(DType dtype, int64_t size) {
  return HostArray(dtype, size, Uninitialized());
}

HostArray::HostArray(const HostArray &other)
    : HostArray(other.dtype, other.numElements, Uninitialized()) {
  secondPoison = other.secondPoison;
  size_t size = getDTypeSize(dtype);
  fillInParallel(numElements, [&](int64_t begin, int64_t end) {
    std::memcpy(bytes.get() + begin * size, other.bytes.get() + begin * size,
                (end - begin) * size);
  });
}

HostArray &HostArray::operator=(const HostArray &other) {
  if (this != &other)
    *this = HostArray(other);
  return *this;
}

void HostArray::fillBytes(uint8_t byte) {
  size_t size = getDTypeSize(dtype);
  fillInParallel(numElements, [&](int64_t begin, int64_t end) {
    std::memset(bytes.get() + begin * size, byte, (end - begin) * size);
  });
}

/// The poison pattern of `dtype` (see fillPoison) in its low bytes. The
/// float patterns are signaling NaNs: the exponent is all ones, the quiet
/// bit is clear and the payload (0xbad) is not zero. The second patterns
/// (`second`) are the first with bit 1 flipped: signaling NaNs again for
/// the floats (payload 0xbaf), 0x7d for bool (no bool either), 384 and
/// 40960 for f8e4m3 and f8e5m2 (values, as their first patterns are).
static uint64_t getPoisonPattern(DType dtype, bool second = false) {
  if (second)
    return getPoisonPattern(dtype) ^ 2;
  switch (dtype) {
  case DType::Bool:
    return 0x7f;
  case DType::F16:
    return 0x7d5a;
  case DType::BF16:
    return 0x7f8b;
  // Every 8-bit pattern is a value a kernel can write (a copy writes
  // f8e5m2's signaling NaNs): the largest finite values, 448 and 57344,
  // rarer than NaN in results, only name why an element is wrong, as the
  // integers' poison does.
  case DType::F8E4M3:
    return 0x7e;
  case DType::F8E5M2:
    return 0x7b;
  case DType::I8:
  case DType::U8:
    return 0xa5;
  case DType::I16:
  case DType::U16:
    return 0x7bad;
  case DType::I32:
  case DType::U32:
  case DType::F32:
    return 0x7f800badull;
  case DType::I64:
  case DType::U64:
  case DType::F64:
    return 0x7ff0000000000badull;
  }
  llvm_unreachable("unknown DType");
}

/// Stores `pattern` in elements [begin, end) of type T: one store of a
/// fixed size per element, which the compiler vectorizes (a memcpy of a
/// run-time size would be a call per element).
template <typename T>
static void fillPattern(uint8_t *data, int64_t begin, int64_t end,
                        uint64_t pattern) {
  T value = static_cast<T>(pattern); // the low bytes: little-endian host
  for (int64_t i = begin; i < end; ++i)
    std::memcpy(data + i * sizeof(T), &value, sizeof(T));
}

void HostArray::fillPoison(bool second) {
  secondPoison = second;
  uint64_t pattern = getPoisonPattern(dtype, second);
  uint8_t *data = bytes.get();
  fillInParallel(numElements, [&](int64_t begin, int64_t end) {
    switch (getDTypeSize(dtype)) {
    case 1:
      return fillPattern<uint8_t>(data, begin, end, pattern);
    case 2:
      return fillPattern<uint16_t>(data, begin, end, pattern);
    case 4:
      return fillPattern<uint32_t>(data, begin, end, pattern);
    default:
      return fillPattern<uint64_t>(data, begin, end, pattern);
    }
  });
}

bool HostArray::isPoison(int64_t i) const {
  uint64_t pattern = getPoisonPattern(dtype, secondPoison), value = 0;
  unsigned size = getDTypeSize(dtype);
  std::memcpy(&value, bytes.get() + i * size, size);
  return value == pattern;
}

HostArray HostArray::getScalar(DType dtype, double value) {
  HostArray result(dtype, 1);
  result.setFromDouble(0, value);
  return result;
}

/// Reads element `i` of type T from raw storage (memcpy: no aliasing or
/// alignment assumptions).
template <typename T> static T load(const uint8_t *base, int64_t i) {
  T value;
  std::memcpy(&value, base + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T> static void store(uint8_t *base, int64_t i, T value) {
  std::memcpy(base + i * sizeof(T), &value, sizeof(T));
}

double HostArray::getAsDouble(int64_t i) const {
  assert(i >= 0 && i < numElements && "index out of range");
  const uint8_t *base = bytes.get();
  if (isInteger(dtype))
    return integerToDouble(getAsInt(i), dtype);
  switch (dtype) {
  case DType::Bool:
    return load<uint8_t>(base, i) ? 1.0 : 0.0;
  case DType::F16:
    return convertHalfBitsToDouble(load<uint16_t>(base, i));
  case DType::BF16:
    return convertBFloatBitsToDouble(load<uint16_t>(base, i));
  case DType::F8E4M3:
  case DType::F8E5M2:
    return convertFloat8BitsToDouble(load<uint8_t>(base, i), dtype);
  case DType::F32:
    return load<float>(base, i);
  case DType::F64:
    return load<double>(base, i);
  default:
    llvm_unreachable("unknown DType");
  }
}

int64_t HostArray::getAsInt(int64_t i) const {
  assert(i >= 0 && i < numElements && "index out of range");
  const uint8_t *base = bytes.get();
  if (isInteger(dtype))
    return visitInteger(dtype, [&](auto t) {
      return static_cast<int64_t>(load<decltype(t)>(base, i));
    });
  if (dtype == DType::Bool)
    return load<uint8_t>(base, i) ? 1 : 0;
  return truncateToInt64(getAsDouble(i));
}

void HostArray::setFromDouble(int64_t i, double value) {
  assert(i >= 0 && i < numElements && "index out of range");
  uint8_t *base = bytes.get();
  if (isInteger(dtype))
    return setFromInt(i, ref::convertFloatToInt(value, dtype));
  switch (dtype) {
  case DType::Bool:
    return store<uint8_t>(base, i, value != 0.0 ? 1 : 0);
  case DType::F16:
    return store<uint16_t>(base, i, convertToHalfBits(value));
  case DType::BF16:
    return store<uint16_t>(base, i, convertToBFloatBits(value));
  case DType::F8E4M3:
  case DType::F8E5M2:
    return store<uint8_t>(base, i, convertToFloat8Bits(value, dtype));
  case DType::F32:
    return store<float>(base, i, static_cast<float>(value));
  case DType::F64:
    return store<double>(base, i, value);
  default:
    llvm_unreachable("unknown DType");
  }
}

void HostArray::setFromInt(int64_t i, int64_t value) {
  assert(i >= 0 && i < numElements && "index out of range");
  uint8_t *base = bytes.get();
  if (isInteger(dtype))
    return visitInteger(dtype, [&](auto t) {
      store(base, i, static_cast<decltype(t)>(value)); // wraps
    });
  if (dtype == DType::Bool)
    return store<uint8_t>(base, i, value != 0 ? 1 : 0);
  setFromDouble(i, static_cast<double>(value));
}

// The bulk conversions switch on the type once, outside the loop; the
// evaluator moves whole blocks of elements through them.

void HostArray::readDoubles(int64_t begin,
                            llvm::MutableArrayRef<double> out) const {
  int64_t count = out.size();
  assert(begin >= 0 && begin + count <= numElements && "range out of bounds");
  const uint8_t *base = bytes.get();
  auto fill = [&](auto convert) {
    for (int64_t k = 0; k < count; ++k)
      out[k] = convert(begin + k);
  };
  if (isInteger(dtype))
    return visitInteger(dtype, [&](auto t) {
      fill([&](int64_t i) { return double(load<decltype(t)>(base, i)); });
    });
  switch (dtype) {
  case DType::Bool:
    fill([&](int64_t i) { return load<uint8_t>(base, i) ? 1.0 : 0.0; });
    break;
  case DType::F16:
    fill([&](int64_t i) {
      return convertHalfBitsToDouble(load<uint16_t>(base, i));
    });
    break;
  case DType::BF16:
    fill([&](int64_t i) {
      return convertBFloatBitsToDouble(load<uint16_t>(base, i));
    });
    break;
  case DType::F8E4M3:
  case DType::F8E5M2:
    fill([&](int64_t i) {
      return convertFloat8BitsToDouble(load<uint8_t>(base, i), dtype);
    });
    break;
  case DType::F32:
    fill([&](int64_t i) { return double(load<float>(base, i)); });
    break;
  case DType::F64:
    fill([&](int64_t i) { return load<double>(base, i); });
    break;
  default:
    llvm_unreachable("unknown DType");
  }
}

void HostArray::readInts(int64_t begin,
                         llvm::MutableArrayRef<int64_t> out) const {
  int64_t count = out.size();
  assert(begin >= 0 && begin + count <= numElements && "range out of bounds");
  const uint8_t *base = bytes.get();
  if (isInteger(dtype))
    return visitInteger(dtype, [&](auto t) {
      for (int64_t k = 0; k < count; ++k)
        out[k] = static_cast<int64_t>(load<decltype(t)>(base, begin + k));
    });
  switch (dtype) {
  case DType::Bool:
    for (int64_t k = 0; k < count; ++k)
      out[k] = load<uint8_t>(base, begin + k) ? 1 : 0;
    break;
  default:
    for (int64_t k = 0; k < count; ++k)
      out[k] = getAsInt(begin + k);
    break;
  }
}

void HostArray::writeDoubles(int64_t begin, llvm::ArrayRef<double> values) {
  int64_t count = values.size();
  assert(begin >= 0 && begin + count <= numElements && "range out of bounds");
  uint8_t *base = bytes.get();
  switch (dtype) {
  case DType::F16:
    for (int64_t k = 0; k < count; ++k)
      store<uint16_t>(base, begin + k, convertToHalfBits(values[k]));
    break;
  case DType::BF16:
    for (int64_t k = 0; k < count; ++k)
      store<uint16_t>(base, begin + k, convertToBFloatBits(values[k]));
    break;
  case DType::F8E4M3:
  case DType::F8E5M2:
    for (int64_t k = 0; k < count; ++k)
      store<uint8_t>(base, begin + k, convertToFloat8Bits(values[k], dtype));
    break;
  case DType::F32:
    for (int64_t k = 0; k < count; ++k)
      store<float>(base, begin + k, static_cast<float>(values[k]));
    break;
  case DType::F64:
    for (int64_t k = 0; k < count; ++k)
      store<double>(base, begin + k, values[k]);
    break;
  default:
    for (int64_t k = 0; k < count; ++k)
      setFromDouble(begin + k, values[k]);
    break;
  }
}

void HostArray::writeInts(int64_t begin, llvm::ArrayRef<int64_t> values) {
  int64_t count = values.size();
  assert(begin >= 0 && begin + count <= numElements && "range out of bounds");
  uint8_t *base = bytes.get();
  if (isInteger(dtype))
    return visitInteger(dtype, [&](auto t) {
      for (int64_t k = 0; k < count; ++k)
        store(base, begin + k, static_cast<decltype(t)>(values[k])); // wraps
    });
  switch (dtype) {
  case DType::Bool:
    for (int64_t k = 0; k < count; ++k)
      store<uint8_t>(base, begin + k, values[k] != 0 ? 1 : 0);
    break;
  default:
    for (int64_t k = 0; k < count; ++k)
      setFromInt(begin + k, values[k]);
    break;
  }
}

std::vector<double> HostArray::toDoubles() const {
  std::vector<double> result(numElements);
  readDoubles(0, result);
  return result;
}

std::vector<int64_t> HostArray::toInts() const {
  std::vector<int64_t> result(numElements);
  readInts(0, result);
  return result;
}
