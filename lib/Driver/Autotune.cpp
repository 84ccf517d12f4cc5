//===- Autotune.cpp - Launch parameters chosen by measurement -------------===//
//
// The candidates, keys and cache payloads of Autotune.h; the measuring is
// LoadedModule::tune's (Launch.cpp), beside the launch it measures.
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"

#include "ewc/Runtime/LaunchShape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace ewc;
using namespace ewc::driver;

std::string TunedLaunch::str() const {
  llvm::SmallVector<std::string, 3> parts;
  if (blockSize)
    parts.push_back("block " + std::to_string(*blockSize));
  if (gridWaves)
    parts.push_back("waves " + std::to_string(*gridWaves));
  if (threads)
    parts.push_back("threads " + std::to_string(threads));
  return parts.empty() ? "default" : llvm::join(parts, ", ");
}

std::string TunedLaunch::serialize() const {
  return "ewc tuned launch 1: block " +
         (blockSize ? std::to_string(*blockSize) : "-") + " waves " +
         (gridWaves ? std::to_string(*gridWaves) : "-") + " threads " +
         std::to_string(threads);
}

std::optional<TunedLaunch> TunedLaunch::deserialize(llvm::StringRef payload) {
  if (!payload.consume_front("ewc tuned launch 1: "))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 6> words;
  payload.split(words, ' ');
  if (words.size() != 6 || words[0] != "block" || words[2] != "waves" ||
      words[4] != "threads")
    return std::nullopt;
  TunedLaunch tuned;
  auto read = [](llvm::StringRef word, std::optional<unsigned> &value) {
    if (word == "-")
      return true;
    unsigned number;
    if (word.getAsInteger(10, number))
      return false;
    value = number;
    return true;
  };
  if (!read(words[1], tuned.blockSize) || !read(words[3], tuned.gridWaves) ||
      words[5].getAsInteger(10, tuned.threads))
    return std::nullopt;
  return tuned;
}

std::vector<TunedLaunch> driver::getDeviceCandidates(unsigned defaultBlock) {
  std::vector<TunedLaunch> candidates = {TunedLaunch()};
  for (unsigned waves : {0u, 2u, 8u})
    for (unsigned block : {defaultBlock, 256u, 512u, 128u}) {
      TunedLaunch candidate;
      candidate.blockSize = block;
      candidate.gridWaves = waves;
      // The default's own parameters are the first candidate already.
      bool isDefault = block == defaultBlock && waves == kElementwiseWaves;
      if (!isDefault && !llvm::is_contained(candidates, candidate))
        candidates.push_back(candidate);
    }
  return candidates;
}

std::vector<TunedLaunch> driver::getHostCandidates(unsigned hostThreads) {
  std::vector<TunedLaunch> candidates = {TunedLaunch()};
  for (unsigned threads : {hostThreads / 2, 1u}) {
    TunedLaunch candidate;
    candidate.threads = threads;
    if (threads && threads != hostThreads &&
        !llvm::is_contained(candidates, candidate))
      candidates.push_back(candidate);
  }
  return candidates;
}

std::string driver::getTuningKey(llvm::StringRef variantKey, uint64_t points) {
  return variantKey.str() + "@2^" +
         std::to_string(points ? llvm::Log2_64(points) : 0);
}
