"""Makes and reads .npy files for ewc-run's tests with the standard library
only (the test machines need no NumPy).

  npy.py make FILE DESCR SHAPE [VALUE ...] [--version 2] [--fortran]
                                           [--cut N] [--append N]
                                           [--header DICT]
      Writes a .npy file as numpy.save would (header padded to 64 bytes),
      VALUEs packed as DESCR ('nan', 'inf', '-0.0' and 0x... allowed); then
      --cut drops the last N bytes, --append adds N zero bytes, and --header
      replaces the whole dict text.
  npy.py dump FILE
      Prints "DESCR SHAPE", then one element per line: floats as Python's
      repr, bf16 ('<u2') as its bits in hex and its value.
  npy.py classify FILE
      Prints which kinds of float values occur (nan, inf, -inf, +0, -0,
      subnormal, max, -max, normal), sorted, on one line.
  npy.py equal FILE1 FILE2
      Prints "equal: K of N": how many elements have the same bits.
  npy.py range FILE
      Prints "range: MIN MAX integers|fractions" of the values.
"""

import ast
import math
import struct
import sys

FORMATS = {"|b1": "B", "<i4": "i", "<i8": "q", "<f2": "e", "<u2": "H",
           "<f4": "f", "<f8": "d"}
# Greatest finite and least normal values of each float descr ('<u2' is bf16).
LIMITS = {"<f2": (65504.0, 2.0**-14), "<u2": ((2 - 2.0**-7) * 2.0**127, 2.0**-126),
          "<f4": ((2 - 2.0**-23) * 2.0**127, 2.0**-126),
          "<f8": (sys.float_info.max, sys.float_info.min)}


def make(args):
    path, descr, shape = args[:3]
    rest = args[3:]
    opts = {"--version": "1", "--cut": "0", "--append": "0", "--header": None}
    fortran = False
    values = []
    i = 0
    while i < len(rest):
        if rest[i] == "--fortran":
            fortran = True
        elif rest[i] in opts:
            opts[rest[i]] = rest[i + 1]
            i += 1
        else:
            values.append(rest[i])
        i += 1
    code = FORMATS.get(descr, "B")
    packed = b""
    for v in values:
        number = int(v, 0) if code in "BiqH" else float(v)
        packed += struct.pack("<" + code, number)
    header = opts["--header"]
    if header is None:
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
            descr, fortran, shape)
    version = int(opts["--version"])
    length_size = 2 if version == 1 else 4
    unpadded = 6 + 2 + length_size + len(header) + 1
    header += " " * ((64 - unpadded % 64) % 64) + "\n"
    data = b"\x93NUMPY" + bytes([version, 0])
    data += len(header).to_bytes(length_size, "little") + header.encode()
    data += packed + bytes(int(opts["--append"]))
    cut = int(opts["--cut"])
    if cut:
        data = data[:-cut]
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    length_size = 2 if data[6] == 1 else 4
    length = int.from_bytes(data[8:8 + length_size], "little")
    start = 8 + length_size
    header = ast.literal_eval(data[start:start + length].decode())
    descr, shape = header["descr"], header["shape"]
    code = FORMATS[descr]
    count = math.prod(shape)
    values = struct.unpack_from("<%d%s" % (count, code), data, start + length)
    return descr, shape, list(values)


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def dump(args):
    descr, shape, values = read(args[0])
    print(descr, shape)
    for v in values:
        print("0x%04x %r" % (v, bf16_value(v)) if descr == "<u2" else repr(v))


def classify(args):
    descr, _, values = read(args[0])
    if descr == "<u2":
        values = [bf16_value(v) for v in values]
    largest, least_normal = LIMITS[descr]
    kinds = set()
    for v in values:
        if math.isnan(v):
            kinds.add("nan")
        elif math.isinf(v):
            kinds.add("inf" if v > 0 else "-inf")
        elif v == 0:
            kinds.add("-0" if math.copysign(1, v) < 0 else "+0")
        elif abs(v) < least_normal:
            kinds.add("subnormal")
        elif abs(v) == largest:
            kinds.add("max" if v > 0 else "-max")
        else:
            kinds.add("normal")
    print(" ".join(sorted(kinds)))


def equal(args):
    a, b = (read(p) for p in args)
    same = sum(struct.pack("<d", x) == struct.pack("<d", y)
               for x, y in zip(a[2], b[2]))
    print("equal: %d of %d" % (same, len(a[2])))


def value_range(args):
    _, _, values = read(args[0])
    whole = all(v == int(v) for v in values)
    print("range: %r %r %s" % (min(values), max(values),
                               "integers" if whole else "fractions"))


if __name__ == "__main__":
    {"make": make, "dump": dump, "classify": classify, "equal": equal,
     "range": value_range}[sys.argv[1]](sys.argv[2:])
