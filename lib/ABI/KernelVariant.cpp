//===- KernelVariant.cpp - What one compiled variant assumes --------------===//

#include "ewc/ABI/KernelVariant.h"

#include <algorithm>

using namespace ewc;

bool KernelVariant::isStrided(int64_t tensor) const {
  return std::find(stridedTensors.begin(), stridedTensors.end(), tensor) !=
         stridedTensors.end();
}

bool KernelVariant::isDefault() const {
  return batchRank == 1 && stridedTensors.empty() && !unaligned &&
         tiledTensors.empty() && shiftedTensors.empty() && !streamingStores &&
         rowsBlockSize == 0 && !splitScans && rowsResident == 0 &&
         rowsTeam == 0 && lanePass == 0 && !wideBatch;
}

std::string KernelVariant::getKey() const {
  std::string key = "b" + std::to_string(batchRank);
  for (int64_t tensor : stridedTensors)
    key += ".s" + std::to_string(tensor);
  if (unaligned)
    key += ".u";
  for (int64_t tensor : tiledTensors)
    key += ".t" + std::to_string(tensor);
  for (auto [tensor, shift] : shiftedTensors)
    key += ".v" + std::to_string(tensor) + "s" + std::to_string(shift);
  if (streamingStores)
    key += ".nt";
  if (rowsBlockSize)
    key += ".r" + std::to_string(rowsBlockSize);
  if (splitScans)
    key += ".scan";
  if (rowsTeam)
    key += ".team" + std::to_string(rowsTeam);
  if (rowsResident)
    key += ".k" + std::to_string(rowsResident);
  if (lanePass)
    key += ".lp" + std::to_string(lanePass);
  if (wideBatch)
    key += ".w";
  return key;
}
