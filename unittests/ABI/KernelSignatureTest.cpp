//===- KernelSignatureTest.cpp - The kernel ABI description ---------------===//
//
// The argument order every lowering and the driver share, a scalar's bytes
// in each dtype's layout (f16 and bf16 rounded to nearest-even), and the
// one-line signature with shortest defaults.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/KernelSignature.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace ewc;

namespace {

TEST(KernelSignatureTest, ArgumentOrder) {
  std::vector<ABIArgument> args = getABIArguments(2, 2);
  ASSERT_EQ(args.size(), 5u);
  using Kind = ABIArgument::Kind;
  EXPECT_EQ(args[0].kind, Kind::Param);
  EXPECT_EQ(args[1].kind, Kind::Param);
  EXPECT_EQ(args[1].index, 1u);
  EXPECT_EQ(args[2].kind, Kind::Result);
  EXPECT_EQ(args[3].kind, Kind::Result);
  EXPECT_EQ(args[3].index, 1u);
  EXPECT_EQ(args[4].kind, Kind::NumElements);
}

template <typename T> T bytesOf(const ScalarValue &value) {
  T result{};
  value.toBytes(&result);
  return result;
}

TEST(KernelSignatureTest, ScalarBytes) {
  ScalarValue value;
  value.dtype = DType::F16;
  value.floatValue = 1.0;
  EXPECT_EQ(bytesOf<uint16_t>(value), 0x3c00);
  // 1 + 2^-11 lies halfway between two f16 values: ties go to even (1.0).
  value.floatValue = 1.0 + std::ldexp(1.0, -11);
  EXPECT_EQ(bytesOf<uint16_t>(value), 0x3c00);
  value.dtype = DType::BF16;
  value.floatValue = -2.0;
  EXPECT_EQ(bytesOf<uint16_t>(value), 0xc000);
  value.dtype = DType::F32;
  value.floatValue = 0.1;
  EXPECT_EQ(bytesOf<float>(value), 0.1f);
  value.dtype = DType::Bool;
  value.intValue = 5;
  EXPECT_EQ(bytesOf<uint8_t>(value), 1);
  value.dtype = DType::I32;
  value.intValue = -7;
  EXPECT_EQ(bytesOf<int32_t>(value), -7);
  value.dtype = DType::I64;
  value.intValue = int64_t(1) << 60;
  EXPECT_EQ(bytesOf<int64_t>(value), int64_t(1) << 60);
}

TEST(KernelSignatureTest, Str) {
  KernelSignature signature;
  signature.name = "k";
  ParamSignature x;
  x.name = "x";
  x.dtype = DType::F32;
  x.isTensor = true;
  ParamSignature slope;
  slope.name = "slope";
  slope.dtype = DType::F32;
  // An f32 default as the compiled IR holds it.
  slope.defaultValue = ScalarValue{DType::F32, 0, double(0.01f)};
  ParamSignature on;
  on.name = "on";
  on.dtype = DType::Bool;
  on.defaultValue = ScalarValue{DType::Bool, 1, 0};
  signature.params = {x, slope, on};
  signature.results = {DType::F32, DType::I64};
  EXPECT_EQ(signature.str(),
            "k(x: f32[n], slope: f32 = 0.01, on: bool = true) -> "
            "(f32[n], i64[n])");
  EXPECT_EQ(signature.lookupParam("slope"), &signature.params[1]);
  EXPECT_EQ(signature.lookupParam("nope"), nullptr);
  EXPECT_EQ(signature.getNumABIArguments(), 6u);
}

} // namespace
