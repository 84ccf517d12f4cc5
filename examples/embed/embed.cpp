//===- embed.cpp - Compile and run a kernel through the C++ API -----------===//
//
// Compiles a fused kernel from a string at run time, launches it on the CPU
// over host vectors, and checks every element against the same formula in
// C++. Prints the kernel's signature, then True or False; exits non-zero on
// any error or mismatch.
//
//===----------------------------------------------------------------------===//

#include "ewc/ewc.h"

#include <cmath>
#include <cstdio>
#include <vector>

static const char *kSource = R"(
kernel scaled_relu(x: f32[n], bias: f32, scale: f32 = 2.0) -> f32[n] {
  return max(x + bias, 0.0) * scale;
}
)";

int main() {
  ewc::Options options;
  options.target = ewc::Target::Cpu;
  ewc::Result<ewc::Module> module = ewc::compile(kSource, options, "embed.ew");
  if (!module) {
    std::printf("compile error: %s\n", module.error().c_str());
    return 2;
  }
  std::printf("%s\n", module->kernels().front().signature.c_str());
  const int64_t n = 4096;
  std::vector<float> x(n), y(n, NAN);
  for (int64_t i = 0; i < n; ++i)
    x[i] = static_cast<float>(i - n / 2) / 64.0f;
  ewc::Status status =
      module->launch("scaled_relu",
                     {ewc::Arg::tensor(x.data()), ewc::Arg::number(0.5),
                      ewc::Arg::byDefault()},
                     {y.data()}, n);
  if (!status) {
    std::printf("launch error: %s\n", status.error().c_str());
    return 2;
  }
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    wrong += y[i] != std::fmax(x[i] + 0.5f, 0.0f) * 2.0f;
  std::printf("%s\n", wrong ? "False" : "True");
  return wrong ? 1 : 0;
}
