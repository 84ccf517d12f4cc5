//===- ColumnAccess.h - The GPU's columns schedule -------------*- C++ -*-===//
//
// A kernel whose one nest reduces across rows (a column sum `sum(x, m)` of
// x[m, n], a column mean, any reduction that keeps a tensor's contiguous
// dimension) gets the columns schedule (#ew.launch's `columns`): its points
// (the keys: each a point of the dimensions the reductions keep) go in
// tiles of kColumnTileKeys consecutive keys, a warp's lanes on a tile's keys
// (consecutive addresses), the block's warps on rows of the reduced space;
// and each tile's reduction is **split across blocks**: `splits` blocks per
// tile, each combining its share, meeting in a workspace:
//
//   lane r (the block's warp) of split s combines the reduced elements
//   l, l + R S, l + 2 R S, ... of its key in order (l = s R + r, R the
//   block's warps), 32 bytes of them per iteration; the block folds its
//   R lanes' values in order through shared memory; then, with splits > 1,
//   it writes its partial to the workspace, fences, and draws a ticket of
//   its tile: the block that draws the last folds the tile's partials in
//   a fixed order (deterministic, unlike atomics on the value) and stores
//   the tile's points. The runtime zeroes the tickets before each launch.
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

/// Keys per tile, one a lane of each warp: 32 consecutive keys of f32 are
/// 128 bytes of a row, a full line per warp and row.
constexpr unsigned kColumnTileKeys = 32;

/// Threads per block of the columns schedule: 8 warps, each on its own rows
/// of the tile (a lane combines every 8 S-th row of its key), the block's 8
/// values folded in order through shared memory.
constexpr unsigned kColumnsBlockSize = 256;

/// The fewest reduced elements a lane combines before the splits stop
/// growing: a split's partial costs a workspace word and a fold, worth it
/// only for a share of a few of its loads' iterations.
constexpr uint64_t kColumnMinElementsPerLane = 64;

/// The grid the splits aim at, in waves of resident blocks (SMs x blocks an
/// SM): every block reads its share once, so one full wave of them keeps
/// every SM's loads in flight; two make the last blocks' tail shorter.
constexpr unsigned kColumnsWaves = 2;

/// The tiles of `keys` keys.
constexpr uint64_t getColumnTiles(uint64_t keys) {
  return keys / kColumnTileKeys + (keys % kColumnTileKeys != 0);
}

/// The splits of each tile for `keys` keys reducing `reducedLength`
/// elements each, on a device with `multiprocessorCount` SMs of
/// `maxThreadsPerMultiprocessor` threads: enough blocks for kColumnsWaves
/// waves, at most one per kColumnMinElementsPerLane elements of a lane, at
/// least 1, and at most what keeps the grid (tiles x splits) below 2^31.
/// The kernel derives the same number from its grid: splits = max(1,
/// gridDim.x / tiles), so any grid is correct.
constexpr uint64_t chooseColumnSplits(uint64_t keys, uint64_t reducedLength,
                                      unsigned multiprocessorCount,
                                      unsigned maxThreadsPerMultiprocessor) {
  uint64_t tiles = getColumnTiles(keys);
  if (tiles == 0)
    return 1;
  uint64_t perSM = maxThreadsPerMultiprocessor / kColumnsBlockSize;
  uint64_t wanted = (multiprocessorCount ? multiprocessorCount : 1) *
                    (perSM ? perSM : 1) * kColumnsWaves;
  uint64_t splits = wanted / tiles + (wanted % tiles != 0);
  uint64_t lanes = kColumnsBlockSize / kColumnTileKeys;
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
constexpr uint64_t getColumnWorkspaceWords(uint64_t keys, uint64_t splits,
                                           uint64_t slots) {
  return splits <= 1 ? 0 : getColumnTiles(keys) + slots * splits * keys;
}
constexpr uint64_t getColumnPartialWord(uint64_t keys, uint64_t splits,
                                        uint64_t slot, uint64_t split,
                                        uint64_t key) {
  return getColumnTiles(keys) + (slot * splits + split) * keys + key;
}

} // namespace ewc

#endif // EWC_ABI_COLUMNACCESS_H
