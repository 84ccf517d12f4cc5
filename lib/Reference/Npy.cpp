//===- Npy.cpp - NumPy .npy files of kernel inputs and results ------------===//
//
// The format (numpy.lib.format): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (2 bytes little-endian in 1.0, 4 in 2.0),
// then the header, a Python dict literal such as
//
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }
//
// padded with spaces and a newline, then the raw elements. The header is
// parsed by hand: it is a fixed, tiny subset of Python (strings, True/False,
// tuples of integers), and no library here parses Python literals.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cstring>
#include <limits>

using namespace ewc;
using llvm::StringRef;

// Elements are copied between the file and HostArray as they are.
static_assert(llvm::endianness::native == llvm::endianness::little,
              "the .npy reader and writer assume a little-endian host");

static const char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = sizeof(kMagic) - 1;
/// NumPy pads the header so that the data starts at a multiple of 64 bytes.
static constexpr size_t kHeaderAlignment = 64;

StringRef ewc::getNpyDescr(DType dtype) { return getDTypeNpyDescr(dtype); }

std::optional<DType> ewc::getDTypeOfNpyDescr(StringRef descr) {
  // "<u2" is bf16's (its bits, the first) and u16's: a reader that expects
  // one of them takes it (parseNpyArray).
  for (DType dtype : getAllDTypes())
    if (getNpyDescr(dtype) == descr)
      return dtype;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

namespace {

/// A value of the header dict.
struct LiteralValue {
  enum Kind { String, Bool, Tuple } kind = String;
  std::string string;
  bool boolean = false;
  llvm::SmallVector<uint64_t, 1> tuple;
};

/// Parses the Python dict literal of a .npy header.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : text(text), rest(text) {}

  /// Fills `header` from the dict; the error is "has a corrupt header: ...".
  llvm::Error parse(NpyHeader &header) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    if (!consume('{'))
      return expected("'{'");
    while (!consume('}')) {
      std::string key;
      if (llvm::Error e = parseString(key))
        return e;
      if (!consume(':'))
        return expected("':'");
      LiteralValue value;
      if (llvm::Error e = parseValue(value))
        return e;
      bool *seen = llvm::StringSwitch<bool *>(key)
                       .Case("descr", &haveDescr)
                       .Case("fortran_order", &haveOrder)
                       .Case("shape", &haveShape)
                       .Default(nullptr);
      if (!seen)
        return corrupt("unexpected key '" + key + "'");
      if (*seen)
        return corrupt("key '" + key + "' appears twice");
      *seen = true;
      LiteralValue::Kind wanted = key == "descr" ? LiteralValue::String
                                  : key == "fortran_order"
                                      ? LiteralValue::Bool
                                      : LiteralValue::Tuple;
      if (value.kind != wanted)
        return corrupt("the value of '" + key + "' is not a " +
                       (wanted == LiteralValue::String ? "string"
                        : wanted == LiteralValue::Bool ? "bool"
                                                       : "tuple"));
      if (key == "descr")
        header.descr = value.string;
      else if (key == "fortran_order")
        header.fortranOrder = value.boolean;
      else
        header.shape = value.tuple;
      if (!consume(',')) {
        if (!consume('}'))
          return expected("',' or '}'");
        break;
      }
    }
    skipSpace();
    if (!rest.empty())
      return corrupt("text after the dict");
    if (!haveDescr || !haveOrder || !haveShape)
      return corrupt(llvm::Twine("no '") +
                     (!haveDescr   ? "descr"
                      : !haveOrder ? "fortran_order"
                                   : "shape") +
                     "' key");
    return llvm::Error::success();
  }

private:
  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }

  bool consume(char c) {
    skipSpace();
    return rest.consume_front(StringRef(&c, 1));
  }

  size_t offset() const { return text.size() - rest.size(); }

  llvm::Error corrupt(const llvm::Twine &what) {
    return llvm::createStringError("has a corrupt header: " + what);
  }

  llvm::Error expected(StringRef what) {
    return corrupt(llvm::formatv("expected {0} at offset {1} of \"{2}\"", what,
                                 offset(), text.rtrim())
                       .str());
  }

  /// A string in single or double quotes, without escapes (no descr or key
  /// of the format has any).
  llvm::Error parseString(std::string &out) {
    skipSpace();
    if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
      return expected("a quoted string");
    char quote = rest.front();
    size_t end = rest.find(quote, 1);
    if (end == StringRef::npos)
      return expected("a closing quote");
    out = rest.slice(1, end).str();
    if (StringRef(out).contains('\\'))
      return corrupt("escape sequences in strings are not supported");
    rest = rest.drop_front(end + 1);
    return llvm::Error::success();
  }

  llvm::Error parseValue(LiteralValue &value) {
    skipSpace();
    if (rest.starts_with("'") || rest.starts_with("\"")) {
      value.kind = LiteralValue::String;
      return parseString(value.string);
    }
    value.kind = LiteralValue::Bool;
    if (rest.consume_front("True")) {
      value.boolean = true;
      return llvm::Error::success();
    }
    if (rest.consume_front("False"))
      return llvm::Error::success();
    if (!consume('('))
      return expected("a string, True, False or a tuple");
    value.kind = LiteralValue::Tuple;
    // (), (n,) and (a, b, ...) with an optional trailing comma; (n) would
    // be an integer in Python, not a tuple, and NumPy never writes it.
    while (!consume(')')) {
      skipSpace();
      StringRef digits = rest.take_while(llvm::isDigit);
      uint64_t dim;
      if (digits.empty() || digits.getAsInteger(10, dim))
        return expected("a dimension (a non-negative integer) or ')'");
      rest = rest.drop_front(digits.size());
      rest.consume_front("L"); // Python 2 long, in files of old NumPy.
      value.tuple.push_back(dim);
      if (!consume(',')) {
        if (value.tuple.size() == 1)
          return expected("',' (a 1-tuple is written (n,))");
        if (!consume(')'))
          return expected("',' or ')'");
        break;
      }
    }
    return llvm::Error::success();
  }

  StringRef text;
  StringRef rest;
};

/// Little-endian unsigned integer of `size` bytes at `bytes`.
uint32_t readLittleEndian(StringRef bytes, size_t size) {
  uint32_t value = 0;
  for (size_t i = 0; i < size; ++i)
    value |= uint32_t(static_cast<uint8_t>(bytes[i])) << (8 * i);
  return value;
}

std::string formatShape(llvm::ArrayRef<uint64_t> shape) {
  std::string text = "(";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(dim);
  return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

llvm::Expected<NpyHeader> ewc::parseNpyHeader(StringRef bytes) {
  if (!bytes.starts_with(StringRef(kMagic, kMagicSize))) {
    if (StringRef(kMagic, kMagicSize).starts_with(bytes))
      return llvm::createStringError(
          llvm::formatv("is truncated ({0} bytes, shorter than "
                        "the .npy magic string)",
                        bytes.size()));
    return llvm::createStringError(
        "is not a .npy file (it does not start with the "
        "magic string \"\\x93NUMPY\")");
  }
  if (bytes.size() < kMagicSize + 2)
    return llvm::createStringError(
        "is truncated (it ends inside the format version)");
  NpyHeader header;
  unsigned major = static_cast<uint8_t>(bytes[kMagicSize]);
  unsigned minor = static_cast<uint8_t>(bytes[kMagicSize + 1]);
  if ((major != 1 && major != 2) || minor != 0)
    return llvm::createStringError(
        llvm::formatv("has .npy format version {0}.{1}; ewc "
                      "reads 1.0 and 2.0",
                      major, minor));
  header.majorVersion = major;
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t prefix = kMagicSize + 2 + lengthSize;
  if (bytes.size() < prefix)
    return llvm::createStringError(
        "is truncated (it ends inside the header length)");
  size_t headerLength =
      readLittleEndian(bytes.drop_front(kMagicSize + 2), lengthSize);
  if (bytes.size() - prefix < headerLength)
    return llvm::createStringError(
        llvm::formatv("is truncated (its header needs {0} "
                      "bytes, only {1} follow)",
                      headerLength, bytes.size() - prefix));
  StringRef text = bytes.substr(prefix, headerLength);
  if (!llvm::all_of(text, [](char c) {
        return llvm::isPrint(c) || c == '\t' || c == '\n';
      }))
    return llvm::createStringError(
        "has a corrupt header: it is not printable text");
  if (llvm::Error e = HeaderParser(text).parse(header))
    return std::move(e);
  header.dataOffset = prefix + headerLength;
  return header;
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

llvm::Expected<HostArray> ewc::parseNpy(StringRef bytes, DType dtype) {
  llvm::Expected<NpyArray> array = parseNpyArray(bytes, dtype);
  if (!array)
    return array.takeError();
  if (array->fortranOrder)
    return llvm::createStringError("is in Fortran order; only C order is read");
  if (array->shape.size() != 1) {
    llvm::SmallVector<uint64_t> shape(array->shape.begin(), array->shape.end());
    return llvm::createStringError(llvm::formatv(
        "holds a {0}-D array of shape {1}; only 1-D arrays are read",
        shape.size(), formatShape(shape)));
  }
  return std::move(array->array);
}

llvm::Expected<NpyArray> ewc::parseNpyArray(StringRef bytes, DType dtype) {
  llvm::Expected<NpyHeader> header = parseNpyHeader(bytes);
  if (!header)
    return header.takeError();
  if (header->descr != getNpyDescr(dtype)) {
    std::string held = "'" + header->descr + "'", names;
    for (DType other : getAllDTypes())
      if (getNpyDescr(other) == header->descr)
        names += (names.empty() ? "" : " or ") + getDTypeName(other).str();
    if (!names.empty())
      held += " (" + names + ")";
    return llvm::createStringError(
        llvm::formatv("holds {0}, but {1} ('{2}') is expected", held,
                      getDTypeName(dtype), getNpyDescr(dtype)));
  }
  uint64_t count = 1;
  for (uint64_t extent : header->shape)
    if (__builtin_mul_overflow(count, extent, &count) ||
        count > uint64_t(std::numeric_limits<int64_t>::max()))
      return llvm::createStringError(
          llvm::formatv("announces a shape {0} too large to hold",
                        formatShape(header->shape)));
  size_t elementSize = getDTypeSize(dtype);
  size_t available = bytes.size() - header->dataOffset;
  if (count > available / elementSize)
    return llvm::createStringError(llvm::formatv(
        "is truncated (its header announces {0} elements of {1} bytes, but "
        "only {2} bytes of data follow)",
        count, elementSize, available));
  if (available != count * elementSize)
    return llvm::createStringError(
        llvm::formatv("has {0} bytes after its {1} elements",
                      available - count * elementSize, count));
  StringRef data = bytes.drop_front(header->dataOffset);
  if (dtype == DType::Bool)
    for (auto [i, byte] : llvm::enumerate(data))
      if (byte != 0 && byte != 1)
        return llvm::createStringError(llvm::formatv(
            "holds the byte {0} at element {1}, which is no bool (0 or 1)",
            llvm::format_hex(static_cast<uint8_t>(byte), 4), i));

  NpyArray result;
  result.array = HostArray(dtype, static_cast<int64_t>(count));
  if (count)
    std::memcpy(result.array.data(), data.data(),
                result.array.getSizeInBytes());
  result.shape.assign(header->shape.begin(), header->shape.end());
  result.fortranOrder = header->fortranOrder;
  return result;
}

/// The header of serializeNpy, padding included.
static std::string makeHeader(const HostArray &array,
                              std::optional<llvm::ArrayRef<int64_t>> shape) {
  llvm::SmallVector<uint64_t> extents;
  if (shape)
    extents.assign(shape->begin(), shape->end());
  else
    extents = {static_cast<uint64_t>(array.size())};
  assert(llvm::all_of(extents, [](uint64_t e) { return int64_t(e) >= 0; }));
  std::string dict =
      llvm::formatv("{{'descr': '{0}', 'fortran_order': False, 'shape': {1}, }",
                    getNpyDescr(array.getDType()), formatShape(extents))
          .str();
  // Version 1.0's 2-byte length suffices: the dict is under 100 bytes.
  size_t unpadded = kMagicSize + 2 + 2 + dict.size() + 1;
  size_t padding =
      (kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment;
  dict.append(padding, ' ');
  dict += '\n';
  std::string header(kMagic, kMagicSize);
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

std::string ewc::serializeNpy(const HostArray &array,
                              std::optional<llvm::ArrayRef<int64_t>> shape) {
  std::string bytes = makeHeader(array, shape);
  if (array.size())
    bytes.append(static_cast<const char *>(array.data()),
                 array.getSizeInBytes());
  return bytes;
}

llvm::Expected<HostArray> ewc::readNpyFile(StringRef path, DType dtype) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (std::error_code ec = file.getError())
    return llvm::createStringError("cannot read '" + path +
                                   "': " + ec.message());
  llvm::Expected<HostArray> array = parseNpy((*file)->getBuffer(), dtype);
  if (!array)
    return llvm::createStringError("'" + path + "' " +
                                   llvm::toString(array.takeError()));
  return array;
}

llvm::Expected<NpyArray> ewc::readNpyArrayFile(StringRef path, DType dtype) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (std::error_code ec = file.getError())
    return llvm::createStringError("cannot read '" + path +
                                   "': " + ec.message());
  llvm::Expected<NpyArray> array = parseNpyArray((*file)->getBuffer(), dtype);
  if (!array)
    return llvm::createStringError("'" + path + "' " +
                                   llvm::toString(array.takeError()));
  return array;
}

llvm::Error ewc::writeNpyFile(StringRef path, const HostArray &array,
                              std::optional<llvm::ArrayRef<int64_t>> shape) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (!ec) {
    out << makeHeader(array, shape);
    if (array.size())
      out.write(static_cast<const char *>(array.data()),
                array.getSizeInBytes());
    out.close();
    ec = out.error();
    out.clear_error();
  }
  if (ec)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + ec.message());
  return llvm::Error::success();
}
