//===- RowAccess.h - The GPU's rows schedule for reductions -----*- C++ -*-===//
//
// A kernel whose reductions run along a tensor's contiguous dimension
// (softmax, the norms, logsumexp) gets the rows schedule (#ew.launch's
// `rows`): a team of kRowTeamThreads threads, one warp, per row (a point of
// the dimensions the reductions keep). The lanes read a row's consecutive
// elements, combine their shares in order and then across the warp in a
// butterfly of shuffles (CombineLoops.cpp), and share the row's points
// afterwards. What it assumes and how it is launched is stated here once,
// for the two that decide by it: convert-ew-to-gpu, which builds the team
// loop, and the runtime, which sizes its grid (LaunchShape.h).
//
// Pure C++, like the rest of lib/ABI.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_ROWACCESS_H
#define EWC_ABI_ROWACCESS_H

namespace ewc {

/// Elements per lane that a row's team aims at: a row of L elements gets
/// a team of the power of two at or above L / kRowElementsPerLane lanes, at
/// most kRowTeamThreads (so rows of 128 share a warp four ways, 8 lanes
/// each; rows of 512 and more have a warp each). A warp per row of 128 ran
/// softmax f32 at 54% of the copy on the H200 (2026-12-03): each warp's
/// rows one after another, each a chain of loads and shuffles.
constexpr unsigned kRowElementsPerLane = 16;

/// Threads of a row's team: one warp at most, so that a team combines with warp
/// shuffles alone (no shared memory, no barrier) and its lanes read 32
/// consecutive elements, 128 bytes of f32, per step. A row of 2^20 elements
/// over few rows wants a block per row instead (issue 16's split rows);
/// this schedule does not have it yet.
constexpr unsigned kRowTeamThreads = 32;

/// Elements a lane combines per iteration of a row's reduction, in its
/// order (lane, lane + 32, ...): the loads of one iteration are in flight
/// together. 8 x 4 bytes x 32 lanes x 64 warps is 64 KiB per SM, above the
/// ~22 KiB that Little's law asks of the H200's HBM (4.8 TB/s x ~600 ns over
/// 132 SMs); at one element per iteration (before) softmax f32 at n = 1024
/// ran at 68% of the copy.
constexpr unsigned kRowCombineUnroll = 8;

/// Points a lane computes per iteration of a row's points, all their loads
/// issued before the first store (a store may alias a later point's input,
/// so the compiler cannot move those loads above it itself).
constexpr unsigned kRowPointUnroll = 4;

/// Threads per block of the rows schedule: 4 teams, the elementwise
/// schedule's 128 (LaunchShape.h says why 128). A multiple of
/// kRowTeamThreads, which the kernel requires (known_block_size).
constexpr unsigned kRowsBlockSize = 128;

/// The grid's cap in waves of resident blocks: the teams loop over the
/// rows with a grid stride, and the runtime does not know the rows (it
/// knows the points of the largest nest, which for softmax are the rows
/// times their length). Four waves keep the machine full when fewer blocks
/// than the hardware's maximum are resident (a kernel of many registers)
/// without launching millions of blocks with no row; not measured yet
/// against other caps.
constexpr unsigned kRowsWaves = 4;

} // namespace ewc

#endif // EWC_ABI_ROWACCESS_H
