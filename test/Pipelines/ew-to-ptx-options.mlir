// Options of the GPU pipelines are checked against what NVPTX and CUDA 13's
// ptxas know before anything runs (NVPTX alone would only warn and emit PTX
// for another chip); a bad chip is an error of the option itself.
// RUN: not ewc-opt %s --ew-to-ptx="chip=sm_99" 2>&1 | FileCheck %s --check-prefix=CHECK-CHIP
// RUN: not ewc-opt %s --ew-gpu-to-nvvm="features=+ptx99" 2>&1 | FileCheck %s --check-prefix=CHECK-FEATURE
// RUN: not ewc-opt %s --ew-nvvm-to-ptx="features=ptx86" 2>&1 | FileCheck %s --check-prefix=CHECK-SIGN
// RUN: not ewc-opt %s --ew-to-ptx="chip=sm_20" 2>&1 | FileCheck %s --check-prefix=CHECK-OLD
// CHECK-CHIP: ewc-opt: for the --chip option: unsupported GPU architecture 'sm_99': expected one that LLVM's NVPTX and CUDA 13's ptxas both take: sm_75, sm_80, {{.*}}, sm_121f
// LLVM knows sm_20, CUDA 13's ptxas does not.
// CHECK-OLD: ewc-opt: for the --chip option: unsupported GPU architecture 'sm_20'
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
