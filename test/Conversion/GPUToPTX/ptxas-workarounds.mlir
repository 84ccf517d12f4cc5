// RUN: ewc-opt %s --ptxas-workarounds | FileCheck %s
// RUN: ewc-opt %s --ptxas-workarounds=workarounds=float-select,int-abs | FileCheck %s --check-prefix=CHECK-SOME
// RUN: ewc-opt %s --ptxas-workarounds=workarounds=none | FileCheck %s --check-prefix=CHECK-NONE
// RUN: not ewc-opt %s --ptxas-workarounds=workarounds=int-abs,fast 2>&1 | FileCheck %s --check-prefix=CHECK-BAD

// The PTX that CUDA 13.0's ptxas miscompiles (docs/ptxas-bug/README.md) is
// rewritten into instructions it assembles right. The PTX text is printed
// with its tabs and newlines escaped (\09, \0A).

// abs.s64 and abs.s32: the sign mask, xor, subtract (INT_MIN stays INT_MIN).
// CHECK:      assembly = ".visible .entry k(\0A{\0A
// CHECK-SAME: \09{\0A\09.reg .b64 %ewc_sign;\0A\09shr.s64 \09%ewc_sign, %rd3, 63;\0A\09xor.b64 \09%rd4, %rd3, %ewc_sign;\0A\09sub.s64 \09%rd4, %rd4, %ewc_sign;\0A\09}\0A
// The destination may be the source: it is read before it is written.
// CHECK-SAME: \09{\0A\09.reg .b32 %ewc_sign;\0A\09shr.s32 \09%ewc_sign, %r2, 31;\0A\09xor.b32 \09%r2, %r2, %ewc_sign;\0A\09sub.s32 \09%r2, %r2, %ewc_sign;\0A\09}\0A
// abs.f32 and abs.f64: clear the sign bit. abs.ftz.f32 (which also flushes
// subnormals) is not what NVPTX emits for ewc and stays.
// CHECK-SAME: \09and.b32 \09%r5, %r4, 0x7FFFFFFF;\0A
// CHECK-SAME: \09and.b64 \09%rd6, %rd5, 0x7FFFFFFFFFFFFFFF;\0A
// CHECK-SAME: \09abs.ftz.f32 \09%r6, %r4;\0A
// selp.f32/f64: the same bits picked as integers.
// CHECK-SAME: \09selp.b32 \09%r7, 0xBF800000, 0x80000000, %p1;\0A
// CHECK-SAME: \09selp.b64 \09%rd7, %rd6, 0x8000000000000000, %p1;\0A
// CHECK-SAME: \09selp.b32 \09%r8, 1, 0, %p1;\0A
// Integer min/max: a compare and a select, signed or unsigned as before.
// CHECK-SAME: \09{\0A\09.reg .pred %ewc_pick;\0A\09setp.lt.s64 \09%ewc_pick, %rd4, 0;\0A\09selp.b64 \09%rd8, %rd4, 0, %ewc_pick;\0A\09}\0A
// CHECK-SAME: \09{\0A\09.reg .pred %ewc_pick;\0A\09setp.gt.u32 \09%ewc_pick, %r8, %r7;\0A\09selp.b32 \09%r9, %r8, %r7, %ewc_pick;\0A\09}\0A
// Float min stays, as do labels, branches and the rest.
// CHECK-SAME: \09min.f32 \09%r10, %r5, %r7;\0A
// A predicated instruction is rewritten the same way, its guard on every
// instruction of the replacement (not on braces and .reg declarations):
// ptxas would miscompile it as it does the unguarded one.
// CHECK-SAME: \09{\0A\09.reg .pred %ewc_pick;\0A\09@%p1 setp.lt.s32 \09%ewc_pick, %r9, %r8;\0A\09@%p1 selp.b32 \09%r11, %r9, %r8, %ewc_pick;\0A\09}\0A
// CHECK-SAME: \09{\0A\09.reg .b64 %ewc_sign;\0A\09@!%p2 shr.s64 \09%ewc_sign, %rd3, 63;\0A\09@!%p2 xor.b64 \09%rd9, %rd3, %ewc_sign;\0A\09@!%p2 sub.s64 \09%rd9, %rd9, %ewc_sign;\0A\09}\0A
// CHECK-SAME: \09@%p2 and.b32 \09%r12, %r4, 0x7FFFFFFF;\0A
// CHECK-SAME: \09@%p3 selp.b32 \09%r13, 0x80000000, %r4, %p1;\0A
// neg.s16: not and add 1 (-(-32768) stays -32768 for ptxas); the register
// may be its own source. neg.s32 has shown no trouble and stays.
// CHECK-SAME: \09not.b16 \09%rs2, %rs1;\0A\09add.s16 \09%rs2, %rs2, 1;\0A
// CHECK-SAME: \09neg.s32 \09%r14, %r13;\0A
// CHECK-SAME: \09@%p1 not.b16 \09%rs3, %rs3;\0A\09@%p1 add.s16 \09%rs3, %rs3, 1;\0A
// st.b32 of a 64-bit register: the register split by mov.b64, the low
// half stored (an f64 stored as two halves had another low word for
// ptxas); a b32 register, a b64 store and a vector store stay.
// CHECK-SAME: \09{\0A\09.reg .b32 %ewc_lo, %ewc_hi;\0A\09mov.b64 \09{%ewc_lo, %ewc_hi}, %rd7;\0A\09st.global.b32 \09[%rd10], %ewc_lo;\0A\09}\0A
// CHECK-SAME: \09st.global.b32 \09[%rd10+4], %r14;\0A
// CHECK-SAME: \09{\0A\09.reg .b32 %ewc_lo, %ewc_hi;\0A\09@%p1 mov.b64 \09{%ewc_lo, %ewc_hi}, %rd8;\0A\09@%p1 st.global.cs.b32 \09[%rd10], %ewc_lo;\0A\09}\0A
// CHECK-SAME: \09st.global.b64 \09[%rd10], %rd7;\0A\09st.global.v2.b32 \09[%rd10], {%r1, %r2};\0A
// st.b8 of a 16-bit register: the register widened by cvt.u32.u16 first
// (a byte of an f16 or bf16 result was stored as the float converted to an
// integer); st.b8 and st.b16 of a 32-bit register: the register masked by
// and.b32 first (two bytes of an f32 result, likewise); a 16-bit store of a
// 16-bit register and a vector store stay.
// CHECK-SAME: \09{\0A\09.reg .b32 %ewc_byte;\0A\09cvt.u32.u16 \09%ewc_byte, %rs2;\0A\09st.global.b8 \09[%rd10], %ewc_byte;\0A\09}\0A
// CHECK-SAME: \09{\0A\09.reg .b32 %ewc_byte;\0A\09@%p1 cvt.u32.u16 \09%ewc_byte, %rs3;\0A\09@%p1 st.global.u8 \09[%rd10+1], %ewc_byte;\0A\09}\0A
// CHECK-SAME: \09{\0A\09.reg .b32 %ewc_narrow;\0A\09and.b32 \09%ewc_narrow, %r14, 255;\0A\09st.global.b8 \09[%rd10+2], %ewc_narrow;\0A\09}\0A
// CHECK-SAME: \09{\0A\09.reg .b32 %ewc_narrow;\0A\09and.b32 \09%ewc_narrow, %r13, 65535;\0A\09st.global.b16 \09[%rd10+4], %ewc_narrow;\0A\09}\0A
// CHECK-SAME: \09st.global.u16 \09[%rd10+6], %rs2;\0A\09st.global.v2.b8 \09[%rd10], {%rs2, %rs3};\0A
// CHECK-SAME: \09@%p1 bra \09$L__BB0_1;\0A$L__BB0_1:\0A\09ret;\0A}\0A"

// CHECK-SOME:      assembly = "
// CHECK-SOME-SAME: shr.s64
// CHECK-SOME-SAME: \09abs.f32 \09%r5, %r4;
// CHECK-SOME-SAME: \09selp.b32 \09%r7, 0xBF800000, 0x80000000, %p1;
// CHECK-SOME-SAME: \09min.s64 \09%rd8, %rd4, 0;
// CHECK-SOME-SAME: \09neg.s16 \09%rs2, %rs1;

// CHECK-NONE: assembly = ".visible .entry k(\0A{\0A\09abs.s64 \09%rd4, %rd3;\0A\09abs.s32 \09%r2, %r2;\0A\09abs.f32 \09%r5, %r4;\0A\09abs.f64 \09%rd6, %rd5;\0A\09abs.ftz.f32 \09%r6, %r4;\0A\09selp.f32 \09%r7, 0fBF800000, 0f80000000, %p1;\0A\09selp.f64 \09%rd7, %rd6, 0d8000000000000000, %p1;\0A\09selp.b32 \09%r8, 1, 0, %p1;\0A\09min.s64 \09%rd8, %rd4, 0;\0A\09max.u32 \09%r9, %r8, %r7;\0A\09min.f32 \09%r10, %r5, %r7;\0A\09@%p1 min.s32 \09%r11, %r9, %r8;\0A\09@!%p2 abs.s64 \09%rd9, %rd3;\0A\09@%p2 abs.f32 \09%r12, %r4;\0A\09@%p3 selp.f32 \09%r13, 0f80000000, %r4, %p1;\0A\09neg.s16 \09%rs2, %rs1;\0A\09neg.s32 \09%r14, %r13;\0A\09@%p1 neg.s16 \09%rs3, %rs3;\0A\09st.global.b32 \09[%rd10], %rd7;\0A\09st.global.b32 \09[%rd10+4], %r14;\0A\09@%p1 st.global.cs.b32 \09[%rd10], %rd8;\0A\09st.global.b64 \09[%rd10], %rd7;\0A\09st.global.v2.b32 \09[%rd10], {%r1, %r2};\0A\09st.global.b8 \09[%rd10], %rs2;\0A\09@%p1 st.global.u8 \09[%rd10+1], %rs3;\0A\09st.global.b8 \09[%rd10+2], %r14;\0A\09st.global.b16 \09[%rd10+4], %r13;\0A\09st.global.u16 \09[%rd10+6], %rs2;\0A\09st.global.v2.b8 \09[%rd10], {%rs2, %rs3};\0A\09@%p1 bra \09$L__BB0_1;\0A$L__BB0_1:\0A\09ret;\0A}\0A"

// CHECK-BAD: error: unknown ptxas workaround 'fast' (expected all, none, or a comma-separated list of int-abs, float-abs, float-select, int-minmax, int-neg, wide-store and narrow-store)

// Objects that are not PTX text (here a cubin's bytes) are not touched.
// CHECK:      gpu.binary @cubin
// CHECK-SAME: bin = "\09abs.s64 \09%rd4, %rd3;\0A"

module attributes {gpu.container_module} {
  gpu.binary @ewc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(\0A{\0A\09abs.s64 \09%rd4, %rd3;\0A\09abs.s32 \09%r2, %r2;\0A\09abs.f32 \09%r5, %r4;\0A\09abs.f64 \09%rd6, %rd5;\0A\09abs.ftz.f32 \09%r6, %r4;\0A\09selp.f32 \09%r7, 0fBF800000, 0f80000000, %p1;\0A\09selp.f64 \09%rd7, %rd6, 0d8000000000000000, %p1;\0A\09selp.b32 \09%r8, 1, 0, %p1;\0A\09min.s64 \09%rd8, %rd4, 0;\0A\09max.u32 \09%r9, %r8, %r7;\0A\09min.f32 \09%r10, %r5, %r7;\0A\09@%p1 min.s32 \09%r11, %r9, %r8;\0A\09@!%p2 abs.s64 \09%rd9, %rd3;\0A\09@%p2 abs.f32 \09%r12, %r4;\0A\09@%p3 selp.f32 \09%r13, 0f80000000, %r4, %p1;\0A\09neg.s16 \09%rs2, %rs1;\0A\09neg.s32 \09%r14, %r13;\0A\09@%p1 neg.s16 \09%rs3, %rs3;\0A\09st.global.b32 \09[%rd10], %rd7;\0A\09st.global.b32 \09[%rd10+4], %r14;\0A\09@%p1 st.global.cs.b32 \09[%rd10], %rd8;\0A\09st.global.b64 \09[%rd10], %rd7;\0A\09st.global.v2.b32 \09[%rd10], {%r1, %r2};\0A\09st.global.b8 \09[%rd10], %rs2;\0A\09@%p1 st.global.u8 \09[%rd10+1], %rs3;\0A\09st.global.b8 \09[%rd10+2], %r14;\0A\09st.global.b16 \09[%rd10+4], %r13;\0A\09st.global.u16 \09[%rd10+6], %rs2;\0A\09st.global.v2.b8 \09[%rd10], {%rs2, %rs3};\0A\09@%p1 bra \09$L__BB0_1;\0A$L__BB0_1:\0A\09ret;\0A}\0A">]
  gpu.binary @cubin [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\09abs.s64 \09%rd4, %rd3;\0A">]
}
