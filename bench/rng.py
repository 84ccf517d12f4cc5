#!/usr/bin/env python3
"""Issue 17's random numbers on the GPU, against Triton and torch, in one run,
through ewc's Python API on torch CUDA tensors.

1. Bits. ewc's randint, rand and randn (one kernel, the offsets an input
   tensor) against Triton's tl.randint, tl.rand and tl.randn on the same
   offsets, for each seed of SEEDS (negative ones, 2^32 and above included)
   and offsets of type i32 and i64: 2^24 offsets each, 0 .. 2^24 - 1 and,
   for i64, 2^24 more around 2^32 and random ones over the whole range;
   for i32, 2^24 random ones over its range. Counts equal bit patterns.
2. Dropout. kernels/dropout.ew (f32) and its bf16 form, against Triton's
   tutorial kernel (_seeded_dropout, "Low-Memory Dropout", BLOCK_SIZE 1024,
   the same seed) and torch's F.dropout, n = 2^20 .. 2^30: the keep mask
   equal to the tutorial's bit for bit (and the kept values within Triton's
   division's 2 ulps), GB/s (x read once, the result written once) against
   torch's copy of x in the same run.
3. rand alone into an f32 tensor of 2^28 (index_flat() as the offset)
   against a Triton tl.rand kernel and torch.rand (its own Philox; speed
   only), against torch's fill of the tensor.

Timing as bench/shapes.py: 5 warm-up calls, then 30 calls each between its
own CUDA events, the median; ewc is called with out=.

usage: bench/rng.py [--out DIR] [--quick]
Prints the results and writes DIR/random.md and DIR/rng.json.
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shapes import ROOT, copy_gbps, fill_gbps, time_ms  # noqa: E402

import shapes  # noqa: E402

ewc = shapes.ewc

SEEDS = [0, 42, -1, 123456789, 2**31 - 1, 2**32 + 5, 0x123456789ABCDEF,
         2**63 - 1]

BITS_SOURCE = """
kernel bits_i32(offset: i32[n], seed: i64 = 0) -> (i32[n], f32[n], f32[n]) {
  return randint(seed, offset), rand(seed, offset), randn(seed, offset);
}
kernel bits_i64(offset: i64[n], seed: i64 = 0) -> (i32[n], f32[n], f32[n]) {
  return randint(seed, offset), rand(seed, offset), randn(seed, offset);
}
kernel dropout_bf16(x: bf16[...], p: f32 = 0.5, seed: i64 = 0) -> bf16[...] {
  return where(rand(seed, index_flat()) > p, bf16(f32(x) * (1.0 / (1.0 - p))), 0.0);
}
kernel uniform(seed: i64 = 0) -> f32[...] {
  return rand(seed, index_flat());
}
"""


@triton.jit
def _bits(out_int, out_rand, out_randn, off_ptr, seed, n,
          BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    off = tl.load(off_ptr + i, mask=mask)
    tl.store(out_int + i, tl.randint(seed, off), mask=mask)
    tl.store(out_rand + i, tl.rand(seed, off), mask=mask)
    tl.store(out_randn + i, tl.randn(seed, off), mask=mask)


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed,
                    BLOCK_SIZE: tl.constexpr):
    # Triton's tutorial kernel, as published (python/tutorials/04-low-memory-
    # dropout.py).
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def seeded_dropout(x, p, seed, output):
    n = x.numel()
    _seeded_dropout[(triton.cdiv(n, 1024),)](x, output, n, p, seed,
                                             BLOCK_SIZE=1024)
    return output


@triton.jit
def _uniform(out_ptr, seed, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.rand(seed, offsets), mask=offsets < n)


def bits(mod, quick, results):
    n = 1 << (20 if quick else 24)
    gen = torch.Generator(device="cuda").manual_seed(7)
    ranges = {
        "i32": [torch.arange(n, device="cuda", dtype=torch.int32),
                torch.randint(-2**31, 2**31, (n,), device="cuda",
                              dtype=torch.int64, generator=gen)
                .to(torch.int32)],
        "i64": [torch.arange(n, device="cuda", dtype=torch.int64),
                torch.arange(n, device="cuda", dtype=torch.int64) +
                (2**32 - n // 2),
                torch.randint(-2**63, 2**63 - 1, (n,), device="cuda",
                              dtype=torch.int64, generator=gen)],
    }
    for width, offset_sets in ranges.items():
        kernel = getattr(mod, "bits_" + width)
        for seed in SEEDS:
            equal = [0, 0, 0]
            total = 0
            for offsets in offset_sets:
                ours = [torch.empty(n, device="cuda", dtype=torch.int32),
                        torch.empty(n, device="cuda"),
                        torch.empty(n, device="cuda")]
                theirs = [torch.empty_like(t) for t in ours]
                kernel(offsets, seed, out=tuple(ours))
                _bits[(triton.cdiv(n, 1024),)](*theirs, offsets, seed, n,
                                               BLOCK=1024)
                torch.cuda.synchronize()
                for i in range(3):
                    a = ours[i].view(torch.int32)
                    b = theirs[i].view(torch.int32)
                    equal[i] += int((a == b).sum())
                total += n
            row = {"width": width, "seed": seed, "offsets": total,
                   "randint": equal[0], "rand": equal[1], "randn": equal[2]}
            results["bits"].append(row)
            print("bits %s seed %d: %d offsets; equal: randint %d, rand %d, "
                  "randn %d" % (width, seed, total, *equal), flush=True)


def dropout(mod, bf16_mod, quick, results):
    p, seed = 0.3, 1234
    exps = [20, 24] if quick else [20, 22, 24, 26, 28, 30]
    for dtype in (torch.float32, torch.bfloat16):
        name = "f32" if dtype == torch.float32 else "bf16"
        for e in exps:
            n = 1 << e
            x = (torch.rand(n, device="cuda") + 0.5).to(dtype)  # no zeros
            ours = torch.empty_like(x)
            theirs = torch.empty_like(x)
            run = (lambda: mod.dropout(x, p, seed, out=ours)) \
                if dtype == torch.float32 else \
                (lambda: bf16_mod.dropout_bf16(x, p, seed, out=ours))
            run()
            seeded_dropout(x, p, seed, theirs)
            torch.cuda.synchronize()
            same_mask = bool(((ours == 0) == (theirs == 0)).all())
            kept = theirs != 0
            diff = (ours[kept].float() - theirs[kept].float()).abs()
            rel = float((diff / theirs[kept].float().abs()).max()) \
                if bool(kept.any()) else 0.0
            nbytes = 2 * n * x.element_size()
            ms = {"ewc": time_ms(run),
                  "triton": time_ms(lambda: seeded_dropout(x, p, seed,
                                                           theirs)),
                  "torch": time_ms(lambda: F.dropout(x, p, training=True))}
            ceiling = copy_gbps(n, dtype)
            row = {"case": "dropout", "dtype": name, "n": n,
                   "mask_equal": same_mask, "kept_max_rel": rel,
                   "gbps": {k: nbytes / v / 1e6 for k, v in ms.items()},
                   "copy_gbps": ceiling}
            results["dropout"].append(row)
            g = row["gbps"]
            print("dropout %s 2^%d: ewc %.0f, triton %.0f, torch %.0f GB/s; "
                  "%.1f%% of copy; %.2fx triton, %.2fx torch; mask %s; "
                  "kept values max rel %.2g" % (
                      name, e, g["ewc"], g["triton"], g["torch"],
                      100 * g["ewc"] / ceiling, g["ewc"] / g["triton"],
                      g["ewc"] / g["torch"],
                      "equal" if same_mask else "DIFFERS", rel), flush=True)
            del x, ours, theirs
            torch.cuda.empty_cache()


def uniform(mod, quick, results):
    n = 1 << (24 if quick else 28)
    seed = 99
    ours = torch.empty(n, device="cuda")
    theirs = torch.empty(n, device="cuda")
    run = lambda: mod.uniform(seed, out=ours)  # noqa: E731
    tri = lambda: _uniform[(triton.cdiv(n, 1024),)](  # noqa: E731
        theirs, seed, n, BLOCK=1024)
    run()
    tri()
    torch.cuda.synchronize()
    equal = bool((ours.view(torch.int32) == theirs.view(torch.int32)).all())
    nbytes = 4 * n
    ms = {"ewc": time_ms(run), "triton": time_ms(tri),
          "torch": time_ms(lambda: torch.rand(n, device="cuda"))}
    ceiling = fill_gbps(n, torch.float32)
    g = {k: nbytes / v / 1e6 for k, v in ms.items()}
    results["uniform"] = {"n": n, "equal": equal, "gbps": g,
                          "fill_gbps": ceiling}
    print("rand 2^%d: ewc %.0f, triton %.0f, torch.rand %.0f GB/s; %.1f%% of "
          "fill; %.2fx triton, %.2fx torch; bits %s" % (
              n.bit_length() - 1, g["ewc"], g["triton"], g["torch"],
              100 * g["ewc"] / ceiling, g["ewc"] / g["triton"],
              g["ewc"] / g["torch"], "equal" if equal else "DIFFER"),
          flush=True)


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
    mod = ewc.compile(os.path.join(ROOT, "kernels", "dropout.ew"),
                      device="cuda")
    extra = ewc.compile(source=BITS_SOURCE, device="cuda")
    # Timed: the optimized code of a tiered compile, not its quick code.
    mod.wait_optimized()
    extra.wait_optimized()
    results = {"header": header, "bits": [], "dropout": []}
    bits(extra, args.quick, results)
    dropout(mod, extra, args.quick, results)
    uniform(extra, args.quick, results)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "rng.json"), "w") as f:
        json.dump(results, f, indent=1)
    bad = [r for r in results["bits"]
           if not r["randint"] == r["rand"] == r["randn"] == r["offsets"]]
    bad += [r for r in results["dropout"] if not r["mask_equal"]]
    if not results["uniform"]["equal"]:
        bad.append("uniform")
    print("all equal" if not bad else "NOT EQUAL: %d cases" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
