// RUN: ewc-opt %s --ew-expand-float8 | FileCheck %s
// RUN: ewc-opt %s --ew-expand-float8=hardware=true | FileCheck %s --check-prefix=HW

// f32 -> f8E4M3FN as integer code, torch's steps: the magnitude bits, NaN
// from 480 (1087 << 20) up, the subnormals by a float add of 2^14
// (141 << 23), the normals rebiased by (7 - 127) << 23 plus 2^19 - 1 plus
// the kept lsb, shifted by 20; the sign or-ed in last.
// CHECK-LABEL: func.func @to_e4m3
// CHECK-DAG:   %[[BITS:.+]] = arith.bitcast %{{.+}} : f32 to i32
// CHECK-DAG:   arith.constant -2147483648 : i32
// CHECK-DAG:   arith.constant 2147483647 : i32
// CHECK-DAG:   arith.constant 1139802112 : i32
// CHECK-DAG:   arith.constant 1182793728 : i32
// CHECK-DAG:   arith.addf
// CHECK-DAG:   arith.constant 20 : i32
// CHECK-DAG:   arith.constant -1006108673 : i32
// CHECK:       %[[BYTE:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK:       %[[F8:.+]] = arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
// CHECK:       return %[[F8]]
// CHECK-NOT:   arith.truncf
// The hardware form: cvt.rn.satfinite.e4m3x2.f32, then NaN above 464
// (0x43E80000), where torch does not saturate.
// HW-LABEL:    func.func @to_e4m3
// HW:          nvvm.convert.f32x2.to.f8x2 %{{.+}}, %{{.+}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// HW:          arith.cmpi ugt, %{{.+}}, %c1139277824_i32 : i32
// HW:          arith.bitcast %{{.+}} : i8 to f8E4M3FN
func.func @to_e4m3(%x: f32) -> f8E4M3FN {
  %y = arith.truncf %x : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// f32 -> f8E5M2: infinity (0x7C) from 65536 (143 << 23) up, NaN (0x7F)
// above 0x7F800000; subnormals by 2^7 (134 << 23); shift 21.
// CHECK-LABEL: func.func @to_e5m2
// CHECK-DAG:   arith.constant 1199570944 : i32
// CHECK-DAG:   arith.constant 2139095040 : i32
// CHECK-DAG:   arith.constant 124 : i32
// CHECK-DAG:   arith.constant 1124073472 : i32
// CHECK-DAG:   arith.constant 21 : i32
// CHECK:       arith.bitcast %{{.+}} : i8 to f8E5M2
// HW-LABEL:    func.func @to_e5m2
// HW:          nvvm.convert.f32x2.to.f8x2 {{.+}} : i16(f8E5M2)
// HW:          arith.cmpi uge, %{{.+}}, %c1198522368_i32 : i32
func.func @to_e5m2(%x: f32) -> f8E5M2 {
  %y = arith.truncf %x : f32 to f8E5M2
  return %y : f8E5M2
}

// f8E4M3FN -> f32: the magnitude at f32's mantissa top times 2^120 (exact),
// the sign or-ed in, NaN (0x7F) by a select.
// CHECK-LABEL: func.func @from_e4m3
// CHECK-DAG:   %[[QNAN:.+]] = arith.constant 2143289344 : i32
// CHECK-DAG:   %[[SCALE:.+]] = arith.constant 1.329228E+36 : f32
// CHECK-DAG:   %[[NAN:.+]] = arith.constant 127 : i32
// CHECK:       %[[B:.+]] = arith.bitcast %{{.+}} : f8E4M3FN to i8
// CHECK:       arith.extui %[[B]] : i8 to i32
// CHECK:       arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:       arith.ori %{{.+}}, %[[QNAN]] : i32
// CHECK:       arith.cmpi eq, %{{.+}}, %[[NAN]] : i32
// CHECK:       arith.select
// CHECK-NOT:   arith.extf
// HW-LABEL:    func.func @from_e4m3
// HW:          vector.from_elements %{{.+}}, %{{.+}} : vector<2xi8>
// HW:          nvvm.convert.f8x2.to.f16x2 %{{.+}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// HW:          arith.extf %{{.+}} : f16 to f32
func.func @from_e4m3(%x: f8E4M3FN) -> f32 {
  %y = arith.extf %x : f8E4M3FN to f32
  return %y : f32
}

// f8E5M2 -> f32: times 2^112; 0x7C is infinity, above it NaN.
// CHECK-LABEL: func.func @from_e5m2
// CHECK-DAG:   %[[INF:.+]] = arith.constant 2139095040 : i32
// CHECK-DAG:   %[[INFBITS:.+]] = arith.constant 124 : i32
// CHECK-DAG:   %[[SCALE:.+]] = arith.constant 5.19229686E+33 : f32
// CHECK:       arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:       arith.cmpi uge, %{{.+}}, %[[INFBITS]] : i32
// CHECK:       arith.cmpi eq, %{{.+}}, %[[INFBITS]] : i32
// CHECK:       arith.ori %{{.+}}, %[[INF]] : i32
func.func @from_e5m2(%x: f8E5M2) -> f32 {
  %y = arith.extf %x : f8E5M2 to f32
  return %y : f32
}

// f16 and bf16 into f8 (arith's canonicalization folds truncf(extf x) to
// one truncf): extended to f32 first, exactly. Out of f8 into f16, bf16
// and f64: through f32, exactly too.
// CHECK-LABEL: func.func @via_f32
// CHECK:       %[[W:.+]] = arith.extf %{{.+}} : f16 to f32
// CHECK:       arith.bitcast %[[W]] : f32 to i32
// CHECK:       arith.bitcast %{{.+}} : i8 to f8E5M2
// CHECK:       arith.extf %{{.+}} : bf16 to f32
// CHECK:       arith.bitcast %{{.+}} : i8 to f8E4M3FN
// CHECK:       arith.truncf %{{.+}} : f32 to f16
// CHECK:       arith.truncf %{{.+}} : f32 to bf16
// CHECK:       arith.extf %{{.+}} : f32 to f64
func.func @via_f32(%h: f16, %b: bf16, %a: f8E4M3FN) -> (f8E5M2, f8E4M3FN, f16, bf16, f64) {
  %0 = arith.truncf %h : f16 to f8E5M2
  %1 = arith.truncf %b : bf16 to f8E4M3FN
  %2 = arith.extf %a : f8E4M3FN to f16
  %3 = arith.extf %a : f8E4M3FN to bf16
  %4 = arith.extf %a : f8E4M3FN to f64
  return %0, %1, %2, %3, %4 : f8E5M2, f8E4M3FN, f16, bf16, f64
}

// Other conversions stay.
// CHECK-LABEL: func.func @others
// CHECK:       arith.truncf %{{.+}} : f32 to f16
// CHECK:       arith.extf %{{.+}} : bf16 to f32
func.func @others(%x: f32, %b: bf16) -> (f16, f32) {
  %h = arith.truncf %x : f32 to f16
  %f = arith.extf %b : bf16 to f32
  return %h, %f : f16, f32
}
