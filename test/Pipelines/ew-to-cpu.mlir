// RUN: ewc-opt %s --ew-to-cpu | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s --ew-to-cpu | FileCheck %s --check-prefix=CHECK-NO-BF16-CONVERSION

// The CPU pipeline, exactly as ewc-run runs it: an LLVM-dialect function
// with the plain ABI and a loop over n, nothing left of ew, scf or arith.

// Math functions become LLVM intrinsics where LLVM has one (exp, log, tanh,
// fabs; sqrt is llvm.sqrt called by name) and libm calls otherwise (erf);
// the JIT resolves the libm symbols in the process. bf16 is converted to and
// from f32 with integer code: no fpext/fptrunc of bf16 is left for LLVM,
// which would make them __truncsfbf2 calls on hosts without AVX512-BF16.
// CHECK-DAG:   llvm.func @erff(f32) -> f32
// CHECK-DAG:   llvm.func @erf(f64) -> f64
// CHECK-LABEL: llvm.func @ew$math(
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK:         %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK-NEXT:    %[[BITS:.*]] = llvm.bitcast %[[B]] : bf16 to i16
// CHECK:         %[[X:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[EXP:.*]] = llvm.intr.exp(%[[X]]) : (f32) -> f32
// CHECK-NEXT:    %[[LOG:.*]] = llvm.intr.log(%[[EXP]]) : (f32) -> f32
// CHECK-NEXT:    %[[TANH:.*]] = llvm.intr.tanh(%[[LOG]]) : (f32) -> f32
// CHECK-NEXT:    %[[ERF:.*]] = llvm.call @erff(%[[TANH]]) : (f32) -> f32
// CHECK-NEXT:    %[[SQRT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[ERF]]) : (f32) -> f32
// CHECK-NEXT:    %[[ABS:.*]] = llvm.intr.fabs(%[[SQRT]]) : (f32) -> f32
// CHECK:         %[[R:.*]] = llvm.bitcast %{{.*}} : i16 to bf16
// CHECK-NEXT:    %[[ERF64:.*]] = llvm.call @erf(%[[D]]) : (f64) -> f64
// CHECK:         llvm.store %[[R]], %{{.*}} : bf16, !llvm.ptr
// CHECK:         llvm.store %[[ERF64]], %{{.*}} : f64, !llvm.ptr
// CHECK-NO-BF16-CONVERSION-NOT: {{llvm\.(fpext|fptrunc).*bf16}}
ew.kernel @math(%x: tensor<?xbf16>, %d: tensor<?xf64>) -> (tensor<?xbf16>, tensor<?xf64>) {
  %w = ew.cast %x : tensor<?xbf16> to tensor<?xf32>
  %0 = ew.exp %w : tensor<?xf32>
  %1 = ew.log %0 : tensor<?xf32>
  %2 = ew.tanh %1 : tensor<?xf32>
  %3 = ew.erf %2 : tensor<?xf32>
  %4 = ew.sqrt %3 : tensor<?xf32>
  %5 = ew.abs %4 : tensor<?xf32>
  %6 = ew.cast %5 : tensor<?xf32> to tensor<?xbf16>
  %7 = ew.erf %d : tensor<?xf64>
  ew.return %6, %7 : tensor<?xbf16>, tensor<?xf64>
}

// CHECK-LABEL: llvm.func @ew$leaky_relu(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr, %[[S:.*]]: f32, %[[OUT:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:         llvm.icmp "slt" %{{.*}}, %[[N]] : i64
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         %[[K:.*]] = llvm.fcmp "oge" %[[V]], %{{.*}} : f32
// CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[S]], %[[V]] : f32
// CHECK-NEXT:    %[[R:.*]] = llvm.select %[[K]], %[[V]], %[[M]] : i1, f32
// CHECK:         llvm.store %[[R]], %{{.*}} : f32, !llvm.ptr
// CHECK:         llvm.return
// CHECK-NOT:   {{ew\.|scf\.|arith\.|unrealized}}
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}
