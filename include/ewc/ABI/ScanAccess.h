//===- ScanAccess.h - Scans split across blocks ----------------*- C++ -*-===//
//
// A kernel whose one nest scans along a tensor's contiguous dimension (a row
// cumsum, the 1-D cumsum of a vector) gets the rows schedule's warp per row
// (RowAccess.h); when its rows are too few to fill the GPU with a warp each
// (the 1-D cumsum has one), the runtime **splits each row into tiles**, a
// block per tile, that meet in a workspace by CUB's decoupled look-back
// (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016):
//
//   a block draws its tile t (a counter in the workspace: tiles are taken
//   in order, so a tile's predecessors always belong to running blocks and
//   the look-back cannot wait on a block that never starts), row t / S,
//   tile j = t mod S of the row's S tiles of ceil(L / S) elements;
//   each warp scans its 32 x kRowScanUnroll elements as the rows schedule
//   does, the block its warps' totals in order through shared memory;
//   the first warp publishes the tile's aggregate (flag 1), looks back over
//   the row's earlier tiles 32 at a time (one a lane) until one has
//   published its inclusive prefix (flag 2), folds what it saw in index
//   order, and publishes the tile's inclusive prefix; the block then adds
//   the prefix to its elements and stores them.
//
// Each element is read once and written once. The prefix of a tile folds
// the earlier tiles' aggregates as far back as the first ready prefix, which
// depends on timing: a float sum is then one of several orders, each within
// the bound of docs/language.md, not the same bits from run to run (as CUB's
// DeviceScan); integer scans, max and min are exact.
//
// What it assumes and how it is launched is stated here once, for the two
// that decide by it: convert-ew-to-gpu, which builds the loop, and the
// runtime, which chooses the splits and sizes the grid and the workspace
// (LaunchShape.h). The kernel takes the workspace after the ABI's arguments
// (#ew.launch's `workspace` is its scans' count); a null workspace means a
// warp per row.
//
// Pure C++, like the rest of lib/ABI.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_SCANACCESS_H
#define EWC_ABI_SCANACCESS_H

#include "ewc/ABI/RowAccess.h"

#include <cstdint>

namespace ewc {

/// A tile's flags in the workspace: not yet published, its aggregate (the
/// combination of its own elements), its inclusive prefix (of the row up to
/// its last element).
constexpr uint64_t kScanFlagNone = 0;
constexpr uint64_t kScanFlagAggregate = 1;
constexpr uint64_t kScanFlagPrefix = 2;

/// Scans split into tiles run in blocks of 512 (the rows schedule's variant
/// of long rows, kRowsMaxBlockSize), whatever the row's length: a tile's
/// phases (the draw, the loads, the block's combine, the look-back by one
/// warp, the stores) follow one another within a block, so what a tile has
/// in flight is its elements. Measured on the H200 (2026-12-04, % of the
/// copy, the 1-D cumsum of 2^28 f32): 16 chunks a warp in blocks of 128,
/// 256 and 512 (tiles of 2048, 4096, 8192) ran at 27.6 / 22.1 / 35.6%,
/// 256 rows of 2^20 at 27.4 / 21.6 / 34.2% (pack of 85e3ae9); with 8
/// chunks, 23.8 / 22.5 / 23.7% (pack of 9c5fd89).
constexpr unsigned kScanSplitBlockSize = kRowsMaxBlockSize;

/// The chunks of 32 a warp of a tile loads before it scans the first (the
/// warp per row's step has kRowScanUnroll), held in registers until the
/// tile's prefix is known. A tile's block lives through a draw, its loads,
/// its look-back and its stores, so what it has in flight is its chunks:
/// with 8 (the warp per row's), the 1-D cumsum of 2^28 f32 ran at 23.8% of
/// the copy whatever the block (128, 256 or 512 threads: 22.5-23.8%; H200,
/// 2026-12-04, pack of 9c5fd89).
constexpr unsigned kScanTileChunks = 2 * kRowScanUnroll;

/// The elements a tile of a block of `blockSize` threads holds: each warp's
/// kScanTileChunks chunks of 32.
constexpr uint64_t getScanTileElements(unsigned blockSize) {
  return uint64_t(blockSize) * kScanTileChunks;
}

/// The fewest tiles per row for rows of `rowLength` elements: a tile holds
/// at most getScanTileElements.
constexpr uint64_t getScanMinSplits(uint64_t rowLength, unsigned blockSize) {
  uint64_t tile = getScanTileElements(blockSize);
  return rowLength / tile + (rowLength % tile != 0);
}

/// The most rows per SM that a launch splits into tiles. Measured on the
/// H200 (2026-12-04, pack of 2b0b0c4, the packed protocol; % of the copy,
/// f32): the tiles ran the 1-D cumsum of 2^28 at 23.8% and 256 rows of
/// 2^20 at 22.2% (a warp per row: 13.5%), but 2048 rows of 131072 at
/// 23.5% and 8192 of 32768 at 26.4% where a warp per row ran them at 76%:
/// a tile's block lives through a draw, its loads, a look-back and its
/// stores with 8 elements a lane in flight, a warp per row streams. Two
/// rows per SM (264 on the H200) keep a warp per row from 2048 rows up and
/// split 256.
constexpr uint64_t kScanSplitMaxRowsPerSM = 2;

/// The tiles per row of a launch of `rows` rows of `rowLength` elements in
/// blocks of `blockSize`, on a device with `multiprocessorCount` SMs of
/// `maxThreadsPerMultiprocessor` threads: 1 (a warp per row, no workspace)
/// for more than kScanSplitMaxRowsPerSM rows per SM, or where a row fits
/// one tile; else a tile per getScanTileElements of the row.
constexpr uint64_t chooseScanSplits(uint64_t rows, uint64_t rowLength,
                                    unsigned blockSize,
                                    unsigned multiprocessorCount,
                                    unsigned maxThreadsPerMultiprocessor) {
  (void)maxThreadsPerMultiprocessor;
  if (rows > uint64_t(multiprocessorCount ? multiprocessorCount : 1) *
                 kScanSplitMaxRowsPerSM)
    return 1;
  uint64_t splits = getScanMinSplits(rowLength, blockSize);
  return splits > 1 ? splits : 1;
}

/// What the kernel derives from its grid: S = max(getScanMinSplits,
/// gridDim / rows) tiles per row (any grid is correct: the blocks draw
/// tiles until none is left), none for an empty row.
constexpr uint64_t getScanSplits(uint64_t rows, uint64_t rowLength,
                                 unsigned blockSize, uint64_t grid) {
  if (rowLength == 0 || rows == 0)
    return 0;
  uint64_t least = getScanMinSplits(rowLength, blockSize);
  uint64_t byGrid = grid / rows;
  return byGrid > least ? byGrid : least;
}

/// The workspace of a launch of `tiles` tiles (rows x splits) of `slots`
/// scans, in 8-byte words, all zeroed by the runtime before the launch: the
/// tile counter, a flag per tile, then per tile and scan its aggregate and
/// its inclusive prefix (written once each: a reader never sees a
/// half-replaced value). Two protocols, by the scans' combined types:
///
///   - **packed**, where every scan combines values of at most 32 bits (f32,
///     the compute type of f16 and bf16; i32 and narrower): each value word
///     holds the value in its low 32 bits and its flag in the high ones, one
///     8-byte store (single-copy atomic), so a reader that sees the flag has
///     the value: no fence, one load. The flag words stay unused. CUB's
///     ScanTileState does the same for values of 4 bytes. Without it (a
///     flag word, a release fence, a volatile flag; an acquire fence and a
///     second load to read) the 1-D cumsum of 2^28 f32 ran at 13.5% of the
///     copy (H200, 2026-12-04, pack of 190d147);
///   - **flagged**, where some scan combines 64 bits (i64, f64): the values
///     first, a release fence, then the tile's flag word, volatile; a reader
///     waits for the flag, fences (acquire) and loads the values.
constexpr uint64_t getScanWorkspaceWords(uint64_t tiles, uint64_t slots) {
  return 1 + tiles + 2 * slots * tiles;
}
/// The packed protocol's flag in a value word's high 32 bits.
constexpr unsigned kScanPackedFlagShift = 32;
/// The widest combined type of the packed protocol, in bits.
constexpr unsigned kScanPackedMaxBits = 32;
constexpr uint64_t getScanFlagWord(uint64_t tile) { return 1 + tile; }
constexpr uint64_t getScanValueWord(uint64_t tiles, uint64_t slots,
                                    uint64_t tile, uint64_t slot,
                                    bool inclusive) {
  return 1 + tiles + (tile * slots + slot) * 2 + (inclusive ? 1 : 0);
}

} // namespace ewc

#endif // EWC_ABI_SCANACCESS_H
