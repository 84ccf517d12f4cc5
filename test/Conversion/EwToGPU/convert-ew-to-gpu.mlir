// RUN: ewc-opt %s -convert-ew-to-gpu -split-input-file | FileCheck %s --enable-var-scope
// RUN: ewc-opt %s -convert-ew-to-gpu="gpu-module-name=kernels" -split-input-file | FileCheck %s --check-prefix=NAME
// RUN: ewc-opt %s -convert-ew-to-gpu=tile-size=32 -split-input-file | FileCheck %s --check-prefix=TILE32
// RUN: not ewc-opt %s -convert-ew-to-gpu=tile-size=48 -split-input-file 2>&1 | FileCheck %s --check-prefix=BADTILE
// BADTILE: error: tile-size must be a power of two from 16 to 128, not 48
// RUN: sed '/^ew.kernel/s/ {$/ attributes {ew.unaligned} {/' %S/Inputs/reduce.mlir | ewc-opt -convert-ew-to-gpu=rows-block-size=512 | FileCheck %s --check-prefix=REDUCE
// RUN: ewc-opt %S/Inputs/reduce.mlir -convert-ew-to-gpu=rows-block-size=512 | FileCheck %s --check-prefix=RUNS --enable-var-scope
// The columns schedule (ColumnAccess.h): a kernel whose one nest's points
// are its reductions' keys, none reading another's value. Its workspace is
// a pointer after the ABI's arguments and #ew.launch counts its partials
// (a slot per reduction); 8 warps of 32 keys' lanes, the splits from the
// grid; lane s * 8 + w of a team of splits * 8 combines every team-th row
// of its key, 8 per iteration; the block folds its warps' values in order
// through a slot per thread; then, with more than one split, the first
// warp's lanes write the block's partial after the tiles' tickets, a
// release fence, a barrier, thread 0 draws the tile's ticket between fences,
// and the block that drew the last (splits - 1) folds the partials of
// splits with volatile loads after an acquire fence, warp w the w-th eighth
// of them in order (8 loads in flight), then the warps' values in order
// through the slots; the key's point stored by that block's first warp only.
// RUN: ewc-opt %S/Inputs/columns.mlir -convert-ew-to-gpu | FileCheck %s --check-prefix=COLUMNS
// COLUMNS-LABEL: gpu.func @ew$colsum(
// COLUMNS-SAME: %[[WS:[^ ]*]]: !llvm.ptr<1>) workgroup(%[[SLOTS:.*]] : memref<256xf32, #gpu.address_space<workgroup>>, %[[FLAG:.*]] : memref<1xi32, #gpu.address_space<workgroup>>)
// COLUMNS-SAME: #ew.launch<schedule = "columns", block_size = 256, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["m"]], workspace = 1>, known_block_size = array<i32: 256, 1, 1>
// COLUMNS: %[[M:.*]] = memref.dim %arg0, %c0
// COLUMNS: %[[K:.*]] = memref.dim %arg0, %c1
// COLUMNS: %[[TILES:.*]] = arith.ceildivui %[[K]], %c32
// COLUMNS: %[[TID:.*]] = gpu.thread_id  x
// COLUMNS: %[[BID:.*]] = gpu.block_id  x
// COLUMNS: %[[GRID:.*]] = gpu.grid_dim  x
// COLUMNS: %[[COL:.*]] = arith.remui %[[TID]], %c32
// COLUMNS: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// COLUMNS: %[[DIV:.*]] = arith.maxui %[[TILES]], %c1
// COLUMNS: %[[Q:.*]] = arith.divui %[[GRID]], %[[DIV]]
// COLUMNS: %[[SPLITS:.*]] = arith.maxui %[[Q]], %c1
// COLUMNS: %[[SPLIT:.*]] = arith.remui %[[BID]], %[[SPLITS]]
// COLUMNS: %[[FIRST:.*]] = arith.divui %[[BID]], %[[SPLITS]]
// COLUMNS: %[[STEP:.*]] = arith.divui %[[GRID]], %[[SPLITS]]
// COLUMNS: scf.for %[[TILE:.*]] = %[[FIRST]] to %[[TILES]] step %[[STEP]] {
// COLUMNS: %[[KEY:.*]] = arith.addi %{{.*}}, %[[COL]]
// COLUMNS: %[[ACTIVE:.*]] = arith.cmpi ult, %[[KEY]], %[[K]]
// COLUMNS: %[[AT:.*]] = arith.select %[[ACTIVE]], %[[KEY]]
// COLUMNS: %[[S8:.*]] = arith.muli %[[SPLIT]], %c8
// COLUMNS: %[[LANE:.*]] = arith.addi %[[S8]], %[[WARP]]
// COLUMNS: %[[SIZE:.*]] = arith.muli %[[SPLITS]], %c8
// COLUMNS: %[[STRIDE:.*]] = arith.muli %[[SIZE]], %c8
// COLUMNS: scf.for
// COLUMNS: %[[R0:.*]] = arith.addi %{{.*}}, %[[LANE]]
// COLUMNS-NEXT: memref.load %arg0[%[[R0]], %[[AT]]]
// COLUMNS-COUNT-7: memref.load %arg0
// COLUMNS: scf.for %{{.*}} = %{{.*}} to %[[M]] step %[[SIZE]]
// COLUMNS: memref.store %{{.*}}, %[[SLOTS]][%{{.*}}]
// COLUMNS-NEXT: gpu.barrier
// COLUMNS-NEXT: %[[F0:.*]] = memref.load %[[SLOTS]][%[[COL]]]
// COLUMNS-NEXT: %[[PART:.*]] = scf.for %{{.*}} = %c1 to %c8 step %c1 iter_args(%{{.*}} = %[[F0]])
// COLUMNS: gpu.barrier
// COLUMNS-NEXT: %[[W0:.*]] = arith.cmpi eq, %[[WARP]], %c0
// COLUMNS-NEXT: %[[OWNER:.*]] = arith.andi %[[ACTIVE]], %[[W0]]
// COLUMNS-NEXT: %[[SEVERAL:.*]] = arith.cmpi ugt, %[[SPLITS]], %c1
// COLUMNS-NEXT: %[[MEET:.*]]:2 = scf.if %[[SEVERAL]] -> (f32, i1) {
// COLUMNS-NEXT: scf.if %[[OWNER]] {
// COLUMNS-NEXT: %[[SK:.*]] = arith.muli %[[SPLIT]], %[[K]]
// COLUMNS-NEXT: %[[SKK:.*]] = arith.addi %[[SK]], %[[KEY]]
// COLUMNS-NEXT: %[[WORD:.*]] = arith.addi %[[TILES]], %[[SKK]]
// COLUMNS-NEXT: %[[WORD64:.*]] = arith.index_cast %[[WORD]]
// COLUMNS-NEXT: %[[ADDR:.*]] = llvm.getelementptr %[[WS]][%[[WORD64]]]
// COLUMNS-NEXT: %[[BITS:.*]] = arith.bitcast %[[PART]] : f32 to i32
// COLUMNS-NEXT: %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
// COLUMNS-NEXT: llvm.store %[[WIDE]], %[[ADDR]]
// COLUMNS-NEXT: llvm.fence syncscope("device") release
// COLUMNS-NEXT: }
// COLUMNS-NEXT: gpu.barrier
// COLUMNS-NEXT: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %c0
// COLUMNS-NEXT: scf.if %[[T0]] {
// COLUMNS-NEXT: llvm.fence syncscope("device") acq_rel
// COLUMNS-NEXT: %[[TILE64:.*]] = arith.index_cast %[[TILE]]
// COLUMNS-NEXT: %[[TICKET:.*]] = llvm.getelementptr %[[WS]][%[[TILE64]]]
// COLUMNS-NEXT: %[[DRAWN:.*]] = llvm.atomicrmw add %[[TICKET]], %c1_i64 syncscope("device") acq_rel
// COLUMNS-NEXT: llvm.fence syncscope("device") acq_rel
// COLUMNS-NEXT: %[[LASTS:.*]] = arith.subi %[[SPLITS]], %c1
// COLUMNS-NEXT: %[[LAST64:.*]] = arith.index_cast %[[LASTS]]
// COLUMNS-NEXT: %[[ISLAST:.*]] = arith.cmpi eq, %[[DRAWN]], %[[LAST64]]
// COLUMNS-NEXT: %[[ISLAST32:.*]] = arith.extui %[[ISLAST]] : i1 to i32
// COLUMNS-NEXT: memref.store %[[ISLAST32]], %[[FLAG]][%c0]
// COLUMNS-NEXT: }
// COLUMNS-NEXT: gpu.barrier
// COLUMNS-NEXT: %[[FLAGV:.*]] = memref.load %[[FLAG]][%c0]
// COLUMNS-NEXT: %[[LAST:.*]] = arith.cmpi ne, %[[FLAGV]], %c0_i32
// COLUMNS-NEXT: %[[FOLDED:.*]] = scf.if %[[LAST]] -> (f32) {
// COLUMNS-NEXT: llvm.fence syncscope("device") acquire
// COLUMNS-NEXT: %[[SHARE:.*]] = arith.ceildivui %[[SPLITS]], %c8
// COLUMNS-NEXT: %[[LO0:.*]] = arith.muli %[[WARP]], %[[SHARE]]
// COLUMNS-NEXT: %[[LO:.*]] = arith.minui %[[LO0]], %[[SPLITS]]
// COLUMNS-NEXT: %[[HI0:.*]] = arith.addi %[[LO]], %[[SHARE]]
// COLUMNS-NEXT: %[[HI:.*]] = arith.minui %[[HI0]], %[[SPLITS]]
// COLUMNS-NEXT: %[[RANGE:.*]] = arith.subi %[[HI]], %[[LO]]
// COLUMNS-NEXT: %[[CHUNKS:.*]] = arith.divui %[[RANGE]], %c8
// COLUMNS: %[[MAIN:.*]] = scf.for %{{.*}} = %c0 to %[[CHUNKS]] step %c1 iter_args(%[[ACC:.*]] = %cst) -> (f32) {
// COLUMNS: arith.muli %{{.*}}, %[[K]]
// COLUMNS-NEXT: arith.addi %{{.*}}, %[[AT]]
// COLUMNS-COUNT-8: llvm.load volatile
// COLUMNS: arith.addf %[[ACC]], %{{.*}} : f32
// COLUMNS-COUNT-7: arith.addf
// COLUMNS: %[[TAIL:.*]] = scf.for %{{.*}} = %{{.*}} to %[[HI]] step %c1 iter_args(%{{.*}} = %[[MAIN]]) -> (f32) {
// COLUMNS: llvm.load volatile
// COLUMNS: memref.store %[[TAIL]], %[[SLOTS]]
// COLUMNS-NEXT: gpu.barrier
// COLUMNS-NEXT: memref.load %[[SLOTS]][%[[COL]]]
// COLUMNS-NEXT: %[[ALL:.*]] = scf.for %{{.*}} = %c1 to %c8 step %c1
// COLUMNS: gpu.barrier
// COLUMNS-NEXT: scf.yield %[[ALL]] : f32
// COLUMNS-NEXT: } else {
// COLUMNS-NEXT: scf.yield %[[PART]] : f32
// COLUMNS: scf.yield %[[FOLDED]], %[[LAST]] : f32, i1
// COLUMNS-NEXT: } else {
// COLUMNS-NEXT: scf.yield %[[PART]], %true : f32, i1
// COLUMNS: %[[STORES:.*]] = arith.andi %[[MEET]]#1, %[[OWNER]]
// COLUMNS-NEXT: scf.if %[[STORES]] {
// COLUMNS-NEXT: memref.store %[[MEET]]#0, %arg1[%[[AT]]]
// Two reductions, two slots (the second's partials after the first's, a
// fold each), then the point's work on their values.
// COLUMNS-LABEL: gpu.func @ew$colrange(
// COLUMNS-SAME: workspace = 2>
// COLUMNS: %[[HI:.*]] = arith.maximumf
// COLUMNS: %[[LO:.*]] = arith.minimumf
// COLUMNS: %[[RANGE:.*]]:3 = scf.if
// COLUMNS-COUNT-2: llvm.store
// COLUMNS: %[[D:.*]] = arith.subf %[[RANGE]]#0, %[[RANGE]]#1
// COLUMNS: arith.mulf %[[D]]
// A bool's partial travels as a byte through the slots and as a word
// through the workspace.
// COLUMNS-LABEL: gpu.func @ew$colany(
// COLUMNS-SAME: workgroup(%{{.*}} : memref<256xi8, #gpu.address_space<workgroup>>
// COLUMNS: arith.extui %{{.*}} : i1 to i64
// COLUMNS: arith.trunci %{{.*}} : i64 to i1
// A reduction of another's value keeps the grid-stride loop.
// COLUMNS-LABEL: gpu.func @ew$collse(
// COLUMNS-NOT: llvm.ptr
// COLUMNS-SAME: schedule = "elementwise"
// The rows schedule's block: 128 by default (RowAccess.h), another where
// the kernel is the variant for it (ew.rows_block_size: the runtime's
// choice by the longest row) or the pass says so (a knob for measuring,
// below the variant's); the required block, the launch descriptor, the
// slots (a warp each) and the teams' largest size follow. The descriptor
// names each rows nest's row for the runtime (row_dims).
// RUN: ewc-opt %S/Inputs/reduce.mlir -convert-ew-to-gpu | FileCheck %s --check-prefix=ROWS128
// RUN: sed '/@cumsum(/s/f32> {$/f32> attributes {ew.split_scans} {/' %S/Inputs/reduce.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=SCANS --enable-var-scope
// An online group needs an `a` that varies along the max's dimensions:
// where it does not (`exp(a - amax(a, k))` for an `a` constant along k), the
// exponential is invariant in the loops, and as a group each of its
// invariants needed the group again: the pass recursed until the stack ran
// out. Such a max and sum are plain reductions, no rescale.
// A scan of a scan's values keeps a warp per row even where tiles are asked
// for (no workspace, no look-back); scans side by side split.
// RUN: ewc-opt -convert-ew-to-gpu %S/Inputs/nested-scans.mlir | FileCheck %s --check-prefix=NESTED
// NESTED-LABEL: gpu.func @ew$nested(
// NESTED-SAME: %arg1: memref<?x?xi64, strided<[?, 1], offset: ?>, 1>) kernel
// NESTED-NOT: workspace =
// NESTED-NOT: llvm.atomicrmw
// NESTED-LABEL: gpu.func @ew$siblings(
// NESTED-SAME: %arg2: !llvm.ptr<1>)
// NESTED-SAME: workspace = 2>
// NESTED: llvm.atomicrmw add
// RUN: ewc-opt -convert-ew-to-gpu %S/Inputs/lanes-invariant.mlir | FileCheck %s --check-prefix=LANESINV
// LANESINV-LABEL: gpu.func @ew$lanes(
// LANESINV-SAME: %arg3: memref<?xf32, strided<[1], offset: ?>, 1>) workgroup(
// LANESINV-SAME: row_dims = {{\[\["d"\]\]}}, lane_dims = {{\["n"\]}}>
// LANESINV-NOT: llvm.atomicrmw
// RUN: ewc-opt -convert-ew-to-gpu %S/Inputs/lanes-nested.mlir | FileCheck %s --check-prefix=LANESNESTED
// LANESNESTED-LABEL: gpu.func @ew$nested(
// LANESNESTED-SAME: schedule = "rows"
// LANESNESTED-NOT: lane_dims
// LANESNESTED-SAME: >
// RUN: ewc-opt -convert-ew-to-gpu %S/Inputs/online-invariant.mlir | FileCheck %s --check-prefix=INVARIANT
// INVARIANT-LABEL: gpu.func @ew$k0(
// INVARIANT-NOT: ew.online_rescale
// INVARIANT: math.exp
// INVARIANT-NOT: ew.online_rescale
// INVARIANT: gpu.return
// RUN: ewc-opt -convert-ew-to-gpu %S/Inputs/online.mlir | FileCheck %s --check-prefix=ONLINE --enable-var-scope
// RUN: sed 's/ attributes {ew.rows_block_size = 512 : i64}//' %S/Inputs/online.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=ONLINE128
// RUN: sed 's/-> !ew.tensor<\[m, n\], f32> {/-> !ew.tensor<[m, n], f32> attributes {ew.rows_block_size = 128 : i64} {/' %S/Inputs/reduce.mlir | ewc-opt -convert-ew-to-gpu=rows-block-size=512 | FileCheck %s --check-prefix=ROWS128
// ROWS128-LABEL: gpu.func @ew$rownorm(
// ROWS128-SAME: workgroup(%{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>)
// ROWS128-SAME: #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["n"]]>, known_block_size = array<i32: 128, 1, 1>
// ROWS128: %[[S32:.*]] = arith.ceildivui %{{.*}}, %c32
// ROWS128-NEXT: %[[LE64:.*]] = arith.cmpi ule, %[[S32]], %c64
// ROWS128-NEXT: arith.select %[[LE64]], %c64, %c128
// ROWS128-LABEL: gpu.func @ew$colnorm(
// ROWS128-SAME: #ew.launch<schedule = "elementwise"
// ROWS128-LABEL: gpu.func @ew$cumsum(
// ROWS128-SAME: #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["n"]], workspace = 1>
// RUN: sed 's/-> !ew.tensor<\[m, n\], f32> {/-> !ew.tensor<[m, n], f32> attributes {ew.rows_block_size = 256 : i64} {/' %S/Inputs/reduce.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=ROWS256
// ROWS256-LABEL: gpu.func @ew$rownorm(
// ROWS256-SAME: workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>)
// ROWS256-SAME: block_size = 256, {{.*}} known_block_size = array<i32: 256, 1, 1>
// bf16 rows: the loads in flight counted in bytes (RowAccess.h), 16
// elements per iteration of a lane's reduction (8 of f32), 8 points per
// iteration of the row's points (4 of f32), their loads before their stores;
// in runs of 16 bytes (8 bf16) in the default variant, one element at a
// time in the unaligned one (BF16U).
// RUN: ewc-opt %S/Inputs/reduce-bf16.mlir -convert-ew-to-gpu | FileCheck %s --check-prefix=BF16
// RUN: sed '/^ew.kernel/s/ {$/ attributes {ew.unaligned} {/' %S/Inputs/reduce-bf16.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=BF16U
// BF16-LABEL: gpu.func @ew$rowscale(
// BF16: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %cst) -> (f32) {
// BF16-COUNT-2: vector.load %arg0{{.*}}vector<8xbf16>
// BF16-NOT: load
// BF16: scf.yield
// BF16: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// BF16-NEXT: arith.muli
// BF16-NEXT: arith.muli
// BF16-NEXT: arith.addi
// BF16-NEXT: vector.load %arg0{{.*}}vector<8xbf16>
// BF16-NOT: load
// BF16: vector.store {{.*}}vector<8xbf16>
// BF16-NEXT: }
// BF16U-LABEL: gpu.func @ew$rowscale(
// BF16U: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %cst) -> (f32) {
// BF16U-COUNT-16: memref.load %arg0{{.*}}bf16
// BF16U-NOT: memref.load
// BF16U: scf.yield
// BF16U: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// BF16U-COUNT-8: memref.load %arg0{{.*}}bf16
// BF16U-NOT: memref.load
// BF16U-COUNT-8: memref.store
// BF16U: scf.yield
// The resident variant (ew.rows_resident = K, ew.rows_team = T: the
// runtime's for rows that fit the block's registers): one version, teams of
// the constant T; slot j of a lane is its element lane + j * T, loaded once
// where it is in the row (the lane's slots in the row against j), the
// row's sum folded from the slots with the slots past the row masked, the
// rest of a longer row looped over; the row's points take the same loaded
// values (the row read once) and store where the slot is in the row.
// RUN: sed '/@rownorm(/s/f32> {$/f32> attributes {ew.rows_resident = 2 : i64, ew.rows_team = 32 : i64} {/' %S/Inputs/reduce.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=RESIDENT --enable-var-scope
// RUN: ewc-opt %S/Inputs/reduce.mlir -convert-ew-to-gpu="rows-resident=2 rows-team=32" | FileCheck %s --check-prefix=RESIDENT --enable-var-scope
// RESIDENT-LABEL: gpu.func @ew$rownorm(
// RESIDENT-NOT: workgroup
// RESIDENT-SAME: known_block_size = array<i32: 128, 1, 1>}
// RESIDENT-NOT: scf.if
// RESIDENT: %[[LANE:.*]] = arith.remui %thread_id_x, %c32 : index
// RESIDENT: scf.for
// RESIDENT: %[[ROW:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// RESIDENT: %[[INROW:.*]] = arith.cmpi ugt, %[[N:.*]], %[[LANE]] : index
// RESIDENT-NEXT: %[[LEFT:.*]] = arith.subi %[[N]], %[[LANE]] : index
// RESIDENT-NEXT: %[[SLOTS:.*]] = arith.ceildivui %[[LEFT]], %c32 : index
// RESIDENT-NEXT: %[[COUNT:.*]] = arith.select %[[INROW]], %[[SLOTS]], %c0 : index
// RESIDENT-NEXT: %[[V0:.*]] = arith.cmpi ugt, %[[COUNT]], %c0 : index
// RESIDENT-NEXT: %[[F1:.*]] = arith.addi %[[LANE]], %c32 : index
// RESIDENT-NEXT: %[[V1:.*]] = arith.cmpi ugt, %[[COUNT]], %c1 : index
// RESIDENT-NEXT: %[[REST:.*]] = arith.addi %[[LANE]], %c64 : index
// RESIDENT-NEXT: %[[X0:.*]] = scf.if %[[V0]] -> (f32) {
// RESIDENT-NEXT: memref.load %arg0[%[[ROW]], %[[LANE]]]
// RESIDENT: } else {
// RESIDENT-NEXT: scf.yield %cst : f32
// RESIDENT: %[[X1:.*]] = scf.if %[[V1]] -> (f32) {
// RESIDENT-NEXT: memref.load %arg0[%[[ROW]], %[[F1]]]
// RESIDENT: %[[A0:.*]] = arith.addf %[[X0]], %cst : f32
// RESIDENT-NEXT: %[[M0:.*]] = arith.select %[[V0]], %[[A0]], %cst {ew.resident_mask} : f32
// RESIDENT-NEXT: %[[A1:.*]] = arith.addf %[[M0]], %[[X1]] : f32
// RESIDENT-NEXT: %[[M1:.*]] = arith.select %[[V1]], %[[A1]], %[[M0]] {ew.resident_mask} : f32
// RESIDENT-NEXT: %[[LANESUM:.*]] = scf.for %{{.*}} = %[[REST]] to %[[N]] step %c32 iter_args(%{{.*}} = %[[M1]]) -> (f32) {
// RESIDENT: gpu.shuffle xor
// RESIDENT-COUNT-4: gpu.shuffle xor
// RESIDENT-NEXT: %[[SUM:.*]] = arith.addf
// RESIDENT-NEXT: %[[Y0:.*]] = arith.divf %[[X0]], %[[SUM]] : f32
// RESIDENT-NEXT: %[[S0:.*]] = arith.andi %[[V0]], %{{.*}} : i1
// RESIDENT-NEXT: scf.if %[[S0]] {
// RESIDENT-NEXT: memref.store %[[Y0]], %arg1[%[[ROW]], %[[LANE]]]
// RESIDENT: %[[Y1:.*]] = arith.divf %[[X1]], %[[SUM]] : f32
// RESIDENT-NEXT: %[[S1:.*]] = arith.andi %[[V1]], %{{.*}} : i1
// RESIDENT-NEXT: scf.if %[[S1]] {
// RESIDENT-NEXT: memref.store %[[Y1]], %arg1[%[[ROW]], %[[F1]]]
// RESIDENT: scf.for %{{.*}} = %[[REST]] to %{{.*}} step %c32 {
// RESIDENT-LABEL: gpu.func @ew$colnorm(
// An unsigned tensor's resident row: each slot's value, loaded or the zero
// of a slot past the row, is signless (i8 for a u8 tensor); a ui8 zero was
// an invalid arith.constant (ewc-fuzz, seed 9104: Fuzzed/fuzz-9104-200000013.ew).
// RUN: ewc-opt %S/Inputs/resident-unsigned.mlir -convert-ew-to-gpu="rows-resident=2 rows-team=32" | FileCheck %s --check-prefix=RESIDENTU
// RESIDENTU-LABEL: gpu.func @ew$rownorm_u8(
// RESIDENTU: scf.if %{{.*}} -> (i8) {
// RESIDENTU-NEXT: memref.load %arg0
// RESIDENTU: } else {
// RESIDENTU-NEXT: scf.yield %c0_i8 : i8
// RESIDENTU: scf.if %{{.*}} -> (i8) {
// RESIDENTU-NOT: ui8
// RESIDENTU: gpu.return
// RUN: ewc-opt -convert-ew-to-gpu %S/Inputs/lanes.mlir | FileCheck %s --check-prefix=LANES --enable-var-scope
// RUN: sed 's/@attention(\(.*\)) -> \(.*\) {$/@attention(\1) -> \2 attributes {ew.lane_pass = 1 : i64} {/' %S/Inputs/lanes.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=LANEFULL
// RUN: sed 's/@attention(\(.*\)) -> \(.*\) {$/@attention(\1) -> \2 attributes {ew.lane_pass = 2 : i64} {/' %S/Inputs/lanes.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=LANEFITS

// Points on the lanes (decode attention): a block per row (b, h), launched
// by the row of s; passes of 128 points; in the full pass (d = 128) q
// loaded once at the lane's 4 points, then the warps' loop over s, 4
// elements an iteration, each element's scores one straight-line step of
// the warp's lanes (no loop over d) and a butterfly, then one rescale of
// the max's sum and the 4 points' sums; the warps' states merged per lane
// through a slot per thread; each point divided by the row's sum and stored.
// Its one online group's states may meet across blocks (a row's S split for
// few rows, RowAccess.h): the workspace after the ABI's arguments, 6 words a
// lane (the max, the sum, 4 points' sums); the splits by the grid, 1 for a
// null workspace; block b the split b mod splits of row b / splits.
// LANES-LABEL: gpu.func @ew$attention(
// LANES-SAME: %[[WS:arg[0-9]+]]: !llvm.ptr<1>) workgroup(%[[SLOTS:[^ ]*]] : memref<128xf32, #gpu.address_space<workgroup>>
// LANES-SAME: row_dims = {{\[\["s"\]\]}}, workspace = 6, lane_dims = {{\["d"\]}}>
// LANES: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr<1>
// LANES: %[[ROWS:.*]] = arith.muli %dim, %dim_2 : index
// LANES: %[[ATLEAST:.*]] = arith.maxui %[[ROWS]], %c1 : index
// LANES: %[[PER:.*]] = arith.divui %grid_dim_x, %[[ATLEAST]] : index
// LANES: %[[BYGRID:.*]] = arith.maxui %[[PER]], %c1 : index
// LANES: %[[NONE:.*]] = llvm.icmp "eq" %[[WS]], %[[NULL]] : !llvm.ptr<1>
// LANES: %[[SPLITS:.*]] = arith.select %[[NONE]], %c1, %[[BYGRID]] : index
// LANES: %[[SPLIT:.*]] = arith.remui %block_id_x, %[[SPLITS]] : index
// LANES: %[[FIRST:.*]] = arith.divui %block_id_x, %[[SPLITS]] : index
// LANES: %[[STEP:.*]] = arith.divui %grid_dim_x{{.*}}, %[[SPLITS]] : index
// LANES: scf.for %{{.*}} = %[[FIRST]] to %[[ROWS]] step %[[STEP]] {
// LANES: scf.for %{{.*}} = %c0 to %{{.*}} step %c128 {
// LANES: scf.if %{{.*}} {
// Warp w of split p is lane 4 p + w of the row's team of 4 splits lanes.
// LANES: %[[WARPS:.*]] = arith.muli %[[SPLIT]], %c4 : index
// LANES-NEXT: %[[LANE:.*]] = arith.addi %[[WARPS]], %{{.*}} : index
// LANES-NEXT: %[[SIZE:.*]] = arith.muli %[[SPLITS]], %c4 : index
// LANES-COUNT-4: scf.if %true -> (f32) {
// LANES: %{{.*}}:6 = scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32) {
// LANES-NOT: scf.for
// LANES-COUNT-20: gpu.shuffle  xor
// LANES-NOT: scf.for
// LANES-COUNT-5: {ew.online_rescale}
// LANES: scf.yield
// LANES-NEXT: }
// The rest of s, an element at a time.
// LANES: %[[DONE:.*]]:6 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[SIZE]]
// LANES: memref.store %[[DONE]]#0, %[[SLOTS]][%thread_id_x{{.*}}] : memref<128xf32, #gpu.address_space<workgroup>>
// LANES-NEXT: gpu.barrier
// LANES-COUNT-5: {ew.online_rescale}
// LANES-COUNT-5: memref.store %{{.*}}[%thread_id_x{{.*}}] : memref<128xf32
// LANES-NEXT: gpu.barrier
// The meet, for more than one split: warp 0 writes the block's state (a
// word per value and lane), fences, and thread 0 draws the row's ticket;
// the block that draws the last merges the splits' states, its warp w
// those of w, w + 4, ... from no element (each step the larger max and
// both sides' 5 sums rescaled to it), then its warps' in order; only it
// stores the row's points.
// LANES: %[[SEVERAL:.*]] = arith.cmpi ugt, %[[SPLITS]], %c1 : index
// LANES: %[[MEET:.*]]:7 = scf.if %[[SEVERAL]] -> (f32, f32, f32, f32, f32, f32, i1) {
// LANES: %[[FIRSTWARP:.*]] = arith.cmpi eq, %[[WARP:.*]], %c0 : index
// LANES-NEXT: scf.if %[[FIRSTWARP]] {
// LANES-COUNT-6: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<1>
// LANES-NEXT: llvm.fence syncscope("device") release
// LANES: gpu.barrier
// LANES: llvm.fence syncscope("device") acq_rel
// LANES: llvm.atomicrmw add %{{.*}}, %c1_i64 syncscope("device") acq_rel : !llvm.ptr<1>, i64
// LANES-NEXT: llvm.fence syncscope("device") acq_rel
// LANES: gpu.barrier
// LANES: %[[LAST:.*]] = arith.cmpi ne, %{{.*}}, %c0_i32 : i32
// LANES-NEXT: scf.if %[[LAST]] -> (f32, f32, f32, f32, f32, f32) {
// LANES-NEXT: llvm.fence syncscope("device") acquire
// LANES-NEXT: scf.for %{{.*}} = %[[WARP]] to %[[SPLITS]] step %c4 iter_args(%{{.*}} = %cst_0, %{{.*}} = %cst_1, %{{.*}} = %cst_1, %{{.*}} = %cst_1, %{{.*}} = %cst_1, %{{.*}} = %cst_1)
// LANES-COUNT-6: llvm.load volatile
// LANES: arith.maximumf
// LANES-COUNT-10: {ew.online_rescale}
// LANES: gpu.barrier
// LANES: } else {
// LANES: scf.yield %{{.*}}, %[[LAST]] : f32, f32, f32, f32, f32, f32, i1
// LANES-NEXT: } else {
// LANES-NEXT: scf.yield {{.*}}, %true : f32, f32, f32, f32, f32, f32, i1
// LANES: %[[SUM:.*]] = arith.select %{{.*}}, %{{.*}}, %[[MEET]]#5 : f32
// LANES: %[[MINE:.*]] = arith.andi %{{.*}}, %[[MEET]]#6 : i1
// LANES-NEXT: scf.if %[[MINE]] {
// LANES-NEXT: arith.divf %{{.*}}, %[[SUM]] : f32
// LANES: %[[MINE:.*]] = arith.andi %{{.*}}, %[[MEET]]#6 : i1
// LANES-NEXT: scf.if %[[MINE]] {
// LANES-NEXT: arith.divf %{{.*}}, %[[SUM]] : f32
// LANES: %[[MINE:.*]] = arith.andi %{{.*}}, %[[MEET]]#6 : i1
// LANES-NEXT: scf.if %[[MINE]] {
// LANES-NEXT: arith.divf %{{.*}}, %[[SUM]] : f32
// LANES: %[[MINE:.*]] = arith.andi %{{.*}}, %[[MEET]]#6 : i1
// LANES-NEXT: scf.if %[[MINE]] {
// LANES-NEXT: arith.divf %{{.*}}, %[[SUM]] : f32
// LANES: } else {
// The variants of one pass (ew.lane_pass, RowAccess.h's getLanePass): the
// full pass alone (q's loads unmasked), or the one that fits alone (masked),
// each its 4 elements' butterflies and the rest's, no other version.
// LANEFULL-LABEL: gpu.func @ew$attention(
// LANEFULL-COUNT-4: scf.if %true -> (f32) {
// LANEFULL-COUNT-25: gpu.shuffle  xor
// LANEFULL-NOT: gpu.shuffle
// LANEFULL-LABEL: gpu.func @ew$unscored(
// LANEFITS-LABEL: gpu.func @ew$attention(
// LANEFITS-NOT: scf.if %true
// LANEFITS-COUNT-25: gpu.shuffle  xor
// LANEFITS-NOT: gpu.shuffle
// LANEFITS-LABEL: gpu.func @ew$unscored(
// A reduction over exactly the points before the pass (mean(v, d), which
// every element of rows divides by), in the pass that fits and in the full
// one: the lane's points, then the warp's butterfly, and every warp has it;
// no exchange between the warps, which hold the same points (it counted
// each point once per warp).
// RUN: ewc-opt -convert-ew-to-gpu %S/Inputs/lanes-hoisted.mlir | FileCheck %s --check-prefix=LANEHOIST
// RUN: sed 's/ew.lane_pass = 2/ew.lane_pass = 1/' %S/Inputs/lanes-hoisted.mlir | ewc-opt -convert-ew-to-gpu | FileCheck %s --check-prefix=LANEHOIST
// LANEHOIST-LABEL: gpu.func @ew$hoisted(
// LANEHOIST-COUNT-4: memref.load %arg2[
// LANEHOIST-NOT: memref.store
// LANEHOIST-COUNT-5: gpu.shuffle  xor
// LANEHOIST-NOT: memref.store
// LANEHOIST: arith.sitofp
// LANEHOIST-NEXT: %[[MEAN:.*]] = arith.divf
// LANEHOIST: arith.divf %{{.*}}, %[[MEAN]] : f32

// A team per point for @unscored (no reduction over d inside): the warps'
// exchange of the looping teams, a slot a warp.
// LANES-LABEL: gpu.func @ew$unscored(
// LANES-SAME: workgroup(%{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>)
// LANES-NOT: ew.online_rescale
// LANES: gpu.return

// RUN: not ewc-opt %S/Inputs/reduce.mlir -convert-ew-to-gpu=rows-resident=65 2>&1 | FileCheck %s --check-prefix=BADRESIDENT
// BADRESIDENT: error: rows-resident must be at most 64, not 65
// RUN: not ewc-opt %S/Inputs/reduce.mlir -convert-ew-to-gpu=rows-team=48 2>&1 | FileCheck %s --check-prefix=BADTEAM
// BADTEAM: error: rows-team must be a power of two up to the block (128), not 48
// RUN: not ewc-opt %S/Inputs/reduce.mlir -convert-ew-to-gpu=rows-block-size=48 2>&1 | FileCheck %s --check-prefix=BADROWS
// BADROWS: error: rows-block-size must be a power of two from 32 to 1024, not 48
// RUN: sed 's/-> !ew.tensor<\[m, n\], f32> {/-> !ew.tensor<[m, n], f32> attributes {ew.rows_block_size = 2048 : i64} {/' %S/Inputs/reduce.mlir | not ewc-opt -convert-ew-to-gpu 2>&1 | FileCheck %s --check-prefix=BADVARIANT
// BADVARIANT: error: ew.rows_block_size must be a power of two from 32 to 1024, not 2048

// A reduction along the contiguous dimension: the rows schedule, blocks of
// 512 threads, a team of T lanes per row: T the power of two at or above
// n / 16 up to a warp, else at or above n / 32 up to the block (a chain of
// selects from the top). Three versions: a warp per row (T a constant, the
// butterfly's five steps unconditional); teams of several warps, whose
// warps' values combine in order through a shared slot per warp between two
// barriers; teams of part of a warp, each step of the butterfly taken only
// below T. The loop runs over each block's group of 512 / T rows (the same
// trip count for the whole block), a team past the last row reading the
// last and storing nothing. Each lane combines its elements lane, lane + T,
// ... in order, 8 per iteration, then the rest; then the row's points, 4 per
// lane and iteration with their loads first, then the rest, with the sum
// known.
// REDUCE-LABEL: gpu.func @ew$rownorm(
// REDUCE-SAME: workgroup(%[[SLOTS:.*]] : memref<16xf32, #gpu.address_space<workgroup>>)
// REDUCE-SAME: ew.launch = #ew.launch<schedule = "rows", block_size = 512, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["n"]]>, ew.unaligned, known_block_size = array<i32: 512, 1, 1>
// REDUCE-DAG: %[[C32:.*]] = arith.constant 32 : index
// REDUCE-DAG: %[[C16:.*]] = arith.constant 16 : index
// REDUCE-DAG: %[[C8:.*]] = arith.constant 8 : index
// REDUCE-DAG: %[[C256:.*]] = arith.constant 256 : index
// REDUCE-DAG: %[[C512:.*]] = arith.constant 512 : index
// REDUCE-DAG: %[[M:.*]] = memref.dim %arg0, %c0
// REDUCE-DAG: %[[N:.*]] = memref.dim %arg0, %c1
// REDUCE: %[[SHARE16:.*]] = arith.ceildivui %[[N]], %[[C16]]
// REDUCE-NEXT: %[[SHARE32:.*]] = arith.ceildivui %[[N]], %[[C32]]
// REDUCE-NEXT: %[[LE256:.*]] = arith.cmpi ule, %[[SHARE32]], %[[C256]]
// REDUCE-NEXT: arith.select %[[LE256]], %[[C256]], %[[C512]]
// REDUCE-COUNT-3: arith.cmpi ule, %[[SHARE32]]
// REDUCE: arith.cmpi ule, %[[SHARE16]], %[[C16]]
// REDUCE-COUNT-4: arith.cmpi ule, %[[SHARE16]]
// REDUCE: %[[T:.*]] = arith.select
// REDUCE-NEXT: %[[WHOLE:.*]] = arith.cmpi eq, %[[T]], %[[C32]]
// REDUCE-NEXT: %[[SEVERAL:.*]] = arith.cmpi ugt, %[[T]], %[[C32]]
// REDUCE-NEXT: scf.if %[[WHOLE]] {
// REDUCE: %[[WP:.*]] = scf.for {{.*}} to %[[N]] step %[[C32]] iter_args({{.*}}) -> (f32) {
// REDUCE: %[[WSH:.*]], %{{.*}} = gpu.shuffle  xor %[[WP]], %c16_i32, %c32_i32 : f32
// REDUCE-NEXT: arith.addf %[[WP]], %[[WSH]] : f32
// REDUCE-COUNT-4: gpu.shuffle  xor
// REDUCE-NOT: gpu.barrier
// REDUCE: } else {
// REDUCE-NEXT: scf.if %[[SEVERAL]] {
// REDUCE: %[[BP:.*]] = scf.for {{.*}} to %[[N]] step %{{.*}} iter_args({{.*}}) -> (f32) {
// REDUCE: gpu.shuffle  xor %[[BP]], %c16_i32, %c32_i32 : f32
// REDUCE-COUNT-3: gpu.shuffle  xor
// REDUCE: %[[SH1:.*]], %{{.*}} = gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// REDUCE-NEXT: %[[WARPSUM:.*]] = arith.addf %{{.*}}, %[[SH1]] : f32
// REDUCE-NEXT: %[[ETID:.*]] = gpu.thread_id  x
// REDUCE-NEXT: %[[WLANE:.*]] = arith.remui %[[ETID]], %[[C32]]
// REDUCE-NEXT: %[[LEADER:.*]] = arith.cmpi eq, %[[WLANE]], %c0
// REDUCE-NEXT: scf.if %[[LEADER]] {
// REDUCE-NEXT: %[[WARP:.*]] = arith.divui %[[ETID]], %[[C32]]
// REDUCE-NEXT: memref.store %[[WARPSUM]], %[[SLOTS]][%[[WARP]]]
// REDUCE-NEXT: }
// REDUCE-NEXT: gpu.barrier
// REDUCE-NEXT: %[[WARPS:.*]] = arith.divui %[[BT:.*]], %[[C32]]
// REDUCE-NEXT: %[[TEAMNO:.*]] = arith.divui %[[ETID]], %[[BT]]
// REDUCE-NEXT: %[[FIRSTWARP:.*]] = arith.muli %[[TEAMNO]], %[[WARPS]]
// REDUCE-NEXT: %[[W0:.*]] = memref.load %[[SLOTS]][%[[FIRSTWARP]]]
// REDUCE-NEXT: %[[TEAMSUM:.*]] = scf.for %[[W:.*]] = %c1 to %[[WARPS]] step %c1 iter_args(%[[WACC:.*]] = %[[W0]]) -> (f32) {
// REDUCE-NEXT: %[[SLOT:.*]] = arith.addi %[[FIRSTWARP]], %[[W]]
// REDUCE-NEXT: %[[WV:.*]] = memref.load %[[SLOTS]][%[[SLOT]]]
// REDUCE-NEXT: %[[WNEXT:.*]] = arith.addf %[[WACC]], %[[WV]] : f32
// REDUCE-NEXT: scf.yield %[[WNEXT]]
// REDUCE-NEXT: }
// REDUCE-NEXT: gpu.barrier
// REDUCE: arith.divf %{{.*}}, %[[TEAMSUM]] : f32
// REDUCE: } else {
// REDUCE: %[[TID:.*]] = gpu.thread_id  x
// REDUCE: %[[LANE:.*]] = arith.remui %[[TID]], %[[T]] : index
// REDUCE-NEXT: %[[PERBLOCK:.*]] = arith.divui %[[C512]], %[[T]]
// REDUCE-NEXT: %[[TEAM:.*]] = arith.divui %[[TID]], %[[T]]
// REDUCE-NEXT: %[[FIRST:.*]] = arith.muli %{{.*}}, %[[PERBLOCK]]
// REDUCE-NEXT: %[[STEP:.*]] = arith.muli %{{.*}}, %[[PERBLOCK]]
// REDUCE-NEXT: scf.for %[[BASE:.*]] = %[[FIRST]] to %[[M]] step %[[STEP]] {
// REDUCE-NEXT: %[[MYROW:.*]] = arith.addi %[[BASE]], %[[TEAM]]
// REDUCE-NEXT: %[[ACTIVE:.*]] = arith.cmpi ult, %[[MYROW]], %[[M]]
// REDUCE-NEXT: %[[LASTROW:.*]] = arith.subi %[[M]], %c1
// REDUCE-NEXT: %[[ROW:.*]] = arith.select %[[ACTIVE]], %[[MYROW]], %[[LASTROW]]
// REDUCE-NEXT: %[[NPTS:.*]] = arith.select %[[ACTIVE]], %[[N]], %c0
// REDUCE-NEXT: %[[STRIDE:.*]] = arith.muli %[[T]], %[[C8]]
// REDUCE-NEXT: %[[CHUNKS:.*]] = arith.divui %[[N]], %[[STRIDE]]
// REDUCE-NEXT: %[[PART8:.*]] = scf.for %[[C:.*]] = %c0 to %[[CHUNKS]] step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// REDUCE-NEXT: %[[OFF:.*]] = arith.muli %[[C]], %[[STRIDE]]
// REDUCE-NEXT: %[[K0:.*]] = arith.addi %[[OFF]], %[[LANE]]
// REDUCE-NEXT: %[[X0:.*]] = memref.load %arg0[%[[ROW]], %[[K0]]]
// REDUCE-NEXT: %[[S0:.*]] = arith.addf %[[ACC]], %[[X0]] : f32
// REDUCE-NEXT: %[[K1:.*]] = arith.addi %[[K0]], %[[T]]
// REDUCE-NEXT: %[[X1:.*]] = memref.load %arg0[%[[ROW]], %[[K1]]]
// REDUCE-NEXT: arith.addf %[[S0]], %[[X1]] : f32
// REDUCE-COUNT-6: memref.load %arg0
// REDUCE: %[[DONE:.*]] = arith.muli %[[CHUNKS]], %[[STRIDE]]
// REDUCE-NEXT: %[[REST:.*]] = arith.addi %[[DONE]], %[[LANE]]
// REDUCE-NEXT: %[[PART:.*]] = scf.for %[[K:.*]] = %[[REST]] to %[[N]] step %[[T]] iter_args(%[[ACC2:.*]] = %[[PART8]]) -> (f32) {
// REDUCE-NEXT: %[[X:.*]] = memref.load %arg0[%[[ROW]], %[[K]]]
// REDUCE-NEXT: %[[NEXT:.*]] = arith.addf %[[ACC2]], %[[X]] : f32
// REDUCE-NEXT: scf.yield %[[NEXT]]
// REDUCE-NOT: %c16_i32
// REDUCE: %[[ABOVE8:.*]] = arith.cmpi ugt, %[[T]], %[[C8]]
// REDUCE-NEXT: %[[B8:.*]] = scf.if %[[ABOVE8]] -> (f32) {
// REDUCE-NEXT: %[[SH:.*]], %{{.*}} = gpu.shuffle  xor %[[PART]], %c8_i32, %c32_i32 : f32
// REDUCE-NEXT: %[[Y8:.*]] = arith.addf %[[PART]], %[[SH]] : f32
// REDUCE-NEXT: scf.yield %[[Y8]]
// REDUCE-NEXT: } else {
// REDUCE-NEXT: scf.yield %[[PART]]
// REDUCE: gpu.shuffle  xor %[[B8]], %c4_i32, %c32_i32 : f32
// REDUCE: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// REDUCE: %[[SUM:.*]] = scf.if %{{.*}} -> (f32) {
// REDUCE-NEXT: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// REDUCE-NOT: gpu.barrier
// REDUCE: %[[PSTRIDE:.*]] = arith.muli %[[T]], %c4
// REDUCE-NEXT: %[[PCHUNKS:.*]] = arith.divui %[[NPTS]], %[[PSTRIDE]]
// REDUCE-NEXT: scf.for %[[PC:.*]] = %c0 to %[[PCHUNKS]] step %c1 {
// REDUCE-COUNT-4: memref.load %arg0
// REDUCE-NEXT: arith.divf %{{.*}}, %[[SUM]] : f32
// REDUCE-NEXT: memref.store
// REDUCE-COUNT-3: memref.store
// REDUCE: scf.for %[[J:.*]] = %{{.*}} to %[[NPTS]] step %[[T]] {
// REDUCE-NEXT: %[[Y:.*]] = memref.load %arg0[%[[ROW]], %[[J]]]
// REDUCE-NEXT: %[[Q:.*]] = arith.divf %[[Y]], %[[SUM]] : f32
// REDUCE-NEXT: memref.store %[[Q]], %arg1[%[[ROW]], %[[J]]]

// The default variant (not ew.unaligned: the runtime checked that every row
// of the tensors read along n starts 16-byte aligned): a lane takes its row
// in runs of 16 bytes, lane l's runs l, l + T, ... (of 4 f32 here), each by
// one vector load, combined in order; after the iterations the whole runs
// left, a run a lane and step, then the last elements one at a time; the
// points a run of 4 a lane, one vector load and one vector store, then
// the runs left, then the last points. Bools (anyrow) in runs of 16 bytes, then i1.
// RUNS-LABEL: gpu.func @ew$rownorm(
// RUNS: } else {
// RUNS: } else {
// RUNS: %[[LANE:.*]] = arith.remui %{{.*}}, %[[T:.*]] : index
// RUNS: %[[STRIDE:.*]] = arith.muli %[[T]], %c8 : index
// RUNS-NEXT: %[[CHUNKS:.*]] = arith.divui %{{.*}}, %[[STRIDE]] : index
// RUNS-NEXT: %[[PART:.*]] = scf.for %[[C:.*]] = %c0 to %[[CHUNKS]] step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// RUNS-NEXT: %[[OFF:.*]] = arith.muli %[[C]], %[[STRIDE]]
// RUNS-NEXT: %[[LOFF:.*]] = arith.muli %[[LANE]], %c4
// RUNS-NEXT: %[[R0:.*]] = arith.addi %[[OFF]], %[[LOFF]]
// RUNS-NEXT: %[[V0:.*]] = vector.load %arg0[%[[ROW:.*]], %[[R0]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// RUNS-NEXT: %[[E0:.*]] = vector.extract %[[V0]][0]
// RUNS-NEXT: %[[E1:.*]] = vector.extract %[[V0]][1]
// RUNS-NEXT: %[[E2:.*]] = vector.extract %[[V0]][2]
// RUNS-NEXT: %[[E3:.*]] = vector.extract %[[V0]][3]
// RUNS-NEXT: %[[S0:.*]] = arith.addf %[[ACC]], %[[E0]] : f32
// RUNS-NEXT: %[[S1:.*]] = arith.addf %[[S0]], %[[E1]] : f32
// RUNS-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[E2]] : f32
// RUNS-NEXT: %[[S3:.*]] = arith.addf %[[S2]], %[[E3]] : f32
// RUNS-NEXT: %[[TR:.*]] = arith.muli %[[T]], %c4
// RUNS-NEXT: %[[R1:.*]] = arith.addi %[[R0]], %[[TR]]
// RUNS-NEXT: %[[V1:.*]] = vector.load %arg0[%[[ROW]], %[[R1]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// RUNS-NEXT: %[[F0:.*]] = vector.extract %[[V1]][0]
// RUNS-COUNT-3: vector.extract %[[V1]]
// RUNS-NEXT: arith.addf %[[S3]], %[[F0]] : f32
// RUNS-COUNT-3: arith.addf
// RUNS-NEXT: scf.yield
// RUNS-NEXT: }
// RUNS-NEXT: %[[DONE:.*]] = arith.muli %[[CHUNKS]], %[[STRIDE]]
// RUNS-NEXT: %[[RUNS:.*]] = arith.divui %[[N:.*]], %c4
// RUNS-NEXT: %[[DONERUNS:.*]] = arith.divui %[[DONE]], %c4
// RUNS-NEXT: %[[FIRSTR:.*]] = arith.addi %[[DONERUNS]], %[[LANE]]
// RUNS-NEXT: %[[PARTRUNS:.*]] = scf.for %[[R:.*]] = %[[FIRSTR]] to %[[RUNS]] step %[[T]] iter_args(%{{.*}} = %[[PART]]) -> (f32) {
// RUNS-NEXT: %[[RSTART:.*]] = arith.muli %[[R]], %c4
// RUNS-NEXT: vector.load %arg0[%[[ROW]], %[[RSTART]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// RUNS-COUNT-4: vector.extract
// RUNS-COUNT-4: arith.addf
// RUNS-NEXT: scf.yield
// RUNS-NEXT: }
// RUNS-NEXT: %[[RUNSDONE:.*]] = arith.muli %[[RUNS]], %c4
// RUNS-NEXT: %[[REST:.*]] = arith.addi %[[RUNSDONE]], %[[LANE]]
// RUNS-NEXT: scf.for %[[K:.*]] = %[[REST]] to %[[N]] step %[[T]] iter_args(%{{.*}} = %[[PARTRUNS]]) -> (f32) {
// RUNS-NEXT: memref.load %arg0[%[[ROW]], %[[K]]]
// RUNS: scf.for %[[PC:.*]] = %c0 to %{{.*}} step %c1 {
// RUNS-NEXT: %[[POFF:.*]] = arith.muli %[[PC]], %{{.*}}
// RUNS-NEXT: %[[PLOFF:.*]] = arith.muli %[[LANE]], %c4
// RUNS-NEXT: %[[P0:.*]] = arith.addi %[[POFF]], %[[PLOFF]]
// RUNS-NEXT: %[[PV:.*]] = vector.load %arg0[%[[ROW]], %[[P0]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// RUNS-COUNT-4: vector.extract %[[PV]]
// RUNS-COUNT-4: arith.divf
// RUNS-NEXT: %[[OUT:.*]] = vector.from_elements
// RUNS-NEXT: vector.store %[[OUT]], %arg1[%[[ROW]], %[[P0]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// RUNS-NEXT: }
// RUNS: scf.for %[[PR:.*]] = %{{.*}} to %{{.*}} step %[[T]] {
// RUNS-NEXT: %[[PRSTART:.*]] = arith.muli %[[PR]], %c4
// RUNS-NEXT: vector.load %arg0[%[[ROW]], %[[PRSTART]]]
// RUNS: vector.store %{{.*}}, %arg1[%[[ROW]], %[[PRSTART]]] {alignment = 16 : i64}
// RUNS-NEXT: }
// RUNS: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[T]] {
// RUNS-NEXT: memref.load %arg0[%[[ROW]], %[[J]]]
// RUNS-NEXT: arith.divf
// RUNS-NEXT: memref.store
// RUNS-LABEL: gpu.func @ew$anyrow(
// RUNS: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : {{.*}}, vector<16xi8>
// RUNS-NEXT: %[[B0:.*]] = vector.extract %{{.*}}[0] : i8 from vector<16xi8>
// RUNS-NEXT: arith.trunci %[[B0]] : i8 to i1

// A reduction across rows: a thread per point, combining its column in
// order (coalesced across the warp's threads); no layout to vectorize.
// REDUCE-LABEL: gpu.func @ew$colnorm(
// REDUCE-SAME: #ew.launch<schedule = "elementwise"
// REDUCE-NOT: known_block_size
// REDUCE: %[[P:.*]]:2 = affine.delinearize_index
// REDUCE: scf.for %[[I:.*]] = %c0 to %{{.*}} step %c1 iter_args(
// REDUCE-NEXT: memref.load %arg0[%[[I]], %[[P]]#1]
// REDUCE-NOT: gpu.shuffle
// REDUCE: gpu.return

// A bool reduction: the i1 travels through the shuffle as an i32 and
// through the warps' shared slots as an i8; the one point of a row (a
// result without n) is lane 0's.
// REDUCE-LABEL: gpu.func @ew$anyrow(
// REDUCE-SAME: workgroup(%[[BSLOTS:.*]] : memref<16xi8, #gpu.address_space<workgroup>>)
// REDUCE-SAME: schedule = "rows"
// REDUCE: %[[LANE2:.*]] = arith.remui
// REDUCE: %[[W:.*]] = arith.extui %{{.*}} : i1 to i32
// REDUCE-NEXT: %[[S:.*]], %{{.*}} = gpu.shuffle  xor %[[W]], %c16_i32, %c32_i32 : i32
// REDUCE-NEXT: arith.trunci %[[S]] : i32 to i1
// REDUCE: scf.for %{{.*}} to %{{.*}} step %{{.*}} {
// REDUCE-NEXT: arith.extui %{{.*}} : i1 to i8
// REDUCE-NEXT: memref.store
// REDUCE: } else {
// REDUCE: %[[BYTE:.*]] = arith.extui %{{.*}} : i1 to i8
// REDUCE-NEXT: memref.store %[[BYTE]], %[[BSLOTS]]
// REDUCE: gpu.barrier
// REDUCE-NEXT: arith.divui
// REDUCE-NEXT: arith.divui
// REDUCE-NEXT: arith.muli
// REDUCE-NEXT: %[[B0:.*]] = memref.load %[[BSLOTS]]
// REDUCE-NEXT: arith.trunci %[[B0]] : i8 to i1

// A scan along the contiguous dimension: a warp per row walks it 256 points
// at a time, 8 chunks of 32 whose elements are loaded first; then each
// chunk in order: the warp's inclusive scan in 5 shuffles up, the prefix so
// far added, stored where inside the row, and lane 31's value the next
// chunk's prefix.
// REDUCE-LABEL: gpu.func @ew$cumsum(
// REDUCE-SAME: schedule = "rows"
// REDUCE-SAME: row_dims = {{\[}}["n"]], workspace = 1>
// (The workspace is the variant's with its rows split into tiles, SCANS
// below; the default variant ignores it.)
// REDUCE: %[[SLANE:.*]] = arith.remui
// REDUCE: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// REDUCE: %[[SROW:.*]] = arith.select
// REDUCE-NEXT: %[[STEP:.*]] = scf.for %[[BASE:.*]] = %c0 to %[[SN:.*]] step %c256 iter_args(%[[CARRY:.*]] = %{{.*}}) -> (f32) {
// REDUCE-NEXT: %[[LASTK:.*]] = arith.subi %[[SN]], %c1
// REDUCE-NEXT: %[[SK:.*]] = arith.addi %[[BASE]], %[[SLANE]]
// REDUCE-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[SK]], %[[SN]]
// REDUCE-NEXT: %[[AT:.*]] = arith.select %[[IN]], %[[SK]], %[[LASTK]]
// REDUCE-NEXT: %[[SX:.*]] = memref.load %arg0[%[[SROW]], %[[AT]]]
// REDUCE-NEXT: %[[LANE1:.*]] = arith.addi %[[SLANE]], %c32
// REDUCE-NEXT: %[[SK1:.*]] = arith.addi %[[BASE]], %[[LANE1]]
// REDUCE-NEXT: %[[IN1:.*]] = arith.cmpi ult, %[[SK1]], %[[SN]]
// REDUCE-NEXT: %[[AT1:.*]] = arith.select %[[IN1]], %[[SK1]], %[[LASTK]]
// REDUCE-NEXT: %[[SX1:.*]] = memref.load %arg0[%[[SROW]], %[[AT1]]]
// REDUCE-COUNT-6: memref.load %arg0
// REDUCE-NEXT: %[[V0:.*]] = arith.select %[[IN]], %[[SX]], %{{.*}} : f32
// REDUCE-NEXT: %[[UP:.*]], %{{.*}} = gpu.shuffle  up %[[V0]], %c1_i32, %c32_i32 : f32
// REDUCE-NEXT: %[[HAS:.*]] = arith.cmpi uge, %[[SLANE]], %c1
// REDUCE-NEXT: %[[W:.*]] = arith.addf %[[UP]], %[[V0]] : f32
// REDUCE-NEXT: arith.select %[[HAS]], %[[W]], %[[V0]] : f32
// REDUCE-COUNT-4: gpu.shuffle  up
// REDUCE: %[[INCL:.*]] = arith.select
// REDUCE-NEXT: %[[SCANNED:.*]] = arith.addf %[[CARRY]], %[[INCL]] : f32
// REDUCE-NEXT: %[[CARRY1:.*]], %{{.*}} = gpu.shuffle  idx %[[SCANNED]], %c31_i32, %c32_i32 : f32
// REDUCE-NEXT: scf.if %[[IN]] {
// REDUCE-NEXT: memref.store %[[SCANNED]], %arg1[%[[SROW]], %[[AT]]]
// REDUCE: %[[V1:.*]] = arith.select %[[IN1]], %[[SX1]], %{{.*}} : f32
// REDUCE-NEXT: gpu.shuffle  up %[[V1]], %c1_i32
// REDUCE-COUNT-4: gpu.shuffle  up
// REDUCE: %[[INCL1:.*]] = arith.select
// REDUCE-NEXT: %[[SCANNED1:.*]] = arith.addf %[[CARRY1]], %[[INCL1]] : f32
// REDUCE: scf.if %[[IN1]] {
// REDUCE-NEXT: memref.store %[[SCANNED1]], %arg1[%[[SROW]], %[[AT1]]]
// REDUCE-COUNT-5: gpu.shuffle  idx
// REDUCE: %[[NEXTCARRY:.*]], %{{.*}} = gpu.shuffle  idx %{{.*}}, %c31_i32, %c32_i32 : f32
// REDUCE: scf.yield %[[NEXTCARRY]] : f32

// A scan across rows: a thread per point, its prefix in order.
// REDUCE-LABEL: gpu.func @ew$colcumsum(
// REDUCE-SAME: schedule = "elementwise"
// REDUCE: %[[Q2:.*]]:2 = affine.delinearize_index
// REDUCE-NEXT: %[[END:.*]] = arith.addi %[[Q2]]#0, %c1
// REDUCE-NEXT: scf.for %[[I2:.*]] = %c0 to %[[END]] step %c1
// REDUCE-NEXT: memref.load %arg0[%[[I2]], %[[Q2]]#1]
// The scalar form that convert-ew-to-gpu leaves for ew-vectorize-gpu-loops
// (tested in ew-vectorize-gpu-loops.mlir): the kernel ABI (KernelABI.h),
// every tensor a strided memref in the global address space whose innermost
// stride is 1 unless the variant says otherwise, one grid-stride loop per
// nest over its points in row-major order with index (64-bit) arithmetic,
// the scalar layout it proposes on the loop and the launch descriptor on the
// kernel.

// NAME: gpu.module @kernels
// CHECK:       module attributes {gpu.container_module}
// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @ew$leaky_relu(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32, strided<[1], offset: ?>, 1>, %[[S:[^:]*]]: f32,
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?xf32, strided<[1], offset: ?>, 1>) kernel
// CHECK-SAME:    attributes {ew.launch = #ew.launch<schedule = "elementwise", block_size = 128, elements_per_thread = 1, shared_memory = 0>}
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK-NEXT:    %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[BDIM:.*]] = gpu.block_dim x
// CHECK-NEXT:    %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[GDIM:.*]] = gpu.grid_dim x
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[BID]], %[[BDIM]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.addi %[[OFF]], %[[TID]] : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.muli %[[GDIM]], %[[BDIM]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[START]] to %[[N]] step %[[STEP]] {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[X]][%[[I]]] : memref<?xf32, strided<[1], offset: ?>, 1>
// CHECK-NEXT:      %[[K:.*]] = arith.cmpf oge, %[[V]], %[[Z]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[S]], %[[V]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[K]], %[[V]], %[[M]] : f32
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[I]]] : memref<?xf32, strided<[1], offset: ?>, 1>
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
// CHECK-NEXT:    gpu.return
// CHECK-NOT:   ew.kernel
ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

// -----

// Two kernels share one gpu.module; several results each get a memref, in
// order, after the parameters.
// CHECK:       gpu.module @ewc_kernels
// CHECK-LABEL: gpu.func @ew$first(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?xf64, {{.*}}>, %[[B:[^:]*]]: memref<?xf64, {{.*}}>, %[[O0:[^:]*]]: memref<?xf64, {{.*}}>, %[[O1:[^:]*]]: memref<?xf64, {{.*}}>) kernel
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[VA:.*]] = memref.load %[[A]][%[[I]]]
// CHECK-NEXT:      %[[VB:.*]] = memref.load %[[B]][%[[I]]]
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[VA]], %[[VB]] : f64
// CHECK-NEXT:      %[[DIF:.*]] = arith.subf %[[VA]], %[[VB]] : f64
// CHECK-NEXT:      memref.store %[[SUM]], %[[O0]][%[[I]]]
// CHECK-NEXT:      memref.store %[[DIF]], %[[O1]][%[[I]]]
// CHECK-LABEL: gpu.func @ew$second(
// CHECK:           arith.divf
// CHECK:           arith.negf
ew.kernel @first(%a: !ew.tensor<[n], f64>, %b: !ew.tensor<[n], f64>) -> (!ew.tensor<[n], f64>, !ew.tensor<[n], f64>) {
  %0 = ew.add %a, %b : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %1 = ew.sub %a, %b : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  ew.return %0, %1 : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
}
ew.kernel @second(%a: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = ew.div %a, %a : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %1 = ew.neg %0 : !ew.tensor<[n], f32>
  ew.return %1 : !ew.tensor<[n], f32>
}

// -----

// Broadcasting by name: one nest over the m x n points of the result, its
// flat index delinearized into (row, column) by the extents, which come from
// x, the first tensor with each dimension; b has n only and is read at the
// column.
// CHECK-LABEL: gpu.func @ew$bias_add(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>, %[[B:[^:]*]]: memref<?xf32, strided<[1], offset: ?>, 1>,
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>) kernel
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[M:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK-NEXT:    %[[N:.*]] = memref.dim %[[X]], %[[C1]]
// CHECK-NEXT:    %[[POINTS:.*]] = arith.muli %[[M]], %[[N]] : index
// CHECK:         scf.for %[[F:.*]] = %{{.*}} to %[[POINTS]] step %{{.*}} {
// CHECK-NEXT:      %[[C:.*]]:2 = affine.delinearize_index %[[F]] into (%[[M]], %[[N]]) : index, index
// CHECK-NEXT:      %[[XV:.*]] = memref.load %[[X]][%[[C]]#0, %[[C]]#1]
// CHECK-NEXT:      %[[BV:.*]] = memref.load %[[B]][%[[C]]#1]
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[XV]], %[[BV]] : f32
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[C]]#0, %[[C]]#1]
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
ew.kernel @bias_add(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %1 = ew.add %x, %0 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %1 : !ew.tensor<[m, n], f32>
}

// -----

// index(m) is the point's row coordinate, size(n) the extent, both as i64.
// CHECK-LABEL: gpu.func @ew$idx(
// CHECK:         memref.dim
// CHECK-NEXT:    %[[N:.*]] = memref.dim %{{.*}}, %{{.*}}
// CHECK:           %[[C:.*]]:2 = affine.delinearize_index %{{.*}} into (%{{.*}}, %[[N]])
// CHECK-NEXT:      %[[XV:.*]] = memref.load %{{.*}}[%[[C]]#0, %[[C]]#1]
// CHECK-NEXT:      %[[ROW:.*]] = arith.index_castui %[[C]]#0 : index to i64
// CHECK-NEXT:      %[[ROWF:.*]] = arith.sitofp %[[ROW]] : i64 to f32
// CHECK-NEXT:      %[[SIZE:.*]] = arith.index_castui %[[N]] : index to i64
// CHECK-NEXT:      %[[SIZEF:.*]] = arith.sitofp %[[SIZE]] : i64 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[ROWF]], %[[SIZEF]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[XV]], %[[P]] : f32
// CHECK-NEXT:      memref.store %[[R]], %{{.*}}[%[[C]]#0, %[[C]]#1]
ew.kernel @idx(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %0 = ew.index "m" : <[m], i64>
  %1 = ew.cast %0 : !ew.tensor<[m], i64> to !ew.tensor<[m], f32>
  %2 = ew.size "n" : i64
  %3 = ew.cast %2 : i64 to f32
  %4 = ew.mul %1, %3 : !ew.tensor<[m], f32>, f32
  %5 = ew.broadcast %4 : <[m], f32> to <[m, n], f32>
  %6 = ew.add %x, %5 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %6 : !ew.tensor<[m, n], f32>
}

// -----

// Results of different shapes get a loop each (both with a layout), which
// computes only what its result needs; the launch is one for the kernel.
// CHECK-LABEL: gpu.func @ew$two_nests(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[Y:[^:]*]]: memref<?xi32, {{.*}}>, %[[OX:[^:]*]]: memref<?x?xf32, {{.*}}>, %[[OY:[^:]*]]: memref<?xi32, {{.*}}>)
// CHECK-SAME:    kernel attributes {ew.launch = #ew.launch<
// CHECK:         memref.dim %[[X]]
// CHECK-NEXT:    %[[N:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK:         scf.for
// CHECK-NEXT:      affine.delinearize_index
// CHECK-NEXT:      memref.load %[[X]]
// CHECK-NEXT:      arith.negf
// CHECK-NEXT:      memref.store %{{.*}}, %[[OX]]
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:      memref.load %[[Y]][%[[J]]]
// CHECK-NEXT:      arith.subi
// CHECK-NEXT:      memref.store %{{.*}}, %[[OY]][%[[J]]]
// CHECK-NEXT:    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
ew.kernel @two_nests(%x: !ew.tensor<[m, n], f32>, %y: !ew.tensor<[n], i32>) -> (!ew.tensor<[m, n], f32>, !ew.tensor<[n], i32>) {
  %0 = ew.neg %x : !ew.tensor<[m, n], f32>
  %1 = ew.neg %y : !ew.tensor<[n], i32>
  ew.return %0, %1 : !ew.tensor<[m, n], f32>, !ew.tensor<[n], i32>
}

// -----

// A variant (LaunchPlan.h): the batch as 2 dimensions, and tensor 0 with a
// runtime innermost stride; the output keeps its static unit stride.
// CHECK-LABEL: gpu.func @ew$rows(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>, 1>,
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>, 1>)
// CHECK:           %[[C:.*]]:3 = affine.delinearize_index %{{.*}} into (%{{.*}}, %{{.*}}, %{{.*}}) : index, index, index
// CHECK-NEXT:      memref.load %[[X]][%[[C]]#0, %[[C]]#1, %[[C]]#2]
ew.kernel @rows(%x: !ew.tensor<[..., n], f32>) -> !ew.tensor<[..., n], f32> attributes {ew.batch_rank = 2 : i64, ew.strided_tensors = array<i64: 0>} {
  %0 = ew.neg %x : !ew.tensor<[..., n], f32>
  ew.return %0 : !ew.tensor<[..., n], f32>
}

// -----

// The element code (EwToArith), op by op. Integers use the integer ops
// (signed comparisons, 0 - x for negation); bool elements live in memory as
// bytes.
// CHECK-LABEL: gpu.func @ew$ints(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?xi32, {{.*}}>, %[[K:[^:]*]]: i32, %[[F:[^:]*]]: memref<?xi8, {{.*}}>,
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:           %[[VA:.*]] = memref.load %[[A]]{{.*}} : memref<?xi32
// CHECK-NEXT:      %[[BYTE:.*]] = memref.load %[[F]]{{.*}} : memref<?xi8
// CHECK-NEXT:      %[[VF:.*]] = arith.trunci %[[BYTE]] : i8 to i1
// CHECK-NEXT:      %[[MUL:.*]] = arith.muli %[[VA]], %[[K]] : i32
// CHECK-NEXT:      %[[NEG:.*]] = arith.subi %[[ZERO]], %[[MUL]] : i32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[NEG]], %[[VA]] : i32
// CHECK-NEXT:      %[[NE:.*]] = arith.cmpi ne, %[[LT]], %[[VF]] : i1
// CHECK-NEXT:      %[[ULT:.*]] = arith.cmpi ult, %[[LT]], %[[VF]] : i1
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[NE]], %[[MUL]], %[[NEG]] : i32
// CHECK:           memref.store %[[SEL]], %{{.*}} : memref<?xi32
// CHECK:           %[[OUT:.*]] = arith.extui %[[ULT]] : i1 to i8
// CHECK:           memref.store %[[OUT]], %{{.*}} : memref<?xi8
ew.kernel @ints(%a: !ew.tensor<[n], i32>, %k: i32, %flag: !ew.tensor<[n], i1>) -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i1>) {
  %0 = ew.mul %a, %k : !ew.tensor<[n], i32>, i32
  %1 = ew.neg %0 : !ew.tensor<[n], i32>
  %2 = ew.cmp lt, %1, %a : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %3 = ew.cmp ne, %2, %flag : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %4 = ew.cmp lt, %2, %flag : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %5 = ew.where %3, %0, %1 : !ew.tensor<[n], i1>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %5, %4 : !ew.tensor<[n], i32>, !ew.tensor<[n], i1>
}

// -----

// Float comparisons: ordered, except `ne`, which is unordered (true on NaN).
// CHECK-LABEL: gpu.func @ew$float_predicates(
// CHECK: arith.cmpf oeq,
// CHECK: arith.cmpf une,
// CHECK: arith.cmpf olt,
// CHECK: arith.cmpf ole,
// CHECK: arith.cmpf ogt,
// CHECK: arith.cmpf oge,
ew.kernel @float_predicates(%a: !ew.tensor<[n], f16>, %b: f16) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %0 = ew.cmp eq, %a, %b : !ew.tensor<[n], f16>, f16
  %1 = ew.cmp ne, %a, %b : !ew.tensor<[n], f16>, f16
  %2 = ew.cmp lt, %a, %b : !ew.tensor<[n], f16>, f16
  %3 = ew.cmp le, %a, %b : !ew.tensor<[n], f16>, f16
  %4 = ew.cmp gt, %a, %b : !ew.tensor<[n], f16>, f16
  %5 = ew.cmp ge, %a, %b : !ew.tensor<[n], f16>, f16
  ew.return %0, %1, %2, %3, %4, %5 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
}

// -----

// Integer division never divides by 0 or INT_MIN by -1 (both trap on x86 and
// are undefined in arith): the divisor becomes 1 there, and the ew results
// x / 0 = 0 and x / -1 = 0 - x (wrapping) are selected after.
// CHECK-LABEL: gpu.func @ew$int_div(
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK:           %[[A:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK:           %[[B:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK-NEXT:      %[[ISZ:.*]] = arith.cmpi eq, %[[B]], %[[C0]] : i32
// CHECK-NEXT:      %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %[[CM1]] : i32
// CHECK-NEXT:      %[[SPECIAL:.*]] = arith.ori %[[ISZ]], %[[ISM1]] : i1
// CHECK-NEXT:      %[[DIVISOR:.*]] = arith.select %[[SPECIAL]], %[[C1]], %[[B]] : i32
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[A]], %[[DIVISOR]] : i32
// CHECK-NEXT:      %[[NEG:.*]] = arith.subi %[[C0]], %[[A]] : i32
// CHECK-NEXT:      %[[Q1:.*]] = arith.select %[[ISM1]], %[[NEG]], %[[Q]] : i32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[ISZ]], %[[C0]], %[[Q1]] : i32
// CHECK:           memref.store %[[R]], %{{.*}} : memref<?xi32
ew.kernel @int_div(%a: !ew.tensor<[n], i32>, %b: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  %0 = ew.div %a, %b : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i32>
}

// -----

// max/min are IEEE 754-2019 maximum/minimum on floats, signed on integers;
// abs is math.absf on floats, x < 0 ? 0 - x : x on integers (wrapping).
// CHECK-LABEL: gpu.func @ew$max_min_abs(
// CHECK-SAME:    %{{.*}}: memref<{{.*}}>, %{{.*}}: memref<{{.*}}>, %{{.*}}: memref<{{.*}}>, %[[K:.*]]: i64,
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:           %[[X:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK:           %[[Y:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK:           %[[I:.*]] = memref.load %{{.*}} : memref<?xi64
// CHECK-NEXT:      %[[MAX:.*]] = arith.maximumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[MIN:.*]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[ABS:.*]] = math.absf %[[MAX]] : f32
// CHECK-NEXT:      %[[IMAX:.*]] = arith.maxsi %[[I]], %[[K]] : i64
// CHECK-NEXT:      %[[IMIN:.*]] = arith.minsi %[[I]], %[[K]] : i64
// CHECK-NEXT:      %[[ISNEG:.*]] = arith.cmpi slt, %[[IMAX]], %[[ZERO]] : i64
// CHECK-NEXT:      %[[INEG:.*]] = arith.subi %[[ZERO]], %[[IMAX]] : i64
// CHECK-NEXT:      %[[IABS:.*]] = arith.select %[[ISNEG]], %[[INEG]], %[[IMAX]] : i64
// CHECK:           memref.store %[[ABS]]
// CHECK:           memref.store %[[MIN]]
// CHECK:           memref.store %[[IABS]]
// CHECK:           memref.store %[[IMIN]]
ew.kernel @max_min_abs(%x: !ew.tensor<[n], f32>, %y: !ew.tensor<[n], f32>, %i: !ew.tensor<[n], i64>, %k: i64)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>) {
  %0 = ew.max %x, %y : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %1 = ew.min %x, %y : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %2 = ew.abs %0 : !ew.tensor<[n], f32>
  %3 = ew.max %i, %k : !ew.tensor<[n], i64>, i64
  %4 = ew.min %i, %k : !ew.tensor<[n], i64>, i64
  %5 = ew.abs %3 : !ew.tensor<[n], i64>
  ew.return %2, %1, %5, %4 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>
}

// -----

// CHECK-LABEL: gpu.func @ew$logic(
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK:           %[[P:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK:           %[[Q:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK-NEXT:      %[[AND:.*]] = arith.andi %[[P]], %[[Q]] : i1
// CHECK-NEXT:      %[[OR:.*]] = arith.ori %[[P]], %[[Q]] : i1
// CHECK-NEXT:      %[[NOT:.*]] = arith.xori %[[AND]], %[[TRUE]] : i1
// CHECK-NEXT:      arith.extui %[[NOT]] : i1 to i8
// CHECK:           arith.extui %[[OR]] : i1 to i8
ew.kernel @logic(%p: !ew.tensor<[n], i1>, %q: !ew.tensor<[n], i1>) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %0 = ew.and %p, %q : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %1 = ew.or %p, %q : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %2 = ew.not %0 : !ew.tensor<[n], i1>
  ew.return %2, %1 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
}

// -----

// exp, log, tanh, erf are math ops (libdevice calls after ew-gpu-to-nvvm).
// sqrt is llvm.sqrt called by name, which becomes sqrt.rn (math.sqrt would
// become libdevice's approximate sqrt); rsqrt is 1 / sqrt; sigmoid is
// (x >= 0 ? 1 : t) / (1 + t) with t = exp(-|x|), which cannot overflow.
// CHECK-LABEL: gpu.func @ew$math(
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[X:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK:           %[[D:.*]] = memref.load %{{.*}} : memref<?xf64
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      %[[LOG:.*]] = math.log %[[EXP]] : f32
// CHECK-NEXT:      %[[TANH:.*]] = math.tanh %[[LOG]] : f32
// CHECK-NEXT:      %[[ERF:.*]] = math.erf %[[TANH]] : f32
// CHECK-NEXT:      %[[SQRT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[ERF]]) : (f32) -> f32
// CHECK-NEXT:      %[[ROOT:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[SQRT]]) : (f32) -> f32
// CHECK-NEXT:      %[[RSQRT:.*]] = arith.divf %[[ONE]], %[[ROOT]] : f32
// CHECK-NEXT:      %[[ABS:.*]] = math.absf %[[RSQRT]] : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[ABS]] : f32
// CHECK-NEXT:      %[[T:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT:      %[[DEN:.*]] = arith.addf %[[T]], %[[ONE]] : f32
// CHECK-NEXT:      %[[NONNEG:.*]] = arith.cmpf oge, %[[RSQRT]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[NUM:.*]] = arith.select %[[NONNEG]], %[[ONE]], %[[T]] : f32
// CHECK-NEXT:      %[[SIG:.*]] = arith.divf %[[NUM]], %[[DEN]] : f32
// CHECK-NEXT:      %[[DSQRT:.*]] = llvm.call_intrinsic "llvm.sqrt.f64"(%[[D]]) : (f64) -> f64
// CHECK:           memref.store %[[SIG]], %{{.*}} : memref<?xf32
// CHECK:           memref.store %[[DSQRT]], %{{.*}} : memref<?xf64
ew.kernel @math(%x: !ew.tensor<[n], f32>, %d: !ew.tensor<[n], f64>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f64>) {
  %0 = ew.exp %x : !ew.tensor<[n], f32>
  %1 = ew.log %0 : !ew.tensor<[n], f32>
  %2 = ew.tanh %1 : !ew.tensor<[n], f32>
  %3 = ew.erf %2 : !ew.tensor<[n], f32>
  %4 = ew.sqrt %3 : !ew.tensor<[n], f32>
  %5 = ew.rsqrt %4 : !ew.tensor<[n], f32>
  %6 = ew.sigmoid %5 : !ew.tensor<[n], f32>
  %7 = ew.sqrt %d : !ew.tensor<[n], f64>
  ew.return %6, %7 : !ew.tensor<[n], f32>, !ew.tensor<[n], f64>
}

// -----

// f16 and bf16 compute in f32: operands are extended, a float result is
// rounded back once; a comparison needs no rounding. A bf16 is extended as
// integer code (its bits in f32's top half), never `arith.extf`: LLVM 22's
// InstCombine narrows f32 ops on extended bfloats to half, whose range is
// smaller (EwToArith.cpp, extendToComputeType).
// CHECK-LABEL: gpu.func @ew$halves(
// CHECK-DAG:     %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK:           %[[H:.*]] = memref.load %{{.*}} : memref<?xf16
// CHECK:           %[[B:.*]] = memref.load %{{.*}} : memref<?xbf16
// CHECK-NEXT:      %[[H0:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[H1:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[H0]], %[[H1]] : f32
// CHECK-NEXT:      %[[SUM16:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:      %[[BBITS:.*]] = arith.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:      %[[BWIDE:.*]] = arith.extui %[[BBITS]] : i16 to i32
// CHECK-NEXT:      %[[BSHIFT:.*]] = arith.shli %[[BWIDE]], %[[SIXTEEN]] : i32
// CHECK-NEXT:      %[[BW:.*]] = arith.bitcast %[[BSHIFT]] : i32 to f32
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[BW]] : f32
// CHECK-NEXT:      %[[EXP16:.*]] = arith.truncf %[[EXP]] : f32 to bf16
// CHECK-NOT:       arith.extf %[[B]]
// CHECK:           %[[L:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:           %[[R:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[L]], %[[R]] : f32
// CHECK:           memref.store %[[SUM16]], %{{.*}} : memref<?xf16
// CHECK:           memref.store %[[EXP16]], %{{.*}} : memref<?xbf16
// CHECK:           arith.extui %[[LT]] : i1 to i8
ew.kernel @halves(%h: !ew.tensor<[n], f16>, %b: !ew.tensor<[n], bf16>) -> (!ew.tensor<[n], f16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>) {
  %0 = ew.add %h, %h : !ew.tensor<[n], f16>, !ew.tensor<[n], f16>
  %1 = ew.exp %b : !ew.tensor<[n], bf16>
  %2 = ew.cmp lt, %b, %b : !ew.tensor<[n], bf16>, !ew.tensor<[n], bf16>
  ew.return %0, %1, %2 : !ew.tensor<[n], f16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>
}

// -----

// Float to int truncates and saturates, NaN gives 0: arith.fptosi is poison
// out of range, so selects put INT_MIN below -2^(w-1), INT_MAX from 2^(w-1)
// on and 0 for NaN. Anything to i1 is `!= 0`, unordered (NaN is true).
// CHECK-LABEL: gpu.func @ew$float_to_int(
// CHECK-DAG:     %[[LO:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK-DAG:     %[[HI:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK-DAG:     %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     arith.constant -9.2233720368547758E+18 : f64
// CHECK-DAG:     arith.constant 9.2233720368547758E+18 : f64
// CHECK-DAG:     %[[FZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[X:.*]] = memref.load %{{.*}} : memref<?xf32
// CHECK:           %[[D:.*]] = memref.load %{{.*}} : memref<?xf64
// CHECK-NEXT:      %[[T:.*]] = arith.fptosi %[[X]] : f32 to i32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[LO]] : f32
// CHECK-NEXT:      %[[T1:.*]] = arith.select %[[BELOW]], %[[MIN]], %[[T]] : i32
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpf oge, %[[X]], %[[HI]] : f32
// CHECK-NEXT:      %[[T2:.*]] = arith.select %[[ABOVE]], %[[MAX]], %[[T1]] : i32
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[I32:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[T2]] : i32
// CHECK-NEXT:      arith.fptosi %[[D]] : f64 to i64
// CHECK:           %[[BOOL:.*]] = arith.cmpf une, %[[X]], %[[FZERO]] : f32
// CHECK:           memref.store %[[I32]], %{{.*}} : memref<?xi32
ew.kernel @float_to_int(%x: !ew.tensor<[n], f32>, %d: !ew.tensor<[n], f64>) -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i1>) {
  %0 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
  %1 = ew.cast %d : !ew.tensor<[n], f64> to !ew.tensor<[n], i64>
  %2 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], i1>
  ew.return %0, %1, %2 : !ew.tensor<[n], i32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i1>
}

// -----

// f64 -> bf16 rounds once: to f32 with round-to-odd (truncate toward zero,
// set the last bit if inexact), then to bf16. Every other bf16 conversion goes
// through f32: bf16 -> f64 by two exact extensions (the first as integer
// code), f16 -> bf16 by one extension and one rounding.
// CHECK-LABEL: gpu.func @ew$float_to_float(
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK:           %[[D:.*]] = memref.load %{{.*}} : memref<?xf64
// CHECK:           %[[B:.*]] = memref.load %{{.*}} : memref<?xbf16
// CHECK:           %[[H:.*]] = memref.load %{{.*}} : memref<?xf16
// CHECK-NEXT:      %[[NEAR:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK-NEXT:      %[[BACK:.*]] = arith.extf %[[NEAR]] : f32 to f64
// CHECK-NEXT:      %[[INEXACT:.*]] = arith.cmpf one, %[[BACK]], %[[D]] : f64
// CHECK-NEXT:      %[[ABSD:.*]] = math.absf %[[D]] : f64
// CHECK-NEXT:      %[[ABSB:.*]] = math.absf %[[BACK]] : f64
// CHECK-NEXT:      %[[AWAY:.*]] = arith.cmpf ogt, %[[ABSB]], %[[ABSD]] : f64
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[NEAR]] : f32 to i32
// CHECK-NEXT:      %[[DOWN:.*]] = arith.subi %[[BITS]], %[[C1]] : i32
// CHECK-NEXT:      %[[TRUNC:.*]] = arith.select %[[AWAY]], %[[DOWN]], %[[BITS]] : i32
// CHECK-NEXT:      %[[SET:.*]] = arith.ori %[[TRUNC]], %[[C1]] : i32
// CHECK-NEXT:      %[[ODD:.*]] = arith.select %[[INEXACT]], %[[SET]], %[[TRUNC]] : i32
// CHECK-NEXT:      %[[F:.*]] = arith.bitcast %[[ODD]] : i32 to f32
// CHECK-NEXT:      %[[R0:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK-NEXT:      %[[BBITS:.*]] = arith.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:      %[[BWIDE:.*]] = arith.extui %[[BBITS]] : i16 to i32
// CHECK-NEXT:      %[[BSHIFT:.*]] = arith.shli %[[BWIDE]], %[[SIXTEEN]] : i32
// CHECK-NEXT:      %[[BW:.*]] = arith.bitcast %[[BSHIFT]] : i32 to f32
// CHECK-NEXT:      %[[R1:.*]] = arith.extf %[[BW]] : f32 to f64
// CHECK-NEXT:      %[[HW:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[R2:.*]] = arith.truncf %[[HW]] : f32 to bf16
// CHECK-NEXT:      %[[R3:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK:           memref.store %[[R0]]
// CHECK:           memref.store %[[R1]]
// CHECK:           memref.store %[[R2]]
// CHECK:           memref.store %[[R3]]
ew.kernel @float_to_float(%d: !ew.tensor<[n], f64>, %b: !ew.tensor<[n], bf16>, %h: !ew.tensor<[n], f16>)
    -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], f64>, !ew.tensor<[n], bf16>, !ew.tensor<[n], f32>) {
  %0 = ew.cast %d : !ew.tensor<[n], f64> to !ew.tensor<[n], bf16>
  %1 = ew.cast %b : !ew.tensor<[n], bf16> to !ew.tensor<[n], f64>
  %2 = ew.cast %h : !ew.tensor<[n], f16> to !ew.tensor<[n], bf16>
  %3 = ew.cast %d : !ew.tensor<[n], f64> to !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3 : !ew.tensor<[n], bf16>, !ew.tensor<[n], f64>, !ew.tensor<[n], bf16>, !ew.tensor<[n], f32>
}

// -----

// Integers into f16/bf16 go through f64, and into f16 those from 65520 on
// are set to the infinities they round to (Cast.cpp: LLVM 22's InstCombine
// would drop the overflow); integers sign-extend or truncate; i1 is 0 or 1;
// `!= 0` makes an i1.
// CHECK-LABEL: gpu.func @ew$int_casts(
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 65520 : i32
// CHECK-DAG:     %[[NLIMIT:.*]] = arith.constant -65520 : i32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-DAG:     %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK-DAG:     %[[FZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG:     %[[FONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG:     %[[IZERO:.*]] = arith.constant 0 : i64
// CHECK:           %[[I:.*]] = memref.load %{{.*}} : memref<?xi32
// CHECK:           %[[L:.*]] = memref.load %{{.*}} : memref<?xi64
// CHECK:           %[[P:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK-NEXT:      %[[ID:.*]] = arith.sitofp %[[I]] : i32 to f64
// CHECK-NEXT:      %[[NEAR16:.*]] = arith.truncf %[[ID]] : f64 to f16
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpi sge, %[[I]], %[[LIMIT]] : i32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpi sle, %[[I]], %[[NLIMIT]] : i32
// CHECK-NEXT:      %[[HIGH:.*]] = arith.select %[[ABOVE]], %[[INF]], %[[NEAR16]] : f16
// CHECK-NEXT:      %[[R0:.*]] = arith.select %[[BELOW]], %[[NINF]], %[[HIGH]] : f16
// CHECK-NEXT:      %[[R1:.*]] = arith.sitofp %[[L]] : i64 to f32
// CHECK-NEXT:      %[[R2:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK-NEXT:      %[[R3:.*]] = arith.trunci %[[L]] : i64 to i32
// CHECK-NEXT:      %[[R4:.*]] = arith.extui %[[P]] : i1 to i32
// CHECK-NEXT:      %[[R5:.*]] = arith.select %[[P]], %[[FONE]], %[[FZERO]] : f64
// CHECK-NEXT:      %[[R6:.*]] = arith.cmpi ne, %[[L]], %[[IZERO]] : i64
// CHECK:           memref.store %[[R0]]
// CHECK:           memref.store %[[R1]]
// CHECK:           memref.store %[[R2]]
// CHECK:           memref.store %[[R3]]
// CHECK:           memref.store %[[R4]]
// CHECK:           memref.store %[[R5]]
// CHECK:           arith.extui %[[R6]] : i1 to i8
ew.kernel @int_casts(%i: !ew.tensor<[n], i32>, %l: !ew.tensor<[n], i64>, %p: !ew.tensor<[n], i1>)
    -> (!ew.tensor<[n], f16>, !ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f64>, !ew.tensor<[n], i1>) {
  %0 = ew.cast %i : !ew.tensor<[n], i32> to !ew.tensor<[n], f16>
  %1 = ew.cast %l : !ew.tensor<[n], i64> to !ew.tensor<[n], f32>
  %2 = ew.cast %i : !ew.tensor<[n], i32> to !ew.tensor<[n], i64>
  %3 = ew.cast %l : !ew.tensor<[n], i64> to !ew.tensor<[n], i32>
  %4 = ew.cast %p : !ew.tensor<[n], i1> to !ew.tensor<[n], i32>
  %5 = ew.cast %p : !ew.tensor<[n], i1> to !ew.tensor<[n], f64>
  %6 = ew.cast %l : !ew.tensor<[n], i64> to !ew.tensor<[n], i1>
  ew.return %0, %1, %2, %3, %4, %5, %6 : !ew.tensor<[n], f16>, !ew.tensor<[n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f64>, !ew.tensor<[n], i1>
}

// -----

// A parameter returned unchanged is a copy; a scalar returned for a tensor
// result is stored at every index.
// CHECK-LABEL: gpu.func @ew$fill(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?xf32, {{.*}}>, %[[S:[^:]*]]: f32, %[[OUT0:[^:]*]]: memref<?xf32, {{.*}}>, %[[OUT1:[^:]*]]: memref<?xf32, {{.*}}>)
// CHECK:           scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT:      memref.store %[[V]], %[[OUT0]][%[[I]]]
// CHECK-NEXT:      memref.store %[[S]], %[[OUT1]][%[[I]]]
ew.kernel @fill(%x: !ew.tensor<[n], f32>, %s: f32) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  ew.return %x, %s : !ew.tensor<[n], f32>, f32
}

// -----

// Two results of different shapes: one loop nest each, and each nest has the
// code of its own result only. The [m] nest loads nothing of x and computes
// no log or sqrt: once it had the whole element function, with ub.poison for
// x, kept alive by the sqrt's llvm.call_intrinsic (not pure to MLIR), and
// libdevice's logf inlined into a branch on that poison let LLVM drop the
// nest (ewc-fuzz on the H200, seed 16, program 552: result 0 never written).
// CHECK-LABEL: gpu.func @ew$two_nests(
// CHECK-NOT:     ub.poison
// CHECK:         scf.for
// CHECK-NEXT:      %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[E]]
// CHECK-NEXT:    } {ew.layout
// CHECK:         scf.for
// CHECK:           math.log
// CHECK:           llvm.call_intrinsic "llvm.sqrt.f32"
// CHECK-NOT:       math.exp
// CHECK:         } {ew.layout
ew.kernel @two_nests(%arg0: !ew.tensor<[m, n], f32>, %arg1: f32) -> (!ew.tensor<[m], f32>, !ew.tensor<[n, m], f32>) {
  %0 = ew.exp %arg1 : f32
  %1 = ew.log %arg0 : !ew.tensor<[m, n], f32>
  %2 = ew.sqrt %1 : !ew.tensor<[m, n], f32>
  %3 = ew.broadcast %2 : <[m, n], f32> to <[n, m], f32>
  ew.return %0, %3 : f32, !ew.tensor<[n, m], f32>
}

// -----

// The tiled variant (ew.tiled_tensors, ewc/ABI/TiledAccess.h): the nest
// that reads y across its rows loops over 64 x 64 tiles of its two
// innermost dimensions with a grid stride; y is staged into a padded
// workgroup buffer along its own contiguous dimension (thread column tx
// walks y's m), a barrier, and the points are computed along the result's
// (tx walks n), y read back from the buffer transposed, x from memory; a
// barrier before the next tile. A full tile runs unguarded, every point's
// loads before the first store (the stores may alias), an edge tile
// tests each point. The kernel requires its 256 threads; its grid is its
// tiles (schedule "tiled").

// tile-size (a knob for measuring): 32 x 32 tiles, 4 points per thread.
// TILE32-LABEL: gpu.func @ew$transpose_add(
// TILE32-SAME:    workgroup(%{{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>) kernel
// TILE32-SAME:    ew.launch = #ew.launch<schedule = "tiled", block_size = 256, elements_per_thread = 4, shared_memory = 0>
// TILE32:         } {ew.layout = #ew.tiled<threads = 256, tile = 32>}

// CHECK-LABEL: gpu.func @ew$transpose_add(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>, %[[Y:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>,
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>)
// CHECK-SAME:    workgroup(%[[BUF:.*]] : memref<64x65xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-SAME:    ew.launch = #ew.launch<schedule = "tiled", block_size = 256, elements_per_thread = 16, shared_memory = 0>
// CHECK-SAME:    known_block_size = array<i32: 256, 1, 1>
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[M:.*]] = memref.dim %[[X]], %c0
// CHECK-DAG:     %[[N:.*]] = memref.dim %[[X]], %c1
// CHECK:         %[[TM:.*]] = arith.ceildivui %[[M]], %[[C64]] : index
// CHECK-NEXT:    %[[TN:.*]] = arith.ceildivui %[[N]], %[[C64]] : index
// CHECK-NEXT:    %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]] : index
// CHECK-NEXT:    %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[TX:.*]] = arith.remui %[[TID]], %[[C64]] : index
// CHECK-NEXT:    %[[TY:.*]] = arith.divui %[[TID]], %[[C64]] : index
// CHECK-NEXT:    %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[GDIM:.*]] = gpu.grid_dim x
// CHECK-NEXT:    scf.for %[[T:.*]] = %[[BID]] to %[[TILES]] step %[[GDIM]] {
// CHECK-NEXT:      %[[TC:.*]]:2 = affine.delinearize_index %[[T]] into (%[[TM]], %[[TN]])
// CHECK-NEXT:      %[[R0:.*]] = arith.muli %[[TC]]#0, %[[C64]] : index
// CHECK-NEXT:      %[[C0:.*]] = arith.muli %[[TC]]#1, %[[C64]] : index
// CHECK:           %[[FULL:.*]] = arith.andi
// CHECK-NEXT:      %[[SR:.*]] = arith.addi %[[R0]], %[[TX]] : index
// CHECK-NEXT:      %[[SC:.*]] = arith.addi %[[C0]], %[[TY]] : index
// CHECK-NEXT:      %[[TY4:.*]] = arith.addi %[[TY]], %[[C4]] : index
// CHECK:           scf.if %[[FULL]] {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[Y]][%[[SC]], %[[SR]]]
// CHECK-COUNT-15:    memref.load %[[Y]]
// CHECK-NEXT:        memref.store %[[V]], %[[BUF]][%[[TY]], %[[TX]]]
// CHECK-NEXT:        memref.store %{{.*}}, %[[BUF]][%[[TY4]], %[[TX]]]
// CHECK-COUNT-14:    memref.store %{{.*}}, %[[BUF]]
// CHECK-NEXT:      } else {
// CHECK-COUNT-16:    scf.if
// CHECK:           gpu.barrier
// CHECK-NEXT:      %[[PR:.*]] = arith.addi %[[R0]], %[[TY]] : index
// CHECK-NEXT:      %[[PC:.*]] = arith.addi %[[C0]], %[[TX]] : index
// CHECK:           scf.if %[[FULL]] {
// CHECK-NEXT:        %[[YV:.*]] = memref.load %[[BUF]][%[[TX]], %[[TY]]]
// CHECK-NEXT:        %[[XV:.*]] = memref.load %[[X]][%[[PR]], %[[PC]]]
// CHECK-COUNT-15:    memref.load %[[BUF]]
// CHECK-NEXT:        memref.load %[[X]]
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[XV]], %[[YV]] : f32
// CHECK-NEXT:        memref.store %[[SUM]], %[[OUT]][%[[PR]], %[[PC]]]
// CHECK-COUNT-15:    memref.store %{{.*}}, %[[OUT]]
// CHECK-NEXT:      } else {
// CHECK-COUNT-16:    scf.if
// CHECK:           gpu.barrier
// CHECK-NEXT:    } {ew.layout = #ew.tiled<threads = 256, tile = 64>}
// CHECK-NEXT:    gpu.return
ew.kernel @transpose_add(%x: !ew.tensor<[m, n], f32>, %y: !ew.tensor<[n, m], f32>) -> !ew.tensor<[m, n], f32> attributes {ew.tiled_tensors = array<i64: 1>} {
  %yt = ew.broadcast %y : <[n, m], f32> to <[m, n], f32>
  %sum = ew.add %x, %yt : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %sum : !ew.tensor<[m, n], f32>
}

// -----

// Staged are only the listed tensors that the nest's results read, of the
// nest's dimensions: y (unused, and with a dimension k the nest lacks) is
// not, z is (ewc-fuzz, seed 23: staging y crashed the compiler).

// CHECK-LABEL: gpu.func @ew$extra(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>, %[[Y:[^:]*]]: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>, 1>, %[[Z:[^:]*]]: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>,
// CHECK-SAME:    workgroup(%[[BUF:[^ ]*]] : memref<64x65xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-NOT:     memref.load %[[Y]]
// CHECK:         memref.load %[[Z]]
// CHECK-NOT:     memref.load %[[Y]]
// CHECK:         gpu.return
ew.kernel @extra(%x: !ew.tensor<[m, n], f32>, %y: !ew.tensor<[k, n, m], f32>, %z: !ew.tensor<[n, m], f32>) -> !ew.tensor<[m, n], f32> attributes {ew.tiled_tensors = array<i64: 1, 2>} {
  %zt = ew.broadcast %z : <[n, m], f32> to <[m, n], f32>
  %sum = ew.add %x, %zt : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %sum : !ew.tensor<[m, n], f32>
}

// -----

// ew.tiled_tensors names tensors the nest reads across its rows; a tensor
// without both innermost dimensions (b) is not staged, and the nest is the
// grid-stride loop.

// CHECK-LABEL: gpu.func @ew$bias_not_staged(
// CHECK-NOT:     workgroup
// CHECK-SAME:    ew.launch = #ew.launch<schedule = "elementwise"
// CHECK:         } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
ew.kernel @bias_not_staged(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> attributes {ew.tiled_tensors = array<i64: 1>} {
  %bb = ew.broadcast %b : <[n], f32> to <[m, n], f32>
  %sum = ew.add %x, %bb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %sum : !ew.tensor<[m, n], f32>
}

// -----

// A module without kernels is left alone: no empty gpu.module.
// CHECK-LABEL: func.func @no_kernels
// CHECK-NOT:   gpu.module
func.func @no_kernels() {
  return
}

// A nest of scans alone takes a workspace after the ABI's arguments; the
// variant with ew.split_scans (the runtime's for few long rows) splits its
// rows into tiles (ScanAccess.h), the default is a warp per row (REDUCE
// above). The tiles are drawn from the workspace's counter by
// thread 0 and shared; S = max(ceil(n / 1024), gridDim / rows) tiles a row,
// each of ceil(n / S) elements; a warp scans 256 of them as the warp per
// row does, the block its 4 warps' totals in order; the first warp
// publishes the tile's aggregate (flag 1, after a release fence), looks
// back 32 tiles at a time (each lane waiting for its tile's flag, then the
// value after an acquire fence), takes the lowest lane with a prefix
// (flag 2) as the window's bound, folds the window oldest first with
// shuffles down, and publishes the inclusive prefix; the block adds it.
// SCANS-LABEL: gpu.func @ew$cumsum(
// SCANS-SAME: %[[WS:arg2]]: !llvm.ptr<1>)
// SCANS-SAME: workgroup(%[[DRAWN:.*]] : memref<1xi64, #gpu.address_space<workgroup>>, %[[TOTALS:.*]] : memref<4xf32, #gpu.address_space<workgroup>>, %[[PREFIX:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// SCANS-SAME: #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1, shared_memory = 0, row_dims = {{\[}}["n"]], workspace = 1>
// SCANS: %[[ROWS:.*]] = memref.dim %arg0, %c0
// SCANS: %[[N:.*]] = memref.dim %arg0, %c1
// SCANS-NOT: gpu.block_id
// SCANS: %[[GRID:.*]] = gpu.grid_dim  x
// SCANS: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// SCANS-NEXT: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// SCANS-NEXT: %[[LEAST:.*]] = arith.ceildivui %[[N]], %c2048
// SCANS-NEXT: %[[R1:.*]] = arith.maxui %[[ROWS]], %c1
// SCANS-NEXT: %[[BYGRID:.*]] = arith.divui %[[GRID]], %[[R1]]
// SCANS-NEXT: %[[MOST:.*]] = arith.maxui %[[LEAST]], %[[BYGRID]]
// SCANS-NEXT: %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %c0
// SCANS-NEXT: %[[S:.*]] = arith.select %[[EMPTY]], %c0, %[[MOST]]
// SCANS-NEXT: %[[TILES:.*]] = arith.muli %[[ROWS]], %[[S]]
// SCANS-NEXT: %[[S1:.*]] = arith.maxui %[[S]], %c1
// SCANS-NEXT: %[[SEG:.*]] = arith.ceildivui %[[N]], %[[S1]]
// SCANS: scf.while (%[[AGAIN:.*]] = %true) : (i1) -> index {
// SCANS-NEXT: %[[DRAW:.*]] = arith.andi %[[AGAIN]], %{{.*}} : i1
// SCANS-NEXT: scf.if %[[DRAW]] {
// SCANS-NEXT: %[[COUNT:.*]] = llvm.atomicrmw add %[[WS]], %c1_i64 syncscope("device") monotonic
// SCANS-NEXT: memref.store %[[COUNT]], %[[DRAWN]][%c0]
// SCANS: gpu.barrier
// SCANS-NEXT: %[[D:.*]] = memref.load %[[DRAWN]][%c0]
// SCANS-NEXT: %[[T:.*]] = arith.index_castui %[[D]]
// SCANS-NEXT: %[[LEFT:.*]] = arith.cmpi ult, %[[T]], %[[TILES]]
// SCANS-NEXT: %[[MORE:.*]] = arith.andi %[[AGAIN]], %[[LEFT]]
// SCANS-NEXT: scf.condition(%[[MORE]]) %[[T]]
// SCANS: ^bb0(%[[TILE:.*]]: index):
// SCANS-NEXT: %[[ROW:.*]] = arith.divui %[[TILE]], %[[S]]
// SCANS-NEXT: %[[J:.*]] = arith.remui %[[TILE]], %[[S]]
// SCANS-NEXT: %[[START:.*]] = arith.muli %[[J]], %[[SEG]]
// SCANS-NEXT: %[[STOP:.*]] = arith.addi %[[START]], %[[SEG]]
// SCANS-NEXT: %[[END:.*]] = arith.minui %[[N]], %[[STOP]]
// SCANS-NEXT: %[[SPAN:.*]] = arith.muli %[[WARP]], %c512
// SCANS-NEXT: %[[BASE:.*]] = arith.addi %[[START]], %[[SPAN]]
// SCANS-NEXT: %[[LAST:.*]] = arith.subi %[[N]], %c1
// SCANS-NEXT: %[[K:.*]] = arith.addi %[[BASE]], %[[LANE]]
// SCANS-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[K]], %[[END]]
// SCANS-NEXT: %[[AT:.*]] = arith.select %[[IN]], %[[K]], %[[LAST]]
// SCANS-NEXT: %[[X:.*]] = memref.load %arg0[%[[ROW]], %[[AT]]]
// SCANS-COUNT-15: memref.load %arg0
// SCANS: %[[V0:.*]] = arith.select %[[IN]], %[[X]], %cst
// SCANS-COUNT-5: gpu.shuffle  up
// SCANS: %[[LOCAL0:.*]] = arith.addf %{{.*}}, %cst : f32
// SCANS-COUNT-15: gpu.shuffle  idx %{{.*}}, %c31_i32
// SCANS: %[[WTOTAL:.*]], %{{.*}} = gpu.shuffle  idx %{{.*}}, %c31_i32
// SCANS-NEXT: scf.if %[[ISLANE0:.*]] {
// SCANS-NEXT: memref.store %[[WTOTAL]], %[[TOTALS]][%[[WARP]]]
// SCANS: gpu.barrier
// SCANS-NEXT: %[[BEFORE:.*]] = scf.for %[[W:.*]] = %c0 to %[[WARP]] step %c1 iter_args(%[[ACC:.*]] = %cst) -> (f32) {
// SCANS-NEXT: %[[TW:.*]] = memref.load %[[TOTALS]][%[[W]]]
// SCANS-NEXT: %[[ACC1:.*]] = arith.addf %[[ACC]], %[[TW]]
// SCANS-NEXT: scf.yield %[[ACC1]]
// SCANS: scf.if %[[ISWARP0:.*]] {
// SCANS-COUNT-4: memref.load %[[TOTALS]]
// SCANS: %[[SUM:.*]] = arith.addf
// SCANS-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[J]], %c0
// SCANS-NEXT: %[[EXCL:.*]] = scf.if %[[FIRST]] -> (f32) {
// SCANS-NEXT: scf.yield %cst
// SCANS-NEXT: } else {
// SCANS-NEXT: scf.if %[[ISLANE0]] {
// The packed protocol (f32: the flag in each value word's high half, one
// volatile store, no fence).
// SCANS: %[[AGGW:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// SCANS-NEXT: %[[AGG64:.*]] = arith.extui %[[AGGW]] : i32 to i64
// SCANS-NEXT: %[[AGGF:.*]] = arith.ori %[[AGG64]], %c4294967296_i64
// SCANS-NEXT: llvm.store volatile %[[AGGF]], %{{.*}} {alignment = 8 : i64}
// SCANS-NOT: llvm.fence
// SCANS: %[[ROWFIRST:.*]] = arith.subi %[[TILE]], %[[J]]
// SCANS: scf.while (%[[WEND:.*]] = %[[J]], %[[FOUND:.*]] = %false, %[[LATER:.*]] = %cst)
// SCANS-NEXT: %[[GO:.*]] = arith.xori %[[FOUND]], %true
// SCANS: %[[INROW:.*]] = arith.cmpi ult, %[[LANE]], %{{.*}}
// SCANS: %[[SEEN:.*]]:2 = scf.if %[[INROW]] -> (i64, f32) {
// SCANS-NEXT: %[[POLL:.*]]:3 = scf.while : () -> (i1, i64, f32) {
// SCANS: %[[PW:.*]] = llvm.load volatile
// SCANS-NEXT: %[[PF:.*]] = arith.shrui %[[PW]], %c32_i64
// SCANS-NEXT: %[[HASP:.*]] = arith.cmpi ne, %[[PF]], %c0_i64
// SCANS: %[[AW:.*]] = llvm.load volatile
// SCANS-NEXT: %[[AF:.*]] = arith.shrui %[[AW]], %c32_i64
// SCANS-NEXT: %[[HASA:.*]] = arith.cmpi ne, %[[AF]], %c0_i64
// SCANS: %[[READY:.*]] = arith.ori %[[HASP]], %[[HASA]]
// SCANS-NEXT: %[[WAIT:.*]] = arith.xori %[[READY]], %true
// SCANS-NEXT: %[[KIND:.*]] = arith.select %[[HASP]], %c2_i64, %c1_i64
// SCANS-NEXT: %[[VAL:.*]] = arith.select %[[HASP]]
// SCANS-NEXT: scf.condition(%[[WAIT]]) %[[READY]], %[[KIND]], %[[VAL]]
// SCANS: scf.yield %[[POLL]]#1, %[[POLL]]#2
// SCANS-NEXT: } else {
// SCANS-NEXT: scf.yield %c2_i64, %cst
// SCANS-NOT: llvm.fence
// SCANS: %[[ISPREFIX:.*]] = arith.cmpi eq, %[[SEEN]]#0, %c2_i64
// SCANS: %[[CAND:.*]] = arith.select %[[ISPREFIX]], %{{.*}}, %c32_i32
// SCANS-COUNT-5: gpu.shuffle  xor
// SCANS: %[[BOUND:.*]] = arith.minui
// SCANS-NEXT: %[[INWIN:.*]] = arith.cmpi ule, %{{.*}}, %[[BOUND]]
// SCANS-NEXT: %[[DONE:.*]] = arith.cmpi ult, %[[BOUND]], %c32_i32
// SCANS-NEXT: %[[MASKED:.*]] = arith.select %[[INWIN]], %[[SEEN]]#1, %cst
// SCANS-NEXT: %[[OLDER:.*]], %{{.*}} = gpu.shuffle  down %[[MASKED]], %c1_i32, %c32_i32
// SCANS-NEXT: %[[L1:.*]] = arith.addi %[[LANE]], %c1
// SCANS-NEXT: %[[HAS:.*]] = arith.cmpi ult, %[[L1]], %c32
// SCANS-NEXT: %[[PAIR:.*]] = arith.addf %[[OLDER]], %[[MASKED]]
// SCANS-NEXT: arith.select %[[HAS]], %[[PAIR]], %[[MASKED]]
// SCANS-COUNT-4: gpu.shuffle  down
// SCANS: %[[WIN:.*]], %{{.*}} = gpu.shuffle  idx %{{.*}}, %c0_i32, %c32_i32
// SCANS-NEXT: %[[ALL:.*]] = arith.addf %[[WIN]], %[[LATER]]
// SCANS-NEXT: %[[BACK:.*]] = arith.subi %[[WEND]], %c32
// SCANS-NEXT: %[[NEXTEND:.*]] = arith.select %[[DONE]], %[[WEND]], %[[BACK]]
// SCANS-NEXT: scf.yield %[[NEXTEND]], %[[DONE]], %[[ALL]]
// SCANS: %[[INCL:.*]] = arith.addf %[[EXCL]], %[[SUM]]
// SCANS-NEXT: scf.if %[[ISLANE0]] {
// SCANS: %[[INCLW:.*]] = arith.bitcast %[[INCL]] : f32 to i32
// SCANS-NEXT: %[[INCL64:.*]] = arith.extui %[[INCLW]] : i32 to i64
// SCANS-NEXT: %[[INCLF:.*]] = arith.ori %[[INCL64]], %c8589934592_i64
// SCANS-NEXT: llvm.store volatile %[[INCLF]]
// SCANS-NEXT: memref.store %[[EXCL]], %[[PREFIX]][%c0]
// SCANS: gpu.barrier
// SCANS-NEXT: %[[TP:.*]] = memref.load %[[PREFIX]][%c0]
// SCANS-NEXT: %[[P:.*]] = arith.addf %[[TP]], %[[BEFORE]]
// SCANS-NEXT: %[[OUT0:.*]] = arith.addf %[[P]], %[[LOCAL0]]
// SCANS-NEXT: scf.if %[[IN]] {
// SCANS-NEXT: memref.store %[[OUT0]], %arg1[%[[ROW]], %[[AT]]]
// SCANS-COUNT-15: memref.store %{{.*}}, %arg1
// A grid of a block per tile draws once.
// SCANS: %[[SHORT:.*]] = arith.cmpi ult, %[[GRID]], %[[TILES]]
// SCANS-NEXT: scf.yield %[[SHORT]] : i1
// SCANS-NOT: gpu.block_id
// SCANS: gpu.return

// Online groups (CombineLoops.cpp): logsumexp's max and sum of exponentials
// in one pass of the warp per row, in the variant of long rows (blocks of
// 512, RowAccess.h's kRowsOnlineMinBlock). The lane's loop carries (max,
// sum): an iteration's 8 loads (one at a time: no runs in an online
// group's pass, CombineLoops.cpp says why), their max, the reference (0 while the max is
// -inf), one rescale of the sum by exp(old max - reference), then each
// element's exponential added; across the lanes the max first, each lane's
// sum rescaled once to it, then the sums; a row whose max ends -inf gets the
// program's NaN.
// ONLINE-LABEL: gpu.func @ew$lse(
// ONLINE-SAME: block_size = 512
// ONLINE: %[[LANE:.*]]:2 = scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%[[M:.*]] = %[[NEGINF:.*]], %[[S:.*]] = %[[ZERO:.*]]) -> (f32, f32) {
// ONLINE-COUNT-8: memref.load %arg0
// ONLINE: %[[M1:.*]] = arith.maximumf %[[M]], %[[X0:.*]] : f32
// ONLINE-COUNT-7: arith.maximumf
// ONLINE-NEXT: %[[NONE:.*]] = arith.cmpf oeq, %[[MAX:.*]], %[[NEGINF]] : f32
// ONLINE-NEXT: %[[REF:.*]] = arith.select %[[NONE]], %[[ZERO]], %[[MAX]] : f32
// ONLINE-NEXT: %[[D:.*]] = arith.subf %[[M]], %[[REF]] : f32
// ONLINE-NEXT: %[[F:.*]] = math.exp %[[D]] : f32
// ONLINE-NEXT: %[[SCALED:.*]] = arith.mulf %[[S]], %[[F]] {ew.online_rescale} : f32
// ONLINE-NEXT: %[[D0:.*]] = arith.subf %[[X0]], %[[REF]] : f32
// ONLINE-NEXT: %[[E0:.*]] = math.exp %[[D0]] : f32
// ONLINE-NEXT: %[[S1:.*]] = arith.addf %[[SCALED]], %[[E0]] : f32
// ONLINE-COUNT-7: math.exp
// ONLINE: scf.yield %[[MAX]], %{{.*}} : f32, f32
// ONLINE: %[[TAIL:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[LANE]]#0, %{{.*}} = %[[LANE]]#1) -> (f32, f32) {
// ONLINE: {ew.online_rescale}
// ONLINE: %[[OM:.*]], %{{.*}} = gpu.shuffle  xor %[[TAIL]]#0, %c16_i32, %c32_i32 : f32
// ONLINE-NEXT: %[[BM:.*]] = arith.maximumf %[[TAIL]]#0, %[[OM]] : f32
// ONLINE-COUNT-4: gpu.shuffle  xor
// ONLINE: %[[ROWMAX:.*]] = arith.maximumf
// ONLINE-NEXT: %[[BNONE:.*]] = arith.cmpf oeq, %[[ROWMAX]], %[[NEGINF]] : f32
// ONLINE-NEXT: %[[BREF:.*]] = arith.select %[[BNONE]], %[[ZERO]], %[[ROWMAX]] : f32
// ONLINE-NEXT: %[[BD:.*]] = arith.subf %[[TAIL]]#0, %[[BREF]] : f32
// ONLINE-NEXT: %[[BF:.*]] = math.exp %[[BD]] : f32
// ONLINE-NEXT: %[[MINE:.*]] = arith.mulf %[[TAIL]]#1, %[[BF]] {ew.online_rescale} : f32
// ONLINE-NEXT: %[[OS:.*]], %{{.*}} = gpu.shuffle  xor %[[MINE]], %c16_i32, %c32_i32 : f32
// ONLINE-NEXT: arith.addf %[[MINE]], %[[OS]] : f32
// ONLINE-COUNT-4: gpu.shuffle  xor %{{.*}}, %c{{[0-9]+}}_i32, %c32_i32 : f32
// ONLINE: %[[SOME:.*]] = arith.cmpi ne, %{{.*}}, %c0 : index
// ONLINE-NEXT: %[[ALLNEG:.*]] = arith.cmpf oeq, %[[ROWMAX]], %[[NEGINF]] : f32
// ONLINE-NEXT: %[[UNDEF:.*]] = arith.andi %[[SOME]], %[[ALLNEG]] : i1
// ONLINE-NEXT: %[[SUM:.*]] = arith.select %[[UNDEF]], %{{.*}}, %{{.*}} : f32
// ONLINE: math.log %[[SUM]]
// The other factor of attention's sum multiplies each exponential.
// ONLINE-LABEL: gpu.func @ew$weighted(
// ONLINE: arith.mulf %{{.*}}, %{{.*}} {ew.online_rescale} : f32
// ONLINE-NEXT: arith.subf
// ONLINE-NEXT: %[[WE:.*]] = math.exp %{{.*}} : f32
// ONLINE-NEXT: %[[WT:.*]] = arith.mulf %{{.*}}, %[[WE]] : f32
// ONLINE-NEXT: arith.addf %{{.*}}, %[[WT]] : f32
// An exponential not of the max's operand: two passes, no rescale.
// ONLINE-LABEL: gpu.func @ew$shifted(
// ONLINE-NOT: ew.online_rescale
// ONLINE: gpu.return
// The default variant (blocks of 128, rows of up to 4096) keeps two passes.
// ONLINE128-LABEL: gpu.func @ew$lse(
// ONLINE128-SAME: block_size = 128
// ONLINE128-NOT: ew.online_rescale
// ONLINE128: gpu.return
