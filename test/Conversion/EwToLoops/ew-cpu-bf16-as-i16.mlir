// RUN: ewc-opt %s -ew-cpu-bf16-as-i16 -split-input-file | FileCheck %s --enable-var-scope

// Loads and stores of bf16 move i16; a bitcast that meets its inverse folds
// away, so the rounding's select (on i16) is stored as it is and the
// extension's shift reads the loaded bits: no bf16 value is left.

// CHECK-LABEL: llvm.func @round_trip(
// CHECK-SAME:    %[[IN:[^:]*]]: !llvm.ptr, %[[OUT:[^:]*]]: !llvm.ptr, %[[NAN:[^:]*]]: i1, %[[Q:[^:]*]]: i16)
// CHECK-NEXT:    %[[BITS:.*]] = llvm.load %[[IN]] {alignment = 2 : i64} : !llvm.ptr -> i16
// CHECK-NEXT:    %[[R:.*]] = llvm.select %[[NAN]], %[[Q]], %[[BITS]] : i1, i16
// CHECK-NEXT:    llvm.store %[[R]], %[[OUT]] {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK-NEXT:    llvm.return
// CHECK-NOT:     bf16
llvm.func @round_trip(%in: !llvm.ptr, %out: !llvm.ptr, %nan: i1, %q: i16) {
  %b = llvm.load %in {alignment = 2 : i64} : !llvm.ptr -> bf16
  %bits = llvm.bitcast %b : bf16 to i16
  %r = llvm.select %nan, %q, %bits : i1, i16
  %rb = llvm.bitcast %r : i16 to bf16
  llvm.store %rb, %out {alignment = 2 : i64} : bf16, !llvm.ptr
  llvm.return
}

// -----

// A bf16 that is only moved (a copy kernel) moves as i16 too; the
// attributes of the accesses stay, and vectors of bf16 become vectors of
// i16.

// CHECK-LABEL: llvm.func @copy(
// CHECK-SAME:    %[[IN:[^:]*]]: !llvm.ptr, %[[OUT:[^:]*]]: !llvm.ptr)
// CHECK-NEXT:    %[[V:.*]] = llvm.load volatile %[[IN]] {alignment = 2 : i64} : !llvm.ptr -> i16
// CHECK-NEXT:    llvm.store %[[V]], %[[OUT]] {alignment = 2 : i64, nontemporal} : i16, !llvm.ptr
// CHECK-NEXT:    %[[W:.*]] = llvm.load %[[IN]] {alignment = 64 : i64} : !llvm.ptr -> vector<32xi16>
// CHECK-NEXT:    llvm.store %[[W]], %[[OUT]] {alignment = 64 : i64, nontemporal} : vector<32xi16>, !llvm.ptr
// CHECK-NEXT:    llvm.return
llvm.func @copy(%in: !llvm.ptr, %out: !llvm.ptr) {
  %b = llvm.load volatile %in {alignment = 2 : i64} : !llvm.ptr -> bf16
  llvm.store %b, %out {alignment = 2 : i64, nontemporal} : bf16, !llvm.ptr
  %v = llvm.load %in {alignment = 64 : i64} : !llvm.ptr -> vector<32xbf16>
  llvm.store %v, %out {alignment = 64 : i64, nontemporal} : vector<32xbf16>, !llvm.ptr
  llvm.return
}

// -----

// Other types are left alone, f16 included (F16C converts it in vectors).

// CHECK-LABEL: llvm.func @others(
// CHECK-NEXT:    %[[H:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f16
// CHECK-NEXT:    llvm.store %[[H]], %{{.*}} : f16, !llvm.ptr
// CHECK-NEXT:    %[[F:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NEXT:    llvm.store %[[F]], %{{.*}} : f32, !llvm.ptr
llvm.func @others(%in: !llvm.ptr, %out: !llvm.ptr) {
  %h = llvm.load %in : !llvm.ptr -> f16
  llvm.store %h, %out : f16, !llvm.ptr
  %f = llvm.load %in : !llvm.ptr -> f32
  llvm.store %f, %out : f32, !llvm.ptr
  llvm.return
}

// -----

// A bf16 argument (a kernel's scalar parameter) becomes an i16: its bitcast
// to i16 is the argument itself, other users take a bitcast of it, and the
// function's type follows. A declaration is left alone.

// CHECK-LABEL: llvm.func @argument(
// CHECK-SAME:    %[[P:[^:]*]]: i16, %[[OUT:[^:]*]]: !llvm.ptr, %[[H:[^:]*]]: f16)
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %[[P]] : i16 to bf16
// CHECK-NEXT:    llvm.mlir.constant
// CHECK-NEXT:    %[[M:.*]] = llvm.and %[[P]], %{{.*}} : i16
// CHECK-NEXT:    %[[E:.*]] = llvm.fpext %[[B]] : bf16 to f32
// CHECK:         llvm.store %[[M]], %[[OUT]] : i16, !llvm.ptr
// CHECK-LABEL: llvm.func @declared(bf16)
llvm.func @argument(%p: bf16, %out: !llvm.ptr, %h: f16) {
  %bits = llvm.bitcast %p : bf16 to i16
  %mask = llvm.mlir.constant(32767 : i16) : i16
  %m = llvm.and %bits, %mask : i16
  %e = llvm.fpext %p : bf16 to f32
  llvm.store %m, %out : i16, !llvm.ptr
  llvm.store %e, %out : f32, !llvm.ptr
  llvm.return
}
llvm.func @declared(bf16)
