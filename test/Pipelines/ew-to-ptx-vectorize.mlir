// RUN: ewc-opt %s --ew-to-ptx | %python %S/Inputs/extract-ptx.py | FileCheck %s
// RUN: ewc-opt %s --ew-to-ptx | %python %S/Inputs/extract-ptx.py | FileCheck %s --check-prefix=NOPRED

// The PTX of the loops ew-vectorize-gpu-loops makes (NVPTX in LLVM 22 places
// them in this order). The default variant: the scalar prologue, the vector
// loop with 16-byte accesses only (v4.b32 is how LLVM 22 spells 16 bytes of
// 4 x f32 or 8 x bf16 or f16, v2.b64 those of 2 x f64), and the scalar tail.
// The unaligned variant (ew.unaligned): the coalesced unrolled scalar loop
// (all of a thread's loads before its stores) and the tail, nothing else.
// Default vectors per thread (one 16-byte vector of the widest tensor where
// the element code is cheap).

// No load or store anywhere is predicated: loops branch around whole
// iterations instead of masking accesses.
// NOPRED-NOT: @%p{{[0-9]+}} {{ld|st}}.global

// CHECK-LABEL: .entry ew$leaky_relu(
// CHECK:         ld.global.b32
// CHECK-NOT:     {{ld|st}}.global.v
// CHECK:         st.global.b32
// CHECK:         @%p{{[0-9]+}} bra
// CHECK:         ld.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         @%p{{[0-9]+}} bra
// CHECK:         ld.global.b32
// CHECK:         st.global.b32
// CHECK-NOT:     .global.v
// CHECK:         ret;
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// The unaligned variant: four loads of x per thread before four stores.
// CHECK-LABEL: .entry ew$leaky_unaligned(
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         st.global.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.b32
// CHECK:         @%p{{[0-9]+}} bra
// CHECK:         ld.global.b32
// CHECK:         st.global.b32
// CHECK-NOT:     .global.v
// CHECK:         ret;
ew.kernel @leaky_unaligned(%x: !ew.tensor<[n], f32>, %slope: f32) -> !ew.tensor<[n], f32> attributes {ew.unaligned} {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// bf16 and f16: 8 per 16-byte vector; the unaligned variant has 8 scalar
// accesses per thread.
// CHECK-LABEL: .entry ew$neg_bf16(
// CHECK:         ld.global.b16
// CHECK:         st.global.b16
// CHECK:         ld.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     .global.v
// CHECK:         ld.global.b16
// CHECK:         ret;
ew.kernel @neg_bf16(%x: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], bf16> {
  %r = ew.neg %x : !ew.tensor<[n], bf16>
  ew.return %r : !ew.tensor<[n], bf16>
}
// CHECK-LABEL: .entry ew$neg_bf16_unaligned(
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         ld.global.b16
// CHECK-NOT:     st.global
// CHECK:         st.global.b16
// CHECK-NOT:     ld.global
// CHECK:         st.global.b16
// CHECK-NOT:     ld.global
// CHECK:         st.global.b16
// CHECK-NOT:     ld.global
// CHECK:         st.global.b16
// CHECK-NOT:     ld.global
// CHECK:         st.global.b16
// CHECK-NOT:     ld.global
// CHECK:         st.global.b16
// CHECK-NOT:     ld.global
// CHECK:         st.global.b16
// CHECK-NOT:     ld.global
// CHECK:         st.global.b16
// CHECK-NOT:     .global.v
// CHECK:         ret;
ew.kernel @neg_bf16_unaligned(%x: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], bf16> attributes {ew.unaligned} {
  %r = ew.neg %x : !ew.tensor<[n], bf16>
  ew.return %r : !ew.tensor<[n], bf16>
}
// CHECK-LABEL: .entry ew$neg_f16(
// CHECK:         ld.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     .global.v
// CHECK:         ret;
ew.kernel @neg_f16(%x: !ew.tensor<[n], f16>) -> !ew.tensor<[n], f16> {
  %r = ew.neg %x : !ew.tensor<[n], f16>
  ew.return %r : !ew.tensor<[n], f16>
}

// CHECK-LABEL: .entry ew$neg_f64(
// CHECK:         ld.global.v2.b64
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v2.b64
// CHECK-NOT:     .global.v
// CHECK:         ld.global.b64
// CHECK:         ret;
ew.kernel @neg_f64(%x: !ew.tensor<[n], f64>) -> !ew.tensor<[n], f64> {
  %r = ew.neg %x : !ew.tensor<[n], f64>
  ew.return %r : !ew.tensor<[n], f64>
}

// f32 in, bool out: an atom of sixteen bools (16 bytes of the widest
// output), so four 16-byte f32 loads and the sixteen bools in one 16-byte
// store (not sixteen st.global.b8).
// CHECK-LABEL: .entry ew$mask(
// CHECK:         st.global.b8
// CHECK:         ld.global.v4.b32
// CHECK-NEXT:    ld.global.v4.b32
// CHECK-NEXT:    ld.global.v4.b32
// CHECK-NEXT:    ld.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         @%p{{[0-9]+}} bra
// CHECK:         st.global.b8
// CHECK:         ret;
ew.kernel @mask(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], i1> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  ew.return %keep : !ew.tensor<[n], i1>
}

// bias_add, x[m, n] + b[n] (two vectors per thread: a nest of two
// dimensions): two vector loops (one row; aligned rows), each with two
// 16-byte loads of x and two of b before their two 16-byte stores, then the
// tail; the unaligned variant's loop loads eight points of x and eight of b
// before its eight stores.
// CHECK-LABEL: .entry ew$bias_add(
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     .global.v
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         ret;
ew.kernel @bias_add(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}
// CHECK-LABEL: .entry ew$bias_unaligned(
// CHECK-COUNT-16: ld.global.b32
// CHECK-NOT:     st.global
// CHECK-COUNT-8: st.global.b32
// CHECK-NOT:     ld.global
// CHECK:         @%p{{[0-9]+}} bra
// CHECK-NOT:     .global.v
// CHECK:         ret;
ew.kernel @bias_unaligned(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> attributes {ew.unaligned} {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}

// A strided variant (x's innermost stride a runtime value): x gathered with
// four scalar loads per atom, out stored with one 16-byte store.
// CHECK-LABEL: .entry ew$strided(
// CHECK:         ld.global.b32
// CHECK:         st.global.b32
// CHECK:         @%p{{[0-9]+}} bra
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     st.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         @%p{{[0-9]+}} bra
// CHECK-NOT:     .global.v
// CHECK:         ret;
ew.kernel @strided(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> attributes {ew.strided_tensors = array<i64: 0>} {
  %0 = ew.neg %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// A tensor without the innermost dimension (s[m] beside x[m, n]): one 4-byte
// load per atom beside the 16-byte ones (two atoms per thread), in both
// vector loops; in the one-row loop both atoms' is s[0], loaded once.
// CHECK-LABEL: .entry ew$scale_rows(
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT:     st.global
// CHECK:         ld.global.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT:     st.global
// CHECK-COUNT-2: ld.global.b32
// CHECK-NOT:     {{ld|st}}.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     .global.v
// CHECK:         ret;
ew.kernel @scale_rows(%x: !ew.tensor<[m, n], f32>, %s: !ew.tensor<[m], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %s : <[m], f32> to <[m, n], f32>
  %1 = ew.mul %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}
