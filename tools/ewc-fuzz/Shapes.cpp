//===- Shapes.cpp - The extents of a random program's run -----------------===//
//
// The draw of Shapes.h: per extent, 0 (3%), 1 (7%), 2 to 9 (60%), 10 to 40
// (18%) or 41 to 300 (12%), and in one program of 25 one of them 1025 to
// 5024 (unless that is too many points); the batch's extents are smaller (a
// rank-3 batch of medium extents would leave nothing to the names). Empty and
// one-element dimensions are rare but there, since they are where index
// arithmetic and the launch's loop bounds go wrong.
//
//===----------------------------------------------------------------------===//

#include "Shapes.h"
#include "Generator.h"

#include <algorithm>
#include <random>

using namespace ewc::fuzz;

ProgramShape ewc::fuzz::drawProgramShape(uint64_t seed, uint64_t maxPoints) {
  ProgramDims dims = chooseProgramDims(seed);
  // A stream apart from the text's, the inputs' and the dimension names'.
  std::mt19937_64 rng(deriveProgramSeed(seed, 0x5a9e));
  auto below = [&](uint64_t n) { return rng() % n; };
  auto between = [&](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(hi - lo + 1));
  };
  auto extent = [&] {
    uint64_t r = below(100);
    return r < 3    ? 0
           : r < 10 ? 1
           : r < 70 ? between(2, 9)
           : r < 88 ? between(10, 40)
                    : between(41, 300);
  };
  ProgramShape shape;
  for (const std::string &name : dims.names)
    shape.dims.emplace_back(name, extent());
  // One long dimension in 25 programs, 1025 to 5024: rows past 1024
  // elements, where the GPU's rows schedule makes teams of several warps
  // (ewc/ABI/RowAccess.h). A stream of its own, so that every other extent
  // is the one drawn before it existed.
  std::mt19937_64 longRng(deriveProgramSeed(seed, 0x10e6));
  if (!shape.dims.empty() && longRng() % 25 == 0)
    shape.dims[longRng() % shape.dims.size()].second =
        1025 + static_cast<int64_t>(longRng() % 4000);
  if (dims.batch) {
    uint64_t r = below(100);
    size_t rank = r < 25 ? 0 : r < 60 ? 1 : r < 85 ? 2 : 3;
    shape.batch.emplace();
    for (size_t i = 0; i < rank; ++i) {
      uint64_t e = below(100);
      shape.batch->push_back(e < 4    ? 0
                             : e < 15 ? 1
                             : e < 85 ? between(2, 5)
                                      : between(6, 17));
    }
  }

  // Every extent, to halve the largest while their product is too large. A
  // 0 counts as 1: a tensor without that dimension is as large as the rest
  // (4 names of 300 and a batch of 17^3 fit in 64 bits).
  std::vector<int64_t *> extents;
  for (auto &dim : shape.dims)
    extents.push_back(&dim.second);
  if (shape.batch)
    for (int64_t &e : *shape.batch)
      extents.push_back(&e);
  auto points = [&] {
    uint64_t product = 1;
    for (int64_t *e : extents)
      product *= std::max<int64_t>(*e, 1);
    return product;
  };
  while (points() > std::max<uint64_t>(maxPoints, 1)) {
    int64_t *largest =
        *std::max_element(extents.begin(), extents.end(),
                          [](int64_t *a, int64_t *b) { return *a < *b; });
    *largest = (*largest + 1) / 2;
  }
  return shape;
}

std::string ewc::fuzz::formatBatch(const std::vector<int64_t> &batch) {
  std::string text;
  for (int64_t extent : batch)
    text += (text.empty() ? "" : "x") + std::to_string(extent);
  return text;
}
