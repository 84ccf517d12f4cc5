#!/usr/bin/env python3
"""Issue 15's target table: ewc's shaped kernels against torch eager,
torch.compile and Triton, on the H200, in one run, through ewc's Python API
on torch CUDA tensors (the way a torch user calls ewc).

Cases (f32 and bf16 unless said; m * n = 2^28 elements):
  leaky/rank R      `[...]` LeakyReLU on a contiguous tensor of rank 1 to 4
  leaky/in+K        the input a view K = 1, 2, 3 elements into its storage,
                    the output fresh and aligned
  leaky/out+K       the input aligned, the output (out=) K elements in
  bias/n=N          x[m, n] + b[n], n in {64, 768, 4096, 65536}
  bias_gelu/n=N     gelu_tanh(x[m, n] + b[n]) (f32)
  row_scale/n=N     x[m, n] * s[m]
  outer/n=N         a[m] + b[n] -> [m, n], against a write-only fill of [m, n]
  transposed        LeakyReLU of x.T (x contiguous [n, m]) into a contiguous
                    [m, n] output (torch: aten leaky_relu.out into one)
  strided           LeakyReLU of x[:, ::2] (x contiguous [m, 2n])

Every implementation is timed alike: 5 warm-up calls, then REPS calls each
between its own pair of CUDA events on the current stream; the median. ewc is
called with out= (no allocation in the loop; torch eager allocates from its
caching allocator, which costs it nothing measurable at these sizes). Bytes:
every input element read once, every output element written once; "copy" is
torch's copy_ of the case's largest tensor, measured in the same run, so
"% copy" = achieved / copy bandwidth. A case's speed counts only if its
result matches torch's on the same inputs (bit for bit, or within the stated
tolerance for GELU's tanh): the `ok` column.

usage: bench/shapes.py [--out DIR] [--quick] [--no-compile]
Prints a table and writes DIR/shapes.md and DIR/shapes.json.
"""
import argparse
import json
import os
import statistics
import sys
import time
import traceback

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import ewc
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc

try:
    # bench/compare.py's Triton LeakyReLU, the one its table measures.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import triton
    from compare import triton_leaky_relu as triton_leaky
except ImportError:  # The table says "-" for Triton then.
    triton = None

SLOPE = 0.01
REPS = 30
N_TOTAL = 1 << 28
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


def source(kind, t):
    """The .ew source of a case's kernel for element type `t`."""
    if kind == "leaky":
        return ("kernel leaky(x: %s[...], slope: f32 = 0.01) -> %s[...] {\n"
                "  return where(x >= 0.0, x, slope * x);\n}\n" % (t, t))
    if kind == "bias":
        return ("kernel bias(x: %s[m, n], b: %s[n]) -> %s[m, n] {\n"
                "  return x + b;\n}\n" % (t, t, t))
    if kind == "row_scale":
        return ("kernel row_scale(x: %s[m, n], s: %s[m]) -> %s[m, n] {\n"
                "  return x * s;\n}\n" % (t, t, t))
    if kind == "outer":
        return ("kernel outer(a: %s[m], b: %s[n]) -> %s[m, n] {\n"
                "  return a + b;\n}\n" % (t, t, t))
    if kind == "bias_gelu":
        with open(os.path.join(ROOT, "kernels", "bias_gelu.ew")) as f:
            return f.read()
    raise ValueError(kind)


_modules = {}


def kernel(kind, t, make_source=None):
    """The kernel `kind` for element type `t`, compiled once: from
    `make_source(kind, t)` (this file's `source` by default)."""
    key = (kind, t)
    if key not in _modules:
        text = (make_source or source)(kind, t)
        mod = ewc.compile(source=text, device="cuda",
                          name="%s_%s.ew" % (kind, t))
        mod.wait_optimized()  # timed: the optimized code, not the quick one
        _modules[key] = getattr(mod, kind)
    return _modules[key]


def time_ms(fn):
    for _ in range(5):
        fn()
    pairs = [(torch.cuda.Event(enable_timing=True),
              torch.cuda.Event(enable_timing=True)) for _ in range(REPS)]
    for start, end in pairs:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in pairs)


_copy_cache = {}


def copy_gbps(numel, dtype):
    """torch's device copy of `numel` elements: the ceiling, in this run."""
    key = (numel, dtype)
    if key not in _copy_cache:
        src = torch.randn(numel, device="cuda").to(dtype)
        dst = torch.empty_like(src)
        ms = time_ms(lambda: dst.copy_(src))
        _copy_cache[key] = 2 * numel * src.element_size() / ms / 1e6
        del src, dst
    return _copy_cache[key]


_fill_cache = {}


def fill_gbps(numel, dtype):
    key = (numel, dtype)
    if key not in _fill_cache:
        dst = torch.empty(numel, device="cuda", dtype=dtype)
        ms = time_ms(lambda: dst.fill_(1.5))
        _fill_cache[key] = numel * dst.element_size() / ms / 1e6
        del dst
    return _fill_cache[key]


def compare(got, want, tol):
    """'exact', 'ok' (within tol) or a description of the difference."""
    if got.shape != want.shape:
        return "shape %s, torch %s" % (tuple(got.shape), tuple(want.shape))
    g, w = got.float(), want.float()
    same = (g == w) | (torch.isnan(g) & torch.isnan(w))
    if bool(same.all()):
        return "exact"
    diff = (g - w).abs()
    bound = tol * (1 + w.abs())
    bad = int((~same & (diff > bound)).sum())
    if bad == 0:
        return "ok"
    return "%d differ (max %.3g)" % (bad, float(diff.max()))


class Table:
    def __init__(self):
        self.rows = []

    def add(self, case, dtype, nbytes, ceiling, ceiling_name, impls, verdict):
        """impls: name -> ms (or None); the first is ewc."""
        row = {"case": case, "dtype": dtype, "bytes": nbytes,
               "ceiling_gbps": ceiling, "ceiling": ceiling_name,
               "verdict": verdict, "gbps": {}}
        for name, ms in impls.items():
            row["gbps"][name] = None if ms is None else nbytes / ms / 1e6
        self.rows.append(row)
        ours = row["gbps"]["ewc"]
        peers = [v for k, v in row["gbps"].items() if k != "ewc" and v]
        best = max(peers) if peers else None
        cells = " ".join("%s %7.0f" % (k, v) if v else "%s       -" % k
                         for k, v in row["gbps"].items())
        print("%-16s %-5s %s | %5.1f%% of %s | %s | %s" % (
            case, dtype, cells, 100 * ours / ceiling if ours else 0,
            ceiling_name, "%.2fx best peer" % (ours / best) if best and ours
            else "-", verdict), flush=True)

    def markdown(self):
        names = []
        for r in self.rows:
            for k in r["gbps"]:
                if k not in names:
                    names.append(k)
        lines = ["| case | dtype | " + " | ".join(n + " GB/s" for n in names) +
                 " | ewc % of ceiling | ewc / best peer | result vs torch |",
                 "|" + "---|" * (len(names) + 5)]
        for r in self.rows:
            g = r["gbps"]
            peers = [v for k, v in g.items() if k != "ewc" and v]
            cells = ["%.0f" % g[n] if g.get(n) else "-" for n in names]
            pct = "%.1f%% of %s" % (100 * g["ewc"] / r["ceiling_gbps"],
                                    r["ceiling"]) if g.get("ewc") else "-"
            ratio = "%.2fx" % (g["ewc"] / max(peers)) if peers and g.get("ewc") \
                else "-"
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                r["case"], r["dtype"], " | ".join(cells), pct, ratio,
                r["verdict"]))
        return "\n".join(lines) + "\n"


def maybe_compile(fn, enabled):
    if not enabled:
        return None
    try:
        return torch.compile(fn)
    except Exception:  # noqa: BLE001 - the table says "-".
        traceback.print_exc()
        return None


def guarded(what, fn, *args):
    """Runs one group of cases; a failure is printed and the rest still run."""
    try:
        fn(*args)
        return True
    except Exception:  # noqa: BLE001
        print("FAILED: %s" % what, flush=True)
        traceback.print_exc()
        return False


def timed(fn):
    try:
        return time_ms(fn)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        return None


class Cases:
    """The cases of one run; each method one group, for one element type."""

    def __init__(self, args, table):
        self.args, self.table = args, table
        self.total = N_TOTAL >> 4 if args.quick else N_TOTAL
        self.ns = [64, 4096] if args.quick else [64, 768, 4096, 65536]
        self.side = 1 << 12 if args.quick else 1 << 14
        self.comp_leaky = maybe_compile(lambda x: F.leaky_relu(x, SLOPE),
                                        args.compile)
        self.aligned_ms = {}

    def leaky_ranks(self, t):
        dt, total = DTYPES[t], self.total
        size = torch.tensor([], dtype=dt).element_size()
        leaky = kernel("leaky", t)
        shapes = {1: (total,), 2: (1 << 14, total >> 14),
                  3: (1 << 9, 1 << 9, total >> 18),
                  4: (1 << 7, 1 << 7, 1 << 7, total >> 21)}
        for rank, shape in shapes.items():
            x = torch.randn(shape, device="cuda").to(dt)
            out = torch.empty_like(x)
            verdict = compare(leaky(x, slope=SLOPE), F.leaky_relu(x, SLOPE), 0)
            impls = {"ewc": timed(lambda: leaky(x, slope=SLOPE, out=out)),
                     "torch": timed(lambda: F.leaky_relu(x, SLOPE))}
            if self.comp_leaky:
                impls["compile"] = timed(lambda: self.comp_leaky(x))
            if triton is not None:
                impls["triton"] = timed(lambda: triton_leaky(x, out))
            if rank == 1:
                self.aligned_ms[t] = impls["ewc"]
            self.table.add("leaky/rank %d" % rank, t, 2 * x.numel() * size,
                           copy_gbps(total, dt), "copy", impls, verdict)
            del x, out

    def alignments(self, t):
        """One tensor K elements into its storage, the other aligned."""
        dt, total = DTYPES[t], self.total
        size = torch.tensor([], dtype=dt).element_size()
        leaky = kernel("leaky", t)
        storage = torch.randn(total + 4, device="cuda").to(dt)
        ostorage = torch.empty(total + 4, device="cuda", dtype=dt)
        for k in (1, 2, 3):
            for which in ("in", "out"):
                x = storage[k:k + total] if which == "in" else storage[:total]
                out = ostorage[k:k + total] if which == "out" else \
                    ostorage[:total]
                want = F.leaky_relu(x, SLOPE)
                leaky(x, slope=SLOPE, out=out)
                verdict = compare(out, want, 0)
                impls = {"ewc": timed(lambda: leaky(x, slope=SLOPE, out=out)),
                         "torch": timed(lambda: torch.ops.aten.leaky_relu.out(
                             x, SLOPE, out=out))}
                aligned = self.aligned_ms.get(t)
                if aligned and impls["ewc"]:
                    verdict += "; %.2fx aligned" % (aligned / impls["ewc"])
                self.table.add("leaky/%s+%d" % (which, k), t, 2 * total * size,
                               copy_gbps(total, dt), "copy", impls, verdict)
                del want

    def rowwise(self, t, kind):
        """x[m, n] with a vector along n (bias) or m (row_scale)."""
        dt = DTYPES[t]
        size = torch.tensor([], dtype=dt).element_size()
        k = kernel(kind, t)
        for n in self.ns:
            m = self.total // n
            x = torch.randn(m, n, device="cuda").to(dt)
            v = torch.randn(m if kind == "row_scale" else n,
                            device="cuda").to(dt)
            out = torch.empty_like(x)
            if kind == "bias":
                ref = lambda: x + v  # noqa: E731
            elif kind == "row_scale":
                ref = lambda: x * v[:, None]  # noqa: E731
            else:
                ref = lambda: F.gelu(x + v, approximate="tanh")  # noqa: E731
            tol = 2e-6 if kind == "bias_gelu" else 0
            verdict = compare(k(x, v), ref(), tol)
            impls = {"ewc": timed(lambda: k(x, v, out=out)),
                     "torch": timed(ref)}
            if self.args.compile and n in (768, 4096):
                comp = maybe_compile(ref, True)
                if comp:
                    impls["compile"] = timed(comp)
            nbytes = (2 * x.numel() + v.numel()) * size
            self.table.add("%s/n=%d" % (kind, n), t, nbytes,
                           copy_gbps(x.numel(), dt), "copy of x", impls,
                           verdict)
            del x, v, out

    def outer(self, t):
        dt = DTYPES[t]
        size = torch.tensor([], dtype=dt).element_size()
        outer = kernel("outer", t)
        for n in self.ns:
            m = self.total // n
            a = torch.randn(m, device="cuda").to(dt)
            b = torch.randn(n, device="cuda").to(dt)
            out = torch.empty(m, n, device="cuda", dtype=dt)
            verdict = compare(outer(a, b), a[:, None] + b[None, :], 0)
            impls = {"ewc": timed(lambda: outer(a, b, out=out)),
                     "torch": timed(lambda: a[:, None] + b[None, :])}
            self.table.add("outer/n=%d" % n, t, (m * n + m + n) * size,
                           fill_gbps(m * n, dt), "fill", impls, verdict)
            del a, b, out

    def transposed(self, t):
        """LeakyReLU of x.T into a contiguous output."""
        dt, total = DTYPES[t], self.total
        size = torch.tensor([], dtype=dt).element_size()
        leaky = kernel("leaky", t)
        xs = torch.randn(self.side, total // self.side, device="cuda").to(dt)
        xt = xs.T
        out = torch.empty(xt.shape, device="cuda", dtype=dt)
        want = torch.empty_like(out)
        torch.ops.aten.leaky_relu.out(xt, SLOPE, out=want)
        verdict = compare(leaky(xt, slope=SLOPE), want, 0)
        impls = {"ewc": timed(lambda: leaky(xt, slope=SLOPE, out=out)),
                 "torch": timed(lambda: torch.ops.aten.leaky_relu.out(
                     xt, SLOPE, out=want))}
        if self.args.compile:
            comp = maybe_compile(
                lambda v: F.leaky_relu(v, SLOPE).contiguous(), True)
            if comp:
                impls["compile"] = timed(lambda: comp(xt))
        self.table.add("transposed", t, 2 * xt.numel() * size,
                       copy_gbps(total, dt), "copy", impls, verdict)

    def strided(self, t):
        """LeakyReLU of every other element of each row."""
        dt, total = DTYPES[t], self.total
        size = torch.tensor([], dtype=dt).element_size()
        leaky = kernel("leaky", t)
        wide = torch.randn(self.side, 2 * (total // self.side),
                           device="cuda").to(dt)
        xv = wide[:, ::2]
        out = torch.empty(xv.shape, device="cuda", dtype=dt)
        verdict = compare(leaky(xv, slope=SLOPE), F.leaky_relu(xv, SLOPE), 0)
        impls = {"ewc": timed(lambda: leaky(xv, slope=SLOPE, out=out)),
                 "torch": timed(lambda: F.leaky_relu(xv, SLOPE))}
        self.table.add("strided ::2", t, 2 * xv.numel() * size,
                       copy_gbps(total, dt), "copy", impls, verdict)


def run(args, table):
    """Every group for every element type; False if one of them broke."""
    cases = Cases(args, table)
    ok = True
    for t in (["f32"] if args.quick else ["f32", "bf16"]):
        groups = [("leaky ranks", cases.leaky_ranks),
                  ("alignments", cases.alignments),
                  ("bias", lambda t: cases.rowwise(t, "bias")),
                  ("row_scale", lambda t: cases.rowwise(t, "row_scale"))]
        if t == "f32":
            groups.append(("bias_gelu",
                           lambda t: cases.rowwise(t, "bias_gelu")))
        groups += [("outer", cases.outer), ("transposed", cases.transposed),
                   ("strided", cases.strided)]
        for name, group in groups:
            ok &= guarded("%s %s" % (name, t), group, t)
            torch.cuda.empty_cache()
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--quick", action="store_true",
                        help="f32 only, 2^24 elements, two n")
    parser.add_argument("--no-compile", dest="compile", action="store_false",
                        help="leave torch.compile out (it compiles for "
                        "seconds per case)")
    args = parser.parse_args()
    props = torch.cuda.get_device_properties(0)
    print("%s, torch %s, triton %s, %s" % (
        props.name, torch.__version__,
        triton.__version__ if triton else "-",
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())), flush=True)
    table = Table()
    failed = not run(args, table)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "shapes.md"), "w") as f:
        f.write(table.markdown())
    with open(os.path.join(args.out, "shapes.json"), "w") as f:
        json.dump({"device": props.name, "torch": torch.__version__,
                   "rows": table.rows}, f, indent=1)
    print(table.markdown())
    bad = [r for r in table.rows if r["verdict"].split(";")[0]
           not in ("exact", "ok")]
    for r in bad:
        print("MISMATCH: %s %s: %s" % (r["case"], r["dtype"], r["verdict"]))
    return 1 if failed or bad else 0


if __name__ == "__main__":
    sys.exit(main())
