#!/usr/bin/env python3
"""Issue 17's vector add on the GPU, against torch, torch.compile and
Triton's tutorial kernel autotuned, in one run, through ewc's Python API on
torch CUDA tensors.

kernels/vector_add.ew is generic (`vector_add<T: any>`): the bench calls
the specialization `mod.vector_add.specialize(T=...)` gives, out= given, for
f32 and bf16 and n = 2^12 .. 2^30 (every other power with --quick), and
checks its result against torch's x + y bit for bit (bf16: both add in f32
and round once). The peers, on the same tensors:

- torch: torch.add(x, y, out=out)
- torch.compile: a compiled x + y (default mode; its own output)
- Triton: the tutorial's add_kernel (python/tutorials/01-vector-add.py)
  under triton.autotune over BLOCK_SIZE 256 .. 4096 and 4 or 8 warps, keyed
  by n (the tuning runs before the timing, outside it).

GB/s count x and y read and the result written once; the ceiling is torch's
device copy of 2n elements in the same run, scaled to the bytes moved
(kernel GB/s over copy GB/s). ewc is compiled with autotune=True into a
fresh cache directory ("ewc", the issue's autotuned column) and again
without ("default", its default schedule, which is always one of the
candidates).

Tuning's cost: the wall time of the first call of each (dtype, n) key
(synchronized; it tunes) minus the median call after it. A cache hit: a
second module compiled from the same cache directory reads each key's
choice from the disk at its first call; its first call minus its median.

The generic call's own cost: mod.vector_add(x, y, out=out) (T read from x
and y at each call) against the specialized kernel's call, n = 1024, wall
time per call over 20,000 calls (the GPU idle).

Timing as bench/shapes.py: 5 warm-up calls, then 30 calls each between its
own CUDA events, the median.

usage: bench/vector_add.py [--out DIR] [--quick]
Prints the results and writes DIR/vector_add.json.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shapes import ROOT, copy_gbps, time_ms  # noqa: E402

import shapes  # noqa: E402

ewc = shapes.ewc

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": b}, num_warps=w)
             for b in (256, 512, 1024, 2048, 4096) for w in (4, 8)],
    key=["n_elements"])
@triton.jit
def _add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # Triton's tutorial kernel, as published (python/tutorials/
    # 01-vector-add.py), under the autotuner.
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def triton_add(x, y, out):
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731
    _add_kernel[grid](x, y, out, n)


def sizes(quick):
    return range(12, 31, 4 if quick else 2)


def first_call_ms(fn):
    """The wall time of fn() synchronized, and the median of 9 more."""
    torch.cuda.synchronize()
    times = []
    for _ in range(10):
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    rest = sorted(times[1:])
    return times[0], rest[len(rest) // 2]


def first_call(kernel, n, dtype):
    """Operands of n elements, and the first and median call's times of
    kernel on them (first_call_ms)."""
    x = torch.randn(n, device="cuda").to(dtype)
    y = torch.randn(n, device="cuda").to(dtype)
    out = torch.empty_like(x)
    first, steady = first_call_ms(lambda: kernel(x, y, out=out))
    return x, y, out, first, steady


def cost_row(name, n, first, steady):
    return {"dtype": name, "n": n, "first_ms": first, "median_ms": steady,
            "cost_ms": first - steady}


def speed(mod, default_mod, quick, results):
    compiled = torch.compile(lambda a, b: a + b)
    for name, dtype in DTYPES.items():
        kernel = mod.vector_add.specialize(T=name)
        default = default_mod.vector_add.specialize(T=name)
        # Timed: each specialization's optimized code, not its quick code.
        mod.wait_optimized()
        default_mod.wait_optimized()
        for e in sizes(quick):
            n = 1 << e
            x, y, out, first, steady = first_call(kernel, n, dtype)
            results["tuning"].append(cost_row(name, n, first, steady))
            want = x + y
            equal = bool(torch.equal(out, want))
            tri = torch.empty_like(x)
            triton_add(x, y, tri)  # tunes for this n
            tri_equal = bool(torch.equal(tri, want))
            ms = {
                "ewc": time_ms(lambda: kernel(x, y, out=out)),
                "default": time_ms(lambda: default(x, y, out=out)),
                "torch": time_ms(lambda: torch.add(x, y, out=out)),
                "torch.compile": time_ms(lambda: compiled(x, y)),
                "triton": time_ms(lambda: triton_add(x, y, tri)),
            }
            nbytes = 3 * n * x.element_size()
            gbps = {k: nbytes / v / 1e6 for k, v in ms.items()}
            copy = copy_gbps(n, dtype)
            best_peer = max(v for k, v in gbps.items()
                            if k not in ("ewc", "default"))
            row = {"dtype": name, "n": n, "gbps": gbps, "copy_gbps": copy,
                   "of_copy": gbps["ewc"] / copy,
                   "vs_best_peer": gbps["ewc"] / best_peer,
                   "equal": equal, "triton_equal": tri_equal}
            results["speed"].append(row)
            print("%-4s 2^%-2d ewc %7.0f  default %7.0f  torch %7.0f  compile "
                  "%7.0f  triton %7.0f GB/s; %.1f%% of copy; %.2fx the best "
                  "peer; tuning %.2f ms; %s" % (
                      name, e, gbps["ewc"], gbps["default"], gbps["torch"],
                      gbps["torch.compile"], gbps["triton"],
                      100 * gbps["ewc"] / copy, gbps["ewc"] / best_peer,
                      first - steady, "equal" if equal else "DIFFER"),
                  flush=True)
            del x, y, out, tri, want
            torch.cuda.empty_cache()


def cache_hits(cache_dir, quick, results):
    """A second module from the same cache: each key's first call reads the
    tuned choice from the disk."""
    mod = ewc.compile(os.path.join(ROOT, "kernels", "vector_add.ew"),
                      device="cuda", autotune=True, cache_dir=cache_dir)
    mod.wait_optimized()
    for name, dtype in DTYPES.items():
        kernel = mod.vector_add.specialize(T=name)
        mod.wait_optimized()
        for e in sizes(quick):
            n = 1 << e
            x, y, out, first, steady = first_call(kernel, n, dtype)
            results["hits"].append(cost_row(name, n, first, steady))
            print("%-4s 2^%-2d cache hit: first call %.3f ms, median %.3f ms"
                  % (name, e, first, steady), flush=True)
            del x, y, out


def dispatch(mod, results):
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    out = torch.empty_like(x)
    kernel = mod.vector_add.specialize(T="f32")
    calls = 20000
    cost = {}
    for what, fn in [("generic", lambda: mod.vector_add(x, y, out=out)),
                     ("specialized", lambda: kernel(x, y, out=out))]:
        fn()
        torch.cuda.synchronize()
        best = None
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            torch.cuda.synchronize()
            us = (time.perf_counter() - start) / calls * 1e6
            best = us if best is None else min(best, us)
        cost[what] = best
    results["dispatch_us"] = cost
    print("call, n = 1024: generic mod.vector_add %.2f us, specialized "
          "%.2f us (best of 5 rounds of %d)" % (
              cost["generic"], cost["specialized"], calls), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    props = torch.cuda.get_device_properties(0)
    header = "%s, torch %s, triton %s, %s" % (
        props.name, torch.__version__, triton.__version__,
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    print(header, flush=True)
    cache_dir = tempfile.mkdtemp(prefix="ewc-vector-add-")
    path = os.path.join(ROOT, "kernels", "vector_add.ew")
    mod = ewc.compile(path, device="cuda", autotune=True, cache_dir=cache_dir)
    default_mod = ewc.compile(path, device="cuda", cache=False)
    results = {"header": header, "speed": [], "tuning": [], "hits": []}
    speed(mod, default_mod, args.quick, results)
    cache_hits(cache_dir, args.quick, results)
    dispatch(mod, results)
    shutil.rmtree(cache_dir, ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "vector_add.json"), "w") as f:
        json.dump(results, f, indent=1)
    bad = [r for r in results["speed"] if not r["equal"]]
    print("all equal" if not bad else "NOT EQUAL: %d cases" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
