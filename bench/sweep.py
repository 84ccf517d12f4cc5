#!/usr/bin/env python3
"""GB/s against the element count for elementwise kernels of kernels/ beside
their peers and the copy, through ewc.testing's perf_report and bench.

One plot per kernel, a line per implementation, the copy of the same bytes
as the ceiling (drawn dashed):

  --device cuda   torch CUDA tensors: ewc (python/ewc, out=), torch eager,
                  torch.compile of the same expression (--compile), and
                  torch's copy_ of x into y; CUDA events, the L2 flushed
                  before each timed call (ewc.testing.bench's default)
  --device cpu    NumPy arrays: ewc on every core, NumPy's expression (one
                  thread, NumPy's own), and np.copyto; time.perf_counter,
                  the last-level cache flushed before each timed call

Kernels: leaky_relu (f32, slope 0.01: np.where / F.leaky_relu) and softplus
(f32: np.logaddexp(0, x) / F.softplus). Bytes per call: x read once, y
written once. Each point's ewc result is compared with the peer's first
(leaky_relu bit for bit, softplus within 4e-7 of 1 + |y|: a few ulps of
two libm functions); a mismatch stops the sweep with exit status 1.

usage: bench/sweep.py [--device cpu|cuda] [--kernels K,...] [--out DIR]
                      [--quick] [--compile]
Prints a table per kernel and writes DIR/<kernel>-<device>.csv and .png
(DIR: $OUT, else the current directory). --quick: 2^10 to 2^16 elements,
a few calls each, for checking the script (test/Python/bench-sweep.test),
not for numbers.
"""
import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import ewc
    import ewc.testing
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc
    import ewc.testing

SLOPE = 0.01
KERNELS = ("leaky_relu", "softplus")


class Mismatch(Exception):
    pass


def numpy_peer(name):
    """The kernel's NumPy expression, writing into `out`."""
    if name == "leaky_relu":
        slope = np.float32(SLOPE)
        return lambda x, out: np.copyto(out, np.where(x >= 0, x, slope * x))
    return lambda x, out: np.logaddexp(np.float32(0), x, out=out)


def torch_peer(name):
    import torch.nn.functional as F
    if name == "leaky_relu":
        return lambda x: F.leaky_relu(x, SLOPE)
    return F.softplus


def check(name, got, want):
    """Raises Mismatch unless `got` is `want` as the kernel's rule says."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if name == "leaky_relu":
        bad = np.count_nonzero(got.view(np.int64) != want.view(np.int64))
    else:
        bad = np.count_nonzero(np.abs(got - want) > 4e-7 * (1 + np.abs(want)))
    if bad:
        raise Mismatch("%s: %d of %d elements differ from the peer's"
                       % (name, bad, got.size))


class Sweep:
    def __init__(self, args):
        self.args = args
        self.device = args.device
        self.modules = {}
        if args.quick:
            self.timing = {"n_warmup": 1, "n_repeat": 3}
        else:
            self.timing = {}
        if self.device == "cuda":
            import torch
            self.torch = torch
            self.compiled = {}

    def module(self, name):
        if name not in self.modules:
            self.modules[name] = ewc.compile(
                os.path.join(ROOT, "kernels", name + ".ew"), device=self.device)
            # Timed: the optimized code, not a tiered compile's quick one.
            self.modules[name].wait_optimized()
        return self.modules[name]

    def sizes(self):
        if self.args.quick:
            return [1 << k for k in range(10, 17, 2)]
        top = 28 if self.device == "cuda" else 26
        return [1 << k for k in range(12, top + 1, 2)]

    def providers(self):
        names = ["ewc", "torch" if self.device == "cuda" else "numpy"]
        if self.device == "cuda" and self.args.compile:
            names.append("torch.compile")
        return names + ["copy"]

    def calls(self, name, n):
        """provider -> a call of no arguments, after checking ewc's result
        against the peer's on the same x."""
        kernel = getattr(self.module(name), name)
        if self.device == "cpu":
            rng = np.random.default_rng(n)
            x = (rng.standard_normal(n) * 4).astype(np.float32)
            y, want = np.empty_like(x), np.empty_like(x)
            peer = numpy_peer(name)
            kernel(x, out=y)
            peer(x, want)
            check(name, y, want)
            return {"ewc": lambda: kernel(x, out=y),
                    "numpy": lambda: peer(x, want),
                    "copy": lambda: np.copyto(want, x)}
        torch = self.torch
        x = torch.randn(n, device="cuda") * 4
        y = torch.empty_like(x)
        peer = torch_peer(name)
        kernel(x, out=y)
        check(name, y.cpu().numpy(), peer(x).cpu().numpy())
        calls = {"ewc": lambda: kernel(x, out=y),
                 "torch": lambda: peer(x),
                 "copy": lambda: y.copy_(x)}
        if self.args.compile:
            if name not in self.compiled:
                self.compiled[name] = torch.compile(peer)
            compiled = self.compiled[name]
            calls["torch.compile"] = lambda: compiled(x)
        return calls

    def report(self, name):
        providers = self.providers()

        @ewc.testing.perf_report(ewc.testing.Benchmark(
            x_names=["n"], x_vals=self.sizes(), line_arg="provider",
            line_vals=providers, line_names=providers, ceiling="copy",
            plot_name="%s-%s" % (name, self.device),
            xlabel="elements (f32)", ylabel="GB/s", x_log=True))
        def gbps(n, provider):
            if provider == providers[0]:
                self.current = self.calls(name, n)
            ms, low, high = ewc.testing.bench(
                self.current[provider], quantiles=[0.5, 0.2, 0.8],
                device=self.device, **self.timing)
            nbytes = 2 * n * 4
            # The band: GB/s at the 80th and 20th percentile times.
            return (nbytes / ms / 1e6, nbytes / high / 1e6,
                    nbytes / low / 1e6)

        return gbps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cuda")
    parser.add_argument("--kernels", default=",".join(KERNELS),
                        help="a comma-separated list of " + ", ".join(KERNELS))
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--compile", action="store_true",
                        help="add torch.compile's lines (cuda only)")
    args = parser.parse_args()
    kernels = [k for k in args.kernels.split(",") if k]
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown or not kernels:
        parser.error("--kernels: expected some of %s, got %r"
                     % (", ".join(KERNELS), args.kernels))
    if args.compile and args.device != "cuda":
        parser.error("--compile times torch.compile on the GPU: add "
                     "--device cuda")
    sweep = Sweep(args)
    print("ewc %s, device %s" % (ewc.__version__, args.device), flush=True)
    for name in kernels:
        try:
            sweep.report(name).run(print_data=True, save_path=args.out)
        except Mismatch as error:
            print("error: %s" % error, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
