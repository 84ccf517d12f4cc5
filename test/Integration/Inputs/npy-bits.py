"""Prints each .npy file's elements as hexadecimal bit patterns, one line a
file (little-endian f4/f8/i4/i8 only; no NumPy needed)."""
import ast
import os
import struct
import sys

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + length].decode())
    size = int(header["descr"][2:])
    body = data[10 + length:]
    code = {4: "<I", 8: "<Q"}[size]
    words = [struct.unpack(code, body[i:i + size])[0]
             for i in range(0, len(body), size)]
    print("%s: %s" % (os.path.basename(path),
                      " ".join("%0*x" % (2 * size, w) for w in words)))
