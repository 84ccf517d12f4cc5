#!/usr/bin/env python3
"""Bandwidth of ewc's LeakyReLU kernel against its peers, in one run.

Superseded by bench/compare.py (ewc-run --bench and the runtime's own launch
shape); kept to reproduce the 2026-11-29 records in docs/performance.md, made
with the scalar kernel and the launch shape of that day, which this script
restates below.

Loads the PTX that `ewc-run kernels/leaky_relu.ew --emit ptx` printed, launches it
with the runtime's launch shape (blocks of 256, grid min(ceil(n/256), SMs*8*4)),
and times it beside a device-to-device copy of the same bytes (the practical
ceiling), torch.nn.functional.leaky_relu and a Triton kernel, each with
ewc.testing.bench: CUDA events, 10 warm-up calls, then R timed calls, each after
a 256 MiB L2 flush (the 2026-11-29 records had no flush: at the default n = 2^28,
2 GiB moved a call, 40 times the H200's L2, it changes nothing); the median.
Bytes counted: n*4 read + n*4 written. Inputs are standard normal; the output is
poisoned before the check run and compared with torch's result.

usage: bench/leaky_relu_bandwidth.py LEAKY_RELU.ptx [--n N] [--reps R]
(python/ewc is imported for ewc.testing, so it must find a libewc.so: $EWC_LIBRARY,
or the repository's build/lib.)
"""
import argparse
import os
import sys

import cupy
import torch
import triton
import triton.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# bench by its own name: main() calls its ewc launch ewc().
try:
    from ewc.testing import bench
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from ewc.testing import bench

# The warm-up of the 2026-11-29 records, as a count of calls.
WARMUP_CALLS = 10


@triton.jit
def _triton_leaky_relu(x_ptr, out_ptr, slope, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.where(x >= 0, x, slope * x), mask=mask)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ptx")
    parser.add_argument("--n", type=int, default=1 << 28)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--slope", type=float, default=0.01)
    args = parser.parse_args()
    n, slope = args.n, args.slope

    torch.manual_seed(0)
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    out = torch.empty_like(x)
    expected = torch.nn.functional.leaky_relu(x, slope)

    module = cupy.RawModule(path=args.ptx)
    # The PTX entry is the kernel's symbol, ew$ + its name (docs/abi.md).
    kernel = module.get_function("ew$leaky_relu")
    props = torch.cuda.get_device_properties(0)
    block = 256
    grid = min((n + block - 1) // block,
               props.multi_processor_count * (2048 // block) * 4)
    # The plain ABI: (x, slope, out, n); cupy passes the torch pointers as-is.
    params = (cupy.uint64(x.data_ptr()), cupy.float32(slope),
              cupy.uint64(out.data_ptr()), cupy.int64(n))
    # bench records its events on torch's current stream, the legacy default
    # stream here, where cupy launches too: they bracket the ewc launch.

    def ewc():
        kernel((grid,), (block,), params)

    def torch_op():
        torch.ops.aten.leaky_relu.out(x, slope, out=out)

    def triton_op():
        _triton_leaky_relu[(triton.cdiv(n, 1024),)](x, out, slope, n, BLOCK=1024)

    def copy():
        out.copy_(x)

    results = {}
    for name, fn in [("device copy", copy), ("torch", torch_op),
                     ("triton", triton_op), ("ewc", ewc)]:
        out.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        if name != "device copy" and not torch.allclose(out, expected, rtol=1e-5, atol=1e-8):
            raise SystemExit(f"{name}: result differs from torch's")
        results[name] = bench(fn, device="cuda", n_warmup=WARMUP_CALLS,
                              n_repeat=args.reps)

    moved = 2 * n * 4
    copy_gbs = moved / results["device copy"] / 1e6
    print(f"device: {props.name}, n = {n} f32 ({moved / 2**30:.2f} GiB moved per call), "
          f"median of {args.reps}; torch {torch.__version__}, triton {triton.__version__}")
    print(f"{'kernel':<12} {'ms':>8} {'GB/s':>8} {'of copy':>8}")
    for name, ms in results.items():
        gbs = moved / ms / 1e6
        print(f"{name:<12} {ms:8.3f} {gbs:8.0f} {gbs / copy_gbs:8.1%}")


if __name__ == "__main__":
    main()
