#!/usr/bin/env python3
"""ewc against torch eager, Triton, torch.compile and the device copy, in one run.

For LeakyReLU (kernels/leaky_relu.ew, T=f32 and T=bf16) in f32 and
bf16 at n = 2^12 ... 2^30, n = 2^28 + 3, and n = 2^28 with every tensor one
element past an aligned allocation; plus two fused chains in f32 at 2^28,
clamp(leaky_relu(1.5x - 0.25), -6, 6) (kernels/affine_leaky_relu.ew) and
hardswish written as four ops, x * clamp(x + 3, 0, 6) / 6 (kernels/hardswish.ew),
against torch eager and torch.compile.

Every implementation is timed the same way as `ewc-run --bench` times ewc
(lib/Runtime/Bench.cpp): 10 warm-up calls, then 100 calls each between its own
pair of CUDA events, queued back to back; the median. While one call's tensors
fit three times in L2, calls rotate among sets of tensors. Bytes counted: each
input read once, each output written once. ewc's numbers come from
`ewc-run --bench --json` (a separate process on the same GPU, with its own copy
measured in that process); the peers' copy is torch's `copy_` of the same bytes.

Correctness, in the same run: at n = 2^20 + 3 with offset 1 and n = 4099, the
same input goes to ewc (ewc-run --input/--save, which also checks its result
against ewc's reference) and to torch; the script reports how many elements
differ and by how much (torch.compile and Triton likewise against eager).

usage: bench/compare.py --ewc-run PATH [--out DIR] [--quick]
Writes DIR/bench.md, DIR/bench.png, DIR/bench.json (DIR defaults to $OUT or .).
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np
import torch
import torch.nn.functional as F
import triton
import triton.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "kernels")
SLOPE = 0.01
WARMUP, REPS = 10, 100
L2_MULTIPLE, MAX_SETS = 3, 8192  # as lib/Runtime/Bench.cpp


@triton.jit
def _triton_leaky_relu(x_ptr, out_ptr, slope, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x >= 0, x, x * slope)
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)


def triton_leaky_relu(x, out):
    n = x.numel()
    _triton_leaky_relu[(triton.cdiv(n, 1024),)](x, out, SLOPE, n, BLOCK=1024)


def eager_leaky_relu(x, out):
    torch.ops.aten.leaky_relu.out(x, SLOPE, out=out)


def _leaky(x):
    return F.leaky_relu(x, SLOPE)


def _chain(x):
    return torch.clamp(F.leaky_relu(x * 1.5 + (-0.25), SLOPE), -6.0, 6.0)


def _hardswish4(x):
    return x * torch.clamp(x + 3.0, 0.0, 6.0) / 6.0


def time_calls(fn, sets):
    """Median and spread (ms) of REPS event-timed calls fn(set), rotating."""
    for i in range(WARMUP):
        fn(sets[i % len(sets)])
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True)) for _ in range(REPS)]
    for i, (start, end) in enumerate(events):
        start.record()
        fn(sets[(WARMUP + i) % len(sets)])
        end.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in events)
    return {"median_ms": statistics.median(times), "p10_ms": times[REPS // 10],
            "p90_ms": times[REPS - 1 - REPS // 10]}


def make_sets(n, dtype, offset, bytes_per_set, l2):
    """Sets of (x, out) views; x random normal, out poisoned (NaN)."""
    count = max(1, min(MAX_SETS, math.ceil(L2_MULTIPLE * l2 / bytes_per_set)))
    stride = (n + offset + 127) // 128 * 128
    xs = torch.randn(count * stride, device="cuda", dtype=torch.float32).to(dtype)
    outs = torch.full((count * stride,), float("nan"), device="cuda", dtype=dtype)
    return [(xs[s * stride + offset: s * stride + offset + n],
             outs[s * stride + offset: s * stride + offset + n]) for s in range(count)]


# The hand-written LeakyReLUs this script was written against are now the
# specializations of the generic kernels/leaky_relu.ew.
SPECIALIZED = {"leaky_relu.ew": ("leaky_relu.ew", "T=f32"),
               "leaky_relu_bf16.ew": ("leaky_relu.ew", "T=bf16")}


def kernel_command(kernel_file):
    """ewc-run's file argument for `kernel_file`, with its --type."""
    name, types = SPECIALIZED.get(kernel_file, (kernel_file, None))
    return [os.path.join(KERNELS, name)] + (["--type", types] if types else [])


def run_ewc(args, kernel_file, n, offset=0, extra=()):
    cmd = [args.ewc_run, *kernel_command(kernel_file), "--n", str(n),
           "--bench", "--json", "--device", "cuda"]
    if offset:
        cmd += ["--offset", str(offset)]
    cmd += list(extra)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def gbps(nbytes, ms):
    return nbytes / (ms * 1e6)


def bench_case(args, rows, label, kernel_file, n, dtype, offset, impls, l2, in_out_bytes):
    """Times ewc and the peers for one (n, dtype, offset); appends rows."""
    nbytes = n * in_out_bytes
    row = {"case": label, "n": n, "dtype": str(dtype).replace("torch.", ""),
           "offset": offset, "bytes": nbytes, "results": {}}
    try:
        sets = make_sets(n, dtype, offset, nbytes, l2)
        row["sets"] = len(sets)
        for name, fn in impls.items():
            try:
                t = time_calls(fn, sets)
                t["gb_per_s"] = gbps(nbytes, t["median_ms"])
                row["results"][name] = t
            except Exception as error:  # one peer failing must not end the run
                row["results"][name] = {"error": str(error)[:300]}
        # torch's copy of the same bytes: read nbytes/2, write nbytes/2.
        half = nbytes // 2 // (torch.finfo(dtype).bits // 8)
        src = torch.empty(half * len(sets) if len(sets) > 1 else half,
                          device="cuda", dtype=dtype).normal_()
        dst = torch.empty_like(src)
        views = [(src[s * half:(s + 1) * half], dst[s * half:(s + 1) * half])
                 for s in range(len(sets))] if len(sets) > 1 else [(src, dst)]
        t = time_calls(lambda p: p[1].copy_(p[0]), views)
        t["gb_per_s"] = gbps(nbytes, t["median_ms"])
        row["results"]["copy (torch)"] = t
        del sets, src, dst, views
        torch.cuda.empty_cache()
    except Exception as error:
        row["error"] = str(error)[:300]
    try:
        e = run_ewc(args, kernel_file, n, offset)
        row["results"]["ewc"] = {"median_ms": e["kernel"]["median_ms"],
                                 "p10_ms": e["kernel"]["p10_ms"],
                                 "p90_ms": e["kernel"]["p90_ms"],
                                 "gb_per_s": e["kernel"]["gb_per_s"]}
        row["results"]["copy (ewc)"] = {"median_ms": e["copy"]["median_ms"],
                                        "gb_per_s": e["copy"]["gb_per_s"]}
        row["ewc_elements_per_thread"] = e.get("elements_per_thread")
        if e["bytes_moved"] != nbytes:
            row["note"] = f"ewc counted {e['bytes_moved']} bytes"
    except Exception as error:
        row["results"]["ewc"] = {"error": str(error)[:300]}
    rows.append(row)
    summary = "  ".join(f"{k} {v['gb_per_s']:.0f}" if "gb_per_s" in v else f"{k} ERR"
                        for k, v in row["results"].items())
    print(f"{label:<28} {summary}", flush=True)


def leaky_impls(dtype):
    compiled = torch.compile(_leaky, dynamic=True)
    return {
        "torch": lambda p: eager_leaky_relu(p[0], p[1]),
        "triton": lambda p: triton_leaky_relu(p[0], p[1]),
        "torch.compile": lambda p: compiled(p[0]),
    }


def check_against_torch(args, checks, label, kernel_file, torch_fn, n, dtype, offset,
                        peers=()):
    """Same input to ewc (via .npy) and torch; counts differing elements."""
    entry = {"case": label, "n": n, "dtype": str(dtype).replace("torch.", ""),
             "offset": offset}
    try:
        x = torch.randn(n, device="cuda", dtype=torch.float32).to(dtype)
        with tempfile.TemporaryDirectory() as tmp:
            xin, xout = os.path.join(tmp, "x.npy"), os.path.join(tmp, "out.npy")
            host = x.cpu()
            if dtype == torch.bfloat16:
                np.save(xin, host.view(torch.uint16).numpy())
            else:
                np.save(xin, host.numpy())
            cmd = [args.ewc_run, *kernel_command(kernel_file), "--device", "cuda",
                   "--input", f"x={xin}", "--save", f"out0={xout}"]
            if offset:
                cmd += ["--offset", str(offset)]
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            entry["ewc_check"] = (done.stdout.strip() + " " + done.stderr.strip()).strip()[:300]
            got = np.load(xout)
        if dtype == torch.bfloat16:
            got = torch.from_numpy(got.astype(np.int16)).view(torch.bfloat16)
        else:
            got = torch.from_numpy(got)
        want = torch_fn(x).cpu()
        entry.update(compare(got, want))
        for name, fn in peers:
            other = fn(x).cpu()
            entry[f"{name}_vs_torch"] = compare(other, want)
    except Exception as error:
        entry["error"] = str(error)[:300]
    checks.append(entry)
    print(f"check {label}: {json.dumps({k: v for k, v in entry.items() if k != 'case'})}",
          flush=True)


def compare(got, want):
    got, want = got.double(), want.double()
    same = (got == want) | (torch.isnan(got) & torch.isnan(want))
    diff = (got - want).abs()
    diff[same] = 0
    return {"differing": int((~same).sum()), "max_abs_diff": float(diff.max()) if diff.numel() else 0.0}


def triton_out(x):
    out = torch.empty_like(x)
    triton_leaky_relu(x, out)
    return out


def sweep_one(args, sweep, dtype, kfile, knobs):
    """ewc at n = 2^28 with hidden ewc-run options `knobs`."""
    entry = {"dtype": dtype, **{k.lstrip("-"): v for k, v in knobs.items()}}
    try:
        e = run_ewc(args, kfile, 1 << 28, 0, [str(x) for kv in knobs.items() for x in kv])
        entry.update(gb_per_s=round(e["kernel"]["gb_per_s"]), copy=round(e["copy"]["gb_per_s"]),
                     of_copy=f"{e['kernel_of_copy']:.1%}",
                     p10_p90_ms=f"{e['kernel']['p10_ms']:.4f}..{e['kernel']['p90_ms']:.4f}")
    except Exception as error:
        entry["error"] = str(error)[:200]
    sweep.append(entry)
    print(f"sweep {entry}", flush=True)


def write_outputs(out_dir, rows, checks, sweep, meta):
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows, "checks": checks, "sweep": sweep}, f, indent=1)
    impls = ["copy (ewc)", "copy (torch)", "ewc", "torch", "triton", "torch.compile"]
    lines = [f"# ewc against its peers on {meta['device']}", "",
             f"{meta['date']}; torch {meta['torch']}, Triton {meta['triton']}, "
             f"driver {meta['driver']}; ewc {meta['ewc_rev']}. GB/s = bytes that must "
             "move (inputs read once, outputs written once) / median of 100 CUDA-event-timed "
             "calls; `of copy` = ewc / the copy in ewc's own process. Written by "
             "bench/compare.py.", "",
             "| case | " + " | ".join(impls) + " | ewc of copy | ewc / best peer |",
             "| --- " * (len(impls) + 3) + "|"]
    for row in rows:
        r = row["results"]
        cells = []
        for name in impls:
            v = r.get(name, {})
            cells.append(f"{v['gb_per_s']:.0f}" if "gb_per_s" in v else ("err" if v else ""))
        ewc = r.get("ewc", {}).get("gb_per_s")
        copy = r.get("copy (ewc)", {}).get("gb_per_s")
        peers = [r[p]["gb_per_s"] for p in ("torch", "triton", "torch.compile")
                 if "gb_per_s" in r.get(p, {})]
        of_copy = f"{ewc / copy:.1%}" if ewc and copy else ""
        vs_peer = f"{ewc / max(peers):.3f}x" if ewc and peers else ""
        lines.append(f"| {row['case']} | " + " | ".join(cells) + f" | {of_copy} | {vs_peer} |")
    lines += ["", "## Same input, ewc against torch eager", "",
              "| case | ewc-run's own check | elements differing | max abs diff | peers against eager |",
              "| --- | --- | --- | --- | --- |"]
    for c in checks:
        peers = "; ".join(f"{k[:-9]}: {v['differing']} differ" for k, v in c.items()
                          if k.endswith("_vs_torch"))
        lines.append(f"| {c['case']} | {c.get('ewc_check', c.get('error', ''))[:60]} | "
                     f"{c.get('differing', '')} | {c.get('max_abs_diff', '')} | {peers} |")
    if sweep:
        lines += ["", "## ewc's hidden knobs at n = 2^28 (ewc-run --bench, same run)", "",
                  "| dtype | knobs | ewc GB/s | p10..p90 ms | copy GB/s | of copy |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for s in sweep:
            knobs = ", ".join(f"{k} {v}" for k, v in s.items()
                              if k not in ("dtype", "gb_per_s", "copy", "of_copy", "error",
                                           "p10_p90_ms"))
            lines.append(f"| {s['dtype']} | {knobs} | {s.get('gb_per_s', s.get('error', ''))} | "
                         f"{s.get('p10_p90_ms', '')} | {s.get('copy', '')} | {s.get('of_copy', '')} |")
    with open(os.path.join(out_dir, "bench.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(13, 5), sharey=True)
        for ax, dtype in zip(axes, ["float32", "bfloat16"]):
            sweep_rows = [r for r in rows if r["dtype"] == dtype and r["case"].startswith("leaky")
                          and r["offset"] == 0 and (r["n"] & (r["n"] - 1)) == 0
                          and "run" not in r["case"]]
            for name in impls:
                pts = [(r["n"], r["results"][name]["gb_per_s"]) for r in sweep_rows
                       if "gb_per_s" in r["results"].get(name, {})]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=name,
                            linestyle="--" if name.startswith("copy") else "-")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("n (elements)")
            ax.set_title(f"LeakyReLU {dtype}, {meta['device']}")
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel("GB/s (bytes that must move / median time)")
        axes[1].legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, "bench.png"), dpi=110)
    except Exception as error:
        print(f"no plot: {error}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ewc-run", required=True)
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--quick", action="store_true", help="fewer sizes, for a try")
    parser.add_argument("--sweep-waves", action="store_true",
                        help="also sweep the grid cap (--grid-waves 0 1 2 4 16)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of the n = 2^28 cases, for the spread")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    props = torch.cuda.get_device_properties(0)
    l2 = props.L2_cache_size
    # The source the packed tools were built from (scripts/pack-device.sh), else git's.
    manifest = os.path.join(ROOT, ".device", "MANIFEST.txt")
    rev = ""
    if os.path.exists(manifest):
        first = open(manifest).readline()
        rev = first.split("source ", 1)[-1].strip() if "source " in first else ""
    rev = rev or subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h"],
                                capture_output=True, text=True).stdout.strip() or "unknown"
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    meta = {"device": props.name, "sms": props.multi_processor_count, "l2": l2,
            "torch": torch.__version__, "triton": triton.__version__, "driver": driver,
            "ewc_rev": rev, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    print(json.dumps(meta), flush=True)
    rows, checks, sweep = [], [], []
    started = time.time()

    # Code generation's vectors per thread and the block size, at 2^28, first.
    for dtype, kfile in [("float32", "leaky_relu.ew"), ("bfloat16", "leaky_relu_bf16.ew")]:
        for vectors in [1, 2, 4]:
            for block in [128, 256]:
                sweep_one(args, sweep, dtype, kfile,
                          {"--vectors-per-thread": vectors, "--block-size": block})

    exps = [12, 16, 20, 24, 28] if args.quick else list(range(12, 31))
    for dtype, kfile in [(torch.float32, "leaky_relu.ew"), (torch.bfloat16, "leaky_relu_bf16.ew")]:
        size = torch.finfo(dtype).bits // 8
        impls = leaky_impls(dtype)
        for e in exps:
            bench_case(args, rows, f"leaky {str(dtype)[6:]} 2^{e}", kfile, 1 << e, dtype, 0,
                       impls, l2, 2 * size)
        bench_case(args, rows, f"leaky {str(dtype)[6:]} 2^28+3", kfile, (1 << 28) + 3, dtype, 0,
                   impls, l2, 2 * size)
        bench_case(args, rows, f"leaky {str(dtype)[6:]} 2^28 offset 1", kfile, 1 << 28, dtype, 1,
                   impls, l2, 2 * size)
        for r in range(1, args.repeat):
            bench_case(args, rows, f"leaky {str(dtype)[6:]} 2^28 (run {r + 1})", kfile, 1 << 28,
                       dtype, 0, impls, l2, 2 * size)
        print(f"-- {dtype} done at {time.time() - started:.0f} s", flush=True)
        write_outputs(args.out, rows, checks, sweep, meta)  # partial, in case of a timeout

    # Past 2^31 elements (64-bit indices): bf16 n = 2^31 + 5, ewc against eager.
    bench_case(args, rows, "leaky bfloat16 2^31+5", "leaky_relu_bf16.ew", (1 << 31) + 5,
               torch.bfloat16, 0, {"torch": lambda p: eager_leaky_relu(p[0], p[1])}, l2, 4)

    for label, kfile, fn in [("chain clamp(leaky(1.5x-0.25))", "affine_leaky_relu.ew", _chain),
                             ("chain hardswish (4 ops)", "hardswish.ew", _hardswish4)]:
        compiled = torch.compile(fn, dynamic=True)
        impls = {"torch": lambda p, fn=fn: fn(p[0]),
                 "torch.compile": lambda p, c=compiled: c(p[0])}
        bench_case(args, rows, f"{label} f32 2^28", kfile, 1 << 28, torch.float32, 0,
                   impls, l2, 8)

    for dtype, kfile in [(torch.float32, "leaky_relu.ew"), (torch.bfloat16, "leaky_relu_bf16.ew")]:
        compiled = torch.compile(_leaky, dynamic=True)
        for n, offset in [((1 << 20) + 3, 1), (4099, 0)]:
            check_against_torch(args, checks, f"leaky {str(dtype)[6:]} n={n} offset {offset}",
                                kfile, _leaky, n, dtype, offset,
                                peers=[("triton", triton_out), ("torch.compile", compiled)])
    for label, kfile, fn in [("chain affine_leaky_relu", "affine_leaky_relu.ew", _chain),
                             ("chain hardswish", "hardswish.ew", _hardswish4)]:
        check_against_torch(args, checks, f"{label} n={(1 << 20) + 3} offset 1", kfile, fn,
                            (1 << 20) + 3, torch.float32, 1)

    if args.sweep_waves:
        for dtype, kfile in [("float32", "leaky_relu.ew"), ("bfloat16", "leaky_relu_bf16.ew")]:
            for waves in [0, 1, 2, 4, 16]:
                sweep_one(args, sweep, dtype, kfile, {"--grid-waves": waves})

    meta["seconds"] = round(time.time() - started)
    write_outputs(args.out, rows, checks, sweep, meta)
    print(open(os.path.join(args.out, "bench.md")).read())


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
