//===- TiledAccess.cpp - When the GPU stages a tensor in tiles ------------===//
//
// The host's half of TiledAccess.h: which tensors of a planned launch the
// tiled variant stages, and how many tiles its grid covers.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/TiledAccess.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <optional>
#include <string>

using namespace ewc;

/// The stride of `tensor` along dimension `dim`, or nothing if it lacks it.
static std::optional<int64_t> getStride(const LaunchPlan::Descriptor &tensor,
                                        const std::string &dim) {
  auto found = llvm::find(tensor.dims, dim);
  if (found == tensor.dims.end())
    return std::nullopt;
  return tensor.strides[found - tensor.dims.begin()];
}

std::vector<int64_t> ewc::chooseTiledTensors(const KernelSignature &kernel,
                                             const LaunchPlan &plan) {
  size_t numResults = kernel.results.size();
  if (numResults == 0 || plan.tensors.size() < numResults || plan.points == 0)
    return {};
  size_t firstResult = plan.tensors.size() - numResults;
  const LaunchPlan::Descriptor &nest = plan.tensors[firstResult];
  size_t rank = nest.dims.size();
  if (rank < 2)
    return {};
  // One nest: the strides below are read for its two innermost dimensions,
  // which another nest would not share, and the grid is its tiles.
  auto sorted = [](std::vector<std::string> dims) {
    llvm::sort(dims);
    return dims;
  };
  for (size_t r = firstResult + 1; r < plan.tensors.size(); ++r)
    if (sorted(plan.tensors[r].dims) != sorted(nest.dims))
      return {};
  const std::string &rows = nest.dims[rank - 2], &columns = nest.dims[rank - 1];
  int64_t rowExtent = nest.extents[rank - 2];
  int64_t columnExtent = nest.extents[rank - 1];
  if (rowExtent < kMinTiledExtent || columnExtent < kMinTiledExtent)
    return {};
  // The second phase writes each result along the columns.
  for (size_t r = firstResult; r < plan.tensors.size(); ++r)
    if (getStride(plan.tensors[r], columns) != 1)
      return {};

  std::vector<int64_t> tiled;
  for (size_t t = 0; t < firstResult; ++t) {
    const LaunchPlan::Descriptor &tensor = plan.tensors[t];
    std::optional<int64_t> rowStride = getStride(tensor, rows);
    std::optional<int64_t> columnStride = getStride(tensor, columns);
    // A stride of 0 or 1 along the columns reads a warp's points from one
    // run already; a tensor with a dimension the nest lacks is not its.
    if (rowStride == 1 && columnStride && *columnStride > 1 &&
        llvm::all_of(tensor.dims, [&](const std::string &dim) {
          return llvm::is_contained(nest.dims, dim);
        }))
      tiled.push_back(static_cast<int64_t>(t));
  }
  return tiled;
}

int64_t ewc::countTiles(const KernelSignature &kernel, const LaunchPlan &plan,
                        unsigned tile) {
  size_t numResults = kernel.results.size();
  if (numResults == 0 || plan.tensors.size() < numResults || tile == 0)
    return 0;
  const LaunchPlan::Descriptor &nest =
      plan.tensors[plan.tensors.size() - numResults];
  size_t rank = nest.extents.size();
  if (rank < 2)
    return 0;
  auto tilesAlong = [&](int64_t extent) {
    return extent / tile + (extent % tile != 0);
  };
  int64_t tiles =
      tilesAlong(nest.extents[rank - 2]) * tilesAlong(nest.extents[rank - 1]);
  for (size_t d = 0; d + 2 < rank; ++d)
    tiles *= nest.extents[d];
  return tiles;
}

unsigned ewc::getTileSize(const LaunchDescriptor &launch) {
  uint64_t points = uint64_t(launch.blockSize) * launch.elementsPerThread;
  unsigned tile = 1;
  while (uint64_t(tile + 1) * (tile + 1) <= points)
    ++tile;
  return tile;
}
