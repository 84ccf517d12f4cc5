//===- SoftFloatTest.cpp - The f16/bf16 conversion helpers ----------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Every f16 and bf16 pattern widened, and a few hundred thousand f32 and f64
// patterns narrowed (ties, subnormals, overflow, NaNs), each compared bit for
// bit with llvm::APFloat; and the libcall entry points called through their
// C signatures.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/SoftFloat.h"

#include "FloatPatterns.h"

#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace ewc;
using ewc::test::convertWithAPFloat;
using ewc::test::makeRoundingPatterns;
using llvm::APFloat;

namespace {

/// Checks `convert` on every 16-bit pattern of `from`.
template <typename Convert>
void checkAllExtensions(const llvm::fltSemantics &from, Convert convert) {
  unsigned failures = 0;
  for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
    uint32_t got = llvm::bit_cast<uint32_t>(convert(uint16_t(bits)));
    uint32_t expected = convertWithAPFloat(bits, from, APFloat::IEEEsingle());
    if (got != expected && ++failures <= 5)
      ADD_FAILURE() << "0x" << std::hex << bits << " -> 0x" << got
                    << ", expected 0x" << expected;
  }
  EXPECT_EQ(failures, 0u);
}

TEST(SoftFloat, ExtendEveryHalf) {
  checkAllExtensions(APFloat::IEEEhalf(), extendHalfToFloat);
}

TEST(SoftFloat, ExtendEveryBFloat) {
  checkAllExtensions(APFloat::BFloat(), extendBFloatToFloat);
}

/// Checks the narrowing `convert` from `from` to `to` on rounding patterns.
template <typename Source, typename Convert>
void checkTruncations(const llvm::fltSemantics &from,
                      const llvm::fltSemantics &to, unsigned expBits,
                      unsigned mantBits, Convert convert) {
  std::vector<uint64_t> patterns =
      makeRoundingPatterns(expBits, mantBits, /*numRandom=*/200000);
  unsigned failures = 0;
  for (uint64_t bits : patterns) {
    using SourceBits =
        std::conditional_t<sizeof(Source) == 4, uint32_t, uint64_t>;
    uint16_t got = convert(llvm::bit_cast<Source>(SourceBits(bits)));
    uint64_t expected = convertWithAPFloat(bits, from, to);
    if (got != expected && ++failures <= 5)
      ADD_FAILURE() << "0x" << std::hex << bits << " -> 0x" << got
                    << ", expected 0x" << expected;
  }
  EXPECT_EQ(failures, 0u) << "of " << patterns.size() << " patterns";
  // Enough patterns for every exponent to be covered many times.
  EXPECT_GT(patterns.size(), (size_t(2) << expBits) * 100);
}

TEST(SoftFloat, TruncateFloatToHalf) {
  checkTruncations<float>(APFloat::IEEEsingle(), APFloat::IEEEhalf(), 8, 23,
                          truncateFloatToHalf);
}

TEST(SoftFloat, TruncateFloatToBFloat) {
  checkTruncations<float>(APFloat::IEEEsingle(), APFloat::BFloat(), 8, 23,
                          truncateFloatToBFloat);
}

TEST(SoftFloat, TruncateDoubleToHalf) {
  checkTruncations<double>(APFloat::IEEEdouble(), APFloat::IEEEhalf(), 11, 52,
                           truncateDoubleToHalf);
}

TEST(SoftFloat, TruncateDoubleToBFloat) {
  checkTruncations<double>(APFloat::IEEEdouble(), APFloat::BFloat(), 11, 52,
                           truncateDoubleToBFloat);
}

// Cases named on their own, so that a failure says which rule broke.
TEST(SoftFloat, NamedCases) {
  // Ties to even: 1 + 2^-11 is halfway between 1 and the next f16; the even
  // neighbour is 1. 1 + 3 * 2^-11 rounds up to the even 1 + 2^-9.
  EXPECT_EQ(truncateFloatToHalf(1.0f + 0x1p-11f), 0x3c00);
  EXPECT_EQ(truncateFloatToHalf(1.0f + 0x3p-11f), 0x3c02);
  // Overflow: 65520 is the tie between the greatest f16 and 2^16.
  EXPECT_EQ(truncateFloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(truncateFloatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(truncateFloatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(truncateFloatToBFloat(-3.4028235e38f), 0xff80);
  // Subnormals and underflow: 2^-24 is the least f16; half of it rounds to
  // the even 0, a bit more to 2^-24.
  EXPECT_EQ(truncateFloatToHalf(0x1p-24f), 0x0001);
  EXPECT_EQ(truncateFloatToHalf(-0x1p-25f), 0x8000);
  EXPECT_EQ(truncateFloatToHalf(0x1.000002p-25f), 0x0001);
  EXPECT_EQ(truncateDoubleToHalf(0x1.ff8p-15), 0x03ff); // Greatest subnormal.
  EXPECT_EQ(truncateDoubleToHalf(0x1.ffcp-15), 0x0400); // Tie: carries up.
  // bf16's least subnormal is 2^-133: half of it is a tie that goes to 0.
  EXPECT_EQ(truncateFloatToBFloat(0x1p-134f), 0x0000);
  EXPECT_EQ(truncateFloatToBFloat(0x1p-134f + 0x1p-149f), 0x0001);
  EXPECT_EQ(truncateFloatToBFloat(0x1p-133f), 0x0001);
  EXPECT_EQ(extendHalfToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(extendBFloatToFloat(0x8001), -0x1p-133f);
  // f64 is rounded once: 1 + 2^-11 + 2^-40 is above the tie, so it rounds
  // up, where rounding through f32 (to 1 + 2^-11, a tie) would give 1.
  EXPECT_EQ(truncateDoubleToHalf(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);
  EXPECT_EQ(truncateDoubleToBFloat(1.0 + 0x1p-8 + 0x1p-40), 0x3f81);
  // NaNs stay NaNs of their sign, quieted, with the top of their payload.
  EXPECT_EQ(truncateFloatToHalf(llvm::bit_cast<float>(0x7f800001u)), 0x7e00);
  EXPECT_EQ(truncateFloatToBFloat(llvm::bit_cast<float>(0xff800001u)), 0xffc0);
  EXPECT_EQ(truncateFloatToBFloat(llvm::bit_cast<float>(0x7fa00000u)), 0x7fe0);
  EXPECT_EQ(llvm::bit_cast<uint32_t>(extendHalfToFloat(0xfd01)), 0xffe02000u);
}

// The entry points as JIT-compiled code calls them: f16 and bf16 in XMM
// registers, declared here with the C signatures of compiler-rt.
using ExtendFn = float (*)(_Float16);
using TruncFloatFn = _Float16 (*)(float);
using TruncDoubleFn = _Float16 (*)(double);

uint16_t bitsOf(_Float16 value) { return llvm::bit_cast<uint16_t>(value); }
_Float16 fromBits(uint16_t bits) { return llvm::bit_cast<_Float16>(bits); }

void *lookup(llvm::StringRef name) {
  for (const SoftFloatSymbol &symbol : getSoftFloatSymbols())
    if (symbol.name == name)
      return symbol.address;
  return nullptr;
}

TEST(SoftFloat, Symbols) {
  std::set<std::string> names;
  for (const SoftFloatSymbol &symbol : getSoftFloatSymbols()) {
    names.insert(symbol.name.str());
    EXPECT_NE(symbol.address, nullptr) << symbol.name.str();
  }
  std::set<std::string> expected = {"__extendhfsf2", "__extendbfsf2",
                                    "__truncsfhf2",  "__truncdfhf2",
                                    "__truncsfbf2",  "__truncdfbf2"};
  EXPECT_EQ(names, expected);
}

TEST(SoftFloat, EntryPoints) {
  auto extendHalf = reinterpret_cast<ExtendFn>(lookup("__extendhfsf2"));
  auto extendBFloat = reinterpret_cast<ExtendFn>(lookup("__extendbfsf2"));
  auto truncSH = reinterpret_cast<TruncFloatFn>(lookup("__truncsfhf2"));
  auto truncDH = reinterpret_cast<TruncDoubleFn>(lookup("__truncdfhf2"));
  auto truncSB = reinterpret_cast<TruncFloatFn>(lookup("__truncsfbf2"));
  auto truncDB = reinterpret_cast<TruncDoubleFn>(lookup("__truncdfbf2"));
  ASSERT_TRUE(extendHalf && extendBFloat && truncSH && truncDH && truncSB &&
              truncDB);
  EXPECT_EQ(extendHalf(fromBits(0x3e00)), 1.5f);
  EXPECT_EQ(extendBFloat(fromBits(0xbfc0)), -1.5f);
  EXPECT_EQ(bitsOf(truncSH(-2.0f)), 0xc000);
  EXPECT_EQ(bitsOf(truncDH(0.1)), 0x2e66);
  EXPECT_EQ(bitsOf(truncSB(3.0f)), 0x4040);
  EXPECT_EQ(bitsOf(truncDB(1e300)), 0x7f80);
}

} // namespace
