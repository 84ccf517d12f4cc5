// RUN: ewc-opt %s --ew-to-cpu | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s --ew-to-cpu | FileCheck %s --check-prefix=CHECK-NO-BF16-CONVERSION
// RUN: ewc-opt %s --ew-to-cpu | FileCheck %s --check-prefix=CHECK-LOWERED

// The CPU pipeline, exactly as ewc-run runs it: an LLVM-dialect function
// with the kernel ABI (each tensor its memref descriptor's fields: allocated
// and aligned pointer, offset, extents, strides) and a loop over the
// extent, nothing left of ew, scf, arith or memref.

// Math functions become LLVM intrinsics where LLVM has one (exp, log, tanh,
// fabs; sqrt is llvm.sqrt called by name) and libm calls otherwise (erf);
// the JIT resolves the libm symbols in the process. bf16 is converted to and
// from f32 with integer code: no fpext/fptrunc of bf16 is left for LLVM,
// which would make them __truncsfbf2 calls on hosts without AVX512-BF16.
// And bf16 is loaded and stored as i16 (ew-cpu-bf16-as-i16), so that no
// bfloat value is left for LLVM's vectorizer: the rounding's NaN select is
// stored as the i16 it is.
// CHECK-DAG:   llvm.func @erff(f32) -> f32
// CHECK-DAG:   llvm.func @erf(f64) -> f64
// CHECK-LABEL: llvm.func @ew$math(
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK:         %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK-NEXT:    %[[WIDE:.*]] = llvm.zext %[[B]] : i16 to i32
// CHECK:         %[[X:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[EXP:.*]] = llvm.intr.exp(%[[X]]) : (f32) -> f32
// CHECK-NEXT:    %[[LOG:.*]] = llvm.intr.log(%[[EXP]]) : (f32) -> f32
// CHECK-NEXT:    %[[TANH:.*]] = llvm.intr.tanh(%[[LOG]]) : (f32) -> f32
// CHECK-NEXT:    %[[ERF:.*]] = llvm.call @erff(%[[TANH]]) : (f32) -> f32
// CHECK-NEXT:    %[[SQRT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[ERF]]) : (f32) -> f32
// CHECK-NEXT:    %[[ABS:.*]] = llvm.intr.fabs(%[[SQRT]]) : (f32) -> f32
// CHECK:         %[[R:.*]] = llvm.select %{{.*}} : i1, i16
// CHECK-NEXT:    %[[ERF64:.*]] = llvm.call @erf(%[[D]]) : (f64) -> f64
// CHECK:         llvm.store %[[R]], %{{.*}} : i16, !llvm.ptr
// CHECK:         llvm.store %[[ERF64]], %{{.*}} : f64, !llvm.ptr
// CHECK-NO-BF16-CONVERSION-NOT: {{llvm\.(fpext|fptrunc|bitcast|load|store|select).*bf16}}
// Nothing is left of the dialects before LLVM's, anywhere in the output.
// CHECK-LOWERED-NOT: {{ew\.|scf\.|arith\.|memref\.|unrealized}}
ew.kernel @math(%x: !ew.tensor<[n], bf16>, %d: !ew.tensor<[n], f64>) -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], f64>) {
  %w = ew.cast %x : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %0 = ew.exp %w : !ew.tensor<[n], f32>
  %1 = ew.log %0 : !ew.tensor<[n], f32>
  %2 = ew.tanh %1 : !ew.tensor<[n], f32>
  %3 = ew.erf %2 : !ew.tensor<[n], f32>
  %4 = ew.sqrt %3 : !ew.tensor<[n], f32>
  %5 = ew.abs %4 : !ew.tensor<[n], f32>
  %6 = ew.cast %5 : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %7 = ew.erf %d : !ew.tensor<[n], f64>
  ew.return %6, %7 : !ew.tensor<[n], bf16>, !ew.tensor<[n], f64>
}

// CHECK-LABEL: llvm.func @ew$leaky_relu(
// CHECK-SAME:    %[[XA:[^:]*]]: !llvm.ptr, %[[X:[^:]*]]: !llvm.ptr, %[[XO:[^:]*]]: i64, %[[N:[^:]*]]: i64, %[[XS:[^:]*]]: i64,
// CHECK-SAME:    %[[S:[^:]*]]: f32,
// CHECK-SAME:    %[[OA:[^:]*]]: !llvm.ptr, %[[OUT:[^:]*]]: !llvm.ptr, %[[OO:[^:]*]]: i64, %[[ON:[^:]*]]: i64, %[[OS:[^:]*]]: i64)
// CHECK:         %[[D1:.*]] = llvm.insertvalue %[[X]], %{{.*}}[1]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[XO]], %[[D1]][2]
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[N]], %[[D2]][3, 0]
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[XS]], %[[D3]][4, 0]
// CHECK:         %[[DIM:.*]] = llvm.extractvalue %[[D4]][3, 0]
// CHECK:         llvm.icmp "slt" %{{.*}}, %[[DIM]] : i64
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         %[[K:.*]] = llvm.fcmp "oge" %[[V]], %{{.*}} : f32
// CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[S]], %[[V]] : f32
// CHECK-NEXT:    %[[R:.*]] = llvm.select %[[K]], %[[V]], %[[M]] : i1, f32
// CHECK:         llvm.store %[[R]], %{{.*}} : f32, !llvm.ptr
// CHECK:         llvm.return
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}
