"""Runs rand, randn and randint through ewc-run on the offsets and seeds of
triton-random.txt (what Triton 3.6 returned on a GPU) and compares the bits.

  python3 triton-random.py EWC_RUN KERNELS.ew GOLDEN.txt DEVICE TMPDIR

Prints per offset type one line:
  i32: randint N of N equal, rand N of N equal, randn E of N equal, at most U ulps apart
No NumPy needed: the .npy files are written and read with struct.
"""
import ast
import os
import struct
import subprocess
import sys

ewc_run, kernels, golden, device, tmp = sys.argv[1:6]
os.makedirs(tmp, exist_ok=True)


def write_npy(path, descr, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (
        descr, len(values))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    code = {"<i4": "<i", "<i8": "<q"}[descr]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(b"".join(struct.pack(code, v) for v in values))


def read_words(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + length].decode())
    assert header["descr"] in ("<i4", "<f4"), header
    body = data[10 + length:]
    return [struct.unpack("<I", body[i:i + 4])[0]
            for i in range(0, len(body), 4)]


def ordered(bits):
    """An f32's bits as an integer that orders like the value."""
    return bits if bits < 0x80000000 else 0x80000000 - bits


groups = {}
with open(golden) as f:
    for line in f:
        if line.startswith("#"):
            continue
        width, seed, offset, *words = line.split()
        groups.setdefault((width, int(seed)), []).append(
            (int(offset), [int(w, 16) for w in words]))

for width in ("i32", "i64"):
    equal = [0, 0, 0]
    total = 0
    ulps = 0
    for (w, seed), rows in groups.items():
        if w != width:
            continue
        offsets = os.path.join(tmp, "offsets.npy")
        write_npy(offsets, "<i4" if width == "i32" else "<i8",
                  [o for o, _ in rows])
        outs = [os.path.join(tmp, "out%d.npy" % i) for i in range(3)]
        command = [ewc_run, kernels, "--kernel", "triton_" + width,
                   "--device", device, "--input", "offset=" + offsets,
                   "--arg", "seed=%d" % seed]
        for i, out in enumerate(outs):
            command += ["--save", "out%d=%s" % (i, out)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0 or run.stdout.strip() != "True":
            sys.exit("ewc-run failed for seed %d:\n%s%s" %
                     (seed, run.stdout, run.stderr))
        got = [read_words(out) for out in outs]
        for k, (_, expected) in enumerate(rows):
            total += 1
            for i in range(3):
                equal[i] += got[i][k] == expected[i]
            ulps = max(ulps, abs(ordered(got[2][k]) - ordered(expected[2])))
    print("%s: randint %d of %d equal, rand %d of %d equal, randn %d of %d "
          "equal, at most %d ulps apart" %
          (width, equal[0], total, equal[1], total, equal[2], total, ulps))
