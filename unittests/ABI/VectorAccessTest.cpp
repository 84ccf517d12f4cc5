//===- VectorAccessTest.cpp - Which launches take the vector loop ---------===//
//
// isVectorAligned (VectorAccess.h) decides, on the host, the GPU variant of
// a launch: the default one with the vector loop, or the unaligned one with
// the coalesced scalar loop. It must agree with the kernel's own checks
// (ew-vectorize-gpu-loops): one row where a peel aligns every vectorized
// tensor, or aligned rows.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/VectorAccess.h"

#include "Signatures.h"

#include "gtest/gtest.h"

using namespace ewc;
using namespace ewc::test;

namespace {

TensorArg tensor(std::vector<int64_t> shape, uintptr_t data,
                 std::vector<int64_t> strides = {}) {
  if (strides.empty())
    strides = getContiguousStrides(shape);
  return {reinterpret_cast<void *>(data), std::move(shape), std::move(strides)};
}

/// isVectorAligned for `kernel` on these tensors (every input tensor, then
/// the results), which must plan.
bool aligned(const KernelSignature &kernel,
             std::vector<const TensorArg *> inputs,
             std::vector<const TensorArg *> outputs) {
  llvm::Expected<LaunchPlan> plan = planLaunch(kernel, inputs, outputs);
  EXPECT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  return plan && isVectorAligned(kernel, *plan);
}

KernelSignature makeUnary(DType in, DType out) {
  return makeSignature("unary", {tensorParam("x", {"n"}, in)}, {{out, {"n"}}});
}

TEST(VectorAccessTest, AtomsAndLanes) {
  EXPECT_EQ(getVectorAtom(4, 4), 4u);  // f32 out
  EXPECT_EQ(getVectorAtom(1, 4), 16u); // bool out beside f32 in
  EXPECT_EQ(getVectorAtom(0, 2), 8u);  // no vectorized output: bf16 in
  EXPECT_EQ(getVectorAtom(0, 0), 0u);
  EXPECT_EQ(getVectorLanes(16, 4), 4u); // f32 beside 16 bools: 4 vectors
  EXPECT_EQ(getVectorLanes(4, 1), 4u);  // 4 bools beside f32
  EXPECT_TRUE(isVectorElementSize(16));
  EXPECT_FALSE(isVectorElementSize(3));
  EXPECT_FALSE(isVectorElementSize(32));
}

TEST(VectorAccessTest, OneRowNeedsACommonPeel) {
  KernelSignature kernel = makeUnary(DType::F32, DType::F32);
  TensorArg x = tensor({1000}, 0x10000), out = tensor({1000}, 0x20000);
  EXPECT_TRUE(aligned(kernel, {&x}, {&out}));
  // Both one element in: the same peel of 3 aligns both.
  TensorArg x1 = tensor({1000}, 0x10004), out1 = tensor({1000}, 0x20004);
  EXPECT_TRUE(aligned(kernel, {&x1}, {&out1}));
  // x[1:] beside a fresh output: no peel aligns both.
  EXPECT_FALSE(aligned(kernel, {&x1}, {&out}));
  EXPECT_FALSE(aligned(kernel, {&x}, {&out1}));
  // bf16 in, f32 out: the atom is 4 (the output), bf16 moves 8 bytes at a
  // time, so x needs 8-byte alignment after the output's peel.
  KernelSignature widen = makeUnary(DType::BF16, DType::F32);
  TensorArg h = tensor({1000}, 0x10008), h2 = tensor({1000}, 0x10002);
  EXPECT_TRUE(aligned(widen, {&h}, {&out}));
  EXPECT_FALSE(aligned(widen, {&h2}, {&out}));
}

TEST(VectorAccessTest, RowsAlignedOrNot) {
  KernelSignature kernel = makeBiasAdd();
  TensorArg x = tensor({64, 768}, 0x100000), b = tensor({768}, 0x200000),
            out = tensor({64, 768}, 0x300000);
  EXPECT_TRUE(aligned(kernel, {&x, &b, nullptr}, {&out}));
  // A row length that is no multiple of the atom.
  TensorArg x2 = tensor({64, 770}, 0x100000), b2 = tensor({770}, 0x200000),
            out2 = tensor({64, 770}, 0x300000);
  EXPECT_FALSE(aligned(kernel, {&x2, &b2, nullptr}, {&out2}));
  // x one element into its storage: its rows start at 4 bytes past 16.
  TensorArg x3 = tensor({64, 768}, 0x100004);
  EXPECT_FALSE(aligned(kernel, {&x3, &b, nullptr}, {&out}));
  // x a slice x[:, :768] of rows of 770: its row stride is 3080 bytes.
  TensorArg x4 = tensor({64, 768}, 0x100000, {770, 1});
  EXPECT_FALSE(aligned(kernel, {&x4, &b, nullptr}, {&out}));
  // ... of rows of 772: 3088 bytes, a multiple of 16 again.
  TensorArg x5 = tensor({64, 768}, 0x100000, {772, 1});
  EXPECT_TRUE(aligned(kernel, {&x5, &b, nullptr}, {&out}));
  // One row (m = 1): the peel decides, as in one dimension.
  TensorArg row = tensor({1, 768}, 0x100004),
            rowOut = tensor({1, 768}, 0x300004), rowB = tensor({768}, 0x200004);
  EXPECT_TRUE(aligned(kernel, {&row, &rowB, nullptr}, {&rowOut}));
}

TEST(VectorAccessTest, OnlyVectorizedTensorsCount) {
  KernelSignature kernel = makeBiasAdd();
  // A transposed x is gathered (a strided variant): its address does not
  // matter, b's and the output's do.
  TensorArg xt = tensor({64, 768}, 0x100004, {1, 64}),
            b = tensor({768}, 0x200000), out = tensor({64, 768}, 0x300000);
  EXPECT_TRUE(aligned(kernel, {&xt, &b, nullptr}, {&out}));
  TensorArg b1 = tensor({768}, 0x200004);
  EXPECT_FALSE(aligned(kernel, {&xt, &b1, nullptr}, {&out}));
  // A row scale: s[m] has no innermost dimension and is read once per atom.
  KernelSignature scale = makeSignature(
      "scale", {tensorParam("x", {"m", "n"}), tensorParam("s", {"m"})},
      {{DType::F32, {"m", "n"}}});
  TensorArg x = tensor({64, 768}, 0x100000), s = tensor({64}, 0x200004);
  EXPECT_TRUE(aligned(scale, {&x, &s}, {&out}));
}

/// getVectorShifts for `kernel` on these tensors, which must plan.
std::vector<std::pair<int64_t, int64_t>>
shifts(const KernelSignature &kernel, std::vector<const TensorArg *> inputs,
       std::vector<const TensorArg *> outputs) {
  llvm::Expected<LaunchPlan> plan = planLaunch(kernel, inputs, outputs);
  EXPECT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  if (!plan)
    return {};
  return getVectorShifts(kernel, *plan);
}

using Shifts = std::vector<std::pair<int64_t, int64_t>>;

TEST(VectorAccessTest, ShiftsWhereThePeelAlignsTheOutputs) {
  KernelSignature kernel = makeUnary(DType::F32, DType::F32);
  TensorArg out = tensor({1000}, 0x20000), out1 = tensor({1000}, 0x20004),
            out3 = tensor({1000}, 0x2000c);
  TensorArg x = tensor({1000}, 0x10000), x1 = tensor({1000}, 0x10004),
            x2 = tensor({1000}, 0x10008);
  // x[1:] beside a fresh output: x's element at each aligned output point
  // is one past an aligned address.
  EXPECT_EQ(shifts(kernel, {&x1}, {&out}), (Shifts{{0, 1}}));
  EXPECT_EQ(shifts(kernel, {&x2}, {&out}), (Shifts{{0, 2}}));
  // An output one in: its peel of 3 puts the aligned x three past.
  EXPECT_EQ(shifts(kernel, {&x}, {&out1}), (Shifts{{0, 3}}));
  EXPECT_EQ(shifts(kernel, {&x1}, {&out3}), (Shifts{{0, 2}}));
  // Aligned together: no shift (the default variant).
  EXPECT_EQ(shifts(kernel, {&x1}, {&out1}), Shifts{});
  // bf16 in, f32 out: bf16 moves by 8-byte vectors of 4 lanes.
  KernelSignature widen = makeUnary(DType::BF16, DType::F32);
  TensorArg h2 = tensor({1000}, 0x10002), h6 = tensor({1000}, 0x10006);
  EXPECT_EQ(shifts(widen, {&h2}, {&out}), (Shifts{{0, 1}}));
  EXPECT_EQ(shifts(widen, {&h6}, {&out}), (Shifts{{0, 3}}));
}

TEST(VectorAccessTest, NoShiftsForOutputsApartOrRows) {
  // Two outputs that no one peel aligns: a store cannot be shifted.
  KernelSignature two =
      makeSignature("two", {tensorParam("x", {"n"})},
                    {{DType::F32, {"n"}}, {DType::F32, {"n"}}});
  TensorArg x = tensor({1000}, 0x10000), a = tensor({1000}, 0x20000),
            b = tensor({1000}, 0x30004);
  EXPECT_EQ(shifts(two, {&x}, {&a, &b}), Shifts{});
  // Several rows: the shifted variant is for one row only.
  KernelSignature bias = makeBiasAdd();
  TensorArg xr = tensor({64, 768}, 0x100004), br = tensor({768}, 0x200000),
            outr = tensor({64, 768}, 0x300000);
  EXPECT_EQ(shifts(bias, {&xr, &br, nullptr}, {&outr}), Shifts{});
  // Nothing vectorized in the output: nothing to align the inputs to.
  KernelSignature unary = makeUnary(DType::F32, DType::F32);
  TensorArg xs = tensor({1000}, 0x10004),
            strided = tensor({1000}, 0x20000, {2});
  EXPECT_EQ(shifts(unary, {&xs}, {&strided}), Shifts{});
}

} // namespace
