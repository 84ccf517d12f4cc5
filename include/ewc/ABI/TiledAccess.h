//===- TiledAccess.h - When the GPU stages a tensor in tiles ----*- C++ -*-===//
//
// A tensor read across its innermost dimension (x.T into a contiguous
// result, or y: f32[n, m] beside a result [m, n]) has, at each point of the
// nest, a stride of a whole row between neighbouring threads: each warp's
// load touches 32 rows, and the elementwise loop ran at 26% of the copy
// (f32; 14% bf16: docs/performance.md). The GPU's tiled variant (`.t<k>`)
// copies such tensors through shared memory in square tiles of the nest's
// two innermost dimensions, reading along the tensor's own contiguous
// dimension and writing the results along theirs (#ew.tiled in the dialect).
// What it assumes and how it is launched is stated here once, for the two
// that decide by it: convert-ew-to-gpu, which builds the tiled nest, and the
// runtime, which picks the variant and sizes its grid.
//
// Pure C++ on LLVM Support, like the rest of lib/ABI.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_TILEDACCESS_H
#define EWC_ABI_TILEDACCESS_H

#include "ewc/ABI/LaunchPlan.h"

#include <cstdint>
#include <vector>

namespace ewc {

/// The edge of a tile, in points: two warps' width, so that each warp reads a
/// 32-element run of a staged tensor (128 bytes in f32) and writes one of
/// each result, and each thread has 16 points of a tile per phase in flight.
/// Measured on the H200, 2026-12-02 (transpose_add, 16384 x 16384, ewc-run
/// --bench --tile-size): 32 x 32 tiles (4 points per thread, 32 registers)
/// ran at 78.9% of the copy in f32 and 47.6% in bf16, 64 x 64 (80
/// registers) at 84.8% and 53.8%; 128 x 128 f32 tiles exceed the 48 KiB of
/// static shared memory.
constexpr unsigned kTileSize = 64;

/// Threads per block of the tiled schedule: 8 warps, each pass of the block
/// 256 / kTileSize rows of the tile.
constexpr unsigned kTileBlockSize = 256;

/// The smallest extent of the two innermost dimensions that is tiled: below
/// it, most of a tile's threads idle and a warp's gather touches few rows.
constexpr int64_t kMinTiledExtent = 16;

/// The inputs the tiled variant stages for `plan`'s tensors (after merging):
/// ABI tensor positions (tensor parameters, then results), empty where the
/// launch is not tiled. It applies where every result has the same
/// dimensions (one nest), the nest's two innermost extents are both at
/// least kMinTiledExtent, every result has unit stride along the innermost
/// of them, and some input has both with unit stride along the second
/// innermost and a stride above 1 along the innermost: those inputs are
/// staged.
std::vector<int64_t> chooseTiledTensors(const KernelSignature &kernel,
                                        const LaunchPlan &plan);

/// The tiles of `tile` x `tile` points that the nest of `plan` (its first
/// result's dimensions) takes: the grid of the tiled schedule.
int64_t countTiles(const KernelSignature &kernel, const LaunchPlan &plan,
                   unsigned tile);

/// The edge of a tiled kernel's tiles from its launch descriptor: a tile is
/// blockSize x elementsPerThread points (the square root of that).
unsigned getTileSize(const LaunchDescriptor &launch);

} // namespace ewc

#endif // EWC_ABI_TILEDACCESS_H
