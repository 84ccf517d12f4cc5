// RUN: ewc-opt %s -convert-ew-to-gpu=vectors-per-thread=4 -split-input-file | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s -convert-ew-to-gpu -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: ewc-opt %s -convert-ew-to-gpu=vectors-per-thread=1 -split-input-file | FileCheck %s --check-prefix=ONE

// By default each kernel's element code chooses the vectors of the widest
// type per thread (kVectorsPerThreadByCost in VectorizeElementLoop.h): 1
// where it has no long-latency operation: f32 4 elements, f32 in and bool out
// 16 (one 16-byte bool vector; an atom is 16 bytes of the widest output),
// f32 in and f32 and bool out 4 (a 16-byte f32 vector and a 4-byte bool
// one), bf16 8, f64 2.
// DEFAULT: gpu.func @ew$leaky_relu({{.*}} kernel attributes {ew.elements_per_thread = 4 : i64}
// DEFAULT: gpu.func @ew$mask({{.*}} kernel attributes {ew.elements_per_thread = 16 : i64}
// DEFAULT: gpu.func @ew$leaky_mask({{.*}} kernel attributes {ew.elements_per_thread = 4 : i64}
// DEFAULT: gpu.func @ew$neg_bf16({{.*}} kernel attributes {ew.elements_per_thread = 8 : i64}
// DEFAULT: gpu.func @ew$neg_f64({{.*}} kernel attributes {ew.elements_per_thread = 2 : i64}
// 2 for one division, square root or math function per element; 4 for two
// or more (sigmoid is an exp and a division); at least 2 for a kernel that
// reads no tensor.
// DEFAULT: gpu.func @ew$hardsigmoid({{.*}} kernel attributes {ew.elements_per_thread = 8 : i64}
// DEFAULT: gpu.func @ew$sqrt({{.*}} kernel attributes {ew.elements_per_thread = 8 : i64}
// sqrt is a call of llvm.sqrt by name, which has no memory effects: its loop
// is vectorized like any other.
// DEFAULT-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// DEFAULT: gpu.func @ew$sigmoid({{.*}} kernel attributes {ew.elements_per_thread = 16 : i64}
// DEFAULT: gpu.func @ew$fill({{.*}} kernel attributes {ew.elements_per_thread = 8 : i64}
// An explicit count is taken as given.
// ONE: gpu.func @ew$hardsigmoid({{.*}} kernel attributes {ew.elements_per_thread = 4 : i64}
// ONE: gpu.func @ew$sigmoid({{.*}} kernel attributes {ew.elements_per_thread = 4 : i64}
// ONE: gpu.func @ew$fill({{.*}} kernel attributes {ew.elements_per_thread = 4 : i64}

// The vectorized element loop (the default; convert-ew-to-gpu.mlir shows the
// scalar form with vectorize=false): a scalar prologue up to the peel that
// aligns every tensor to 16 bytes, a main loop over whole chunks with
// 16-byte vector loads and stores and no masks, and the scalar loop again as
// the tail, from the end of the last chunk to n.

// With 4 vectors per thread: f32 in and out: E = 4 vectors of 4 = 16
// elements per thread.
// CHECK-LABEL: gpu.func @ew$leaky_relu(
// CHECK-SAME:    %[[X:[^:]*]]: !llvm.ptr<1>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: !llvm.ptr<1>, %[[N:[^:]*]]: i64) kernel attributes {ew.elements_per_thread = 16 : i64}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : i64
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i64
// CHECK:         %[[START:.*]] = arith.addi
// CHECK:         %[[STEP:.*]] = arith.muli
// The peel: elements of x to its next 16-byte boundary, at most n.
// CHECK:         %[[XADDR:.*]] = llvm.ptrtoint %[[X]] : !llvm.ptr<1> to i64
// CHECK:         %[[MIS:.*]] = arith.andi %[[XADDR]], %[[C15]] : i64
// CHECK:         %[[GAP:.*]] = arith.subi %[[C16]], %[[MIS]] : i64
// CHECK:         %[[GAP15:.*]] = arith.andi %[[GAP]], %[[C15]] : i64
// CHECK:         %[[PEELX:.*]] = arith.divui %[[GAP15]], %[[C4]] : i64
// CHECK:         %[[PEELN:.*]] = arith.minsi %[[PEELX]], %[[N]] : i64
// Is the output aligned after the same peel too?
// CHECK:         llvm.ptrtoint %[[OUT]]
// CHECK:         %[[OK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:         %[[PEEL:.*]] = arith.select %[[OK]], %[[PEELN]], %[[C0]] : i64
// CHECK:         %[[CHUNK:.*]] = arith.muli %{{.*}}, %[[C16]] : i64
// CHECK:         %[[REST:.*]] = arith.subi %[[N]], %[[PEEL]] : i64
// CHECK:         %[[WHOLE:.*]] = arith.divui %[[REST]], %[[CHUNK]] : i64
// CHECK:         %[[CHUNKS:.*]] = arith.select %[[OK]], %[[WHOLE]], %[[C0]] : i64
// CHECK:         %[[DONE:.*]] = arith.muli %[[CHUNKS]], %[[CHUNK]] : i64
// CHECK:         %[[TAILSTART:.*]] = arith.addi %[[PEEL]], %[[DONE]] : i64
// Prologue: the scalar loop up to the peel.
// CHECK:         scf.for %[[I:.*]] = %[[START]] to %[[PEEL]] step %[[STEP]] : i64 {
// CHECK-NEXT:      llvm.getelementptr inbounds %[[X]][%[[I]]]
// CHECK-NEXT:      llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:           llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// Main loop: one chunk per block and iteration; every load before the first
// use, one extract per element, one select per element, four vector stores.
// CHECK:         %[[BID:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK:         %[[GDIM:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK:         scf.for %[[C:.*]] = %[[BID]] to %[[CHUNKS]] step %[[GDIM]] : i64 {
// CHECK-COUNT-4:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT:       llvm.load
// CHECK-COUNT-16:  arith.select
// CHECK-NOT:       llvm.load
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NEXT:    }
// Tail: the original loop, from the end of the whole chunks to n.
// CHECK:         %[[FIRST:.*]] = arith.addi %[[TAILSTART]], %[[START]] : i64
// CHECK:         scf.for %[[J:.*]] = %[[FIRST]] to %[[N]] step %[[STEP]] : i64 {
// CHECK-NEXT:      llvm.getelementptr inbounds %[[X]][%[[J]]]
// CHECK-NEXT:      llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:           llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return
ew.kernel @leaky_relu(%x: tensor<?xf32>, %slope: f32 {ew.default = 0.01 : f32}) -> tensor<?xf32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %neg = ew.mul %slope, %x : f32, tensor<?xf32>
  %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
  ew.return %r : tensor<?xf32>
}

// -----

// Mixed element sizes: f32 in, bool (one byte) out. An atom is one 16-byte
// vector of the widest output (16 bools), and the same 16 elements of the
// input as four contiguous f32 vectors: stores contiguous across the warp,
// inputs read whole from L1. The peel is counted in bools (1 byte each).
// CHECK-LABEL: gpu.func @ew$mask(
// CHECK-SAME:    %[[X:[^:]*]]: !llvm.ptr<1>, %[[OUT:[^:]*]]: !llvm.ptr<1>, %[[N:[^:]*]]: i64) kernel attributes {ew.elements_per_thread = 16 : i64}
// CHECK:         %[[OADDR:.*]] = llvm.ptrtoint %[[OUT]] : !llvm.ptr<1> to i64
// CHECK:         arith.andi %[[OADDR]]
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK-COUNT-4:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-16:  arith.extui %{{.*}} : i1 to i8
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<16xi8>, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK:         scf.for
ew.kernel @mask(%x: tensor<?xf32>) -> tensor<?xi1> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  ew.return %keep : tensor<?xi1>
}

// -----

// f32 and bool out: the widest output is f32, so an atom is one 16-byte f32
// vector and the four bools beside it in a 4-byte vector; with 4 vectors per
// thread, 4 atoms.
// CHECK-LABEL: gpu.func @ew$leaky_mask(
// CHECK-SAME:    kernel attributes {ew.elements_per_thread = 16 : i64}
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK-COUNT-4:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<4xi8>, !llvm.ptr<1>
// CHECK-NEXT:    }
ew.kernel @leaky_mask(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
  %r = ew.where %keep, %x, %zero : tensor<?xi1>, tensor<?xf32>, f32
  ew.return %r, %keep : tensor<?xf32>, tensor<?xi1>
}

// -----

// bf16: 8 per vector, 4 vectors: 32 elements per thread. f64: 2 per vector,
// 4 vectors: 8 elements per thread.
// CHECK-LABEL: gpu.func @ew$neg_bf16(
// CHECK-SAME:    kernel attributes {ew.elements_per_thread = 32 : i64}
// CHECK-COUNT-4:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
// CHECK-LABEL: gpu.func @ew$neg_f64(
// CHECK-SAME:    kernel attributes {ew.elements_per_thread = 8 : i64}
// CHECK-COUNT-4:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<2xf64>
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<2xf64>, !llvm.ptr<1>
ew.kernel @neg_bf16(%x: tensor<?xbf16>) -> tensor<?xbf16> {
  %r = ew.neg %x : tensor<?xbf16>
  ew.return %r : tensor<?xbf16>
}
ew.kernel @neg_f64(%x: tensor<?xf64>) -> tensor<?xf64> {
  %r = ew.neg %x : tensor<?xf64>
  ew.return %r : tensor<?xf64>
}

// -----

ew.kernel @hardsigmoid(%x: tensor<?xf32>) -> tensor<?xf32> {
  %three = ew.constant 3.0 : f32
  %zero = ew.constant 0.0 : f32
  %six = ew.constant 6.0 : f32
  %0 = ew.add %x, %three : tensor<?xf32>, f32
  %1 = ew.max %0, %zero : tensor<?xf32>, f32
  %2 = ew.min %1, %six : tensor<?xf32>, f32
  %3 = ew.div %2, %six : tensor<?xf32>, f32
  ew.return %3 : tensor<?xf32>
}
ew.kernel @sqrt(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = ew.sqrt %x : tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}
ew.kernel @sigmoid(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = ew.sigmoid %x : tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}
ew.kernel @fill(%v: f32) -> tensor<?xf32> {
  ew.return %v : f32
}
