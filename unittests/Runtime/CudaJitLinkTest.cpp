//===- CudaJitLinkTest.cpp - PTX to cubin with nvJitLink ------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// nvJitLink needs no GPU: a small kernel assembles into an ELF cubin for
// sm_90 and for a newer chip than its PTX targets, and bad PTX fails with
// ptxas's log. Skipped where the toolkit's libnvJitLink is missing.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/CudaJitLink.h"

#include <gtest/gtest.h>

using namespace ewc;

namespace {

constexpr const char *kPTX = R"(.version 7.8
.target sm_90
.address_size 64
.visible .entry store_one(.param .u64 out) {
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.b32 %r1, 1;
  st.global.b32 [%rd1], %r1;
  ret;
}
)";

class CudaJitLinkTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string whyNot;
    if (!isJitLinkAvailable({}, &whyNot))
      GTEST_SKIP() << whyNot;
  }
};

TEST_F(CudaJitLinkTest, AssemblesPTXIntoACubin) {
  EXPECT_FALSE(getJitLinkVersion().empty());
  for (const char *chip : {"sm_90", "sm_100"}) {
    llvm::Expected<std::vector<char>> cubin = compilePTXToCubin(kPTX, chip);
    ASSERT_TRUE(bool(cubin)) << llvm::toString(cubin.takeError());
    ASSERT_GT(cubin->size(), 4u);
    EXPECT_EQ(std::string(cubin->data(), 4), "\x7f"
                                             "ELF")
        << chip;
  }
}

TEST_F(CudaJitLinkTest, BadPTXFailsWithOneLineOfTheLog) {
  std::string bad = kPTX;
  bad.replace(bad.find("mov.b32"), 7, "mov.bogus");
  llvm::Expected<std::vector<char>> cubin = compilePTXToCubin(bad, "sm_90");
  ASSERT_FALSE(bool(cubin));
  std::string message = llvm::toString(cubin.takeError());
  EXPECT_NE(message.find("NVJITLINK_ERROR_PTX_COMPILE"), std::string::npos)
      << message;
  EXPECT_NE(message.find("ptxas"), std::string::npos) << message;
  // One line, ptxas's own words without its column padding: what a tool
  // prints after "error: cannot embed a cubin for sm_90: ".
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.find("  "), std::string::npos) << message;
  EXPECT_EQ(message.rfind("nvJitLink failed (NVJITLINK_ERROR_PTX_COMPILE): "
                          "ptxas ",
                          0),
            0u)
      << message;
}

} // namespace
