// RUN: ewc-opt %s --ew-to-ptx | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s
// RUN: ewc-opt %s --ew-to-ptx | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=NOPRED

// The PTX of vectorized kernels (the binary's assembly, one instruction per
// line once sed unescapes it): 16-byte accesses for every element size, one
// per tensor of the widest type in the main loop (the default
// vectors-per-thread, EwToGPU.h), none predicated (the loop runs over
// whole chunks only), and scalar loops before (the peel) and after (the
// tail). v4.b32 is how NVPTX in LLVM 22 spells 16-byte accesses of 4 x f32
// or 8 x bf16; v2.b64 those of 2 x f64.

// No load or store anywhere is predicated: loops branch around whole
// iterations instead of masking accesses.
// NOPRED-NOT: @%p{{[0-9]+}} {{ld|st}}.global

// CHECK-LABEL: .entry ew$leaky_relu(
// CHECK:         ld.global.b32
// CHECK:         st.global.b32
// CHECK-NOT:     {{ld|st}}.global.b32
// CHECK-COUNT-1: ld.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global.b32
// CHECK-COUNT-1: st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         @%p{{[0-9]+}} bra $L__BB
// CHECK:         ld.global.b32
// CHECK:         st.global.b32
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}

// CHECK-LABEL: .entry ew$neg_bf16(
// CHECK:         ld.global.b16
// CHECK-COUNT-1: ld.global.v4.b32
// CHECK-COUNT-1: st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         @%p{{[0-9]+}} bra $L__BB
// CHECK:         ld.global.b16
ew.kernel @neg_bf16(%x: tensor<?xbf16>) -> tensor<?xbf16> {
  %r = ew.neg %x : tensor<?xbf16>
  ew.return %r : tensor<?xbf16>
}

// CHECK-LABEL: .entry ew$neg_f64(
// CHECK:         ld.global.b64
// CHECK-COUNT-1: ld.global.v2.b64
// CHECK-COUNT-1: st.global.v2.b64
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         @%p{{[0-9]+}} bra $L__BB
// CHECK:         ld.global.b64
ew.kernel @neg_f64(%x: tensor<?xf64>) -> tensor<?xf64> {
  %r = ew.neg %x : tensor<?xf64>
  ew.return %r : tensor<?xf64>
}

// f32 in, bool out: an atom of sixteen bools (16 bytes of the widest output),
// so four 16-byte f32 loads and the sixteen bools in one 16-byte store (not
// sixteen st.global.b8).
// CHECK-LABEL: .entry ew$mask(
// CHECK:         st.global.b8
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-NOT:     st.global.b8
// CHECK:         st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         @%p{{[0-9]+}} bra $L__BB
// CHECK:         st.global.b8
ew.kernel @mask(%x: tensor<?xf32>) -> tensor<?xi1> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  ew.return %keep : tensor<?xi1>
}
