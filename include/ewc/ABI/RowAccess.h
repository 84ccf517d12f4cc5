//===- RowAccess.h - The GPU's rows schedule for reductions -----*- C++ -*-===//
//
// A kernel whose reductions run along a tensor's contiguous dimension
// (softmax, the norms, logsumexp) gets the rows schedule (#ew.launch's
// `rows`): a team of threads per row (a point of the dimensions the
// reductions keep), from one lane to a block, by the row's length. The lanes
// read a row's consecutive elements, combine their shares in order, then
// across each warp in a butterfly of shuffles (CombineLoops.cpp) and, in a
// team of several warps, the warps' values in order through shared memory,
// and share the row's points afterwards. What it assumes and how it is launched
// is stated here once, for the two that decide by it: convert-ew-to-gpu, which
// builds the team loop, and the runtime, which sizes its grid (LaunchShape.h).
//
// Pure C++, like the rest of lib/ABI.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_ROWACCESS_H
#define EWC_ABI_ROWACCESS_H

namespace ewc {

/// Lanes that a warp shuffle reaches: a team of up to this many threads
/// combines with shuffles alone (no shared memory, no barrier), and a team
/// of more is whole warps that combine their warps' values through shared
/// memory after their shuffles. Its lanes read 32 consecutive elements, 128
/// bytes of f32, per step.
constexpr unsigned kRowWarpThreads = 32;

/// Elements per lane that a row's team aims at while it fits in a warp: a
/// row of L elements gets the power of two at or above L /
/// kRowElementsPerLane lanes (so rows of 128 share a warp four ways, 8
/// lanes each; rows of 257 to 1024 have a warp each). A warp per row of
/// 128 ran softmax f32 at 54% of the copy on the H200 (2026-12-03): each
/// warp's rows one after another, each a chain of loads and shuffles.
constexpr unsigned kRowElementsPerLane = 16;

/// Bytes per lane that a team of several warps aims at, of the row's
/// narrowest tensor: the power of two at or above L / (kRowBytesPerWarpLane /
/// element bytes) lanes, up to the block (f32: 32 elements a lane, a
/// row of 4096 gets 4 warps, one of 16384 and more a block; bf16: 64, a row
/// of 2048 still a warp). A row that its team reads again (softmax reads it
/// three times) stays in L1 when the SM's resident rows fit there: 2048
/// threads x 128 bytes is 256 KiB, the H200's L1. Measured on the H200
/// (2026-12-03): with a warp per row of 4096 f32 (512 bytes a lane) softmax
/// ran at 48% of the copy (call 2), with 4 warps (128 bytes) at 60% (call
/// 5); at 32 elements of bf16 (64 bytes) a lane bf16 rows of 4096 fell from
/// 46% to 29% (fewer loads in flight a lane, a barrier a reduction).
constexpr unsigned kRowBytesPerWarpLane = 128;

/// Bytes (of the row's narrowest tensor's elements) a lane loads per
/// iteration of a row's reduction, in its order (lane, lane + 32, ...): the
/// loads of one iteration are in flight together. 32 bytes x 32 lanes x 64
/// warps is 64 KiB per SM, above the ~22 KiB that Little's law asks of the
/// H200's HBM (4.8 TB/s x ~600 ns over 132 SMs); at one f32 element per
/// iteration (before) softmax f32 at n = 1024 ran at 68% of the copy, at 8
/// (32 bytes) at 90%. By bytes rather than elements since bf16 rows at 8
/// elements (16 bytes) a lane ran at 37-75% of the copy where f32 rows of
/// the same length ran at 67-100% (H200, 2026-12-03, pack of a5676ad).
constexpr unsigned kRowCombineBytes = 32;

/// Bytes a lane's points load per iteration of a row's points, all their
/// loads issued before the first store (a store may alias a later point's
/// input, so the compiler cannot move those loads above it itself): 4 f32
/// points, 8 bf16.
constexpr unsigned kRowPointBytes = 16;

/// The elements a lane combines per iteration, and the points it computes
/// per iteration, for tensors whose narrowest element has `elementBytes`
/// bytes: kRowCombineBytes and kRowPointBytes in elements, at most 16 and 8
/// (registers: each is a value live at once).
constexpr unsigned getRowCombineUnroll(unsigned elementBytes) {
  unsigned elements = kRowCombineBytes / (elementBytes ? elementBytes : 1);
  return elements < 1 ? 1 : elements > 16 ? 16 : elements;
}
constexpr unsigned getRowPointUnroll(unsigned elementBytes) {
  unsigned points = kRowPointBytes / (elementBytes ? elementBytes : 1);
  return points < 1 ? 1 : points > 8 ? 8 : points;
}

/// Bytes of the narrowest tensor's elements that a lane of the rows
/// schedule takes consecutively along a row of one dimension (4 f32, 8
/// bf16), each tensor read or written along the row by one 16-byte access
/// per run (ld.global.v4.b32: kVectorBytes), where the launch's tensors
/// allow it (VectorAccess.h, isRowVectorAligned; the runtime launches the
/// `.u` variant, the lanes' elements one at a time, where they do not). A
/// warp's run is then 512 contiguous bytes; lane l's runs are l, l +
/// size, ... in the row's order of runs, so a lane combines as many elements
/// in sequence as before (docs/language.md's bound). Before, each lane
/// loaded one element at a time (lane, lane + size, ...): a warp-wide bf16
/// load moved 64 bytes, and bf16 rows ran 10-40 points under f32's. On the
/// H200 (2026-12-04, night; docs/performance.md, "Rows in 16-byte runs":
/// the unaligned variant against the runs in one run), rmsnorm bf16 at n =
/// 128 went from 47.0 to 75.7% of the copy, log_softmax bf16 at 1000 from
/// 51.3 to 72.9%, softmax f32 over 256 rows of 2^20 from 27.5 to 57.0%.
/// An online group's pass keeps one element at a time (CombineLoops.cpp).
constexpr unsigned kRowVectorBytes = 16;

/// The elements of a lane's run for tensors whose narrowest element has
/// `elementBytes` bytes, at most `unroll` (the elements a lane takes per
/// iteration, getRowCombineUnroll or getRowPointUnroll, of which it is a
/// divisor: both are powers of two).
constexpr unsigned getRowVectorLanes(unsigned elementBytes, unsigned unroll) {
  unsigned lanes = kRowVectorBytes / (elementBytes ? elementBytes : 1);
  lanes = lanes < 1 ? 1 : lanes;
  return lanes < unroll ? lanes : unroll;
}

/// Chunks of 32 elements a warp loads per step of a scan along a row (the
/// rows schedule's scans, a warp per row), all before the first is scanned.
/// One chunk a step (each lane's next load waiting for the step's five
/// shuffles and its store) ran row cumsum f32 at 42-49% of the copy on the
/// H200, bf16 at 24-28% (2026-12-03, call 2 of the morning); 8 chunks at
/// 88-91% (f32, rows of 1000 to 4096) and 47-58% (bf16). Not by bytes: 16
/// chunks of bf16 ran slower at every row but 32768 (1024: 1769 GB/s against
/// 2120; 128: 488 against 1312, three quarters of each step past the row),
/// evening calls 2 and 3. The chunks past a row's end are shuffled idle.
constexpr unsigned kRowScanUnroll = 8;

/// The largest block of the rows schedule, and the most a row's team has:
/// 16 warps, so that 256 rows of 2^20 (issue 16's few long rows) keep half
/// the H200's 270,336 thread slots busy: softmax f32 there ran at 33% of the
/// copy instead of 6.7% with a warp per row (2026-12-03). ptxas keeps a
/// kernel of such blocks to 64 registers a thread (two blocks an SM):
/// softmax and the norms use 56-61, decode attention spills 260 bytes (94
/// registers at blocks of 128, where it did not spill). A kernel keeps a
/// shared slot per warp of its block for each type a team combines.
constexpr unsigned kRowsMaxBlockSize = 512;

/// The block of the rows schedule's default variant (the one compiled with
/// the module): the best for rows of up to kRowsSmallBlockRow elements,
/// the common ones. Longer rows launch a variant compiled for a larger
/// block on first use (getRowsBlockSize).
constexpr unsigned kRowsBlockSize = 128;

/// The longest rows (in elements) for which blocks of 128 and 256 are the
/// best, measured on the H200 (2026-12-03, call 7: each kernel compiled for
/// blocks of 128, 256 and 512, CUDA-event medians, % of the copy): softmax
/// f32 rows of 128 / 1000 / 1024 / 4096 ran at 76.0 / 66.8 / 89.3 / 77.7%
/// with blocks of 128 and at 58.8 / 51.3 / 78.2 / 59.5% with 512 (bf16,
/// logsumexp and rmsnorm alike); rows of 16384 at 45.2 / 63.2 / 58.0% with
/// 128 / 256 / 512; rows of 32768 and 2^20 best with 512 (softmax f32 56.0%
/// and 32.8%, rmsnorm bf16 56.4% and 40.9%, against 43-45% and 16-21% with
/// 128): a long row wants a large team, a short one small blocks (not
/// separated yet: a block leaves the SM only when its slowest warp is done,
/// and ptxas gave softmax 56 registers with blocks of 128 and 61 with 512).
constexpr unsigned kRowsSmallBlockRow = 4096;
constexpr unsigned kRowsMediumBlockRow = 16384;

/// The block a launch of the rows schedule takes for its longest row of
/// `rowLength` elements (the runtime's rule; each size is a variant of the
/// kernel, compiled on first use).
constexpr unsigned getRowsBlockSize(unsigned long long rowLength) {
  return rowLength <= kRowsSmallBlockRow    ? kRowsBlockSize
         : rowLength <= kRowsMediumBlockRow ? 2 * kRowsBlockSize
                                            : kRowsMaxBlockSize;
}

/// The smallest block whose variant combines a max and the sums of
/// exponentials it scales in one pass (online groups, CombineLoops.cpp):
/// the variant of rows longer than kRowsMediumBlockRow, which do not stay in
/// the cache from one pass to the next. Measured on the H200 (2026-12-04,
/// online groups in every variant, the lanes' states merged pair by pair):
/// f32 rows of 2^20 gained (logsumexp 43.6 -> 95.1% of the copy, softmax
/// 33.0 -> 52.8%, log_softmax 35.6 -> 56.0%) and rows of 32768 mostly
/// (logsumexp 59.2 -> 73.4%), but rows of 1000 to 4097, whose second pass
/// hits the cache, lost 2-10 points (softmax 1024 89.9 -> 81.1%, 4096
/// 78.1 -> 69.1%): their pass is bound by its latency, which the online
/// step (a max over the iteration, then its exponentials) lengthens.
constexpr unsigned kRowsOnlineMinBlock = kRowsMaxBlockSize;

/// Elements of its row that a lane keeps in registers in the rows
/// schedule's resident variant (`ew.rows_resident`, `--rows-resident K`):
/// its team has the power of two at or above L / K lanes, up to the block,
/// and the lane loads its slots of every tensor the row's reductions read
/// once, before them; the reductions and the row's points take those
/// values (softmax's exponentials computed once, not once per pass:
/// Triton's fused softmax, the row in registers, ran at 3991 GB/s at n =
/// 32768 where ewc's passes ran at 2371, H200 2026-12-04). Whatever of a
/// row lies beyond is looped over as in the other variants, so any row is
/// correct. The runtime does not choose it yet: on the H200 (2026-12-04,
/// docs/performance.md "Rows kept in registers") it ran f32 softmax and
/// log_softmax faster (rows of 1000, 4096, 32768: 66.9 -> 72.5, 77.8 ->
/// 81.7, 55.5 -> 70.5% of the copy; log_softmax 58.4 -> 79.4% at 32768) and
/// everything else slower, bf16 and the norms by 20 to 80 points (ptxas
/// gave it 128-166 registers a thread; 18-25% occupancy, the row's chains
/// of combines waiting on each other). The measured K: 32 (64 for rows of
/// 32768 in blocks of 512).
constexpr unsigned kRowResidentElements = 32;

/// The lanes of a resident row's team for rows of `rowLength` elements in
/// blocks of `blockSize`, `elements` a lane: the power of two at or above
/// rowLength / elements, up to the block. A constant of the variant (its
/// addresses then a constant offset apart: with the size a runtime value
/// ptxas gave softmax's resident variant 255 registers and spills, the 32
/// slots' offsets live across the row's loop).
constexpr unsigned getRowsResidentTeam(unsigned long long rowLength,
                                       unsigned blockSize, unsigned elements) {
  unsigned long long lanes = 1;
  while (lanes < blockSize && lanes * elements < rowLength)
    lanes *= 2;
  return static_cast<unsigned>(lanes);
}

/// The most elements a lane can be asked to keep (registers: each a value
/// live from the row's loads to its last point).
constexpr unsigned kRowsMaxResident = 2 * kRowResidentElements;

/// Points of its row a lane keeps in the rows schedule with its points on
/// the lanes (decode attention's `d`: lane l of a warp keeps l, l + 32,
/// ...), its accumulators in registers through the row's pass: 4 covers a
/// head of 128 in one pass; a longer row of points takes a pass per 128
/// (its inner reduction, the scores, computed once per pass).
constexpr unsigned kRowLanePoints = 4;

/// The passes of the rows schedule with its points on the lanes, a variant
/// each besides the kernel with all three (ptxas: decode attention's full
/// pass alone 128 registers a thread, any two together 239-249, 2 blocks
/// of 128 an SM instead of 4): the full pass (a pass's points exactly, a
/// head of 128), the pass that fits (1 to 127 points), or 0: the kernel
/// with the three, whose loops serve any other.
enum LanePass : unsigned {
  kLanePassAll = 0,
  kLanePassFull = 1,
  kLanePassFits = 2
};

/// The pass's variant for `points` points of a row.
constexpr unsigned getLanePass(unsigned long long points) {
  return points == 32ull * kRowLanePoints                 ? kLanePassFull
         : points >= 1 && points < 32ull * kRowLanePoints ? kLanePassFits
                                                          : kLanePassAll;
}

/// Elements of the row's reduced dimension (attention's `s`) a warp takes
/// per iteration in that schedule, their loads in flight together and one
/// online rescale for all: each is 2 x kRowLanePoints loads a lane for
/// attention (k and v), 8 x 4 = 32 in flight.
constexpr unsigned kRowLaneUnroll = 4;

/// Decode attention with few rows (flash-decoding's case: 32 rows of a
/// head each are 32 blocks for the H200's 132 SMs, 9-17% of the copy on
/// 2026-12-04): where a nest's reductions are one online group's
/// (RowSplit::blocksMeet), the runtime may split each row's reduced
/// dimension S across `splits` blocks, `rows x splits` in all, block b
/// the split b mod splits of row b / splits: warp w of split s combines
/// the elements s W + w, + W splits, ... into the group's state (the max,
/// the sum, a sum per point), the block merges its warps' as before, then
/// warp 0 writes the block's state to the workspace (a word per value and
/// lane), fences and draws a ticket of its row and pass; the block that
/// draws the last merges the row's states in a fixed order (its warp v
/// the splits v, v + W, ..., then its warps' in order, each state rescaled
/// once to the larger max) and stores the row's points. The runtime zeroes
/// the tickets; the kernel derives the splits from its grid, max(1,
/// gridDim.x / rows), and takes a null workspace for one.
///
/// The fewest elements of S a warp combines before the splits stop
/// growing: 4 of its iterations (kRowLaneUnroll). Measured on the H200
/// (2026-12-04, 32 rows of s = 1024 in blocks of 4 warps, % of the copy of
/// K and V): 8.4 at 1 split, 38.0 at 8 (32 elements a warp), 47.5 at 16
/// (16), 38.7 at 32 (8): below 16 a split's state (48 bytes a lane for a
/// head of 128, written, fenced and merged) outweighs its share.
constexpr unsigned long long kRowLaneMinSplitElements = 16;

/// The threads of the kernel with its points on the lanes that the splits
/// count on an SM (they aim at one wave of such blocks): 512, a quarter of
/// the SM's, as if each took 128 registers (ptxas: the kernel of three
/// passes 128, the full pass 64, the one that fits 80). By measurement,
/// not occupancy: on the H200 (2026-12-04) it chose the best of 1 to 32
/// splits for 32 rows of 8192 and 65536 (8 and 4) and for 256 rows of
/// 1024 (2).
constexpr unsigned kRowLaneThreadsPerSM = 512;

/// The passes over a row of `points` points, 32 x kRowLanePoints each.
constexpr unsigned long long getLanePasses(unsigned long long points) {
  return points / (32ull * kRowLanePoints) +
         (points % (32ull * kRowLanePoints) != 0);
}

/// The splits of each of `rows` rows whose S has `length` elements, in
/// blocks of `blockSize` threads on `multiprocessorCount` SMs: enough
/// blocks for one wave (kRowLaneThreadsPerSM), rounded down (a second,
/// partial wave would cost a whole block's time), at most one per
/// kRowLaneMinSplitElements elements of a warp, at least 1, and at most
/// what keeps the grid below 2^31.
constexpr unsigned long long chooseLaneSplits(unsigned long long rows,
                                              unsigned long long length,
                                              unsigned blockSize,
                                              unsigned multiprocessorCount) {
  if (rows == 0)
    return 1;
  unsigned long long warps = blockSize / 32 ? blockSize / 32 : 1;
  unsigned long long perSM =
      kRowLaneThreadsPerSM / blockSize ? kRowLaneThreadsPerSM / blockSize : 1;
  unsigned long long splits =
      (multiprocessorCount ? multiprocessorCount : 1) * perSM / rows;
  unsigned long long most = length / (warps * kRowLaneMinSplitElements);
  if (splits > most)
    splits = most;
  if (splits > 0x7fffffffull / rows)
    splits = 0x7fffffffull / rows;
  return splits ? splits : 1;
}

/// The workspace of a launch of `rows` rows in `passes` passes (getLanePasses)
/// and `splits` splits whose states are `words` values a lane (#ew.launch's
/// `workspace`), in 8-byte words: a ticket per row and pass, then the
/// states, value k of lane l of split s of row r's pass p at word
/// getLanePartialWord (a warp's 32 lanes on consecutive words). None for
/// one split.
constexpr unsigned long long getLaneWorkspaceWords(unsigned long long rows,
                                                   unsigned long long passes,
                                                   unsigned long long splits,
                                                   unsigned long long words) {
  return splits <= 1 ? 0 : rows * passes * (1 + splits * words * 32);
}
constexpr unsigned long long
getLanePartialWord(unsigned long long rows, unsigned long long passes,
                   unsigned long long splits, unsigned long long words,
                   unsigned long long row, unsigned long long pass,
                   unsigned long long split, unsigned long long value,
                   unsigned long long lane) {
  return rows * passes +
         (((row * passes + pass) * splits + split) * words + value) * 32 + lane;
}

/// The grid's cap in waves of resident blocks: the teams loop over the
/// rows with a grid stride, and the runtime does not know the rows (it
/// knows the points of the largest nest, which for softmax are the rows
/// times their length), so it launches a block per point up to the cap. Four
/// waves keep the machine full when fewer blocks than the hardware's maximum
/// are resident (a kernel of many registers) without launching millions of
/// blocks with no row; not measured yet against other caps.
constexpr unsigned kRowsWaves = 4;

} // namespace ewc

#endif // EWC_ABI_ROWACCESS_H
