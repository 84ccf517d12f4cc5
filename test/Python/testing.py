# ewc.testing on the CPU. bench(): times a compiled kernel in milliseconds;
# makes the calls its counts and budgets say, each timed call after a cache
# flush; returns Triton's statistics (checked on a clock that gives known
# times); finds the last-level cache in a sysfs tree; names the argument in
# each error. perf_report(): sweeps into the printed table, the CSV file
# and a PNG drawn by the built-in renderer (python/ewc/_chart.py), read back
# here as PNG: signature, chunk CRCs, header, the decompressed length, and
# the lines, the band, the ceiling and the title in their colours.
#
# RUN: %ewc_python %s %kernels | FileCheck %s

import os
import struct
import sys
import tempfile
import time
import zlib

# The built-in renderer even where matplotlib is installed (it may be in the
# H200's venv): importing a module that is None in sys.modules fails.
sys.modules["matplotlib"] = None

import numpy as np

import ewc
import ewc.testing
from ewc.testing import Benchmark, bench, perf_report
from testutil import show

kernels = sys.argv[1]


#===------------------------------------------------------------------------===#
# bench()
#===------------------------------------------------------------------------===#

mod = ewc.compile(os.path.join(kernels, "leaky_relu.ew"), device="cpu",
                    types={"T": "f32"})
x = np.linspace(-4, 4, 1 << 16, dtype=np.float32)
y = np.full_like(x, np.nan)
ms = bench(lambda: mod.leaky_relu(x, 0.5, out=y), warmup=2, rep=10,
           flush_l2=False, device="cpu")
# CHECK: kernel: float, positive True, result exact True
print("kernel: %s, positive %s, result exact %s" % (
    type(ms).__name__, ms > 0,
    np.array_equal(y, np.where(x >= 0, x, np.float32(0.5) * x))))
q = bench(lambda: mod.leaky_relu(x, out=y), warmup=2, rep=10, flush_l2=False,
          device="cpu", quantiles=[0.2, 0.5, 0.8])
# CHECK-NEXT: quantiles: list of 3, positive True, sorted True
print("quantiles: %s of %d, positive %s, sorted %s" % (
    type(q).__name__, len(q), q[0] > 0, q[0] <= q[1] <= q[2]))

# Milliseconds, and as many timed calls as rep ms hold: a call that sleeps
# 2 ms takes 2 ms or more, and 20 ms hold at most 10 of them.
times = bench(lambda: time.sleep(0.002), warmup=0, rep=20, flush_l2=False,
              device="cpu", return_mode="all")
# CHECK-NEXT: sleep 2 ms: at least 2 ms True, under 50 ms True, 1 to 10 calls True
print("sleep 2 ms: at least 2 ms %s, under 50 ms %s, 1 to 10 calls %s" % (
    min(times) >= 2.0, max(times) < 50.0, 1 <= len(times) <= 10))

# The order of the calls: fn once, the warm-up, then a flush before each
# timed call ("F" a flush that writes its buffer, "c" a call of fn).
trace = []
flush = ewc.testing._CpuClock.flush


def traced_flush(self):
    if self.cache is not None:
        trace.append("F")
    flush(self)


ewc.testing._CpuClock.flush = traced_flush
got = bench(lambda: trace.append("c"), n_warmup=2, n_repeat=4, device="cpu",
            return_mode="all")
# CHECK-NEXT: counts, flushed: [cccFcFcFcFc], 4 times
print("counts, flushed: [%s], %d times" % ("".join(trace), len(got)))
del trace[:]
bench(lambda: trace.append("c"), n_warmup=2, n_repeat=4, device="cpu",
      flush_l2=False)
# CHECK-NEXT: counts, not flushed: [ccccccc]
print("counts, not flushed: [%s]" % "".join(trace))
del trace[:]
# With budgets: fn once, then 5 flushed calls to estimate its time.
bench(lambda: trace.append("c"), warmup=1, rep=1, device="cpu")
# CHECK-NEXT: budgets: starts cFcFcFcFcFc True
print("budgets: starts cFcFcFcFcFc %s" % "".join(trace).startswith(
    "c" + "Fc" * 5))
ewc.testing._CpuClock.flush = flush

# The flush goes through the whole buffer, twice the last-level cache (or
# the default where sysfs does not say, as in the dev machine's container).
clock = ewc.testing._CpuClock(True)
llc = ewc.testing._cpu_cache_bytes()
ends = clock.cache[0], clock.cache[-1]
clock.flush()
# CHECK-NEXT: flush buffer: twice the LLC True, first and last written True
print("flush buffer: twice the LLC %s, first and last written %s" % (
    clock.cache.nbytes == (2 * llc if llc else ewc.testing.CPU_FLUSH_BYTES),
    (clock.cache[0], clock.cache[-1]) == (ends[0] + 1, ends[1] + 1)))
del clock

# The last-level cache from a sysfs tree: the highest level that is not an
# instruction cache.
with tempfile.TemporaryDirectory() as root:
    for index, (level, kind, size) in enumerate([
            (1, "Data", "48K"), (1, "Instruction", "32K"),
            (2, "Unified", "1024K"), (3, "Unified", "32768K"),
            (3, "Instruction", "65536K")]):
        os.mkdir(os.path.join(root, "index%d" % index))
        for name, value in (("level", level), ("type", kind), ("size", size)):
            with open(os.path.join(root, "index%d" % index, name), "w") as f:
                f.write("%s\n" % value)
    # CHECK-NEXT: sysfs: 33554432 None
    print("sysfs:", ewc.testing._cpu_cache_bytes(root),
          ewc.testing._cpu_cache_bytes(os.path.join(root, "absent")))

# The statistics, on a clock whose timed calls take 4, 1, 3 and 2 ms.
real_mark = ewc.testing._CpuClock.mark


def known(**options):
    ticks = iter([0.0, 0.004, 1.0, 1.001, 2.0, 2.003, 3.0, 3.002])
    ewc.testing._CpuClock.mark = staticmethod(lambda: next(ticks))
    try:
        return bench(lambda: None, n_warmup=0, n_repeat=4, flush_l2=False,
                     device="cpu", **options)
    finally:
        ewc.testing._CpuClock.mark = real_mark


def fmt(value):
    return ("[%s]" % ", ".join(map(fmt, value)) if isinstance(value, list)
            else "%.6g" % value)


# CHECK-NEXT: statistics: median 2.5 mean 2.5 min 1 max 4 all [4, 1, 3, 2]
print("statistics:", " ".join("%s %s" % (mode, fmt(known(return_mode=mode)))
                              for mode in ("median", "mean", "min", "max",
                                           "all")))
# CHECK-NEXT: quantiles: [1, 1.6, 2.5, 3.7, 4] one: 1.3
print("quantiles:", fmt(known(quantiles=[0, 0.2, 0.5, 0.9, 1])),
      "one:", fmt(known(quantiles=[0.1])))
# The default is the median (Triton's do_bench: the mean).
# CHECK-NEXT: default: 2.5
print("default:", fmt(known()))

noop = lambda: None  # noqa: E731
# CHECK-NEXT: fn: TypeError: ewc.testing.bench(): fn must be callable, got NoneType
show("fn", lambda: bench(None))
# CHECK-NEXT: return_mode: ValueError: ewc.testing.bench(): return_mode must be one of min, max, mean, median, all, got 'average'
show("return_mode", lambda: bench(noop, return_mode="average"))
# CHECK-NEXT: quantiles: ValueError: ewc.testing.bench(): quantiles must be numbers in [0, 1], got [0.5, 1.5]
show("quantiles", lambda: bench(noop, quantiles=[0.5, 1.5]))
# CHECK-NEXT: quantiles number: TypeError: ewc.testing.bench(): quantiles must be a list of numbers in [0, 1] or None, got float
show("quantiles number", lambda: bench(noop, quantiles=0.5))
# CHECK-NEXT: warmup: ValueError: ewc.testing.bench(): warmup must be 0 or more milliseconds, got -1
show("warmup", lambda: bench(noop, warmup=-1))
# CHECK-NEXT: rep: ValueError: ewc.testing.bench(): rep must be more than 0 milliseconds, got 0
show("rep", lambda: bench(noop, rep=0))
# CHECK-NEXT: rep str: TypeError: ewc.testing.bench(): rep must be a number of milliseconds, got str
show("rep str", lambda: bench(noop, rep="100"))
# CHECK-NEXT: n_repeat: ValueError: ewc.testing.bench(): n_repeat must be 1 or more, got 0
show("n_repeat", lambda: bench(noop, n_repeat=0))
# CHECK-NEXT: flush_l2: TypeError: ewc.testing.bench(): flush_l2 must be True or False, got 'yes'
show("flush_l2", lambda: bench(noop, flush_l2="yes"))
# CHECK-NEXT: device: ValueError: ewc.testing.bench(): device must be 'cuda', 'cpu' or None, got 'tpu'
show("device", lambda: bench(noop, device="tpu"))
# CHECK-NEXT: grad_to_none: TypeError: ewc.testing.bench(): grad_to_none must be a list of tensors or None, got int
show("grad_to_none", lambda: bench(noop, grad_to_none=3))

#===------------------------------------------------------------------------===#
# perf_report()
#===------------------------------------------------------------------------===#


def read_png(path):
    """(header fields, chunk kinds, CRCs all right, scanlines) of a PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature: %r" % data[:8]
    chunks, crc_ok, pos = [], True, 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        crc_ok = crc_ok and zlib.crc32(kind + body) & 0xFFFFFFFF == crc
        chunks.append((kind.decode(), body))
        pos += 12 + length
    header = struct.unpack(">IIBBBBB", chunks[0][1])
    raw = zlib.decompress(b"".join(b for k, b in chunks if k == "IDAT"))
    return header, [k for k, _ in chunks], crc_ok, raw


# A sweep with known values: NumPy has none at the last n, the copy (the
# ceiling) a band from its min to its max.
@perf_report(Benchmark(
    x_names=["n"], x_vals=[1024, 4096, 16384, 65536], line_arg="provider",
    line_vals=["ewc", "numpy", "copy"], line_names=["ewc", "NumPy", "copy"],
    plot_name="fixed", args={"scale": 2}, xlabel="n (elements)",
    ylabel="GB/s", x_log=True, ceiling="copy"))
def fixed(n, provider, scale):
    if provider == "ewc":
        return n / 1024 * scale
    if provider == "numpy":
        return None if n == 65536 else n // 4096 * scale
    return n / 512 * scale, n / 600, n / 200


# Removed when the interpreter exits.
out_dir = tempfile.TemporaryDirectory()
out = out_dir.name
rows = fixed.run(print_data=True, save_path=os.path.join(out, "sweep"))
# CHECK-NEXT: fixed:
# CHECK-NEXT:     n  ewc  NumPy  copy
# CHECK-NEXT:  1024    2      0     4
# CHECK-NEXT:  4096    8      2    16
# CHECK-NEXT: 16384   32      8    64
# CHECK-NEXT: 65536  128      -   256
# CHECK-NEXT: rows: {'n': 1024, 'ewc': 2.0, 'NumPy': 0, 'copy': 4.0}
print("rows:", rows[0])
with open(os.path.join(out, "sweep", "fixed.csv")) as f:
    print(f.read(), end="")
# CHECK-NEXT: n,ewc,NumPy,copy
# CHECK-NEXT: 1024,2,0,4
# CHECK-NEXT: 4096,8,2,16
# CHECK-NEXT: 16384,32,8,64
# CHECK-NEXT: 65536,128,,256

header, kinds, crc_ok, raw = read_png(os.path.join(out, "sweep", "fixed.png"))
width, height, depth, color_type, _, _, interlace = header
# CHECK-NEXT: png: IHDR IDAT IEND, CRCs True, 1000x600, depth 8, colour type 2, interlace 0
print("png: %s, CRCs %s, %dx%d, depth %d, colour type %d, interlace %d" % (
    " ".join(kinds), crc_ok, width, height, depth, color_type, interlace))
stride = 1 + 3 * width
# CHECK-NEXT: scanlines: 1800600 bytes for 1800600, filters {0}
print("scanlines: %d bytes for %d, filters %s" % (
    len(raw), height * stride, set(raw[y * stride] for y in range(height))))
counts = {}
for row in range(height):
    line = raw[row * stride + 1:(row + 1) * stride]
    for i in range(0, len(line), 3):
        counts[line[i:i + 3]] = counts.get(line[i:i + 3], 0) + 1
# The lines in matplotlib's first two colours, the ceiling in dark grey and
# its band (85, 85, 85 at 15% over white), each in more pixels than the
# legend's sample (30 x 2) and the dots have.
colors = {"ewc": bytes((0x1F, 0x77, 0xB4)), "NumPy": bytes((0xFF, 0x7F, 0x0E)),
          "copy": bytes((0x55, 0x55, 0x55)), "band": bytes((230, 230, 230))}
# CHECK-NEXT: colours: ewc True NumPy True copy True band True, more than 5 True
print("colours: %s, more than 5 %s" % (" ".join(
    "%s %s" % (name, counts.get(rgb, 0) > 300) for name, rgb in colors.items()),
    len(counts) > 5))
title_band = raw[:20 * stride]
# CHECK-NEXT: title: black pixels True
print("title: black pixels %s" % (b"\x00\x00\x00" in b"".join(
    title_band[r * stride + 1:(r + 1) * stride] for r in range(20))))


# A timed sweep of the kernel against NumPy and a copy: GB/s from the
# median, the band from the 20% and 80% quantiles.
@perf_report(Benchmark(
    x_names=["n"], x_vals=[1 << 12, 1 << 16], line_arg="provider",
    line_vals=["ewc", "numpy", "copy"], line_names=["ewc", "NumPy", "copy"],
    plot_name="leaky_relu", args={}, ylabel="GB/s", x_log=True,
    ceiling="copy"))
def timed(n, provider):
    a = np.linspace(-1, 1, n, dtype=np.float32)
    b = np.empty_like(a)
    fn = {"ewc": lambda: mod.leaky_relu(a, out=b),
          "numpy": lambda: np.multiply(a, np.where(a >= 0, 1, 0.01), out=b),
          "copy": lambda: np.copyto(b, a)}[provider]
    median, low, high = bench(fn, warmup=1, rep=5, flush_l2=False,
                              device="cpu", quantiles=[0.5, 0.2, 0.8])
    gbps = lambda t: 2 * 4 * n / (t * 1e-3) / 1e9  # noqa: E731
    return gbps(median), gbps(high), gbps(low)


timed.run(save_path=os.path.join(out, "timed"))
with open(os.path.join(out, "timed", "leaky_relu.csv")) as f:
    lines = f.read().splitlines()
# CHECK-NEXT: timed: n,ewc,NumPy,copy
print("timed:", lines[0])
for line in lines[1:]:
    n, *values = line.split(",")
    # CHECK-NEXT: 4096: 3 positive True
    # CHECK-NEXT: 65536: 3 positive True
    print("%s: %d positive %s" % (n, len(values),
                                  all(float(v) > 0 for v in values)))
header, kinds, crc_ok, raw = read_png(os.path.join(out, "timed",
                                                   "leaky_relu.png"))
# CHECK-NEXT: timed png: 1000x600 CRCs True
print("timed png: %dx%d CRCs %s" % (header[0], header[1], crc_ok))

# CHECK-NEXT: ceiling: ValueError: ewc.testing.Benchmark(): ceiling 'memcpy' is none of line_vals ['ewc', 'copy'] or line_names ['ewc', 'copy']
show("ceiling", lambda: Benchmark(["n"], [1], "p", ["ewc", "copy"],
                                  ["ewc", "copy"], "p", {}, ceiling="memcpy"))
# CHECK-NEXT: line_names: ValueError: ewc.testing.Benchmark(): line_vals and line_names must be as long and not empty, got 2 and 1
show("line_names", lambda: Benchmark(["n"], [1], "p", ["ewc", "copy"],
                                     ["ewc"], "p", {}))
# CHECK-NEXT: x_vals: ValueError: ewc.testing.Benchmark(): x value (1, 2) has 2 values for 1 x_names
show("x_vals", lambda: Benchmark(["n"], [(1, 2)], "p", ["ewc"], ["ewc"],
                                 "p", {}))
# CHECK-NEXT: styles: ValueError: ewc.testing.Benchmark(): styles: unknown line style '~~' (use one of '-', 'solid', '--', 'dashed', ':', 'dotted', '-.', 'dashdot')
show("styles", lambda: Benchmark(["n"], [1], "p", ["ewc"], ["ewc"], "p", {},
                                 styles=[("tab:blue", "~~")]))
# CHECK-NEXT: columns: ValueError: ewc.testing.Benchmark(): x_names and line_names must be distinct (they name the table's columns), got ['n', 'n']
show("columns", lambda: Benchmark(["n"], [1], "p", ["ewc"], ["n"], "p", {}))
# CHECK-NEXT: result: TypeError: ewc.testing.perf_report: the function returned 'fast' for n=1, p='ewc'; expected a number, None or (y, y_min, y_max)
show("result", lambda: perf_report(Benchmark(["n"], [1], "p", ["ewc"],
                                             ["ewc"], "p", {}))(
    lambda n, p: "fast").run())
