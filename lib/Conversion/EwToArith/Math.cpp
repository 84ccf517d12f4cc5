//===- Math.cpp - ew math functions to the math dialect -------------------===//
//
// exp, log, tanh, erf and the other functions of libm's (sin, ..., atan2)
// become the math op of the same name; the GPU and CPU pipelines lower those
// to libdevice calls and to LLVM intrinsics or libm calls (docs/pipeline.md).
// sqrt, rsqrt and sigmoid are built otherwise for accuracy, as their patterns
// say. f16 and bf16 compute in f32 (ElementLowering.h).
//
//===----------------------------------------------------------------------===//

#include "ElementLowering.h"

#include "ewc/Dialect/Ew/IR/EwOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ew;
using namespace mlir::ew::lowering;

namespace {

/// A math function that is one math op of the same operands.
template <typename EwOp, typename MathOp>
struct MathLowering : ElementwiseLowering<EwOp> {
  using ElementwiseLowering<EwOp>::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, EwOp op,
                     ValueRange operands) const override {
    return MathOp::create(builder, loc, TypeRange{operands[0].getType()},
                          operands)
        .getResult();
  }
};

/// atan2(y, x): math.atan2, with two zeros taken apart. MLIR 22's folder of
/// math.atan2 gives NaN for y = x = +-0 where C's atan2 gives +-0 (x = +0) or
/// +-pi (x = -0), so a kernel whose operands a later canonicalization makes
/// those constants computed NaN (ewc-fuzz --seed 80 --generic --random,
/// program 24329: atan2(v, v) with v = f32(a < a) * -1.49e14, -0 once
/// `a < a` folds). Where both are zero the result is copysign(x negative ?
/// pi : 0, y), which folds right; elsewhere math.atan2's.
struct Atan2Lowering : ElementwiseLowering<Atan2Op> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, Atan2Op op,
                     ValueRange operands) const override {
    Value y = operands[0], x = operands[1];
    Type type = y.getType();
    Value atan2 = math::Atan2Op::create(builder, loc, y, x);
    Value zero = createConstant(builder, loc, type, 0);
    Value one = createConstant(builder, loc, type, 1);
    Value pi = createConstant(builder, loc, type, 3.14159265358979323846);
    auto isZero = [&](Value v) {
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ, v,
                                   zero);
    };
    Value bothZero = arith::AndIOp::create(builder, loc, isZero(y), isZero(x));
    // x's sign, -0 included: copysign(1, x) < 0.
    Value xNegative = arith::CmpFOp::create(
        builder, loc, arith::CmpFPredicate::OLT,
        math::CopySignOp::create(builder, loc, one, x), zero);
    Value magnitude =
        arith::SelectOp::create(builder, loc, xNegative, pi, zero);
    Value zeros = math::CopySignOp::create(builder, loc, magnitude, y);
    return arith::SelectOp::create(builder, loc, bothZero, zeros, atan2);
  }
};

/// pow(x, y): math.powf (libdevice's __nv_powf, libm's powf), except for a
/// constant exponent whose power is one exact step: pow(x, 0) = 1 (for NaN x
/// too), pow(x, 1) = x, pow(x, 2) = x * x and pow(x, -1) = 1 / x are each
/// the correctly rounded value, special cases included (pow(-0, -1) and
/// 1 / -0 are -inf), where libdevice's powf may be 4 ulps off and costs a
/// log and an exp. Other integers (x * x * x rounds twice) keep powf.
struct PowLowering : ElementwiseLowering<PowOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, PowOp op,
                     ValueRange operands) const override {
    Value x = operands[0];
    Type type = x.getType();
    FloatAttr exponent;
    if (matchPattern(op.getRhs(), m_Constant(&exponent)) &&
        isa<FloatType>(type)) {
      double y = exponent.getValueAsDouble();
      if (y == 0)
        return createConstant(builder, loc, type, 1);
      if (y == 1)
        return x;
      if (y == 2)
        return arith::MulFOp::create(builder, loc, x, x);
      if (y == -1)
        return arith::DivFOp::create(builder, loc,
                                     createConstant(builder, loc, type, 1), x);
    }
    return math::PowFOp::create(builder, loc, x, operands[1]);
  }
};

/// floor, ceil, trunc and round: the math op for floats (f16 and bf16 round
/// in f32, exactly, since every f16 and bf16 value is an f32 one); an integer
/// is integral already. The CPU pipeline makes them LLVM's llvm.floor,
/// llvm.ceil, llvm.trunc and llvm.roundeven, the GPU's libdevice's
/// __nv_floorf, __nv_ceilf and __nv_rintf (cvt.rmi, cvt.rpi and cvt.rni in
/// PTX). trunc is the intrinsic by name (as sqrt below): LLVM 22's
/// convert-gpu-to-nvvm leaves math.trunc unconverted, which then fails the
/// translation to LLVM IR.
template <typename EwOp, typename MathOp>
struct RoundingLowering : ElementwiseLowering<EwOp> {
  using ElementwiseLowering<EwOp>::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, EwOp op,
                     ValueRange operands) const override {
    Value x = operands[0];
    if (!isa<FloatType>(x.getType()))
      return x;
    if constexpr (std::is_same_v<MathOp, math::TruncOp>)
      return LLVM::CallIntrinsicOp::create(
                 builder, loc, x.getType(),
                 builder.getStringAttr(x.getType().isF64() ? "llvm.trunc.f64"
                                                           : "llvm.trunc.f32"),
                 ValueRange{x})
          .getResult(0);
    return MathOp::create(builder, loc, x);
  }
};

/// The correctly rounded square root, LLVM's llvm.sqrt: IEEE sqrt on the CPU,
/// sqrt.rn on NVPTX. Not math.sqrt: convert-gpu-to-nvvm makes that
/// libdevice's __nv_sqrtf, which asks __nvvm_reflect("__CUDA_PREC_SQRT"), and
/// LLVM 22's NVVMReflect answers 0 (only a process-wide -nvvm-reflect-add
/// option changes that), which selects sqrt.approx.f32. Not llvm.intr.sqrt
/// either: convert-gpu-to-nvvm marks it illegal, to route it to libdevice.
/// A call of the intrinsic by name passes through both pipelines untouched.
static Value buildSqrt(OpBuilder &builder, Location loc, Value x) {
  StringRef name = x.getType().isF64() ? "llvm.sqrt.f64" : "llvm.sqrt.f32";
  return LLVM::CallIntrinsicOp::create(builder, loc, x.getType(),
                                       builder.getStringAttr(name),
                                       ValueRange{x})
      .getResult(0);
}

struct SqrtLowering : ElementwiseLowering<SqrtOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, SqrtOp op,
                     ValueRange operands) const override {
    return buildSqrt(builder, loc, operands[0]);
  }
};

/// rsqrt(x) = 1 / sqrt(x) with both steps correctly rounded: at most 1.5 ulp
/// from the exact value. math.rsqrt would become libdevice's __nv_rsqrtf, PTX
/// rsqrt.approx.f32 with a relative error of 2^-22.9, which can pass 2 ulp.
struct RsqrtLowering : ElementwiseLowering<RsqrtOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, RsqrtOp op,
                     ValueRange operands) const override {
    Value x = operands[0];
    Value one = createConstant(builder, loc, x.getType(), 1);
    return arith::DivFOp::create(builder, loc, one, buildSqrt(builder, loc, x));
  }
};

/// sigmoid(x) = 1 / (1 + exp(-x)), the ew definition, evaluated as
/// 1 / (1 + t) for x >= 0 and t / (1 + t) for x < 0, with t = exp(-|x|).
/// The definition's own formula overflows exp(-x) to +inf for x < -88.7 and
/// gives 0 where the result is a subnormal (two million ulps off, measured on
/// the H200); t never overflows, and either quotient stays within 3 ulp.
struct SigmoidLowering : ElementwiseLowering<SigmoidOp> {
  using ElementwiseLowering::ElementwiseLowering;
  Value buildElement(OpBuilder &builder, Location loc, SigmoidOp op,
                     ValueRange operands) const override {
    Value x = operands[0];
    Type type = x.getType();
    Value zero = createConstant(builder, loc, type, 0);
    Value one = createConstant(builder, loc, type, 1);
    Value magnitude = math::AbsFOp::create(builder, loc, x);
    Value t = math::ExpOp::create(
        builder, loc, arith::NegFOp::create(builder, loc, magnitude));
    Value denominator = arith::AddFOp::create(builder, loc, one, t);
    // NaN compares false and takes t, which is NaN.
    Value nonNegative =
        arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGE, x, zero);
    Value numerator =
        arith::SelectOp::create(builder, loc, nonNegative, one, t);
    return arith::DivFOp::create(builder, loc, numerator, denominator);
  }
};

} // namespace

void lowering::populateEwMathPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<
      RoundingLowering<FloorOp, math::FloorOp>,
      RoundingLowering<CeilOp, math::CeilOp>,
      RoundingLowering<TruncOp, math::TruncOp>,
      RoundingLowering<RoundOp, math::RoundEvenOp>,
      MathLowering<ExpOp, math::ExpOp>, MathLowering<LogOp, math::LogOp>,
      MathLowering<TanhOp, math::TanhOp>, MathLowering<ErfOp, math::ErfOp>,
      MathLowering<ErfcOp, math::ErfcOp>, MathLowering<Exp2Op, math::Exp2Op>,
      MathLowering<Expm1Op, math::ExpM1Op>, MathLowering<Log2Op, math::Log2Op>,
      MathLowering<Log10Op, math::Log10Op>,
      MathLowering<Log1pOp, math::Log1pOp>, MathLowering<SinOp, math::SinOp>,
      MathLowering<CosOp, math::CosOp>, MathLowering<TanOp, math::TanOp>,
      MathLowering<AsinOp, math::AsinOp>, MathLowering<AcosOp, math::AcosOp>,
      MathLowering<AtanOp, math::AtanOp>, MathLowering<SinhOp, math::SinhOp>,
      MathLowering<CoshOp, math::CoshOp>, MathLowering<AsinhOp, math::AsinhOp>,
      MathLowering<AcoshOp, math::AcoshOp>,
      MathLowering<AtanhOp, math::AtanhOp>, Atan2Lowering,
      MathLowering<FmaOp, math::FmaOp>, PowLowering, SqrtLowering,
      RsqrtLowering, SigmoidLowering>(converter, patterns.getContext());
}
