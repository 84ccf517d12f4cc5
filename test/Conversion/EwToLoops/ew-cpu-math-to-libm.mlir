// RUN: ewc-opt %s -ew-cpu-math-to-libm | FileCheck %s --enable-var-scope

// expm1 and log1p become libm calls (a vector's element by element), which
// convert-math-to-llvm would expand to exp(x) - 1 and log(1 + x); every other
// math op is left for convert-math-to-llvm.
// CHECK-DAG:   func.func private @expm1f(f32) -> f32
// CHECK-DAG:   func.func private @log1p(f64) -> f64
// CHECK-DAG:   func.func private @log1pf(f32) -> f32
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:    %[[X:.*]]: f32, %[[D:.*]]: f64, %[[V:.*]]: vector<2xf32>)
// CHECK-DAG:     %[[E:.*]] = call @expm1f(%[[X]]) : (f32) -> f32
// CHECK-DAG:     %[[L:.*]] = call @log1p(%[[D]]) : (f64) -> f64
// CHECK-DAG:     %[[V0:.*]] = vector.extract %[[V]][0] : f32 from vector<2xf32>
// CHECK-DAG:     call @log1pf(%[[V0]]) : (f32) -> f32
// CHECK-DAG:     %[[V1:.*]] = vector.extract %[[V]][1] : f32 from vector<2xf32>
// CHECK-DAG:     call @log1pf(%[[V1]]) : (f32) -> f32
// CHECK-DAG:     math.floor %[[E]] : f32
// CHECK-DAG:     math.sin %[[X]] : f32
// CHECK-NOT:     math.expm1
// CHECK-NOT:     math.log1p
// CHECK:         return
func.func @kernel(%x: f32, %d: f64, %v: vector<2xf32>) -> (f32, f64, vector<2xf32>, f32) {
  %0 = math.expm1 %x : f32
  %1 = math.log1p %d : f64
  %2 = math.log1p %v : vector<2xf32>
  %3 = math.floor %0 : f32
  %4 = math.sin %x : f32
  %5 = arith.addf %3, %4 : f32
  return %3, %1, %2, %5 : f32, f64, vector<2xf32>, f32
}
