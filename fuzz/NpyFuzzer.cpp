//===- NpyFuzzer.cpp - libFuzzer target: the .npy reader ------------------===//
//
// Feeds arbitrary bytes to the .npy reader (lib/Reference/Npy.cpp) as a file
// of each of the seven element types, 1-D (parseNpy) and of any shape
// (parseNpyArray). The contract (Npy.h): every malformed file is an error,
// never a crash or a silent misread. Beyond the sanitizers, an accepted
// file is checked against what it says: its header names the dtype asked
// for, the shape and the element count, its elements are exactly the bytes
// after the header, and serializeNpy's file of the array reads back the
// same, in its shape.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace ewc;

static void fail(DType dtype, const char *what) {
  llvm::errs() << "fuzz-npy: a file accepted as " << getDTypeName(dtype) << ": "
               << what << "\n";
  std::abort();
}

// memcmp's pointers must not be null, even for no bytes; an empty
// HostArray's data() is.
static bool sameBytes(const void *a, const void *b, size_t size) {
  return size == 0 || std::memcmp(a, b, size) == 0;
}

static bool sameElements(const HostArray &a, const HostArray &b) {
  return a.getDType() == b.getDType() && a.size() == b.size() &&
         sameBytes(a.data(), b.data(), a.getSizeInBytes());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<NpyHeader> header = parseNpyHeader(bytes);
  if (!header) {
    (void)llvm::toString(header.takeError());
    header = NpyHeader();
  }
  for (DType dtype : {DType::Bool, DType::I32, DType::I64, DType::F16,
                      DType::BF16, DType::F32, DType::F64}) {
    llvm::Expected<HostArray> array = parseNpy(bytes, dtype);
    if (!array) {
      // Formats the message, as ewc-run does when it prints it.
      (void)llvm::toString(array.takeError());
      continue;
    }
    if (header->descr != getNpyDescr(dtype) || header->shape.size() != 1 ||
        header->shape[0] != static_cast<uint64_t>(array->size()))
      fail(dtype, "its header says otherwise");
    if (header->dataOffset + array->getSizeInBytes() != size ||
        !sameBytes(array->data(), data + header->dataOffset,
                   array->getSizeInBytes()))
      fail(dtype, "its elements are not the bytes after the header");
    llvm::Expected<HostArray> again = parseNpy(serializeNpy(*array), dtype);
    if (!again || !sameElements(*array, *again))
      fail(dtype, "serializeNpy's file of it reads back otherwise");
  }
  for (DType dtype : {DType::Bool, DType::I32, DType::I64, DType::F16,
                      DType::BF16, DType::F32, DType::F64}) {
    llvm::Expected<NpyArray> array = parseNpyArray(bytes, dtype);
    if (!array) {
      (void)llvm::toString(array.takeError());
      continue;
    }
    uint64_t count = 1;
    for (uint64_t extent : header->shape)
      count *= extent;
    if (header->descr != getNpyDescr(dtype) ||
        array->shape.size() != header->shape.size() ||
        !std::equal(array->shape.begin(), array->shape.end(),
                    header->shape.begin()) ||
        array->fortranOrder != header->fortranOrder ||
        count != static_cast<uint64_t>(array->array.size()))
      fail(dtype, "its header says otherwise (of any shape)");
    if (header->dataOffset + array->array.getSizeInBytes() != size ||
        !sameBytes(array->array.data(), data + header->dataOffset,
                   array->array.getSizeInBytes()))
      fail(dtype, "its elements are not the bytes after the header");
    llvm::Expected<NpyArray> again = parseNpyArray(
        serializeNpy(array->array, llvm::ArrayRef<int64_t>(array->shape)),
        dtype);
    if (!again || !sameElements(array->array, again->array) ||
        again->shape != array->shape || again->fortranOrder)
      fail(dtype, "serializeNpy's file of it reads back otherwise (of any "
                  "shape)");
  }
  return 0;
}
