//===- NpyTest.cpp - Reading and writing .npy files -----------------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// Files as NumPy writes them (the header layout of numpy.save in NumPy
// 1.24), round trips of every dtype, and every way a file can be wrong, each
// checked by its message.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

using namespace ewc;

namespace {

/// A .npy file: magic, version, header length, `dict` padded with spaces
/// to a multiple of 64 bytes and a newline, then `data`.
std::string makeFile(llvm::StringRef dict, llvm::StringRef data,
                     unsigned major = 1) {
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t unpadded = 6 + 2 + lengthSize + dict.size() + 1;
  std::string header = dict.str();
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string file = "\x93NUMPY";
  file += char(major);
  file += '\0';
  for (size_t i = 0; i < lengthSize; ++i)
    file += char((header.size() >> (8 * i)) & 0xff);
  return file + header + data.str();
}

std::string dictOf(llvm::StringRef descr, llvm::StringRef shape,
                   llvm::StringRef order = "False") {
  return ("{'descr': '" + descr + "', 'fortran_order': " + order +
          ", 'shape': " + shape + ", }")
      .str();
}

/// The error message of a failed parse, or "" if it succeeded.
std::string parseError(llvm::StringRef bytes, DType dtype) {
  llvm::Expected<HostArray> array = parseNpy(bytes, dtype);
  if (array)
    return "";
  return llvm::toString(array.takeError());
}

TEST(Npy, ReadsWhatNumPyWrites) {
  // numpy.save(f, numpy.array([1.5, -2.0, 0.25], dtype='<f4')), byte for
  // byte: a 118-byte dict, 128 bytes before the data.
  float values[] = {1.5f, -2.0f, 0.25f};
  std::string data(reinterpret_cast<const char *>(values), sizeof values);
  std::string file = makeFile(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", data);
  ASSERT_EQ(file.size(), 128u + sizeof values);
  llvm::Expected<HostArray> array = parseNpy(file, DType::F32);
  ASSERT_TRUE(bool(array)) << llvm::toString(array.takeError());
  ASSERT_EQ(array->size(), 3);
  EXPECT_EQ(array->getAsDouble(0), 1.5);
  EXPECT_EQ(array->getAsDouble(1), -2.0);
  EXPECT_EQ(array->getAsDouble(2), 0.25);
}

TEST(Npy, HeaderVariants) {
  int32_t values[] = {7, -8};
  std::string data(reinterpret_cast<const char *>(values), sizeof values);
  // Version 2.0 (4-byte header length), double quotes, keys in another
  // order, no trailing comma, Python 2's long suffix, tabs.
  for (const std::string &file :
       {makeFile(dictOf("<i4", "(2,)"), data, 2),
        makeFile("{\"shape\": (2,), \"fortran_order\": False, \"descr\": "
                 "\"<i4\"}",
                 data),
        makeFile("{'descr':'<i4','fortran_order':False,'shape':(2L,)}", data),
        makeFile("{\t'descr': '<i4',\t'fortran_order': False, 'shape': ( 2 "
                 ", ) }",
                 data)}) {
    llvm::Expected<HostArray> array = parseNpy(file, DType::I32);
    ASSERT_TRUE(bool(array)) << llvm::toString(array.takeError());
    ASSERT_EQ(array->size(), 2);
    EXPECT_EQ(array->getAsInt(0), 7);
    EXPECT_EQ(array->getAsInt(1), -8);
  }
}

TEST(Npy, RoundTripEveryDType) {
  for (DType dtype : {DType::Bool, DType::I32, DType::I64, DType::F16,
                      DType::BF16, DType::F32, DType::F64}) {
    for (int64_t n : {0, 1, 5, 1000}) {
      HostArray array(dtype, n);
      for (int64_t i = 0; i < n; ++i)
        array.setFromInt(i, (i * 7919) % 13 - 6);
      std::string bytes = serializeNpy(array);
      // NumPy's layout: the data starts at a multiple of 64.
      EXPECT_EQ((bytes.size() - array.getSizeInBytes()) % 64, 0u);
      llvm::Expected<NpyHeader> header = parseNpyHeader(bytes);
      ASSERT_TRUE(bool(header)) << llvm::toString(header.takeError());
      EXPECT_EQ(header->descr, getNpyDescr(dtype).str());
      EXPECT_EQ(header->majorVersion, 1u);
      ASSERT_EQ(header->shape.size(), 1u);
      EXPECT_EQ(header->shape[0], uint64_t(n));
      llvm::Expected<HostArray> back = parseNpy(bytes, dtype);
      ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
      ASSERT_EQ(back->size(), n);
      EXPECT_EQ(back->getDType(), dtype);
      // memcmp must not see the null data() of an empty array, even for
      // zero bytes (UBSan's nonnull check).
      EXPECT_TRUE(n == 0 || std::memcmp(back->data(), array.data(),
                                        array.getSizeInBytes()) == 0)
          << getDTypeName(dtype).str() << " n=" << n;
    }
  }
}

TEST(Npy, Descrs) {
  EXPECT_EQ(getNpyDescr(DType::Bool), "|b1");
  EXPECT_EQ(getNpyDescr(DType::BF16), "<u2");
  EXPECT_EQ(getNpyDescr(DType::F16), "<f2");
  EXPECT_EQ(getDTypeOfNpyDescr("<i8"), DType::I64);
  EXPECT_EQ(getDTypeOfNpyDescr(">f4"), std::nullopt);
  EXPECT_EQ(getDTypeOfNpyDescr("<u4"), DType::U32);
  EXPECT_EQ(getDTypeOfNpyDescr("|i1"), DType::I8);
  EXPECT_EQ(getDTypeOfNpyDescr("|u1"), DType::U8);
  EXPECT_EQ(getDTypeOfNpyDescr("<c8"), std::nullopt);
}

TEST(Npy, Errors) {
  std::string four(4, '\0');
  std::string f32x1 = makeFile(dictOf("<f4", "(1,)"), four);
  EXPECT_EQ(parseError(f32x1, DType::F32), "");

  // Not .npy at all, or cut short anywhere.
  EXPECT_EQ(parseError("PK\x03\x04 a zip file", DType::F32),
            "is not a .npy file (it does not start with the magic string "
            "\"\\x93NUMPY\")");
  EXPECT_EQ(parseError("", DType::F32),
            "is truncated (0 bytes, shorter than the .npy magic string)");
  EXPECT_EQ(parseError(f32x1.substr(0, 7), DType::F32),
            "is truncated (it ends inside the format version)");
  EXPECT_EQ(parseError(f32x1.substr(0, 9), DType::F32),
            "is truncated (it ends inside the header length)");
  EXPECT_EQ(parseError(f32x1.substr(0, 60), DType::F32),
            "is truncated (its header needs 118 bytes, only 50 follow)");
  EXPECT_EQ(parseError(f32x1.substr(0, f32x1.size() - 1), DType::F32),
            "is truncated (its header announces 1 elements of 4 bytes, but "
            "only 3 bytes of data follow)");
  EXPECT_EQ(parseError(f32x1 + "x", DType::F32),
            "has 1 bytes after its 1 elements");

  // Versions.
  std::string v3 = f32x1;
  v3[6] = 3;
  EXPECT_EQ(parseError(v3, DType::F32),
            "has .npy format version 3.0; ewc reads 1.0 and 2.0");

  // Wrong dtype, rank or order.
  EXPECT_EQ(parseError(makeFile(dictOf("<f8", "(1,)"), std::string(8, 0)),
                       DType::F32),
            "holds '<f8' (f64), but f32 ('<f4') is expected");
  EXPECT_EQ(parseError(makeFile(dictOf("<f2", "(1,)"), std::string(2, 0)),
                       DType::BF16),
            "holds '<f2' (f16), but bf16 ('<u2') is expected");
  EXPECT_EQ(parseError(makeFile(dictOf(">f4", "(1,)"), four), DType::F32),
            "holds '>f4', but f32 ('<f4') is expected");
  EXPECT_EQ(parseError(makeFile(dictOf("<f4", "(2, 3)"), std::string(24, 0)),
                       DType::F32),
            "holds a 2-D array of shape (2, 3); only 1-D arrays are read");
  EXPECT_EQ(parseError(makeFile(dictOf("<f4", "()"), four), DType::F32),
            "holds a 0-D array of shape (); only 1-D arrays are read");
  EXPECT_EQ(
      parseError(makeFile(dictOf("<f4", "(1,)", "True"), four), DType::F32),
      "is in Fortran order; only C order is read");

  // Bool bytes other than 0 and 1.
  EXPECT_EQ(
      parseError(makeFile(dictOf("|b1", "(3,)"), std::string("\1\0\2", 3)),
                 DType::Bool),
      "holds the byte 0x02 at element 2, which is no bool (0 or 1)");

  // A length far beyond the file: no allocation is attempted.
  EXPECT_EQ(parseError(makeFile(dictOf("<f8", "(4611686018427387904,)"), ""),
                       DType::F64),
            "is truncated (its header announces 4611686018427387904 elements "
            "of 8 bytes, but only 0 bytes of data follow)");
}

TEST(Npy, ArraysOfAnyShape) {
  // parseNpyArray keeps the shape and the order; serializeNpy writes any
  // shape, rank 0 included.
  std::string data(24, '\0');
  for (llvm::StringRef shape : {"(2, 3)", "(1, 2, 3)", "(6,)"}) {
    llvm::Expected<NpyArray> array =
        parseNpyArray(makeFile(dictOf("<f4", shape), data), DType::F32);
    ASSERT_TRUE(bool(array)) << llvm::toString(array.takeError());
    EXPECT_EQ(array->array.size(), 6);
    EXPECT_FALSE(array->fortranOrder);
  }
  llvm::Expected<NpyArray> fortran = parseNpyArray(
      makeFile(dictOf("<f4", "(2, 3)", "True"), data), DType::F32);
  ASSERT_TRUE(bool(fortran));
  EXPECT_EQ(fortran->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(fortran->fortranOrder);
  // A shape whose elements overflow is an error, not a wrapped count.
  EXPECT_NE(llvm::toString(parseNpyArray(makeFile(dictOf("<f4", "(4294967296, "
                                                                "4294967296)"),
                                                  data),
                                         DType::F32)
                               .takeError())
                .find("too large"),
            std::string::npos);

  HostArray six(DType::I32, 6);
  for (int64_t i = 0; i < 6; ++i)
    six.setFromInt(i, i);
  llvm::Expected<NpyArray> back = parseNpyArray(
      serializeNpy(six, llvm::ArrayRef<int64_t>{3, 1, 2}), DType::I32);
  ASSERT_TRUE(bool(back));
  EXPECT_EQ(back->shape, (std::vector<int64_t>{3, 1, 2}));
  EXPECT_EQ(back->array.toInts(), six.toInts());
  HostArray one(DType::F64, 1);
  one.setFromDouble(0, 2.5);
  back =
      parseNpyArray(serializeNpy(one, llvm::ArrayRef<int64_t>{}), DType::F64);
  ASSERT_TRUE(bool(back));
  EXPECT_TRUE(back->shape.empty());
  EXPECT_EQ(back->array.getAsDouble(0), 2.5);
}

TEST(Npy, CorruptHeaders) {
  std::string four(4, '\0');
  auto headerError = [&](llvm::StringRef dict) {
    return parseError(makeFile(dict, four), DType::F32);
  };
  EXPECT_EQ(headerError("['descr', '<f4']"),
            "has a corrupt header: expected '{' at offset 0 of \"['descr', "
            "'<f4']\"");
  EXPECT_EQ(headerError("{'descr': '<f4', 'fortran_order': False}"),
            "has a corrupt header: no 'shape' key");
  EXPECT_EQ(headerError("{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (1,), 'extra': 1}"),
            "has a corrupt header: expected a string, True, False or a tuple "
            "at offset 65 of \"{'descr': '<f4', 'fortran_order': False, "
            "'shape': (1,), 'extra': 1}\"");
  EXPECT_EQ(headerError("{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (1,), 'extra': 'x'}"),
            "has a corrupt header: unexpected key 'extra'");
  EXPECT_EQ(headerError("{'descr': '<f4', 'descr': '<f4', 'fortran_order': "
                        "False, 'shape': (1,)}"),
            "has a corrupt header: key 'descr' appears twice");
  EXPECT_EQ(headerError("{'descr': 4, 'fortran_order': False, 'shape': (1,)}"),
            "has a corrupt header: expected a string, True, False or a tuple "
            "at offset 10 of \"{'descr': 4, 'fortran_order': False, 'shape': "
            "(1,)}\"");
  EXPECT_EQ(headerError("{'descr': '<f4', 'fortran_order': 'no', 'shape': "
                        "(1,)}"),
            "has a corrupt header: the value of 'fortran_order' is not a bool");
  EXPECT_EQ(headerError("{'descr': '<f4', 'fortran_order': False, 'shape': "
                        "(1)}"),
            "has a corrupt header: expected ',' (a 1-tuple is written (n,)) at "
            "offset 52 of \"{'descr': '<f4', 'fortran_order': False, "
            "'shape': (1)}\"");
  EXPECT_EQ(
      headerError("{'descr': '<f4', 'fortran_order': False, 'shape': "
                  "(-1,)}"),
      "has a corrupt header: expected a dimension (a non-negative "
      "integer) or ')' at offset 51 of \"{'descr': '<f4', 'fortran_order': "
      "False, 'shape': (-1,)}\"");
  EXPECT_EQ(
      headerError("{'descr': '<f4', 'fortran_order': False, 'shape': "
                  "(99999999999999999999999,)}"),
      "has a corrupt header: expected a dimension (a non-negative "
      "integer) or ')' at offset 51 of \"{'descr': '<f4', 'fortran_order': "
      "False, 'shape': (99999999999999999999999,)}\"");
  EXPECT_EQ(headerError("{'descr': '<f4', 'fortran_order': False, 'shape': "
                        "(1,)} trailing"),
            "has a corrupt header: text after the dict");
  EXPECT_EQ(headerError("{'descr: '<f4'}"),
            "has a corrupt header: expected ':' at offset 10 of \"{'descr: "
            "'<f4'}\"");
  EXPECT_EQ(headerError(std::string("{'descr': '<f4\0'}", 17)),
            "has a corrupt header: it is not printable text");
}

TEST(Npy, Files) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ewc-npy-test", dir));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, "a.npy");

  HostArray array(DType::BF16, 3);
  array.setFromDouble(0, 1.0);
  array.setFromDouble(1, -0.0);
  array.setFromDouble(2, 3.5);
  ASSERT_FALSE(llvm::errorToBool(writeNpyFile(path, array)));
  llvm::Expected<HostArray> back = readNpyFile(path, DType::BF16);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(std::memcmp(back->data(), array.data(), 6), 0);

  llvm::Expected<HostArray> wrong = readNpyFile(path, DType::F16);
  ASSERT_FALSE(bool(wrong));
  EXPECT_EQ(llvm::toString(wrong.takeError()),
            "'" + path.str().str() +
                "' holds '<u2' (bf16 or u16), but f16 ('<f2') is expected");
  // bf16's bits and u16 share "<u2": a reader of either takes the file.
  llvm::Expected<HostArray> asU16 = readNpyFile(path, DType::U16);
  ASSERT_TRUE(bool(asU16)) << llvm::toString(asU16.takeError());
  EXPECT_EQ(asU16->getAsInt(0), 0x3f80); // bf16 1.0

  llvm::SmallString<128> missing(dir);
  llvm::sys::path::append(missing, "missing.npy");
  llvm::Expected<HostArray> none = readNpyFile(missing, DType::F32);
  ASSERT_FALSE(bool(none));
  EXPECT_EQ(llvm::toString(none.takeError()),
            "cannot read '" + missing.str().str() +
                "': No such file or directory");

  llvm::SmallString<128> unwritable(dir);
  llvm::sys::path::append(unwritable, "no-such-dir", "b.npy");
  llvm::Error error = writeNpyFile(unwritable, array);
  EXPECT_EQ(llvm::toString(std::move(error)),
            "cannot write '" + unwritable.str().str() +
                "': No such file or directory");

  llvm::sys::fs::remove(path);
  llvm::sys::fs::remove(dir);
}

} // namespace
