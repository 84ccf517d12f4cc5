//===- Random.cpp - ew.rand, ew.randn and ew.randint to arith -------------===//
//
// Philox4x32 with 10 rounds (the op's `rounds`), as Triton 3.6's
// triton/language/random.py computes it, so that a kernel's random numbers
// equal Triton's tl.rand, tl.randn and tl.randint for the same seed and
// offsets:
//
// - key (k0, k1): the seed as a 64-bit integer (sign-extended, or
//   zero-extended if unsigned), low word first;
// - counter (c0, c1, c2, c3): the offset's low 32 bits, its high 32 bits if
//   it is a 64-bit integer (else 0), 0, 0. Triton 3.6 runs this 32-bit Philox
//   for i32 and i64 offsets alike (randint4x splits an i64 offset);
// - each round: c0' = hi(B c2) ^ c1 ^ k0, c2' = hi(A c0) ^ c3 ^ k1,
//   c1' = lo(B c2), c3' = lo(A c0), then k0 += 0x9E3779B9, k1 += 0xBB67AE85.
//
// randint is the final c0 as an i32. rand converts it as Triton's
// uint_to_uniform_float: x as an i32, max(x, -x - 1) (x ^ (x >> 31)) to f32,
// times the f32 4.6566127342e-10 (0x2FFFFFFF), so the largest is 1 - 2^-24.
// randn is Box-Muller on the uniforms of c0 and c1 as Triton writes it, each
// step in f32: sqrt(-2 log(max(u1, 1e-7))) * cos(6.283185307179586 * u2).
// log, sqrt and cos are math ops, which each target lowers as its other math
// (docs/pipeline.md): libdevice's __nv_logf, __nv_sqrtf (sqrt.approx.f32 as
// LLVM 22's NVVMReflect answers) and __nv_cosf on the GPU, Triton's own
// choices (its PTX has sqrt.approx.ftz.f32 and the two libdevice functions),
// so randn equals Triton's there; libm and IEEE sqrt on the CPU, within a few
// ulps of it.
//
// The rounds are straight-line arith (mului_extended gives both halves of
// each product: PTX mul.lo and mul.hi once ew-gpu-mul-hi has split it, a
// 64-bit multiply on x86), so the vectorizer clones the element code as it
// is and LLVM schedules the ten rounds freely.
//
//===----------------------------------------------------------------------===//

#include "ElementLowering.h"

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::ew;
using namespace mlir::ew::lowering;

namespace {

// The Philox4x32 constants (Salmon et al., "Parallel random numbers: as easy
// as 1, 2, 3", SC'11; Random123's philox4x32_10).
constexpr uint32_t kRoundA = 0xD2511F53;
constexpr uint32_t kRoundB = 0xCD9E8D57;
constexpr uint32_t kKeyA = 0x9E3779B9;
constexpr uint32_t kKeyB = 0xBB67AE85;
/// f32 4.6566127342e-10, Triton's scale: ((2^23 - 1) / 2^23) * 2^-31.
constexpr uint32_t kUniformScaleBits = 0x2FFFFFFF;

Value i32Constant(OpBuilder &builder, Location loc, uint32_t value) {
  return arith::ConstantIntOp::create(builder, loc, builder.getI32Type(),
                                      static_cast<int64_t>(value));
}

Value f32Constant(OpBuilder &builder, Location loc, float value) {
  return arith::ConstantFloatOp::create(builder, loc, builder.getF32Type(),
                                        llvm::APFloat(value));
}

/// The low and the high 32 bits of a 64-bit value.
std::pair<Value, Value> split64(OpBuilder &builder, Location loc, Value value) {
  Type i32 = builder.getI32Type();
  Value low = arith::TruncIOp::create(builder, loc, i32, value);
  Value shift = arith::ConstantIntOp::create(builder, loc, value.getType(), 32);
  Value high = arith::TruncIOp::create(
      builder, loc, i32, arith::ShRUIOp::create(builder, loc, value, shift));
  return {low, high};
}

/// The four output words of Philox4x32-10 for `op`'s seed and offset.
template <typename RandomOp>
std::array<Value, 4> buildPhilox(OpBuilder &builder, Location loc, RandomOp op,
                                 ValueRange operands) {
  Value seed = operands[0], offset = operands[1];
  bool seedUnsigned = isUnsignedValue(op.getSeed().getType());
  bool offsetUnsigned = isUnsignedValue(op.getOffset().getType());
  auto [k0, k1] = split64(builder, loc,
                          convertElement(builder, loc, seed, seedUnsigned,
                                         builder.getI64Type(), false));
  Value zero = i32Constant(builder, loc, 0);
  Value c0, c1 = zero;
  if (offset.getType().getIntOrFloatBitWidth() > 32)
    std::tie(c0, c1) = split64(builder, loc, offset);
  else
    c0 = convertElement(builder, loc, offset, offsetUnsigned,
                        builder.getI32Type(), false);
  Value c2 = zero, c3 = zero;

  Value roundA = i32Constant(builder, loc, kRoundA);
  Value roundB = i32Constant(builder, loc, kRoundB);
  Value keyA = i32Constant(builder, loc, kKeyA);
  Value keyB = i32Constant(builder, loc, kKeyB);
  for (uint64_t round = 0, rounds = op.getRounds(); round < rounds; ++round) {
    if (round > 0) {
      k0 = arith::AddIOp::create(builder, loc, k0, keyA);
      k1 = arith::AddIOp::create(builder, loc, k1, keyB);
    }
    auto productA = arith::MulUIExtendedOp::create(builder, loc, c0, roundA);
    auto productB = arith::MulUIExtendedOp::create(builder, loc, c2, roundB);
    Value next0 = arith::XOrIOp::create(
        builder, loc,
        arith::XOrIOp::create(builder, loc, productB.getHigh(), c1), k0);
    Value next2 = arith::XOrIOp::create(
        builder, loc,
        arith::XOrIOp::create(builder, loc, productA.getHigh(), c3), k1);
    c0 = next0;
    c1 = productB.getLow();
    c2 = next2;
    c3 = productA.getLow();
  }
  return {c0, c1, c2, c3};
}

/// Triton's uint_to_uniform_float of a 32-bit word.
Value buildUniform(OpBuilder &builder, Location loc, Value word) {
  // max(x, -x - 1) of the signed x is x ^ (x >> 31): ~x for a negative x.
  Value sign =
      arith::ShRSIOp::create(builder, loc, word, i32Constant(builder, loc, 31));
  Value magnitude = arith::XOrIOp::create(builder, loc, word, sign);
  Value asFloat =
      arith::SIToFPOp::create(builder, loc, builder.getF32Type(), magnitude);
  Value scale = f32Constant(builder, loc,
                            llvm::bit_cast<float>(uint32_t(kUniformScaleBits)));
  return arith::MulFOp::create(builder, loc, asFloat, scale);
}

struct RandintLowering : ElementwiseLowering<RandintOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, RandintOp op,
                     ValueRange operands) const override {
    return buildPhilox(builder, loc, op, operands)[0];
  }
};

struct RandLowering : ElementwiseLowering<RandOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, RandOp op,
                     ValueRange operands) const override {
    return buildUniform(builder, loc,
                        buildPhilox(builder, loc, op, operands)[0]);
  }
};

struct RandnLowering : ElementwiseLowering<RandnOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, RandnOp op,
                     ValueRange operands) const override {
    std::array<Value, 4> words = buildPhilox(builder, loc, op, operands);
    Value u1 = buildUniform(builder, loc, words[0]);
    Value u2 = buildUniform(builder, loc, words[1]);
    // Triton's pair_uniform_to_normal: tl.maximum(1.0e-7, u1) (u1 is never
    // NaN, so maxnum and maximum agree), the angle's 2 pi as the f32 nearest
    // 6.283185307179586.
    u1 = arith::MaxNumFOp::create(builder, loc,
                                  f32Constant(builder, loc, 1e-7f), u1);
    Value angle = arith::MulFOp::create(
        builder, loc, f32Constant(builder, loc, 6.283185307179586f), u2);
    Value square =
        arith::MulFOp::create(builder, loc, f32Constant(builder, loc, -2.0f),
                              math::LogOp::create(builder, loc, u1));
    Value radius = math::SqrtOp::create(builder, loc, square);
    return arith::MulFOp::create(builder, loc, radius,
                                 math::CosOp::create(builder, loc, angle));
  }
};

} // namespace

void lowering::populateEwRandomPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<RandLowering, RandnLowering, RandintLowering>(
      converter, patterns.getContext());
}
