"""The host cost of one call at n = 1024 on the GPU: ewc's Python call
against torch's own leaky_relu and a Triton launch, in the same process.

    python3 examples/call_overhead.py [--calls N] [--parts]
    python3 examples/call_overhead.py --cpu [--calls N]   # NumPy, no GPU

Each line: microseconds per call, the median (and the least) of 7 rounds of
N back-to-back calls on torch's current stream, synchronized once per round.
At n = 1024 a kernel runs in a few microseconds, so the rate of issue is the
host's cost. The first two ewc lines take the fast path (1-D contiguous
tensors: ewcModuleLaunchPackedArray); the strided line x[::2] the general one
(any shape and strides: ewcModuleGetResultShapes, then
ewcModuleLaunchTensors). The last ewc line is the C call alone
(ewcModuleLaunchPackedArray with its array filled once): what remains
above it is Python's share. --cpu measures the same calls on the CPU path
against np.where (the kernel then runs inside each call).
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

N, SLOPE = 1024, 0.01


def per_call_us(call, calls, synchronize):
    rounds = []
    for _ in range(7):
        synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            call()
        synchronize()
        rounds.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(rounds), min(rounds)


def ewc_rows(mod, x, wide, out, x_pointer, out_pointer, stream):
    """ewc's calls (`wide` has 2n elements: wide[::2] is a strided x), and
    ewcModuleLaunchPackedArray (what the fast path calls) for
    leaky_relu(x, slope) -> out with its array filled once."""
    index = list(mod.kernels).index("leaky_relu")
    # The head (module, kernel, n, stream), then x, slope and out.
    array = (ctypes.c_int64 * 7)(mod._handle, index, N, stream or 0,
                                 x_pointer, 0, out_pointer)
    (ctypes.c_double * 7).from_buffer(array)[5] = SLOPE
    launch = ewc._capi.lib.ewcModuleLaunchPackedArray
    return [
        ("ewc mod.leaky_relu(x, slope=)",
         lambda: mod.leaky_relu(x, slope=SLOPE)),
        ("ewc mod.leaky_relu(x, slope=, out=)",
         lambda: mod.leaky_relu(x, slope=SLOPE, out=out)),
        ("ewc mod.leaky_relu(x[::2], slope=)",
         lambda: mod.leaky_relu(wide[::2], slope=SLOPE)),
        ("ewc C call alone (array prebuilt)",
         lambda: launch(array)),
    ]


def triton_call(x, out):
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
    return lambda: leaky[(triton.cdiv(n, 1024),)](x, out, SLOPE, n,
                                                  BLOCK=1024)


def parts_rows(mod, x, out, torch):
    """--parts: what the fast path of a torch call does, piece by piece (a
    rough split: each row is its own loop, so the pieces need not add up)."""
    f32 = torch.float32
    tensor = torch.Tensor
    raw_stream = torch._C._cuda_getCurrentRawStream
    stream = torch.cuda.current_stream().cuda_stream

    def checks():
        return (type(x) is tensor and x.dtype is f32 and x.is_cuda and
                x.dim() == 1 and x.is_contiguous())

    return [
        ("part: checks of one tensor", checks),
        ("part: data_ptr() and numel()", lambda: (x.data_ptr(), x.numel())),
        ("part: the current stream", lambda: raw_stream(x.get_device())),
        ("part: torch.empty_like(x)", lambda: torch.empty_like(x)),
        ("part: out=, stream= given",
         lambda: mod.leaky_relu(x, slope=SLOPE, out=out, stream=stream)),
    ]


def gpu_rows():
    import torch
    import torch.nn.functional as F

    mod = ewc.compile(os.path.join(ROOT, "kernels", "leaky_relu.ew"),
                      device="cuda", types={"T": "f32"})
    x = torch.randn(N, device="cuda")
    wide = torch.randn(2 * N, device="cuda")
    out = torch.empty_like(x)
    rows = [("torch F.leaky_relu", lambda: F.leaky_relu(x, SLOPE))]
    rows += ewc_rows(mod, x, wide, out, x.data_ptr(), out.data_ptr(),
                     torch.cuda.current_stream().cuda_stream)
    triton = triton_call(x, out)
    if triton is not None:
        rows.append(("triton launch", triton))
    if "--parts" in sys.argv:
        rows += parts_rows(mod, x, out, torch)
    print("device:", torch.cuda.get_device_name(), "n =", N)
    check = torch.allclose(mod.leaky_relu(x, slope=SLOPE),
                           F.leaky_relu(x, SLOPE)) and torch.allclose(
        mod.leaky_relu(wide[::2], slope=SLOPE), F.leaky_relu(wide[::2], SLOPE))
    return rows, torch.cuda.synchronize, check


def cpu_rows():
    import numpy as np

    mod = ewc.compile(os.path.join(ROOT, "kernels", "leaky_relu.ew"),
                      device="cpu", types={"T": "f32"})
    mod.wait_optimized()  # timed: the optimized code, not the quick one
    rng = np.random.default_rng(0)
    x = rng.standard_normal(N, dtype=np.float32)
    wide = rng.standard_normal(2 * N, dtype=np.float32)
    out = np.empty_like(x)
    rows = [("numpy np.where", lambda: np.where(x >= 0, x, SLOPE * x))]
    rows += ewc_rows(mod, x, wide, out, x.ctypes.data, out.ctypes.data, None)
    print("device: CPU (NumPy) n =", N)

    def reference(v):
        return np.where(v >= 0, v, np.float32(SLOPE) * v)

    check = np.array_equal(mod.leaky_relu(x, slope=SLOPE), reference(x)) \
        and np.array_equal(mod.leaky_relu(wide[::2], slope=SLOPE),
                           reference(wide[::2]))
    return rows, lambda: None, check


def main():
    calls = int(sys.argv[sys.argv.index("--calls") + 1]) \
        if "--calls" in sys.argv else 2000
    rows, synchronize, check = cpu_rows() if "--cpu" in sys.argv \
        else gpu_rows()
    for name, call in rows:
        call()  # warm up (Triton compiles here)
    for name, call in rows:
        print("%-38s %7.2f us per call (least %.2f)" % (
            (name,) + per_call_us(call, calls, synchronize)))
    print("ewc matches the reference:", check)


if __name__ == "__main__":
    main()
