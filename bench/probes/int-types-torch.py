"""The conversions of issue 18's integer types against torch's on the H200,
bit for bit, on every bit pattern of the 8- and 16-bit types: i8, u8, i16,
u16 to every float type (f16, bf16, f32, f64) and to every other integer
type (wraparound: torch's .to() is two's complement), and the int8 quantize
of kernels/quantize.ew against torch.quantize_per_tensor(...).int_repr() on
2^24 normal values and on values near every rounding tie; then the quantize's
time against torch's (CUDA events, median of 50). Prints one line per check
and "all equal" at the end when every check held.

  EWC_LIBRARY=.../libewc.so python3 bench/probes/int-types-torch.py
"""
import sys
import torch
import ewc

INTS = {"i8": torch.int8, "u8": torch.uint8, "i16": torch.int16,
        "u16": torch.uint16, "i32": torch.int32, "i64": torch.int64,
        "u32": torch.uint32, "u64": torch.uint64}
FLOATS = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
          "f64": torch.float64}
ok = True


def report(what, equal):
    global ok
    ok &= bool(equal)
    print("%s: %s" % (what, "equal" if equal else "DIFFERENT"))


def patterns(name):
    bits = 8 if name in ("i8", "u8") else 16
    raw = torch.arange(1 << bits, dtype=torch.int32, device="cuda")
    if name.startswith("i"):
        raw = torch.where(raw >= 1 << (bits - 1), raw - (1 << bits), raw)
    # uint16 has no CUDA arithmetic in every torch: build through int32.
    return raw.to(torch.int64).to(INTS[name])


sources = ["i8", "u8", "i16", "u16"]
targets = list(FLOATS) + [t for t in INTS]
src = "\n".join("kernel %s_to_%s(x: %s[n]) -> %s[n] { return %s(x); }"
                % (s, t, s, t, t) for s in sources for t in targets if s != t)
mod = ewc.compile(source=src, device="cuda")
for s in sources:
    x = patterns(s)
    for t in targets:
        if s == t:
            continue
        want = FLOATS.get(t) or INTS[t]
        got = getattr(mod, "%s_to_%s" % (s, t))(x)
        if t in ("u32", "u64"):  # compare through the bits: no uint64 ==
            same = torch.equal(got.view(torch.int32 if t == "u32" else
                                        torch.int64),
                               x.to(torch.int64).to(want).view(
                                   torch.int32 if t == "u32" else torch.int64))
        else:
            same = torch.equal(got, x.to(want))
        report("%s -> %s, %d patterns" % (s, t, x.numel()), same)

q = ewc.compile(path="kernels/quantize.ew", device="cuda")
torch.manual_seed(0)
for scale in (0.05, 0.1, 1.0 / 3.0):
    x = torch.randn(1 << 24, device="cuda") * 4
    # Near ties: k + 0.5 steps, and its f32 neighbours.
    k = torch.arange(-300, 300, device="cuda", dtype=torch.float32) + 0.5
    t = k * scale
    x = torch.cat([x, t, torch.nextafter(t, t + 1), torch.nextafter(t, t - 1)])
    want = torch.quantize_per_tensor(x, scale, 0, torch.qint8).int_repr()
    report("quantize scale %.6g, %d values" % (scale, x.numel()),
           torch.equal(q.quantize(x, scale=scale), want))


def timed(fn):
    for _ in range(5):
        fn()
    times = []
    for _ in range(50):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


x = torch.randn(1 << 26, device="cuda")
out = torch.empty(1 << 26, device="cuda", dtype=torch.int8)
te = timed(lambda: q.quantize(x, scale=0.05, out=out))
tt = timed(lambda: torch.quantize_per_tensor(x, 0.05, 0, torch.qint8))
gbs = lambda ms: (x.numel() * 5) / ms / 1e6
print("quantize 2^26 f32 -> i8: ewc %.3f ms (%.0f GB/s), "
      "torch.quantize_per_tensor %.3f ms (%.0f GB/s)" % (te, gbs(te), tt,
                                                         gbs(tt)))
print("all equal" if ok else "SOME DIFFERENT")
sys.exit(0 if ok else 1)
