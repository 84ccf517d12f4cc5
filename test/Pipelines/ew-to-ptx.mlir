// RUN: ewc-opt %s --ew-to-ptx | FileCheck %s
// RUN: ewc-opt %s --ew-to-ptx="chip=sm_80 features=+ptx78" | FileCheck %s --check-prefix=SM80

// The whole GPU pipeline, exactly as ewc-run runs it, on LeakyReLU: PTX ISA
// 7.8 (the oldest that sm_90 supports, NVPTX's choice when none is given), one
// kernel entry with the kernel ABI (each tensor's memref descriptor expanded:
// allocated and aligned global pointers, offset, extent and stride; the slope
// by value between them), the 64-bit bound checks, and the element code in
// the vector loop: a 16-byte global load, the compare, the multiply, the
// select per element, and a 16-byte global store.

// CHECK:      gpu.binary @ewc_kernels
// CHECK-SAME: .version 7.8
// CHECK-SAME: .target sm_90
// CHECK-SAME: .visible .entry ew$leaky_relu(
// CHECK-SAME: .param .u64 .ptr .global .align 1 ew$leaky_relu_param_0,
// CHECK-SAME: .param .u64 .ptr .global .align 1 ew$leaky_relu_param_1,
// CHECK-SAME: .param .u64 ew$leaky_relu_param_2,
// CHECK-SAME: .param .u64 ew$leaky_relu_param_3,
// CHECK-SAME: .param .u64 ew$leaky_relu_param_4,
// CHECK-SAME: .param .f32 ew$leaky_relu_param_5,
// CHECK-SAME: .param .u64 .ptr .global .align 1 ew$leaky_relu_param_6,
// CHECK-SAME: .param .u64 .ptr .global .align 1 ew$leaky_relu_param_7,
// CHECK-SAME: .param .u64 ew$leaky_relu_param_8,
// CHECK-SAME: .param .u64 ew$leaky_relu_param_9,
// CHECK-SAME: .param .u64 ew$leaky_relu_param_10
// CHECK-SAME: )
// CHECK-SAME: setp.ge.s64
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: setp.ge.f32
// CHECK-SAME: mul.rn.f32
// CHECK-SAME: selp.b32
// CHECK-SAME: st.global.v4.b32
// SM80:       .version 7.8
// SM80-SAME:  .target sm_80
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}
