"""bench/probes/misaligned_runtime.py: LeakyReLU with x a view one element
into its storage, through ewc's runtime, beside the same kernel's PTX timed
alone (bench/probes/misaligned.cu measured ewc's unaligned variant at 98.3%
of the copy in f32, where bench/shapes.py measures the same case through the
Python API at 90.9%). Times, in one process, with CUDA-event medians as
bench/shapes.py does:

  ewc py       mod.leaky(x, slope=, out=) (the Python fast path)
  ewc C        ewcModuleLaunchPacked with its slots prebuilt
  torch        aten leaky_relu.out into the same output
  copy         torch's copy_ of the same bytes

for x = storage[k:k + n], k = 0 and 1, out aligned. `--one K DTYPE` makes
one ewc launch only (under ncu: its grid, registers and duration).

    python3 bench/probes/misaligned_runtime.py [--one K DTYPE]
"""
import ctypes
import os
import statistics
import sys

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import ewc  # noqa: E402

N = 1 << 28
SLOPE = 0.01
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


def module(t):
    source = ("kernel leaky(x: %s[...], slope: f32 = 0.01) -> %s[...] {\n"
              "  return where(x >= 0.0, x, slope * x);\n}\n" % (t, t))
    return ewc.compile(source=source, device="cuda", name="leaky_%s.ew" % t,
                       cache=False)


def time_ms(fn):
    for _ in range(5):
        fn()
    pairs = [(torch.cuda.Event(enable_timing=True),
              torch.cuda.Event(enable_timing=True)) for _ in range(30)]
    for start, end in pairs:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in pairs)


def main():
    if "--one" in sys.argv:
        k = int(sys.argv[sys.argv.index("--one") + 1])
        t = sys.argv[sys.argv.index("--one") + 2]
        dt = DTYPES[t]
        mod = module(t)
        storage = torch.randn(N + 4, device="cuda").to(dt)
        out = torch.empty(N, device="cuda", dtype=dt)
        mod.leaky(storage[k:k + N], slope=SLOPE, out=out)
        torch.cuda.synchronize()
        return
    for t, dt in DTYPES.items():
        mod = module(t)
        size = torch.tensor([], dtype=dt).element_size()
        storage = torch.randn(N + 4, device="cuda").to(dt)
        out = torch.empty(N, device="cuda", dtype=dt)
        src = torch.randn(N, device="cuda").to(dt)
        dst = torch.empty_like(src)
        copy = time_ms(lambda: dst.copy_(src))
        launch = ewc._capi.lib.ewcModuleLaunchPacked
        index = list(mod.kernels).index("leaky")
        stream = torch.cuda.current_stream().cuda_stream
        for k in (0, 1):
            x = storage[k:k + N]
            slots = (ctypes.c_int64 * 3)(x.data_ptr(), 0, out.data_ptr())
            (ctypes.c_double * 3).from_buffer(slots)[1] = SLOPE
            rows = {
                "ewc py": lambda: mod.leaky(x, slope=SLOPE, out=out),
                "ewc C": lambda: launch(mod._handle, index, slots, N, stream),
                "torch": lambda: torch.ops.aten.leaky_relu.out(
                    x, SLOPE, out=out),
            }
            for name, fn in rows.items():
                ms = time_ms(fn)
                ok = torch.equal(out, F.leaky_relu(x, SLOPE))
                print("%-5s x+%d %-7s %7.0f GB/s %6.1f%% of copy  %s" % (
                    t, k, name, 2 * N * size / ms / 1e6, 100 * copy / ms,
                    "ok" if ok else "WRONG"))


if __name__ == "__main__":
    main()
