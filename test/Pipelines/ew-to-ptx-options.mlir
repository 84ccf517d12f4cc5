// Options of the GPU pipelines are checked against what NVPTX knows before
// anything runs (NVPTX alone would only warn and emit PTX for another chip).
// RUN: not ewc-opt %s --ew-to-ptx="chip=sm_99" 2>&1 | FileCheck %s --check-prefix=CHECK-CHIP
// RUN: not ewc-opt %s --ew-gpu-to-nvvm="features=+ptx99" 2>&1 | FileCheck %s --check-prefix=CHECK-FEATURE
// RUN: not ewc-opt %s --ew-nvvm-to-ptx="features=ptx86" 2>&1 | FileCheck %s --check-prefix=CHECK-SIGN
// CHECK-CHIP: error: unknown GPU architecture 'sm_99' (expected a chip LLVM {{.*}} knows, e.g. sm_90)
// CHECK-FEATURE: error: unknown NVPTX feature '+ptx99' (expected e.g. +ptx86)
// CHECK-SIGN: error: unknown NVPTX feature 'ptx86' (expected e.g. +ptx86)

// Without a PTX feature, each chip gets the oldest PTX ISA it supports.
// RUN: ewc-opt %s --ew-to-ptx="chip=sm_100" | FileCheck %s --check-prefix=CHECK-SM100
// RUN: ewc-opt %s --ew-to-ptx="chip=sm_90 features=+ptx86" | FileCheck %s --check-prefix=CHECK-PTX86
// CHECK-SM100: .version 8.6
// CHECK-SM100-SAME: .target sm_100
// CHECK-PTX86: .version 8.6
// CHECK-PTX86-SAME: .target sm_90
ew.kernel @neg(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.neg %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
