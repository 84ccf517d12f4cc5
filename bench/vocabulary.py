#!/usr/bin/env python3
"""Issue 18's kernels (kernels/) against torch's equivalents on the H200, in
one run, through ewc's Python API on torch CUDA tensors.

Cases (N = 2^28 elements; 2^24 with --quick):
  quantize        f32 -> i8, kernels/quantize.ew: torch.quantize_per_tensor
                  (one kernel, qint8) and the eager composite
                  clamp(round(x * inv), -128, 127).to(int8)
  dequantize      i8 -> f32: q.float() * scale, and torch.dequantize of the
                  qint8 tensor
  quantize_fp8    f32 -> f8e4m3, kernels/fp8_quantize.ew:
                  (x * scale).clamp(-448, 448).to(torch.float8_e4m3fn)
  dequantize_fp8  f8e4m3 -> f32: q.float() * inv_scale
  rotary          kernels/rotary_embedding.ew over x [N / (4096 * 128), 4096,
                  128] (the halves as views of x and of the output), which
                  computes each angle p * base^(-2i/d) and its cos and sin:
                  torch eager and torch.compile of the same, x * cos +
                  rotate_half(x) * sin with the angles' tables made in the
                  call
  rotary_cached   rotary_embedding_cached, the tables [4096, 64] as inputs:
                  the Hugging Face form with cos, sin tables of [4096, 128]
                  computed once outside the timing (the tables' reads are
                  not counted in the bytes, for either)
  softplus        F.softplus(x)
  nan_to_zero     bf16, torch.nan_to_num(x, nan=0.0, posinf=inf,
                  neginf=-inf) (infinities pass, as in the kernel)
  hash            i32, kernels/hash.ew: the same nine integer operations in
                  torch eager (nine kernels) and torch.compile (one)

Timing, bytes and the ceiling as bench/shapes.py (whose helpers this uses):
5 warm-up calls, then 30 calls each between its own CUDA events, the median;
every input element read once, every output element written once, against
torch's copy of the case's largest tensor in the same run ("% copy"). ewc
is called with out=. A case's speed counts only where its result matches
torch's (the `result vs torch` column: "exact" bit for bit, "ok" within the
tolerance stated per case: rotary 2e-3 of 1 + |value|, from the angle
p * base^(-2i/d) computed as pow here and as 1 / base^x by the tables, one
f32 ulp of an angle of up to 4096; rotary_cached 2e-6, one rounding of two
products and a sum; softplus 4e-7, a few ulps of two libm
functions). Inputs hold NaN, infinities and signed zeros where the kernel
treats them specially (nan_to_zero, quantize).

usage: bench/vocabulary.py [--out DIR] [--quick] [--no-compile]
Prints a table and writes DIR/vocabulary.md and DIR/vocabulary.json.
"""
import argparse
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shapes import (ROOT, Table, compare, copy_gbps, guarded,  # noqa: E402
                    maybe_compile, timed)

import shapes  # noqa: E402

ewc = shapes.ewc

_modules = {}


def module(name):
    """kernels/NAME.ew compiled once for the GPU."""
    if name not in _modules:
        _modules[name] = ewc.compile(os.path.join(ROOT, "kernels", name + ".ew"),
                                     device="cuda")
        # Timed: the optimized code of a tiered compile, not its quick code.
        _modules[name].wait_optimized()
    return _modules[name]


def f32(value):
    """`value` rounded to f32, as a Python float: torch multiplies an f32
    tensor by a Python scalar in f32, and ewc's f32 arithmetic must meet the
    same operand."""
    return float(np.float32(value))


def special(x):
    """x with NaN, both infinities and both zeros at fixed places."""
    flat = x.view(-1)
    for i, v in enumerate([float("nan"), float("inf"), float("-inf"), 0.0, -0.0]):
        flat[i * 7919::1 << 16] = v
    return x


class Cases:
    def __init__(self, args, table):
        self.args, self.table = args, table
        self.n = 1 << 24 if args.quick else 1 << 28
        self.compile = args.compile

    def add(self, case, dtype, inputs, outputs, impls, verdict):
        nbytes = sum(t.numel() * t.element_size() for t in inputs + outputs)
        big = max(inputs + outputs, key=lambda t: t.numel() * t.element_size())
        ceiling = copy_gbps(big.numel(), big.dtype)
        self.table.add(case, dtype, nbytes, ceiling, "copy", impls, verdict)

    def quantize(self):
        mod = module("quantize")
        scale = 0.05
        # The kernel multiplies by 1.0 / scale in f32; torch gets that f32.
        inv = f32(np.float32(1.0) / np.float32(scale))
        x = special(torch.randn(self.n, device="cuda") * 4)
        q = torch.empty(self.n, device="cuda", dtype=torch.int8)

        def eager(x):
            return torch.clamp(torch.round(x * inv), -128, 127).to(torch.int8)

        # torch.round of NaN is NaN, whose int8 cast is undefined: compare
        # against the NaN-free composite, whose NaN places are 0 as ewc's.
        want = eager(torch.where(torch.isnan(x), 0.0, x))
        mod.quantize(x, scale, out=q)
        verdict = compare(q, want, 0)
        comp = maybe_compile(eager, self.compile)
        self.add("quantize", "f32>i8", [x], [q], {
            "ewc": timed(lambda: mod.quantize(x, scale, out=q)),
            "torch": timed(lambda: eager(x)),
            "qint8": timed(lambda: torch.quantize_per_tensor(x, scale, 0, torch.qint8)),
            "compile": timed(lambda: comp(x)) if comp else None}, verdict)

        xq = torch.quantize_per_tensor(torch.randn(self.n, device="cuda") * 4,
                                       scale, 0, torch.qint8)
        qi = xq.int_repr()
        y = torch.empty(self.n, device="cuda")
        mod.dequantize(qi, scale, out=y)
        s32 = f32(scale)
        verdict = compare(y, qi.float() * s32, 0)
        comp = maybe_compile(lambda q: q.float() * s32, self.compile)
        self.add("dequantize", "i8>f32", [qi], [y], {
            "ewc": timed(lambda: mod.dequantize(qi, scale, out=y)),
            "torch": timed(lambda: qi.float() * s32),
            "qint8": timed(lambda: torch.dequantize(xq)),
            "compile": timed(lambda: comp(qi)) if comp else None}, verdict)

    def fp8(self):
        mod = module("fp8_quantize")
        scale, inv = 64.0, 0.015625
        x = special(torch.randn(self.n, device="cuda") * 8)
        q = torch.empty(self.n, device="cuda", dtype=torch.float8_e4m3fn)

        def eager(x):
            return (x * scale).clamp(-448, 448).to(torch.float8_e4m3fn)

        mod.quantize_fp8(x, scale, out=q)
        verdict = compare(q.view(torch.uint8), eager(x).view(torch.uint8), 0)
        comp = maybe_compile(eager, self.compile)
        self.add("quantize_fp8", "f32>f8", [x], [q], {
            "ewc": timed(lambda: mod.quantize_fp8(x, scale, out=q)),
            "torch": timed(lambda: eager(x)),
            "compile": timed(lambda: comp(x)) if comp else None}, verdict)

        y = torch.empty(self.n, device="cuda")
        mod.dequantize_fp8(q, inv, out=y)
        verdict = compare(y, q.float() * inv, 0)
        comp = maybe_compile(lambda q: q.float() * inv, self.compile)
        self.add("dequantize_fp8", "f8>f32", [q], [y], {
            "ewc": timed(lambda: mod.dequantize_fp8(q, inv, out=y)),
            "torch": timed(lambda: q.float() * inv),
            "compile": timed(lambda: comp(q)) if comp else None}, verdict)

    def rotary(self):
        mod = module("rotary_embedding")
        s, d, base = 4096, 128, 10000.0
        h = d // 2
        b = max(1, self.n // (s * d))
        x = torch.randn(b, s, d, device="cuda")
        out = torch.empty_like(x)
        # The Hugging Face tables (LlamaRotaryEmbedding), computed once.
        inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, device="cuda",
                                                dtype=torch.float32) / d))
        freqs = torch.outer(torch.arange(s, device="cuda", dtype=torch.float32),
                            inv_freq)
        emb = torch.cat((freqs, freqs), -1)
        cos, sin = emb.cos(), emb.sin()

        def rotate(x, c, sn):
            rotated = torch.cat((-x[..., h:], x[..., :h]), -1)
            return x * c + rotated * sn

        def tables(x):
            return rotate(x, cos, sin)

        def angles(x):
            # The angles in the call, as the ewc kernel computes them.
            pos = torch.arange(s, device="cuda", dtype=torch.float32)[:, None]
            i = torch.arange(h, device="cuda", dtype=torch.float32)
            theta = pos * torch.pow(base, -2.0 * i / d)
            theta = torch.cat((theta, theta), -1)
            return rotate(x, theta.cos(), theta.sin())

        def call():
            mod.rotary_embedding(x[..., :h], x[..., h:], base,
                                 out=(out[..., :h], out[..., h:]))

        call()
        verdict = compare(out, tables(x), 2e-3)
        comp = maybe_compile(angles, self.compile)
        self.add("rotary", "f32", [x], [out], {
            "ewc": timed(call),
            "torch": timed(lambda: angles(x)),
            "compile": timed(lambda: comp(x)) if comp else None}, verdict)

        # The tables as inputs: the half of each that the kernel reads
        # (both halves of emb are equal), read once per batch element and
        # not counted in the bytes, as for torch.
        c, sn = cos[:, :h].contiguous(), sin[:, :h].contiguous()
        out.zero_()

        def cached():
            mod.rotary_embedding_cached(x[..., :h], x[..., h:], c, sn,
                                        out=(out[..., :h], out[..., h:]))

        cached()
        verdict = compare(out, tables(x), 2e-6)
        comp = maybe_compile(tables, self.compile)
        self.add("rotary_cached", "f32", [x], [out], {
            "ewc": timed(cached),
            "torch": timed(lambda: tables(x)),
            "compile": timed(lambda: comp(x)) if comp else None}, verdict)

    def softplus(self):
        mod = module("softplus")
        x = torch.randn(self.n, device="cuda") * 10
        y = torch.empty_like(x)
        mod.softplus(x, out=y)
        verdict = compare(y, F.softplus(x), 4e-7)
        comp = maybe_compile(F.softplus, self.compile)
        self.add("softplus", "f32", [x], [y], {
            "ewc": timed(lambda: mod.softplus(x, out=y)),
            "torch": timed(lambda: F.softplus(x)),
            "compile": timed(lambda: comp(x)) if comp else None}, verdict)

    def nan_to_zero(self):
        mod = module("nan_to_zero")
        x = special(torch.randn(self.n, device="cuda").to(torch.bfloat16))
        y = torch.empty_like(x)
        inf = float("inf")

        def eager(x):
            return torch.nan_to_num(x, nan=0.0, posinf=inf, neginf=-inf)

        mod.nan_to_zero(x, out=y)
        verdict = compare(y.view(torch.int16), eager(x).view(torch.int16), 0)
        comp = maybe_compile(eager, self.compile)
        self.add("nan_to_zero", "bf16", [x], [y], {
            "ewc": timed(lambda: mod.nan_to_zero(x, out=y)),
            "torch": timed(lambda: eager(x)),
            "compile": timed(lambda: comp(x)) if comp else None}, verdict)

    def hash(self):
        mod = module("hash")
        seed = 12345
        x = torch.randint(-(1 << 31), (1 << 31) - 1, (self.n,), device="cuda",
                          dtype=torch.int32)
        y = torch.empty_like(x)

        def eager(x):
            h = x ^ seed
            h = h ^ ((h >> 16) & 65535)
            h = h * -2048144789
            h = h ^ ((h >> 13) & 524287)
            h = h * -1028477387
            return h ^ ((h >> 16) & 65535)

        mod.hash(x, seed, out=y)
        want = eager(x)
        differ = int((y != want).sum())
        verdict = "exact" if differ == 0 else "%d differ" % differ
        comp = maybe_compile(eager, self.compile)
        self.add("hash", "i32", [x], [y], {
            "ewc": timed(lambda: mod.hash(x, seed, out=y)),
            "torch": timed(lambda: eager(x)),
            "compile": timed(lambda: comp(x)) if comp else None}, verdict)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--quick", action="store_true",
                        help="2^24 elements instead of 2^28")
    parser.add_argument("--no-compile", dest="compile", action="store_false",
                        help="leave torch.compile out")
    args = parser.parse_args()
    torch.manual_seed(0)
    table = Table()
    cases = Cases(args, table)
    print("%s, torch %s, ewc %s" % (torch.cuda.get_device_name(),
                                    torch.__version__, ewc.__version__),
          flush=True)
    ok = True
    for name in ["quantize", "fp8", "rotary", "softplus", "nan_to_zero", "hash"]:
        ok &= guarded(name, getattr(cases, name))
        torch.cuda.empty_cache()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "vocabulary.md"), "w") as f:
        f.write(table.markdown())
    with open(os.path.join(args.out, "vocabulary.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "ewc": ewc.__version__,
                   "revision": ewc.__revision__, "rows": table.rows}, f, indent=1)
    print(table.markdown())
    bad = [r["case"] for r in table.rows if r["verdict"] not in ("exact", "ok")]
    if bad:
        print("results differ from torch's: %s" % ", ".join(bad))
    return 0 if ok and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
