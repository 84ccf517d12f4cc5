#!/usr/bin/env python3
"""Writes and checks the .npy files of the golden tests without NumPy.

  golden.py write FILE DTYPE V1,V2,... [--shape AxB] [--fortran]
      a .npy of those values (1-D, or of the shape; --fortran: the values
      are the array's in column-major order, as Fortran order stores them)
  golden.py check FILE DTYPE V1,V2,... [--ulps N] [--shape AxB]
      (the values in C order; --shape also checks the file's shape)

Values are Python literals (nan, inf, -0.0, 0x7f800001 for raw bits with
`bits:` prefix). `check` compares bit for bit, except that any NaN matches a
NaN and, with --ulps N, a float may be N units in the last place away. The
expected values are written by hand in the tests: they depend on neither the
compiler nor its reference.
"""
import math
import struct
import sys

FORMATS = {  # dtype: (npy descr, struct code, bytes)
    "bool": ("|b1", "?", 1),
    "i32": ("<i4", "i", 4),
    "i64": ("<i8", "q", 8),
    "i8": ("|i1", "b", 1),
    "i16": ("<i2", "h", 2),
    "u8": ("|u1", "B", 1),
    "u16": ("<u2", "H", 2),
    "u32": ("<u4", "I", 4),
    "u64": ("<u8", "Q", 8),
    "f16": ("<f2", "e", 2),
    "bf16": ("<u2", "H", 2),  # bit patterns, as ewc-run reads and writes them
    "f32": ("<f4", "f", 4),
    "f64": ("<f8", "d", 8),
}


def bf16_bits(value):
    """Rounds a float to bfloat16 (nearest, ties to even) and returns its bits."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if math.isnan(value):
        return 0x7FC0
    rounding = 0x7FFF + ((bits >> 16) & 1)
    return (bits + rounding) >> 16


def parse(dtype, text):
    values = []
    if not text.strip():  # an empty array
        return values
    for item in text.split(","):
        item = item.strip()
        if dtype == "bool":
            values.append(item in ("true", "1"))
        elif dtype in ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"):
            values.append(int(item, 0))
        elif dtype == "bf16":
            values.append(bf16_bits(float(item)))
        elif item.startswith("bits:") and dtype in ("f32", "f64"):
            # The float of those bits (a signalling NaN may come back
            # quieted: Python holds it as a double).
            code, width = ("<f", "<I") if dtype == "f32" else ("<d", "<Q")
            values.append(struct.unpack(code, struct.pack(width, int(item[5:], 0)))[0])
        else:
            values.append(float(item))
    return values


def shape_text(shape):
    """A shape as .npy headers write it: (3,), (2, 3), ()."""
    return "(%s)" % (", ".join(str(e) for e in shape) + ("," if len(shape) == 1 else ""))


def write(path, dtype, values, shape=None, fortran=False):
    descr, code, size = FORMATS[dtype]
    shape = [len(values)] if shape is None else shape
    assert math.prod(shape) == len(values), "the values do not fill the shape"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shape_text(shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(b"".join(struct.pack("<" + code, v) for v in values))


def read(path, dtype, shape=None):
    descr, code, size = FORMATS[dtype]
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    header_len = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + header_len].decode()
    assert descr in header, "dtype %s not in header %s" % (descr, header)
    if shape is not None and "'shape': %s" % shape_text(shape) not in header:
        sys.exit("shape %s not in header %s" % (shape_text(shape), header))
    body = data[10 + header_len:]
    return [struct.unpack("<" + code, body[i:i + size])[0] for i in range(0, len(body), size)]


def as_float(dtype, value):
    if dtype == "bf16":
        return struct.unpack("<f", struct.pack("<I", value << 16))[0]
    return value


def ulp(dtype, value):
    mantissa, min_exp = {"f16": (10, -14), "bf16": (7, -126), "f32": (23, -126), "f64": (52, -1022)}[dtype]
    exp = min_exp if value == 0 or math.isinf(value) else max(math.frexp(abs(value))[1] - 1, min_exp)
    return math.ldexp(1.0, exp - mantissa)


def same_bits(dtype, a, b):
    code = FORMATS[dtype][1]
    return struct.pack("<" + code, a) == struct.pack("<" + code, b)


def check(path, dtype, expected, ulps, shape):
    got = read(path, dtype, shape)
    if len(got) != len(expected):
        sys.exit("length %d, expected %d" % (len(got), len(expected)))
    bad = 0
    for i, (g, e) in enumerate(zip(got, expected)):
        gf, ef = as_float(dtype, g), as_float(dtype, e)
        if dtype in ("f16", "bf16", "f32", "f64"):
            ok = (math.isnan(gf) and math.isnan(ef)) or same_bits(dtype, g, e) or (
                ulps and math.isfinite(ef) and abs(gf - ef) <= ulps * ulp(dtype, ef))
        else:
            ok = g == e
        if not ok:
            bad += 1
            print("[%d]: got %r, expected %r" % (i, gf, ef))
    print("golden: %d of %d elements as expected" % (len(got) - bad, len(got)))
    sys.exit(1 if bad else 0)


def main():
    command, path, dtype, values = sys.argv[1:5]
    options = sys.argv[5:]
    def option(name):
        return options[options.index(name) + 1] if name in options else None
    expected = parse(dtype, values)
    shape = option("--shape")
    shape = None if shape is None else [int(e) for e in shape.split("x") if e]
    if command == "write":
        write(path, dtype, expected, shape, "--fortran" in options)
    else:
        check(path, dtype, expected, int(option("--ulps") or 0), shape)


if __name__ == "__main__":
    main()
