// RUN: ewc-opt %s -convert-ew-to-gpu -ew-vectorize-gpu-loops -split-input-file -verify-diagnostics | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s -convert-ew-to-gpu -ew-vectorize-gpu-loops=vectors-per-thread=4 -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FOUR
// The 2-D nests' structure with one atom per thread (their default is more:
// the cost checks below).
// RUN: ewc-opt %s -convert-ew-to-gpu -ew-vectorize-gpu-loops=vectors-per-thread=1 -split-input-file 2>/dev/null | FileCheck %s --check-prefix=ONE --enable-var-scope
// A second run leaves the realized loops (and the tails) alone.
// RUN: ewc-opt %s -convert-ew-to-gpu -ew-vectorize-gpu-loops -ew-vectorize-gpu-loops -split-input-file 2>/dev/null | FileCheck %s --check-prefix=TWICE

// The layouts of convert-ew-to-gpu's scalar loops realized
// (convert-ew-to-gpu.mlir shows the input): checks made once per thread on
// the vectorized tensors' addresses, then a version for one aligned row (a
// scalar prologue up to the peel, then 16-byte vector loads and stores with
// no masks) or for aligned rows (N-D only), and the original loop as the
// tail, which does every point where no check holds. The variant for other
// addresses (ew.unaligned, at the end) has the coalesced unrolled scalar
// loop instead, and no checks.

// f32 in and out, no long-latency operation: one vector of 4 per thread
// (kVectorsPerThreadByCost), so an atom of 4 and E = 4.
// CHECK-LABEL: gpu.func @ew$leaky_relu(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32, strided<[1], offset: ?>, 1>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32, strided<[1], offset: ?>, 1>)
// CHECK-SAME:    ew.launch = #ew.launch<schedule = "elementwise", block_size = 128, elements_per_thread = 4, shared_memory = 0>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK:         %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[BDIM:.*]] = gpu.block_dim x
// CHECK-NEXT:    %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[GDIM:.*]] = gpu.grid_dim x
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[BID]], %[[BDIM]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.addi %[[OFF]], %[[TID]] : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.muli %[[GDIM]], %[[BDIM]] : index
// CHECK-NEXT:    %[[CHUNK:.*]] = arith.muli %[[BDIM]], %[[C4]] : index
// CHECK-NEXT:    %[[TOFF:.*]] = arith.muli %[[TID]], %[[C4]] : index
// The address of element 0 of each tensor: the aligned pointer plus the
// offset in bytes.
// CHECK-NEXT:    %{{.*}}, %[[XOFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[X]]
// CHECK-NEXT:    %[[XPTR:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK-NEXT:    %[[XOFFB:.*]] = arith.muli %[[XOFF]], %[[C4]] : index
// CHECK-NEXT:    %[[XADDR:.*]] = arith.addi %[[XPTR]], %[[XOFFB]] : index
// CHECK-NEXT:    %{{.*}}, %[[OOFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[OUT]]
// CHECK-NEXT:    %[[OPTR:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK-NEXT:    %[[OOFFB:.*]] = arith.muli %[[OOFF]], %[[C4]] : index
// CHECK-NEXT:    %[[OADDR:.*]] = arith.addi %[[OPTR]], %[[OOFFB]] : index
// The peel: elements of x up to its next 16-byte boundary; out aligned
// there too?
// CHECK-NEXT:    %[[MIS:.*]] = arith.andi %[[XADDR]], %[[C15]] : index
// CHECK-NEXT:    %[[GAP:.*]] = arith.subi %[[C16]], %[[MIS]] : index
// CHECK-NEXT:    %[[GAP15:.*]] = arith.andi %[[GAP]], %[[C15]] : index
// CHECK-NEXT:    %[[PEEL:.*]] = arith.divui %[[GAP15]], %[[C4]] : index
// CHECK-NEXT:    %[[PEELB:.*]] = arith.muli %[[PEEL]], %[[C4]] : index
// CHECK-NEXT:    %[[XEND:.*]] = arith.addi %[[XADDR]], %[[PEELB]] : index
// CHECK-NEXT:    %[[XLOW:.*]] = arith.andi %[[XEND]], %[[C15]] : index
// CHECK-NEXT:    %[[XOK:.*]] = arith.cmpi eq, %[[XLOW]], %[[C0]] : index
// CHECK-NEXT:    %[[OEND:.*]] = arith.addi %[[OADDR]], %[[PEELB]] : index
// CHECK-NEXT:    %[[OLOW:.*]] = arith.andi %[[OEND]], %[[C15]] : index
// CHECK-NEXT:    %[[OOK:.*]] = arith.cmpi eq, %[[OLOW]], %[[C0]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.andi %[[XOK]], %[[OOK]] : i1
// CHECK-NEXT:    %[[PEELN:.*]] = arith.minui %[[PEEL]], %[[N]] : index
// CHECK-NEXT:    %[[TAIL:.*]] = scf.if %[[OK]] -> (index) {
// Prologue: the original loop up to the peel, without a layout.
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[START]] to %[[PEELN]] step %[[STEP]] {
// CHECK-NEXT:        memref.load %[[X]][%[[I]]]
// CHECK:             memref.store %{{.*}}, %[[OUT]][%[[I]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[REST:.*]] = arith.subi %[[N]], %[[PEELN]] : index
// CHECK-NEXT:      %[[CHUNKS:.*]] = arith.divui %[[REST]], %[[CHUNK]] : index
// The vector loop: chunk c, thread t's atom at peel + c x chunk + t x 4.
// CHECK-NEXT:      scf.for %[[C:.*]] = %[[BID]] to %[[CHUNKS]] step %[[GDIM]] {
// CHECK-NEXT:        %[[CBASE:.*]] = arith.muli %[[C]], %[[CHUNK]] : index
// CHECK-NEXT:        %[[PBASE:.*]] = arith.addi %[[PEELN]], %[[CBASE]] : index
// CHECK-NEXT:        %[[A:.*]] = arith.addi %[[PBASE]], %[[TOFF]] : index
// CHECK-NEXT:        %[[V:.*]] = vector.load %[[X]][%[[A]]] {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>, 1>, vector<4xf32>
// CHECK-NEXT:        %[[V0:.*]] = vector.extract %[[V]][0] : f32 from vector<4xf32>
// CHECK-NEXT:        %[[V1:.*]] = vector.extract %[[V]][1] : f32 from vector<4xf32>
// CHECK-NEXT:        %[[V2:.*]] = vector.extract %[[V]][2] : f32 from vector<4xf32>
// CHECK-NEXT:        %[[V3:.*]] = vector.extract %[[V]][3] : f32 from vector<4xf32>
// CHECK-NEXT:        arith.cmpf oge, %[[V0]]
// CHECK-NEXT:        arith.mulf %[[S]], %[[V0]]
// CHECK-NEXT:        %[[R0:.*]] = arith.select
// CHECK-NEXT:        arith.cmpf oge, %[[V1]]
// CHECK-NEXT:        arith.mulf %[[S]], %[[V1]]
// CHECK-NEXT:        %[[R1:.*]] = arith.select
// CHECK-NEXT:        arith.cmpf oge, %[[V2]]
// CHECK-NEXT:        arith.mulf %[[S]], %[[V2]]
// CHECK-NEXT:        %[[R2:.*]] = arith.select
// CHECK-NEXT:        arith.cmpf oge, %[[V3]]
// CHECK-NEXT:        arith.mulf %[[S]], %[[V3]]
// CHECK-NEXT:        %[[R3:.*]] = arith.select
// CHECK-NEXT:        %[[R:.*]] = vector.from_elements %[[R0]], %[[R1]], %[[R2]], %[[R3]] : vector<4xf32>
// CHECK-NEXT:        vector.store %[[R]], %[[OUT]][%[[A]]] {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>, 1>, vector<4xf32>
// CHECK-NEXT:      } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
// CHECK-NEXT:      %[[DONE:.*]] = arith.muli %[[CHUNKS]], %[[CHUNK]] : index
// CHECK-NEXT:      %[[END:.*]] = arith.addi %[[PEELN]], %[[DONE]] : index
// CHECK-NEXT:      scf.yield %[[END]] : index
// CHECK-NEXT:    } else {
// No peel aligns both: the tail does every point.
// CHECK-NEXT:      scf.yield %[[C0]] : index
// CHECK-NEXT:    }
// The tail: the original loop from the end of the whole chunks, without a
// layout.
// CHECK-NEXT:    %[[FIRST:.*]] = arith.addi %[[START]], %[[TAIL]] : index
// CHECK-NEXT:    scf.for %[[J:.*]] = %[[FIRST]] to %[[N]] step %[[STEP]] {
// CHECK-NEXT:      memref.load %[[X]][%[[J]]]
// CHECK:           memref.store %{{.*}}, %[[OUT]][%[[J]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return

// With 4 vectors per thread: 4 atoms of 4, 16 points per thread, the atoms
// blockDim x 4 points apart.
// FOUR-LABEL: gpu.func @ew$leaky_relu(
// FOUR-SAME:    elements_per_thread = 16
// FOUR:         %[[BDIM:.*]] = gpu.block_dim x
// FOUR-DAG:     %[[ATOM1:.*]] = arith.muli %[[BDIM]], %c4 : index
// FOUR-DAG:     %[[ATOM2:.*]] = arith.muli %[[BDIM]], %c8 : index
// FOUR-DAG:     %[[ATOM3:.*]] = arith.muli %[[BDIM]], %c12 : index
// FOUR:         scf.for
// FOUR:         scf.for
// FOUR:           arith.addi
// FOUR-NEXT:      %[[A0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// FOUR-NEXT:      %[[A1:.*]] = arith.addi %[[A0]], %[[ATOM1]] : index
// FOUR-NEXT:      %[[A2:.*]] = arith.addi %[[A0]], %[[ATOM2]] : index
// FOUR-NEXT:      %[[A3:.*]] = arith.addi %[[A0]], %[[ATOM3]] : index
// FOUR-NEXT:      vector.load %{{.*}}[%[[A0]]] {alignment = 16 : i64} {{.*}} vector<4xf32>
// FOUR-COUNT-4:   vector.extract
// FOUR-NEXT:      vector.load %{{.*}}[%[[A1]]] {alignment = 16 : i64} {{.*}} vector<4xf32>
// FOUR-COUNT-4:   vector.extract
// FOUR-NEXT:      vector.load %{{.*}}[%[[A2]]]
// FOUR-COUNT-4:   vector.extract
// FOUR-NEXT:      vector.load %{{.*}}[%[[A3]]]
// FOUR-COUNT-4:   vector.extract
// FOUR-COUNT-16:  arith.select
// FOUR:           vector.store %{{.*}}, %{{.*}}[%[[A0]]]
// FOUR:           vector.store %{{.*}}, %{{.*}}[%[[A1]]]
// FOUR:           vector.store %{{.*}}, %{{.*}}[%[[A2]]]
// FOUR:           vector.store %{{.*}}, %{{.*}}[%[[A3]]]
// FOUR-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 4>}
// FOUR-NOT:     ew.blocked
// FOUR:         gpu.return

// TWICE-LABEL:   gpu.func @ew$leaky_relu(
// TWICE-SAME:      elements_per_thread = 4
// TWICE-COUNT-1:   vector.load
// TWICE-NOT:       vector.load
// TWICE:           gpu.return
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// -----

// f32 in, bool (one byte) out: an atom is 16 bytes of the widest output, 16
// bools, and the same 16 points of the input as four contiguous f32 vectors.
// The peel is counted in bools, the tensor with the most lanes.
// CHECK-LABEL: gpu.func @ew$mask(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32, {{.*}}>, %[[OUT:[^:]*]]: memref<?xi8, {{.*}}>)
// CHECK-SAME:    elements_per_thread = 16
// CHECK:         %{{.*}}, %[[OOFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[OUT]]
// CHECK-NEXT:    %[[OPTR:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK-NEXT:    %[[OADDR:.*]] = arith.addi %[[OPTR]], %[[OOFF]] : index
// CHECK-NEXT:    %[[MIS:.*]] = arith.andi %[[OADDR]], %{{.*}} : index
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           arith.addi
// CHECK-NEXT:      %[[A:.*]] = arith.addi
// CHECK-NEXT:      vector.load %[[X]][%[[A]]] {alignment = 16 : i64} {{.*}} vector<4xf32>
// CHECK-COUNT-4:   vector.extract
// CHECK-NEXT:      %[[A4:.*]] = arith.addi %[[A]], %c4 : index
// CHECK-NEXT:      vector.load %[[X]][%[[A4]]] {alignment = 16 : i64} {{.*}} vector<4xf32>
// CHECK-COUNT-4:   vector.extract
// CHECK-NEXT:      %[[A8:.*]] = arith.addi %[[A]], %c8 : index
// CHECK-NEXT:      vector.load %[[X]][%[[A8]]] {alignment = 16 : i64} {{.*}} vector<4xf32>
// CHECK-COUNT-4:   vector.extract
// CHECK-NEXT:      %[[A12:.*]] = arith.addi %[[A]], %c12 : index
// CHECK-NEXT:      vector.load %[[X]][%[[A12]]] {alignment = 16 : i64} {{.*}} vector<4xf32>
// CHECK-COUNT-16:  arith.extui %{{.*}} : i1 to i8
// CHECK-NEXT:      %[[B:.*]] = vector.from_elements {{.*}} : vector<16xi8>
// CHECK-NEXT:      vector.store %[[B]], %[[OUT]][%[[A]]] {alignment = 16 : i64} {{.*}} vector<16xi8>
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 16, atoms = 1>}
ew.kernel @mask(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], i1> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  ew.return %keep : !ew.tensor<[n], i1>
}

// -----

// f32 and bool out: the widest output is f32, so an atom is 4 points: one
// 16-byte f32 vector and the four bools beside it in a 4-byte vector, which
// needs only 4-byte alignment.
// CHECK-LABEL: gpu.func @ew$leaky_mask(
// CHECK-SAME:    elements_per_thread = 4
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} {{.*}} vector<4xf32>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} {{.*}} vector<4xf32>
// CHECK:           vector.store %{{.*}} {alignment = 4 : i64} {{.*}} vector<4xi8>
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
ew.kernel @leaky_mask(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i1>) {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %r = ew.where %keep, %x, %zero : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, f32
  ew.return %r, %keep : !ew.tensor<[n], f32>, !ew.tensor<[n], i1>
}

// -----

// 16 bytes of each element type: 8 bf16 or f16, 2 f64; with 4 vectors per
// thread 32 and 8 points.
// CHECK-LABEL: gpu.func @ew$neg_bf16(
// CHECK-SAME:    elements_per_thread = 8
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} {{.*}} vector<8xbf16>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} {{.*}} vector<8xbf16>
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 8, atoms = 1>}
// CHECK-LABEL: gpu.func @ew$neg_f16(
// CHECK-SAME:    elements_per_thread = 8
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} {{.*}} vector<8xf16>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} {{.*}} vector<8xf16>
// CHECK-LABEL: gpu.func @ew$neg_f64(
// CHECK-SAME:    elements_per_thread = 2
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} {{.*}} vector<2xf64>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} {{.*}} vector<2xf64>
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 2, atoms = 1>}
// FOUR-LABEL: gpu.func @ew$neg_bf16(
// FOUR-SAME:    elements_per_thread = 32
// FOUR:         } {ew.layout = #ew.blocked<threads = 128, atom = 8, atoms = 4>}
// FOUR-LABEL: gpu.func @ew$neg_f64(
// FOUR-SAME:    elements_per_thread = 8
// FOUR:         } {ew.layout = #ew.blocked<threads = 128, atom = 2, atoms = 4>}
ew.kernel @neg_bf16(%x: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], bf16> {
  %r = ew.neg %x : !ew.tensor<[n], bf16>
  ew.return %r : !ew.tensor<[n], bf16>
}
ew.kernel @neg_f16(%x: !ew.tensor<[n], f16>) -> !ew.tensor<[n], f16> {
  %r = ew.neg %x : !ew.tensor<[n], f16>
  ew.return %r : !ew.tensor<[n], f16>
}
ew.kernel @neg_f64(%x: !ew.tensor<[n], f64>) -> !ew.tensor<[n], f64> {
  %r = ew.neg %x : !ew.tensor<[n], f64>
  ew.return %r : !ew.tensor<[n], f64>
}

// -----

// The cost of the element code: 2 vectors per thread for one division,
// square root or math function per point, 4 for two or more (sigmoid is an
// exp and a division); at least 4 for a kernel that reads nothing from DRAM
// in proportion to its points: no tensor (fill), or only tensors without
// some dimension of the nest (outer: a[m] and b[n] read again per row and
// column). A nest of two or more dimensions counts as one more (two with
// bf16 or narrower tensors): bias_add f32 2 vectors, bf16 4, with GELU's
// tanh f32 4. An explicit count is taken as given.
// CHECK-LABEL: gpu.func @ew$hardsigmoid({{.*}}elements_per_thread = 8
// CHECK-LABEL: gpu.func @ew$sqrt({{.*}}elements_per_thread = 8
// CHECK-LABEL: gpu.func @ew$sigmoid({{.*}}elements_per_thread = 16
// CHECK-LABEL: gpu.func @ew$fill({{.*}}elements_per_thread = 16
// CHECK-LABEL: gpu.func @ew$outer({{.*}}elements_per_thread = 16
// CHECK-LABEL: gpu.func @ew$outer_bf16({{.*}}elements_per_thread = 32
// CHECK-LABEL: gpu.func @ew$bias_f32({{.*}}elements_per_thread = 8
// CHECK-LABEL: gpu.func @ew$bias_bf16({{.*}}elements_per_thread = 32
// CHECK-LABEL: gpu.func @ew$bias_tanh({{.*}}elements_per_thread = 16
// FOUR-LABEL: gpu.func @ew$hardsigmoid({{.*}}elements_per_thread = 16
// FOUR-LABEL: gpu.func @ew$fill({{.*}}elements_per_thread = 16
ew.kernel @hardsigmoid(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %three = ew.constant 3.0 : f32
  %zero = ew.constant 0.0 : f32
  %six = ew.constant 6.0 : f32
  %0 = ew.add %x, %three : !ew.tensor<[n], f32>, f32
  %1 = ew.max %0, %zero : !ew.tensor<[n], f32>, f32
  %2 = ew.min %1, %six : !ew.tensor<[n], f32>, f32
  %3 = ew.div %2, %six : !ew.tensor<[n], f32>, f32
  ew.return %3 : !ew.tensor<[n], f32>
}
ew.kernel @sqrt(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.sqrt %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
ew.kernel @sigmoid(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.sigmoid %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
ew.kernel @fill(%v: f32) -> !ew.tensor<[n], f32> {
  ew.return %v : f32
}
ew.kernel @outer(%a: !ew.tensor<[m], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %a : <[m], f32> to <[m, n], f32>
  %1 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %2 = ew.add %0, %1 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %2 : !ew.tensor<[m, n], f32>
}
ew.kernel @outer_bf16(%a: !ew.tensor<[m], bf16>, %b: !ew.tensor<[n], bf16>) -> !ew.tensor<[m, n], bf16> {
  %0 = ew.broadcast %a : <[m], bf16> to <[m, n], bf16>
  %1 = ew.broadcast %b : <[n], bf16> to <[m, n], bf16>
  %2 = ew.add %0, %1 : !ew.tensor<[m, n], bf16>, !ew.tensor<[m, n], bf16>
  ew.return %2 : !ew.tensor<[m, n], bf16>
}
ew.kernel @bias_f32(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}
ew.kernel @bias_bf16(%x: !ew.tensor<[m, n], bf16>, %b: !ew.tensor<[n], bf16>) -> !ew.tensor<[m, n], bf16> {
  %0 = ew.broadcast %b : <[n], bf16> to <[m, n], bf16>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], bf16>, !ew.tensor<[m, n], bf16>
  ew.return %1 : !ew.tensor<[m, n], bf16>
}
ew.kernel @bias_tanh(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %2 = ew.tanh %1 : !ew.tensor<[m, n], f32>
  ew.return %2 : !ew.tensor<[m, n], f32>
}

// -----

// A 2-D nest, bias_add: x[m, n] + b[n]. One row (m = 1, as the launch leaves
// a contiguous x): coordinates (0, f), a prologue and vectors from the peel.
// Several rows: vectors if n is a multiple of the atom and each tensor's
// rows start aligned (its base and its row stride in bytes, unless it has one
// row), an atom at (f / n, f % n); b is read at the column alone.
// ONE-LABEL: gpu.func @ew$bias_add(
// ONE-SAME:    %[[X:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>, %[[B:[^:]*]]: memref<?xf32, strided<[1], offset: ?>, 1>,
// ONE-SAME:    %[[OUT:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>)
// ONE-SAME:    elements_per_thread = 4
// ONE-DAG:     %[[C0:.*]] = arith.constant 0 : index
// ONE-DAG:     %[[C1:.*]] = arith.constant 1 : index
// ONE-DAG:     %[[C3:.*]] = arith.constant 3 : index
// ONE-DAG:     %[[C4:.*]] = arith.constant 4 : index
// ONE-DAG:     %[[C15:.*]] = arith.constant 15 : index
// ONE:         %[[N:.*]] = memref.dim %[[X]], %[[C1]]
// ONE-NEXT:    %[[POINTS:.*]] = arith.muli %{{.*}}, %[[N]] : index
// ONE:         %{{.*}}, %{{.*}}, %[[XSIZES:.*]]:2, %[[XSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[X]]
// ONE-NEXT:    memref.extract_aligned_pointer_as_index %[[X]]
// ONE-NEXT:    arith.muli
// ONE-NEXT:    %[[XADDR:.*]] = arith.addi
// ONE:         memref.extract_strided_metadata %[[B]]
// ONE:         %{{.*}}, %{{.*}}, %[[OSIZES:.*]]:2, %[[OSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[OUT]]
// ONE:         %[[XMIS:.*]] = arith.andi %[[XADDR]], %[[C15]] : index
// ONE:         %[[ONEROW:.*]] = arith.cmpi eq, %[[POINTS]], %[[N]] : index
// ONE-NEXT:    %[[ONEROWOK:.*]] = arith.andi %{{.*}}, %[[ONEROW]] : i1
// ONE-NEXT:    %[[PEEL:.*]] = arith.minui %{{.*}}, %[[POINTS]] : index
// ONE-NEXT:    %[[NLOW:.*]] = arith.andi %[[N]], %[[C3]] : index
// ONE-NEXT:    %[[NOK:.*]] = arith.cmpi eq, %[[NLOW]], %[[C0]] : index
// ONE-NEXT:    %[[XBASEOK:.*]] = arith.cmpi eq, %[[XMIS]], %[[C0]] : index
// ONE-NEXT:    arith.andi %[[NOK]], %[[XBASEOK]] : i1
// ONE-NEXT:    %[[XONE:.*]] = arith.cmpi eq, %[[XSIZES]]#0, %[[C1]] : index
// ONE-NEXT:    %[[XROWB:.*]] = arith.muli %[[XSTRIDES]]#0, %[[C4]] : index
// ONE-NEXT:    %[[XROWLOW:.*]] = arith.andi %[[XROWB]], %[[C15]] : index
// ONE-NEXT:    %[[XROWOK:.*]] = arith.cmpi eq, %[[XROWLOW]], %[[C0]] : index
// ONE-NEXT:    arith.ori %[[XROWOK]], %[[XONE]] : i1
// ONE:         arith.cmpi eq, %[[OSIZES]]#0, %[[C1]] : index
// ONE-NEXT:    arith.muli %[[OSTRIDES]]#0, %[[C4]] : index
// ONE:         %[[ROWSOK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// ONE-NEXT:    scf.if %[[ONEROWOK]] -> (index) {
// ONE-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[PEEL]] step
// ONE-NEXT:        affine.delinearize_index
// ONE:           scf.for
// ONE:             arith.addi
// ONE-NEXT:        %[[F:.*]] = arith.addi
// ONE-NEXT:        vector.load %[[X]][%[[C0]], %[[F]]] {alignment = 16 : i64}
// ONE-COUNT-4:     vector.extract
// ONE-NEXT:        vector.load %[[B]][%[[F]]] {alignment = 16 : i64}
// ONE:             vector.store %{{.*}}, %[[OUT]][%[[C0]], %[[F]]] {alignment = 16 : i64}
// ONE-NEXT:      } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
// ONE:         } else {
// ONE-NEXT:      scf.if %[[ROWSOK]] -> (index) {
// ONE-NEXT:        %[[RCHUNKS:.*]] = arith.divui %[[POINTS]], %{{.*}} : index
// ONE-NEXT:        scf.for
// ONE-NEXT:          arith.muli
// ONE-NEXT:          %[[G:.*]] = arith.addi
// ONE-NEXT:          %[[COL:.*]] = arith.remui %[[G]], %[[N]] : index
// ONE-NEXT:          %[[ROW:.*]] = arith.divui %[[G]], %[[N]] : index
// ONE-NEXT:          vector.load %[[X]][%[[ROW]], %[[COL]]] {alignment = 16 : i64}
// ONE-COUNT-4:       vector.extract
// ONE-NEXT:          vector.load %[[B]][%[[COL]]] {alignment = 16 : i64}
// ONE:               vector.store %{{.*}}, %[[OUT]][%[[ROW]], %[[COL]]] {alignment = 16 : i64}
// ONE-NEXT:        } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
// ONE:           } else {
// ONE-NEXT:        scf.yield %[[C0]] : index
// ONE-NEXT:      }
ew.kernel @bias_add(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}

// -----

// The shifted variant (ew.shifted_tensors: x, tensor 0, one element past
// an aligned address where the output is aligned): the peel aligns the
// output and checks x's shift; one atom more where the peel is shorter
// than the shift, so that x's first vector starts at one of its points;
// the vector loop leaves 4 points (x's lanes) after it for x's last vector;
// each vector of x is the two aligned vectors around it, lanes 1 to 4.
// CHECK-LABEL: gpu.func @ew$leaky_shifted(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32, {{.*}}>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32, {{.*}}>)
// CHECK-SAME:    ew.shifted_tensors = array<i64: 0, 1>
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : index
// CHECK:         %[[N:.*]] = memref.dim %[[X]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[X]]
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    %[[XADDR:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:         memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    %[[OADDR:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    arith.andi %[[OADDR]], %[[C15]] : index
// CHECK:         %[[PEEL:.*]] = arith.divui %{{.*}}, %[[C4]] : index
// CHECK-NEXT:    %[[PEELB:.*]] = arith.muli %[[PEEL]], %[[C4]] : index
// CHECK-NEXT:    %[[XAT:.*]] = arith.addi %[[XADDR]], %[[PEELB]] : index
// CHECK-NEXT:    %[[XMIS:.*]] = arith.andi %[[XAT]], %[[C15]] : index
// CHECK-NEXT:    %[[XOK:.*]] = arith.cmpi eq, %[[XMIS]], %[[C4]] : index
// CHECK:         %[[OK:.*]] = arith.andi %[[XOK]], %{{.*}} : i1
// CHECK-NEXT:    %[[SHORT:.*]] = arith.cmpi ult, %[[PEEL]], %[[C1]] : index
// CHECK-NEXT:    %[[MORE:.*]] = arith.addi %[[PEEL]], %[[C4]] : index
// CHECK-NEXT:    %[[START0:.*]] = arith.select %[[SHORT]], %[[MORE]], %[[PEEL]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.minui %[[START0]], %[[N]] : index
// CHECK-NEXT:    scf.if %[[OK]] -> (index) {
// CHECK:           %[[AVAIL:.*]] = arith.subi %[[N]], %[[START]] : index
// CHECK-NEXT:      %[[ROOM:.*]] = arith.cmpi uge, %[[AVAIL]], %[[C4]] : index
// CHECK-NEXT:      %[[LESS:.*]] = arith.subi %[[AVAIL]], %[[C4]] : index
// CHECK-NEXT:      arith.select %[[ROOM]], %[[LESS]], %{{.*}} : index
// CHECK:           scf.for
// CHECK:             arith.addi %[[START]], %{{.*}} : index
// CHECK-NEXT:        %[[P:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %[[LO:.*]] = arith.addi %[[P]], %[[CM1]] : index
// CHECK-NEXT:        %[[A:.*]] = vector.load %[[X]][%[[LO]]] {alignment = 16 : i64}
// CHECK-NEXT:        %[[HI:.*]] = arith.addi %[[P]], %[[C3]] : index
// CHECK-NEXT:        %[[B:.*]] = vector.load %[[X]][%[[HI]]] {alignment = 16 : i64}
// CHECK-NEXT:        vector.extract %[[A]][1]
// CHECK-NEXT:        vector.extract %[[A]][2]
// CHECK-NEXT:        vector.extract %[[A]][3]
// CHECK-NEXT:        vector.extract %[[B]][0]
// CHECK:             vector.store %{{.*}}, %[[OUT]][%[[P]]] {alignment = 16 : i64}
// CHECK-NEXT:      } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
// CHECK:         } else {
// CHECK-NEXT:      scf.yield
ew.kernel @leaky_shifted(%x: !ew.tensor<[n], f32>, %slope: f32) -> !ew.tensor<[n], f32> attributes {ew.shifted_tensors = array<i64: 0, 1>} {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// A bf16 input at shift 3 beside an f32 output: x moves by 8-byte vectors
// of 4 lanes (the output's atom), its shift checked in bytes (6).
// CHECK-LABEL: gpu.func @ew$widen_shifted(
// CHECK:         arith.constant 6 : index
// CHECK:         scf.for
// CHECK:           vector.load %{{.*}} {alignment = 8 : i64} {{.*}} vector<4xbf16>
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      vector.load %{{.*}} {alignment = 8 : i64} {{.*}} vector<4xbf16>
// CHECK-NEXT:      vector.extract %{{.*}}[3] : bf16
// CHECK-NEXT:      vector.extract %{{.*}}[0] : bf16
// CHECK-NEXT:      vector.extract %{{.*}}[1] : bf16
// CHECK-NEXT:      vector.extract %{{.*}}[2] : bf16
ew.kernel @widen_shifted(%x: !ew.tensor<[n], bf16>) -> !ew.tensor<[n], f32> attributes {ew.shifted_tensors = array<i64: 0, 3>} {
  %0 = ew.cast %x : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

// The unaligned variant (ew.unaligned, which convert-ew-to-gpu carries to
// the gpu.func): no address checks, only the coalesced unrolled scalar loop.
// One dimension: point k of thread t at chunk offset k x blockDim + t, all
// loads first, then the four copies of the element code, then the stores.
// CHECK-LABEL: gpu.func @ew$leaky_unaligned(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32, {{.*}}>, %[[S:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32, {{.*}}>)
// CHECK-SAME:    elements_per_thread = 4
// CHECK-SAME:    ew.unaligned
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-NOT:     memref.extract_strided_metadata
// CHECK:         %[[N:.*]] = memref.dim %[[X]]
// CHECK:         %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[BDIM:.*]] = gpu.block_dim x
// CHECK-NEXT:    %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[GDIM:.*]] = gpu.grid_dim x
// CHECK-NEXT:    arith.muli %[[BID]], %[[BDIM]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.addi
// CHECK-NEXT:    %[[STEP:.*]] = arith.muli %[[GDIM]], %[[BDIM]] : index
// CHECK-NEXT:    %[[CHUNK:.*]] = arith.muli %[[BDIM]], %[[C4]] : index
// CHECK-NEXT:    %[[BDIM2:.*]] = arith.muli %[[BDIM]], %[[C2]] : index
// CHECK-NEXT:    %[[BDIM3:.*]] = arith.muli %[[BDIM]], %[[C3]] : index
// CHECK-NEXT:    %[[CHUNKS:.*]] = arith.divui %[[N]], %[[CHUNK]] : index
// CHECK-NEXT:    scf.for %[[D:.*]] = %[[BID]] to %[[CHUNKS]] step %[[GDIM]] {
// CHECK-NEXT:      %[[DBASE:.*]] = arith.muli %[[D]], %[[CHUNK]] : index
// CHECK-NEXT:      %[[P0:.*]] = arith.addi %[[DBASE]], %[[TID]] : index
// CHECK-NEXT:      %[[P1:.*]] = arith.addi %[[P0]], %[[BDIM]] : index
// CHECK-NEXT:      %[[P2:.*]] = arith.addi %[[P0]], %[[BDIM2]] : index
// CHECK-NEXT:      %[[P3:.*]] = arith.addi %[[P0]], %[[BDIM3]] : index
// CHECK-NEXT:      memref.load %[[X]][%[[P0]]]
// CHECK-NEXT:      memref.load %[[X]][%[[P1]]]
// CHECK-NEXT:      memref.load %[[X]][%[[P2]]]
// CHECK-NEXT:      memref.load %[[X]][%[[P3]]]
// CHECK-COUNT-4:   arith.select
// CHECK-NEXT:      memref.store %{{.*}}, %[[OUT]][%[[P0]]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[OUT]][%[[P1]]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[OUT]][%[[P2]]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[OUT]][%[[P3]]]
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 4>}
// CHECK-NEXT:    %[[DONE:.*]] = arith.muli %[[CHUNKS]], %[[CHUNK]] : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.addi %[[START]], %[[DONE]] : index
// CHECK-NEXT:    scf.for %{{.*}} = %[[FIRST]] to %[[N]] step %[[STEP]] {
// CHECK-NOT:     scf.if
// CHECK:         gpu.return
// FOUR-LABEL: gpu.func @ew$leaky_unaligned(
// FOUR:         } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 16>}
ew.kernel @leaky_unaligned(%x: !ew.tensor<[n], f32>, %slope: f32) -> !ew.tensor<[n], f32> attributes {ew.unaligned} {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// Two dimensions: point 0's coordinates by one division, the others by
// adding the digits of blockDim (point 1), twice blockDim (points 2 and 3)
// with a carry from the column into the row; no division per point.
// ONE-LABEL: gpu.func @ew$bias_unaligned(
// ONE-SAME:    %[[X:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[B:[^:]*]]: memref<?xf32, {{.*}}>,
// ONE-SAME:    ew.unaligned
// ONE-DAG:     %[[C0:.*]] = arith.constant 0 : index
// ONE-DAG:     %[[C1:.*]] = arith.constant 1 : index
// ONE:         %[[N:.*]] = memref.dim %[[X]], %[[C1]]
// ONE:         %[[BDIM:.*]] = gpu.block_dim x
// ONE:         scf.for
// ONE-NEXT:      arith.muli
// ONE-NEXT:      %[[P0:.*]] = arith.addi
// ONE-NEXT:      %[[COL0:.*]] = arith.remui %[[P0]], %[[N]] : index
// ONE-NEXT:      %[[ROW0:.*]] = arith.divui %[[P0]], %[[N]] : index
// ONE-NEXT:      %[[DCOL:.*]] = arith.remui %[[BDIM]], %[[N]] : index
// ONE-NEXT:      %[[DROW:.*]] = arith.divui %[[BDIM]], %[[N]] : index
// ONE-NEXT:      %[[SUM:.*]] = arith.addi %[[COL0]], %[[DCOL]] : index
// ONE-NEXT:      %[[WRAPS:.*]] = arith.cmpi uge, %[[SUM]], %[[N]] : index
// ONE-NEXT:      %[[BACK:.*]] = arith.subi %[[SUM]], %[[N]] : index
// ONE-NEXT:      %[[COL1:.*]] = arith.select %[[WRAPS]], %[[BACK]], %[[SUM]] : index
// ONE-NEXT:      %[[CARRY:.*]] = arith.select %[[WRAPS]], %[[C1]], %[[C0]] : index
// ONE-NEXT:      %[[R:.*]] = arith.addi %[[ROW0]], %[[DROW]] : index
// ONE-NEXT:      %[[ROW1:.*]] = arith.addi %[[R]], %[[CARRY]] : index
// ONE:           memref.load %[[X]][%[[ROW0]], %[[COL0]]]
// ONE-NEXT:      memref.load %[[X]][%[[ROW1]], %[[COL1]]]
// ONE-NEXT:      memref.load %[[X]]
// ONE-NEXT:      memref.load %[[X]]
// ONE-NEXT:      memref.load %[[B]][%[[COL0]]]
// ONE-NEXT:      memref.load %[[B]][%[[COL1]]]
// ONE-NOT:       arith.divui
// ONE:         } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 4>}
ew.kernel @bias_unaligned(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> attributes {ew.unaligned} {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}

// -----

// A tensor without the innermost dimension, s[m] beside x[m, n]: one scalar
// load per atom, at the atom's row, for all its points.
// ONE-LABEL: gpu.func @ew$scale_rows(
// ONE-SAME:    %[[X:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[S:[^:]*]]: memref<?xf32, {{.*}}>,
// ONE:           %[[COL:.*]] = arith.remui
// ONE-NEXT:      %[[ROW:.*]] = arith.divui
// ONE-NEXT:      vector.load %[[X]][%[[ROW]], %[[COL]]] {alignment = 16 : i64}
// ONE-COUNT-4:   vector.extract
// ONE-NEXT:      %[[SV:.*]] = memref.load %[[S]][%[[ROW]]]
// ONE-NEXT:      arith.mulf %{{.*}}, %[[SV]] : f32
// ONE-NEXT:      arith.mulf %{{.*}}, %[[SV]] : f32
// ONE-NEXT:      arith.mulf %{{.*}}, %[[SV]] : f32
// ONE-NEXT:      arith.mulf %{{.*}}, %[[SV]] : f32
// ONE-NEXT:      vector.from_elements
// ONE-NEXT:      vector.store
// ONE-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
ew.kernel @scale_rows(%x: !ew.tensor<[m, n], f32>, %s: !ew.tensor<[m], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %s : <[m], f32> to <[m, n], f32>
  %1 = ew.mul %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}

// -----

// A strided variant: x's innermost stride is a runtime value, so it is read
// with one load per point of the atom (a gather) and takes no part in the
// alignment checks; out is still stored by vectors.
// CHECK-LABEL: gpu.func @ew$strided(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32, strided<[?], offset: ?>, 1>, %[[OUT:[^:]*]]: memref<?xf32, strided<[1], offset: ?>, 1>)
// CHECK-SAME:    elements_per_thread = 4
// CHECK-NOT:     memref.extract_strided_metadata %[[X]]
// CHECK:         memref.extract_strided_metadata %[[OUT]]
// CHECK-NOT:     memref.extract_strided_metadata %[[X]]
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:           scf.for
// CHECK:             arith.addi
// CHECK-NEXT:        %[[A:.*]] = arith.addi
// CHECK-NEXT:        memref.load %[[X]][%[[A]]]
// CHECK-NEXT:        %[[A1:.*]] = arith.addi %[[A]], %c1 : index
// CHECK-NEXT:        memref.load %[[X]][%[[A1]]]
// CHECK-NEXT:        %[[A2:.*]] = arith.addi %[[A]], %c2 : index
// CHECK-NEXT:        memref.load %[[X]][%[[A2]]]
// CHECK-NEXT:        %[[A3:.*]] = arith.addi %[[A]], %c3 : index
// CHECK-NEXT:        memref.load %[[X]][%[[A3]]]
// CHECK-COUNT-4:     arith.negf
// CHECK-NEXT:        vector.from_elements
// CHECK-NEXT:        vector.store %{{.*}}, %[[OUT]][%[[A]]] {alignment = 16 : i64}
// CHECK-NEXT:      } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
ew.kernel @strided(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> attributes {ew.strided_tensors = array<i64: 0>} {
  %0 = ew.neg %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

// index(n) is each point's own coordinate: the atom start plus its lane.
// i64 stores, nothing loaded: atoms of 2, and 4 vectors per thread.
// CHECK-LABEL: gpu.func @ew$iota(
// CHECK-SAME:    elements_per_thread = 8
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           arith.addi
// CHECK-NEXT:      %[[A0:.*]] = arith.addi
// CHECK-NEXT:      %[[A1:.*]] = arith.addi %[[A0]], %{{.*}} : index
// CHECK-COUNT-2:   arith.addi %[[A0]], %{{.*}} : index
// CHECK-NEXT:      %[[I0:.*]] = arith.index_castui %[[A0]] : index to i64
// CHECK:           %[[A0P1:.*]] = arith.addi %[[A0]], %c1 : index
// CHECK-NEXT:      arith.index_castui %[[A0P1]] : index to i64
// CHECK:           arith.index_castui %[[A1]] : index to i64
// CHECK:           %[[A1P1:.*]] = arith.addi %[[A1]], %c1 : index
// CHECK-NEXT:      arith.index_castui %[[A1P1]] : index to i64
// CHECK:           vector.store %{{.*}}[%[[A0]]] {alignment = 16 : i64} {{.*}} vector<2xi64>
// CHECK:           vector.store %{{.*}}[%[[A1]]] {alignment = 16 : i64} {{.*}} vector<2xi64>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} {{.*}} vector<2xi64>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} {{.*}} vector<2xi64>
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 2, atoms = 4>}
ew.kernel @iota(%s: i64) -> !ew.tensor<[n], i64> {
  %0 = ew.index "n" : <[n], i64>
  %1 = ew.size "n" : i64
  %2 = ew.add %0, %1 : !ew.tensor<[n], i64>, i64
  ew.return %2 : !ew.tensor<[n], i64>
}

// -----

// Declined, with a remark: every tensor strided, so nothing to vectorize.
// The loop keeps its scalar layout and the kernel one point per thread.
// CHECK-LABEL: gpu.func @ew$all_strided(
// CHECK-SAME:    elements_per_thread = 1
// CHECK-NOT:     vector.
// CHECK:         } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
// CHECK-NEXT:    gpu.return
// expected-remark @below {{loop left scalar: no tensor has the innermost dimension with a unit stride}}
ew.kernel @all_strided(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> attributes {ew.strided_tensors = array<i64: 0, 1>} {
  %0 = ew.neg %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

// A tiled nest (#ew.tiled, convert-ew-to-gpu's for ew.tiled_tensors) is
// left as it is, with a remark, and the tiled launch keeps its descriptor:
// its grid is its tiles, its points per thread the tile's.
// CHECK-LABEL: gpu.func @ew$tiled(
// CHECK-SAME:    ew.launch = #ew.launch<schedule = "tiled", block_size = 256, elements_per_thread = 16, shared_memory = 0>
// CHECK-NOT:     vector.
// CHECK:         } {ew.layout = #ew.tiled<threads = 256, tile = 64>}
// expected-remark @below {{loop left as it is: its layout is #ew.tiled (its tensors are staged through shared memory)}}
ew.kernel @tiled(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> attributes {ew.strided_tensors = array<i64: 0>, ew.tiled_tensors = array<i64: 0>} {
  %0 = ew.neg %x : !ew.tensor<[m, n], f32>
  ew.return %0 : !ew.tensor<[m, n], f32>
}

// -----

// A rank-0 result (the batch of rank 0) has no dimension to vectorize along.
// expected-remark @below {{loop left scalar: the nest has no dimension}}
ew.kernel @scalar_result(%x: !ew.tensor<[...], f32>) -> !ew.tensor<[...], f32> attributes {ew.batch_rank = 0 : i64} {
  %0 = ew.neg %x : !ew.tensor<[...], f32>
  ew.return %0 : !ew.tensor<[...], f32>
}

// -----

// Loops the pass does not understand: not the grid-stride loop of the
// points, an access at other indices than the coordinates, other memory
// effects.
// CHECK-LABEL: gpu.func @sequential(
// CHECK-NOT:     vector.
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @sequential(%x: memref<?xf32, strided<[1], offset: ?>, 1>, %out: memref<?xf32, strided<[1], offset: ?>, 1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf32, strided<[1], offset: ?>, 1>
    // expected-remark @below {{loop left scalar: it is not a grid-stride loop over the points}}
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %x[%i] : memref<?xf32, strided<[1], offset: ?>, 1>
      memref.store %v, %out[%i] : memref<?xf32, strided<[1], offset: ?>, 1>
    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
    gpu.return
  }
  gpu.func @first_element(%x: memref<?xf32, strided<[1], offset: ?>, 1>, %out: memref<?xf32, strided<[1], offset: ?>, 1>) kernel {
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32, strided<[1], offset: ?>, 1>
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %gdim = gpu.grid_dim x
    %0 = arith.muli %bid, %bdim : index
    %start = arith.addi %0, %tid : index
    %step = arith.muli %gdim, %bdim : index
    // expected-remark @below {{loop left scalar: an access is not of a kernel argument at the point's coordinates}}
    scf.for %i = %start to %n step %step {
      %v = memref.load %x[%c0] : memref<?xf32, strided<[1], offset: ?>, 1>
      memref.store %v, %out[%i] : memref<?xf32, strided<[1], offset: ?>, 1>
    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
    gpu.return
  }
  gpu.func @barrier(%x: memref<?xf32, strided<[1], offset: ?>, 1>, %out: memref<?xf32, strided<[1], offset: ?>, 1>) kernel {
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32, strided<[1], offset: ?>, 1>
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %gdim = gpu.grid_dim x
    %0 = arith.muli %bid, %bdim : index
    %start = arith.addi %0, %tid : index
    %step = arith.muli %gdim, %bdim : index
    // expected-remark @below {{loop left scalar: 'gpu.barrier' accesses memory}}
    scf.for %i = %start to %n step %step {
      %v = memref.load %x[%i] : memref<?xf32, strided<[1], offset: ?>, 1>
      gpu.barrier
      memref.store %v, %out[%i] : memref<?xf32, strided<[1], offset: ?>, 1>
    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
    gpu.return
  }
}

// -----

// Random numbers: 16 points a thread in whole vectors of the widest tensor
// (kPointsPerThreadRandom): 4 vectors of f32, 2 of bf16, 1 of i8; whatever
// the cost table and the store-only rule say. An explicit count is taken as
// given.
// CHECK-LABEL: gpu.func @ew$dropout_f32({{.*}}elements_per_thread = 16
// CHECK-LABEL: gpu.func @ew$dropout_bf16({{.*}}elements_per_thread = 16
// CHECK-LABEL: gpu.func @ew$bits_i8({{.*}}elements_per_thread = 16
// CHECK-LABEL: gpu.func @ew$uniform_bf16({{.*}}elements_per_thread = 16
// ONE-LABEL: gpu.func @ew$dropout_f32({{.*}}elements_per_thread = 4
ew.kernel @dropout_f32(%x: !ew.tensor<[n], f32>, %s: i64) -> !ew.tensor<[n], f32> {
  %i = ew.index "n" : <[n], i64>
  %u = ew.rand %s, %i : i64, !ew.tensor<[n], i64>
  %0 = ew.mul %x, %u : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
ew.kernel @dropout_bf16(%x: !ew.tensor<[n], bf16>, %s: i64) -> !ew.tensor<[n], bf16> {
  %i = ew.index "n" : <[n], i64>
  %u = ew.rand %s, %i : i64, !ew.tensor<[n], i64>
  %b = ew.cast %u : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %0 = ew.mul %x, %b : !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>
  ew.return %0 : !ew.tensor<[n], bf16>
}
ew.kernel @bits_i8(%x: !ew.tensor<[n], i8>) -> !ew.tensor<[n], i8> {
  %r = ew.randint %x, %x : !ew.tensor<[n], i8>, !ew.tensor<[n], i8>
  %0 = ew.cast %r : !ew.tensor<[n], i32> to !ew.tensor<[n], i8>
  ew.return %0 : !ew.tensor<[n], i8>
}
ew.kernel @uniform_bf16(%s: i64) -> !ew.tensor<[n], bf16> {
  %i = ew.index "n" : <[n], i64>
  %u = ew.rand %s, %i : i64, !ew.tensor<[n], i64>
  %0 = ew.cast %u : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  ew.return %0 : !ew.tensor<[n], bf16>
}
