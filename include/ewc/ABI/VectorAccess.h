//===- VectorAccess.h - When the GPU's vector loop applies ------*- C++ -*-===//
//
// ew-vectorize-gpu-loops moves the tensors whose innermost dimension is the
// loop nest's, at unit stride, by 16-byte vectors, where their addresses
// allow it. What it needs is stated here once, for the two that decide by
// it: the pass, which builds the vector versions and their in-kernel checks,
// and the runtime, which picks the variant of a launch before it: the
// default one has only the vector versions (the plain scalar loop stands in
// where its checks fail: correct, not fast), the shifted one (`.v`) reads
// inputs that no common peel aligns by aligned vectors with a shift, the
// unaligned one (`.u`) has only the coalesced unrolled scalar loop. Apart, each
// kernel gets its own registers: together, the scalar loop's (64-bit
// coordinates of E points) set the kernel's count, and bias_add's vector loop
// ran at a third to a half of the SM's threads (docs/design.md, "The
// thread-to-element layout").
//
// Pure C++ on LLVM Support, like the rest of lib/ABI.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_VECTORACCESS_H
#define EWC_ABI_VECTORACCESS_H

#include "ewc/ABI/LaunchPlan.h"

namespace ewc {

/// Bytes of one vector access: the widest global load and store a thread can
/// issue on NVIDIA GPUs (ld.global.v4.b32), and what the copy engine moves.
constexpr unsigned kVectorBytes = 16;

/// True for elements of `bytes` bytes that vectors can move: a power of two
/// up to kVectorBytes.
bool isVectorElementSize(unsigned bytes);

/// The atom, in elements: 16 bytes of the widest vectorized output, or of
/// the widest vectorized input where no output is vectorized
/// (VectorizeGPULoops.cpp says why). 0 where nothing is vectorized.
unsigned getVectorAtom(unsigned widestOutputBytes, unsigned widestInputBytes);

/// Elements per vector access of a tensor of `bytes`-byte elements beside
/// `atom`: the atom, or 16 bytes of a wider tensor.
unsigned getVectorLanes(unsigned atom, unsigned bytes);

/// Whether the vector versions of the loop over the largest result of
/// `kernel` (its first of the highest rank, which sets the launch) apply to
/// `plan`'s tensors, as the kernel's own checks decide:
///   - one row (one dimension, or every outer extent 1): a peel of the
///     first points aligns every vectorized tensor, or
///   - several rows: the row length is a multiple of the atom and every
///     vectorized tensor's address and row strides are multiples of its
///     vector (in bytes), along every outer extent above 1.
/// A tensor is vectorized when its innermost dimension is the nest's, at
/// unit stride, with elements of isVectorElementSize. True where no tensor
/// is (the loop stays scalar in every variant).
bool isVectorAligned(const KernelSignature &kernel, const LaunchPlan &plan);

/// Where isVectorAligned fails on one row: the inputs that the shifted
/// variant (`.v`) reads by aligned vectors with a shift, as (ABI tensor
/// position, shift in elements), if the peel that aligns the vectorized
/// output with the most lanes aligns every vectorized output; else none
/// (the unaligned variant then). A shifted input's element at an aligned
/// output's point sits `shift` elements past an aligned address: the
/// kernel loads the two aligned vectors around it and takes their lanes
/// shift ... shift + lanes - 1 (VectorizeGPULoops.cpp). Measured on the
/// H200 (bench/probes/misaligned.cu, 2026-12-02): LeakyReLU with x one to
/// three elements in at 101.5% of the copy (f32) and 101.1-101.3% (bf16),
/// where the unaligned variant's scalar loop ran at 98.0% and 90.5%.
std::vector<std::pair<int64_t, int64_t>>
getVectorShifts(const KernelSignature &kernel, const LaunchPlan &plan);

/// Whether the rows schedule's runs (RowAccess.h, kRowVectorBytes) apply
/// to `plan`'s tensors: every tensor whose innermost dimension is a row of
/// one dimension of `rowDims` (#ew.launch's row_dims), at unit stride (not
/// one of the plan's strided tensors), starts at a multiple of
/// kVectorBytes and has every stride of an extent above 1 a multiple of
/// kVectorBytes in bytes, so that each row starts aligned. The kernel
/// reads or writes by runs only such tensors (those it reads along the
/// row's dimension: a subset).
bool isRowVectorAligned(const LaunchPlan &plan,
                        const std::vector<std::vector<std::string>> &rowDims);

} // namespace ewc

#endif // EWC_ABI_VECTORACCESS_H
