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

/// The edge of a tile, in points: one warp's width, so that one warp reads a
/// 32-element run of a staged tensor (128 bytes in f32) and writes one of
/// each result.
constexpr unsigned kTileSize = 32;

/// Threads per block of the tiled schedule: 8 warps, each thread 4 points of
/// a tile per phase (4 loads in flight), as the CUDA samples' transpose.
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
