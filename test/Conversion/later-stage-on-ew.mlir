// The passes that work on a later stage than the ew dialect (the GPU loops,
// the LLVM dialect, PTX) refuse an ew kernel, at its location, saying which
// stages come first: each would otherwise succeed and change nothing.
// (One check shared by eight passes: include/ewc/Conversion/StageCheck.h.)
//
// RUN: not ewc-opt %s --ew-vectorize-gpu-loops 2>&1 | FileCheck %s --check-prefix=VECTORIZE
// RUN: not ewc-opt %s --ew-cpu-bf16-as-i16 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: not ewc-opt %s --ew-cpu-math-to-libm 2>&1 | FileCheck %s --check-prefix=LIBM
// RUN: not ewc-opt %s --ew-cpu-expand-minmax 2>&1 | FileCheck %s --check-prefix=EXPAND
// RUN: not ewc-opt %s --ew-expand-float8 2>&1 | FileCheck %s --check-prefix=FLOAT8
// RUN: not ewc-opt %s --ew-gpu-mul-hi 2>&1 | FileCheck %s --check-prefix=MULHI
// RUN: not ewc-opt %s --gpu-module-to-ptx 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not ewc-opt %s --ptxas-workarounds 2>&1 | FileCheck %s --check-prefix=PTXAS
// The pipelines themselves run these passes after the ew kernels are gone.
// RUN: ewc-opt %s --ew-to-cpu | FileCheck %s --check-prefix=CPU
// RUN: ewc-opt %s --ew-to-ptx | FileCheck %s --check-prefix=GPU

// VECTORIZE: later-stage-on-ew.mlir:[[@LINE+13]]:1: error: 'ew-vectorize-gpu-loops' works on the gpu.module of convert-ew-to-gpu, not on the ew dialect: run --convert-ew-to-gpu first
// BF16: later-stage-on-ew.mlir:[[@LINE+12]]:1: error: 'ew-cpu-bf16-as-i16' works on the LLVM dialect of ew-to-cpu, not on the ew dialect: run --ew-to-cpu first
// LIBM: later-stage-on-ew.mlir:[[@LINE+11]]:1: error: 'ew-cpu-math-to-libm' works on the math ops of convert-ew-to-loops, not on the ew dialect: run --convert-ew-to-loops first
// EXPAND: later-stage-on-ew.mlir:[[@LINE+10]]:1: error: 'ew-cpu-expand-minmax' works on the LLVM dialect of ew-to-cpu, not on the ew dialect: run --ew-to-cpu first
// FLOAT8: later-stage-on-ew.mlir:[[@LINE+9]]:1: error: 'ew-expand-float8' works on the arith ops of lowered kernels, not on the ew dialect: run --convert-ew-to-gpu or --convert-ew-to-loops first
// MULHI: later-stage-on-ew.mlir:[[@LINE+8]]:1: error: 'ew-gpu-mul-hi' works on the gpu.module of convert-ew-to-gpu, not on the ew dialect: run --convert-ew-to-gpu first
// PTX: later-stage-on-ew.mlir:[[@LINE+7]]:1: error: 'gpu-module-to-ptx' works on the NVVM gpu.module of ew-gpu-to-nvvm, not on the ew dialect: run --ew-to-gpu and --ew-gpu-to-nvvm first
// PTXAS: later-stage-on-ew.mlir:[[@LINE+6]]:1: error: 'ptxas-workarounds' works on the PTX of gpu-module-to-ptx, not on the ew dialect: run --ew-to-gpu, --ew-gpu-to-nvvm and --gpu-module-to-ptx first
// CPU: llvm.func @ew$neg(
// CPU-NOT: ew.kernel
// GPU: gpu.binary
// GPU-NOT: ew.kernel

ew.kernel @neg(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.neg %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
