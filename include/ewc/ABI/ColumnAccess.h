//===- ColumnAccess.h - The GPU's columns schedule for reductions -*- C++
//-*-===//
//
// A kernel whose one nest reduces across rows (a column sum `sum(x, m)` of
// x[m, n], a column mean, any reduction that keeps a tensor's contiguous
// dimension) gets the columns schedule (#ew.launch's `columns`): its points
// (the keys: each a point of the dimensions the reductions keep) go in
// tiles of 32 x U consecutive keys, lane c of each warp on the keys c, c +
// 32, ... (U of them: consecutive addresses across the warp), the block's
// warps on rows of the reduced space; and each tile's reduction is **split
// across blocks**: `splits` blocks per tile, each combining its share,
// meeting in a workspace:
//
//   lane r (the block's warp) of split s combines the reduced elements
//   l, l + R S, l + 2 R S, ... of each of its keys in order (l = s R + r, R
//   the block's warps), 4 rows of them per iteration; the block folds its
//   R lanes' values of a key in order through shared memory; then, with
//   splits > 1, it writes its partials to the workspace, fences, and draws
//   a ticket of its tile: the block that draws the last folds the tile's
//   partials in split order (deterministic, unlike atomics on the value)
//   and stores the tile's points.
//
// What it assumes and how it is launched is stated here once, for the two
// that decide by it: convert-ew-to-gpu, which builds the loop, and the
// runtime, which sizes the grid and the workspace (LaunchShape.h).
//
// Pure C++, like the rest of lib/ABI.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_COLUMNACCESS_H
#define EWC_ABI_COLUMNACCESS_H

#include <cstdint>

namespace ewc {

/// Lanes of a warp on a tile's keys: lane c takes the keys c, c + 32, ...
/// of the tile, so that each of a warp's loads reads 32 consecutive keys of
/// one row (128 bytes of f32).
constexpr unsigned kColumnLanes = 32;

/// Bytes of keys a lane combines per row, of the tensors' narrowest
/// element: its keys' loads of a row are one address and constant offsets
/// (one pointer register), against a pointer per unrolled row. With one key
/// a lane and 8 rows (f32) or 16 (bf16) unrolled, ptxas gave the column
/// sum 62 and 128 registers (4 and 2 blocks an SM) and bf16 ran at 21-33%
/// of the copy on the H200 (2026-12-03).
constexpr unsigned kColumnKeyBytes = 16;

/// Rows a lane loads per iteration, each of its keys, before combining them
/// in order: with kColumnKeyBytes, 64 bytes a lane in flight.
constexpr unsigned kColumnRowUnroll = 2;

/// Keys a lane takes for tensors whose narrowest element has `elementBytes`
/// bytes: kColumnKeyBytes of them, from 1 to 8 (f32 4, bf16 8, f64 2).
constexpr unsigned getColumnKeysPerLane(unsigned elementBytes) {
  unsigned keys = kColumnKeyBytes / (elementBytes ? elementBytes : 1);
  return keys < 1 ? 1 : keys > 8 ? 8 : keys;
}

/// Threads per block of the columns schedule: 8 warps, each on its own rows
/// of the tile (a lane combines every 8 S-th row of its keys), the block's 8
/// values of a key folded in order through shared memory.
constexpr unsigned kColumnsBlockSize = 256;

/// Blocks of the columns schedule an SM is to hold (ptxas's .minnctapersm:
/// at most 65536 / (4 x 256) = 64 registers a thread). ptxas left alone
/// gave the column sum 80 registers (f32) and 113 (bf16) for its fold and
/// its partial tile's version, which run once a tile, and so 3 and 2
/// blocks an SM; at 4 it spills 68 and 232 bytes (6, 42 registers: 168 and
/// 416 bytes), with kColumnRowUnroll = 2.
constexpr unsigned kColumnsMinBlocks = 4;

/// The fewest reduced elements a lane combines before the splits stop
/// growing: a split's partial costs a workspace word and a fold, worth it
/// only for a share of a few of its loads' iterations.
constexpr uint64_t kColumnMinElementsPerLane = 64;

/// The grid the splits aim at, in waves of resident blocks (SMs x blocks an
/// SM): every block reads its share once, so one full wave of them keeps
/// every SM's loads in flight; two make the last blocks' tail shorter.
constexpr unsigned kColumnsWaves = 2;

/// The tiles of `keys` keys, 32 lanes of `keysPerLane` keys each (#ew.launch's
/// elements_per_thread).
constexpr uint64_t getColumnTiles(uint64_t keys, unsigned keysPerLane) {
  uint64_t tile = uint64_t(kColumnLanes) * (keysPerLane ? keysPerLane : 1);
  return keys / tile + (keys % tile != 0);
}

/// The splits of each tile for `keys` keys (`keysPerLane` a lane) reducing
/// `reducedLength` elements each, on a device with `multiprocessorCount`
/// SMs of `maxThreadsPerMultiprocessor` threads: enough blocks for
/// kColumnsWaves waves, at most one per kColumnMinElementsPerLane elements
/// of a lane, at least 1, and at most what keeps the grid (tiles x splits)
/// below 2^31. The kernel derives the same number from its grid: splits =
/// max(1, gridDim.x / tiles), so any grid is correct.
constexpr uint64_t chooseColumnSplits(uint64_t keys, unsigned keysPerLane,
                                      uint64_t reducedLength,
                                      unsigned multiprocessorCount,
                                      unsigned maxThreadsPerMultiprocessor) {
  uint64_t tiles = getColumnTiles(keys, keysPerLane);
  if (tiles == 0)
    return 1;
  uint64_t perSM = maxThreadsPerMultiprocessor / kColumnsBlockSize;
  uint64_t wanted = (multiprocessorCount ? multiprocessorCount : 1) *
                    (perSM ? perSM : 1) * kColumnsWaves;
  uint64_t splits = wanted / tiles + (wanted % tiles != 0);
  uint64_t lanes = kColumnsBlockSize / kColumnLanes;
  uint64_t most = reducedLength / (lanes * kColumnMinElementsPerLane);
  if (splits > most)
    splits = most;
  if (splits > 0x7fffffffu / tiles)
    splits = 0x7fffffffu / tiles;
  return splits ? splits : 1;
}

/// The workspace of a launch, in 8-byte words: a ticket per tile, then
/// `slots` partials (a kernel's split reductions, #ew.launch's `workspace`)
/// per split and key, partial (slot, split, key) at word
/// getColumnPartialWord. None for one split (no partial meets another).
constexpr uint64_t getColumnWorkspaceWords(uint64_t keys, unsigned keysPerLane,
                                           uint64_t splits, uint64_t slots) {
  return splits <= 1
             ? 0
             : getColumnTiles(keys, keysPerLane) + slots * splits * keys;
}
constexpr uint64_t getColumnPartialWord(uint64_t keys, unsigned keysPerLane,
                                        uint64_t splits, uint64_t slot,
                                        uint64_t split, uint64_t key) {
  return getColumnTiles(keys, keysPerLane) + (slot * splits + split) * keys +
         key;
}

} // namespace ewc

#endif // EWC_ABI_COLUMNACCESS_H
