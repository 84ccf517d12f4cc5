//===- Npy.h - NumPy .npy files of kernel inputs and results ----*- C++ -*-===//
//
// Reads and writes the NumPy .npy format (format versions 1.0 and 2.0) for
// the arrays ewc-run feeds to kernels and gets back: one dimension, C order,
// little-endian, one dtype per ew element type. bf16, which NumPy lacks, is
// stored as its 16-bit patterns ('<u2'). Every malformed file is an error
// that says what is wrong, never a crash or a silent misread.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_NPY_H
#define EWC_REFERENCE_NPY_H

#include "ewc/Reference/HostArray.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ewc {

/// The .npy dtype string ("descr") of `dtype`: '|b1', '<i4', '<i8', '<f2',
/// '<u2' (bf16 bit patterns), '<f4' or '<f8'.
llvm::StringRef getNpyDescr(DType dtype);

/// The element type stored as `descr`, or std::nullopt for any other descr.
std::optional<DType> getDTypeOfNpyDescr(llvm::StringRef descr);

/// What the header of a .npy file says.
struct NpyHeader {
  unsigned majorVersion = 1;
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<uint64_t, 1> shape;
  /// The offset of the first element in the file.
  size_t dataOffset = 0;
};

/// Parses the header at the start of `bytes` (a whole .npy file). The error
/// reads as the end of a sentence about the file: "is not a .npy file (...)",
/// "is truncated (...)", "has a corrupt header: ...".
llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef bytes);

/// Decodes `bytes`, a whole .npy file, which must hold a 1-D C-order array
/// of exactly getNpyDescr(dtype), its elements and nothing after them. Bool
/// bytes must be 0 or 1. Errors read like parseNpyHeader's, e.g. "holds
/// '<f8' (f64), but f32 ('<f4') is expected".
llvm::Expected<HostArray> parseNpy(llvm::StringRef bytes, DType dtype);

/// An array of any shape from a .npy file: its elements in the file's
/// order (C order, or Fortran order: the first dimension varies fastest).
struct NpyArray {
  HostArray array;
  std::vector<int64_t> shape;
  bool fortranOrder = false;
};

/// Decodes a .npy file of any shape, in C or Fortran order, as parseNpy.
llvm::Expected<NpyArray> parseNpyArray(llvm::StringRef bytes, DType dtype);

/// The .npy file of `array` in C order of `shape` (unset: 1-D; empty: rank
/// 0, one element), whose elements must be array.size(): format 1.0, the
/// header padded to 64 bytes as NumPy writes it, then the elements.
std::string serializeNpy(const HostArray &array,
                         std::optional<llvm::ArrayRef<int64_t>> shape = {});

/// parseNpy of the file at `path`; errors begin "cannot read 'PATH': " or
/// "'PATH' ".
llvm::Expected<HostArray> readNpyFile(llvm::StringRef path, DType dtype);

/// parseNpyArray of the file at `path`; errors as readNpyFile's.
llvm::Expected<NpyArray> readNpyArrayFile(llvm::StringRef path, DType dtype);

/// Writes serializeNpy(array, shape) to `path`; the error begins
/// "cannot write 'PATH': ".
llvm::Error writeNpyFile(llvm::StringRef path, const HostArray &array,
                         std::optional<llvm::ArrayRef<int64_t>> shape = {});

} // namespace ewc

#endif // EWC_REFERENCE_NPY_H
