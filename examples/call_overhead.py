"""The host cost of one call at n = 1024 on the GPU: ewc's Python call
against torch's own leaky_relu and a Triton launch, in the same process.

    python3 examples/call_overhead.py [--calls N]

Each line: microseconds per call, the median of 7 rounds of N back-to-back
calls on torch's current stream, synchronized once per round. At n = 1024 a
kernel runs in a few microseconds, so the rate of issue is the host's cost.
The last ewc line is the C call alone (ewcModuleLaunchPacked with its
argument slots filled once): what remains above it is Python's share.
"""

import ctypes

import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import ewc
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc

import torch
import torch.nn.functional as F


def per_call_us(call, calls):
    rounds = []
    for _ in range(7):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            call()
        torch.cuda.synchronize()
        rounds.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(rounds)


def triton_call(x, out, slope):
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def leaky(x_ptr, out_ptr, slope, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        v = tl.load(x_ptr + offsets, mask=mask)
        tl.store(out_ptr + offsets, tl.where(v >= 0, v, v * slope), mask=mask)

    n = x.numel()
    return lambda: leaky[(triton.cdiv(n, 1024),)](x, out, slope, n, BLOCK=1024)


def c_call(mod, x, out, slope):
    """ewcModuleLaunchPacked for leaky_relu(x, slope) -> out, its slots
    filled once, on torch's current stream."""
    slots = (ctypes.c_int64 * 3)(x.data_ptr(), 0, out.data_ptr())
    (ctypes.c_double * 3).from_buffer(slots)[1] = slope
    stream = torch.cuda.current_stream().cuda_stream
    launch = ewc._capi.lib.ewcModuleLaunchPacked
    index = list(mod.kernels).index("leaky_relu")
    return lambda: launch(mod._handle, index, slots, x.numel(), stream)


def main():
    calls = int(sys.argv[sys.argv.index("--calls") + 1]) \
        if "--calls" in sys.argv else 2000
    n, slope = 1024, 0.01
    mod = ewc.compile(os.path.join(ROOT, "kernels", "leaky_relu.ew"),
                      device="cuda")
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    rows = [
        ("torch F.leaky_relu", lambda: F.leaky_relu(x, slope)),
        ("ewc mod.leaky_relu(x, slope=)", lambda: mod.leaky_relu(x, slope=slope)),
        ("ewc mod.leaky_relu(x, slope=, out=)",
         lambda: mod.leaky_relu(x, slope=slope, out=out)),
        ("ewc C call alone (slots prebuilt)", c_call(mod, x, out, slope)),
    ]
    triton = triton_call(x, out, slope)
    if triton is not None:
        rows.append(("triton launch", triton))
    for name, call in rows:
        call()  # warm up (Triton compiles here)
    print("device:", torch.cuda.get_device_name(), "n =", n)
    for name, call in rows:
        print("%-38s %7.2f us per call" % (name, per_call_us(call, calls)))
    ok = torch.allclose(mod.leaky_relu(x, slope=slope), F.leaky_relu(x, slope))
    print("ewc matches torch:", ok)


if __name__ == "__main__":
    main()
