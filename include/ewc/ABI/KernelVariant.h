//===- KernelVariant.h - What one compiled variant assumes ------*- C++ -*-===//
//
// A kernel compiles into variants, each assuming something of its launches
// beyond the signature (docs/design.md, "Launch plans and variants"): the
// batch's rank, which tensors have a runtime innermost stride, and on the
// GPU whether the addresses allow vectors and which schedule's shape the
// rows take. planLaunch and the runtime choose one for each launch
// (LaunchPlan::variant), the driver writes it onto the kernel as attributes
// and the lowerings read it back (KernelABI.h in lib/Conversion:
// setKernelVariant, getKernelVariant), and the caches name it (getKey). One
// struct for all of them, so that a new kind of variant is one field here,
// its key, and its attribute.
//
// Pure C++: no MLIR, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_ABI_KERNELVARIANT_H
#define EWC_ABI_KERNELVARIANT_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ewc {

/// What one compiled variant of a kernel assumes beyond its signature; the
/// runtime picks the variant that a launch's tensors fit (docs/runtime.md).
/// The default variant, which compiles with the module, is a
/// default-constructed one.
struct KernelVariant {
  /// The batch `...`'s rank after merging (LaunchPlan.h).
  unsigned batchRank = 1;
  /// ABI tensor positions whose innermost stride is a runtime value (every
  /// other innermost stride is 1).
  std::vector<int64_t> stridedTensors;
  /// On the GPU, whether the tensors' addresses keep the loop from vector
  /// accesses (VectorAccess.h): the runtime sets it, planLaunch does not.
  bool unaligned = false;
  /// On the GPU, ABI tensor positions staged through shared memory in tiles
  /// (TiledAccess.h): the runtime sets them too.
  std::vector<int64_t> tiledTensors;
  /// On the GPU, the inputs read by aligned vectors with a shift where the
  /// outputs are aligned (VectorAccess.h, getVectorShifts): (ABI tensor
  /// position, shift in elements).
  std::vector<std::pair<int64_t, int64_t>> shiftedTensors;
  /// On the CPU: whether the results are written with non-temporal stores
  /// (the runtime sets it for launches that write more than the caches
  /// keep: docs/runtime.md, "Streaming stores").
  bool streamingStores = false;
  /// On the GPU, the block of the rows schedule where a launch's longest row
  /// wants another than the default variant's (RowAccess.h,
  /// getRowsBlockSize; the runtime sets it); 0: the default's.
  unsigned rowsBlockSize = 0;
  /// On the GPU, whether a kernel's scans along rows run split into tiles
  /// (ScanAccess.h, chooseScanSplits; the runtime sets it per launch).
  bool splitScans = false;
  /// On the GPU, the elements of its row a lane of the rows schedule keeps
  /// in registers (RowAccess.h, kRowResidentElements; the launch's
  /// --rows-resident); 0: none.
  unsigned rowsResident = 0;
  /// On the GPU, the lanes of the rows schedule's teams where the variant
  /// fixes them (the resident rows': getRowsResidentTeam); 0: by the row.
  unsigned rowsTeam = 0;
  /// On the GPU, the pass of the rows schedule with its points on the
  /// lanes that the variant has alone (RowAccess.h, getLanePass: the full
  /// pass, 1, or the one that fits, 2); 0: all three, by the points.
  unsigned lanePass = 0;
  /// Whether the kernel reads its batch position (index_flat()) over a
  /// batch of more than 2^32 positions: every other variant takes the
  /// position for a 32-bit value (kWideBatchAttrName in KernelABI.h says
  /// why); planLaunch sets it.
  bool wideBatch = false;

  /// True where ABI tensor position `tensor` has a runtime innermost stride.
  bool isStrided(int64_t tensor) const;
  /// True for the variant that compiles with the module.
  bool isDefault() const;
  /// The variant's name in the caches (docs/runtime.md): "b1" for the
  /// default, else "b<rank>", ".s<tensor>" for each strided tensor, ".u"
  /// when unaligned, ".t<tensor>" for each tiled tensor,
  /// ".v<tensor>s<shift>" for each shifted one, ".nt" with streaming
  /// stores, ".r<threads>" for the rows schedule's block, ".scan" for
  /// scans split into tiles, ".team<lanes>" for the teams' constant size
  /// and ".k<elements>" for a resident row, ".lp<pass>" for the pass of
  /// points on the lanes, ".w" for a batch position past 32 bits.
  std::string getKey() const;
};

} // namespace ewc

#endif // EWC_ABI_KERNELVARIANT_H
