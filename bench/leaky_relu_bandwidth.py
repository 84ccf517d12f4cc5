#!/usr/bin/env python3
"""Bandwidth of ewc's LeakyReLU kernel against its peers, in one run.

Superseded by bench/compare.py (ewc-run --bench and the runtime's own launch
shape); kept to reproduce the 2026-11-29 records in docs/performance.md, made
with the scalar kernel and the launch shape of that day, which this script
restates below.

Loads the PTX that `ewc-run kernels/leaky_relu.ew --emit ptx` printed, launches it
with the runtime's launch shape (blocks of 256, grid min(ceil(n/256), SMs*8*4)),
and times it with CUDA events beside a device-to-device copy of the same bytes
(the practical ceiling), torch.nn.functional.leaky_relu and a Triton kernel.
Bytes counted: n*4 read + n*4 written. Inputs are standard normal; the output is
poisoned before the check run and compared with torch's result.

usage: bench/leaky_relu_bandwidth.py LEAKY_RELU.ptx [--n N] [--reps R]
"""
import argparse
import statistics

import cupy
import torch
import triton
import triton.language as tl


@triton.jit
def _triton_leaky_relu(x_ptr, out_ptr, slope, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.where(x >= 0, x, slope * x), mask=mask)


def time_ms(fn, reps):
    """Median of `reps` CUDA-event timings of fn() after 10 warm-up calls."""
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


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
    # torch and cupy both launch on the legacy default stream here, so the
    # events of time_ms bracket the ewc launch too.

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
        results[name] = time_ms(fn, args.reps)

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
