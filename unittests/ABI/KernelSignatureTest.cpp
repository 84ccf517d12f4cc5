//===- KernelSignatureTest.cpp - The kernel ABI description ---------------===//
//
// The argument order every lowering and the driver share (strided memref
// descriptors of the tensors), the kernel symbols, a scalar's bytes
// in each dtype's layout (f16 and bf16 rounded to nearest-even), and the
// one-line signature with shortest defaults.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/KernelSignature.h"

#include "Signatures.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace ewc;
using ewc::test::makeBiasAdd;

namespace {

TEST(KernelSignatureTest, ArgumentOrder) {
  // Parameters in order (a tensor as its descriptor's fields, a scalar as
  // its value), then the results.
  KernelSignature signature = makeBiasAdd();
  std::vector<ABIArgument> args = getABIArguments(signature, 1);
  using Kind = ABIArgument::Kind;
  // x: 3 + 2 x 2 fields; b: 3 + 2; s: 1; the result: 3 + 4.
  ASSERT_EQ(args.size(), 7u + 5u + 1u + 7u);
  EXPECT_EQ(args[0].kind, Kind::AllocatedPointer);
  EXPECT_EQ(args[1].kind, Kind::AlignedPointer);
  EXPECT_EQ(args[2].kind, Kind::Offset);
  EXPECT_EQ(args[3].kind, Kind::Extent);
  EXPECT_EQ(args[3].dim, 0u);
  EXPECT_EQ(args[4].kind, Kind::Extent);
  EXPECT_EQ(args[4].dim, 1u);
  EXPECT_EQ(args[5].kind, Kind::Stride);
  EXPECT_EQ(args[6].kind, Kind::Stride);
  EXPECT_EQ(args[6].dim, 1u);
  EXPECT_EQ(args[7].kind, Kind::AllocatedPointer);
  EXPECT_EQ(args[7].tensor, 1u);
  EXPECT_EQ(args[12].kind, Kind::Scalar);
  EXPECT_EQ(args[12].param, 2u);
  EXPECT_EQ(args[13].kind, Kind::AllocatedPointer);
  EXPECT_EQ(args[13].tensor, 2u);
  EXPECT_EQ(args.back().kind, Kind::Stride);
  EXPECT_EQ(args.back().tensor, 2u);

  // The batch counts as the variant's batch rank in the tensors that have
  // it, and in no other.
  KernelSignature batched = makeBiasAdd(/*batch=*/true);
  EXPECT_EQ(getTensorRanks(batched, 1), (std::vector<unsigned>{3, 1, 3}));
  EXPECT_EQ(getTensorRanks(batched, 3), (std::vector<unsigned>{5, 1, 5}));
  EXPECT_EQ(getABIArguments(batched, 3).size(), 13u + 5u + 1u + 13u);
  EXPECT_EQ(batched.getNumTensors(), 3u);
  EXPECT_EQ(batched.getTensorDims(1), (std::vector<std::string>{"n"}));
  EXPECT_TRUE(batched.hasBatch());
  EXPECT_FALSE(signature.hasBatch());
}

TEST(KernelSignatureTest, Symbols) {
  EXPECT_EQ(getKernelSymbol("exp"), "ew$exp");
  EXPECT_EQ(getKernelNameOfSymbol("ew$exp"), llvm::StringRef("exp"));
  EXPECT_EQ(getKernelNameOfSymbol("exp"), std::nullopt);
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
  KernelSignature signature = makeBiasAdd(/*batch=*/true);
  // An f32 default as the compiled IR holds it, printed shortest.
  signature.params[2].defaultValue = ScalarValue{DType::F32, 0, double(0.01f)};
  ParamSignature on;
  on.name = "on";
  on.dtype = DType::Bool;
  on.defaultValue = ScalarValue{DType::Bool, 1, 0};
  signature.params.push_back(on);
  signature.results.push_back({DType::I64, {"n"}});
  EXPECT_EQ(signature.str(),
            "bias_add(x: f32[..., m, n], b: f32[n], s: f32 = 0.01, on: bool = "
            "true) -> (f32[..., m, n], i64[n])");
  EXPECT_EQ(signature.lookupParam("s"), &signature.params[2]);
  EXPECT_EQ(signature.lookupParam("nope"), nullptr);
}

} // namespace
