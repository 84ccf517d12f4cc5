#!/usr/bin/env python3
"""Issue 16's target table: ewc's reduction and scan kernels (kernels/)
against torch eager, torch.compile and Triton's fused-softmax tutorial
kernel, on the H200, in one run, through ewc's Python API on torch CUDA
tensors.

Cases, f32 and bf16, x of shape [m, n] with m * n = 2^28 for n in {128, 1024,
4096, 32768}, n = 2^20 with m = 256, and the odd n 1000 and 4097:
  softmax, log_softmax   torch.softmax / torch.log_softmax(x, -1)
  logsumexp              torch.logsumexp(x, -1)
  layernorm, rmsnorm     F.layer_norm(x, (n,), w, b) / F.rms_norm(x, (n,), w)
  row_cumsum             torch.cumsum(x, 1), and a Triton tl.cumsum kernel
  column_sum             x.sum(0)
  cumsum                 torch.cumsum(x, 0) of a vector (CUB's scan), n =
                         2^28, 2^28 + 1 and 2^20 (kernels/cumsum.ew)
  decode_attention       bf16, b x h in {32, 256}, s in {1024, 8192, 65536},
                         d = 128: F.scaled_dot_product_attention with one
                         query row, each backend that runs it (flash,
                         efficient, cudnn, math) and the best of them
  gqa_decode_attention   the same with r = 8 queries per key/value head
                         (g = b x h / 8... see attention_shapes): torch's
                         SDPA with enable_gqa, and with the r queries as a
                         query block of length r, the best of all
  Bytes for attention: K and V read once (q and the output besides),
  against a copy of K and V's bytes.

Timing and bytes as bench/shapes.py: 5 warm-up calls, then REPS calls each
between its own CUDA events, the median; every input element read once,
every output element written once, against torch's copy of x in the same
run ("% copy"). A case's speed counts only if its result matches torch's
within the tolerance of a sum in another order (the `ok` column: f32 1e-5,
bf16 one rounding, 1e-2, of 1 + |torch's value|).

usage: bench/reductions.py [--out DIR] [--quick] [--compile] [--kernels K,K]
Prints a table and writes DIR/reductions.md and DIR/reductions.json.
"""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shapes import (DTYPES, Table, compare, copy_gbps, guarded,  # noqa: E402
                    maybe_compile, timed)

import shapes  # noqa: E402

ewc = shapes.ewc

try:
    import triton
    import triton.language as tl
except ImportError:  # The table says "-" for Triton then.
    triton = None

KERNELS = ["softmax", "log_softmax", "logsumexp", "layernorm", "rmsnorm",
           "row_cumsum", "column_sum", "cumsum"]

if triton is not None:
    @triton.jit
    def _softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows,
                        n_cols, BLOCK_SIZE: tl.constexpr):
        # Triton's fused-softmax tutorial kernel (03-fused-softmax), one
        # program per row, the row in registers.
        row = tl.program_id(0)
        step = tl.num_programs(0)
        for r in tl.range(row, n_rows, step):
            offsets = tl.arange(0, BLOCK_SIZE)
            mask = offsets < n_cols
            x = tl.load(in_ptr + r * in_stride + offsets, mask=mask,
                        other=-float("inf")).to(tl.float32)
            x = x - tl.max(x, axis=0)
            num = tl.exp(x)
            y = num / tl.sum(num, axis=0)
            tl.store(out_ptr + r * out_stride + offsets,
                     y.to(out_ptr.dtype.element_ty), mask=mask)

    def triton_softmax(x, out):
        m, n = x.shape
        block = triton.next_power_of_2(n)
        if block > 32768:
            return None  # The tutorial keeps a row in registers.
        warps = 4 if block < 2048 else 8 if block < 4096 else 16
        _softmax_kernel[(min(m, 132 * 8),)](out, x, x.stride(0),
                                            out.stride(0), m, n,
                                            BLOCK_SIZE=block,
                                            num_warps=warps)
        return out
    @triton.jit
    def _row_cumsum_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
        # A program per row walking it BLOCK elements at a time with
        # tl.cumsum, the carry the block's sum (f32 accumulation).
        row = tl.program_id(0).to(tl.int64)
        carry = tl.zeros((1,), dtype=tl.float32)
        for start in tl.range(0, n_cols, BLOCK):
            offsets = start + tl.arange(0, BLOCK)
            mask = offsets < n_cols
            x = tl.load(in_ptr + row * n_cols + offsets, mask=mask,
                        other=0.0).to(tl.float32)
            y = tl.cumsum(x, axis=0) + carry
            tl.store(out_ptr + row * n_cols + offsets,
                     y.to(out_ptr.dtype.element_ty), mask=mask)
            carry += tl.sum(x, axis=0)

    def triton_row_cumsum(x, out):
        m, n = x.shape
        _row_cumsum_kernel[(m,)](out, x, n, BLOCK=1024, num_warps=4)
        return out
else:
    triton_softmax = None
    triton_row_cumsum = None


ATTENTION = ["decode_attention", "gqa_decode_attention"]


def attention_shapes(quick):
    """(b, h, s) with b x h in {32, 256}, s in {1024, 8192, 65536}; for GQA
    h is the key/value heads g, with 8 queries each."""
    sizes = (1024, 8192) if quick else (1024, 8192, 65536)
    return [(b, h, s) for (b, h) in ((4, 8), (8, 32)) for s in sizes]


def sdpa_backends():
    """(name, context manager factory) of each SDPA backend torch has."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return []
    names = [("flash", "FLASH_ATTENTION"), ("efficient", "EFFICIENT_ATTENTION"),
             ("cudnn", "CUDNN_ATTENTION"), ("math", "MATH")]
    return [(name, lambda b=getattr(SDPBackend, attr): sdpa_kernel([b]))
            for name, attr in names if hasattr(SDPBackend, attr)]


def run_attention(kind, table, args):
    """decode_attention and its GQA form against torch's SDPA, bf16."""
    dt = torch.bfloat16
    k_ = kernel(kind, "bf16")
    d, r = 128, 8
    for b, h, s in attention_shapes(args.quick):
        torch.manual_seed(0)
        scale = d ** -0.5
        if kind == "decode_attention":
            q = torch.randn(b, h, d, device="cuda").to(dt)
            q4 = q.view(b, h, 1, d)
            forms = [("sdpa", lambda q4=q4, kv=None: q4, {})]
        else:
            q = torch.randn(b, h, r, d, device="cuda").to(dt)
            forms = [("sdpa-gqa", lambda: q.reshape(b, h * r, 1, d),
                      {"enable_gqa": True}),
                     ("sdpa-block", lambda: q, {})]
        kk = torch.randn(b, h, s, d, device="cuda").to(dt)
        v = torch.randn(b, h, s, d, device="cuda").to(dt)
        want = None
        impls = {}
        for form, make_q, extra in forms:
            qq = make_q()

            def call(qq=qq, extra=extra):
                return F.scaled_dot_product_attention(qq, kk, v, scale=scale,
                                                      **extra)
            if want is None:
                want = call().reshape(q.shape)
            for name, ctx in sdpa_backends() or [("default", None)]:
                def in_backend(call=call, ctx=ctx):
                    if ctx is None:
                        return call()
                    with ctx():
                        return call()
                try:
                    in_backend()
                except Exception:  # noqa: BLE001 - a backend that cannot
                    continue
                ms = timed(in_backend)
                if ms is not None:
                    impls["%s/%s" % (form, name)] = ms
            if args.compile:
                comp = maybe_compile(call, True)
                if comp:
                    impls["compile/" + form] = timed(comp)
        got = k_(q, kk, v, scale=scale)
        out = torch.empty_like(got)
        verdict = compare(got, want, 1e-2)
        best = min((ms for ms in impls.values() if ms), default=None)
        timings = {"ewc": timed(lambda: k_(q, kk, v, scale=scale, out=out))}
        if best is not None:
            timings["torch"] = best
        timings.update(impls)
        nbytes = (kk.numel() + v.numel() + q.numel() + want.numel()) * 2
        name = "%s/b%dh%ds%d" % (kind, b, h, s)
        table.add(name, "bf16", nbytes,
                  copy_gbps(kk.numel() + v.numel(), dt), "copy of K and V",
                  timings, verdict)
        del q, kk, v, want, got, out


def source(kind, t):
    """kernels/KIND.ew with its tensors' element type set to `t`."""
    with open(os.path.join(ROOT, "kernels", kind + ".ew")) as f:
        text = f.read()
    for other in ("bf16[", "f32["):
        text = text.replace(other, t + "[")
    return text


def kernel(kind, t):
    return shapes.kernel(kind, t, source)


def torch_ref(kind, x, w, b):
    if kind == "softmax":
        return lambda: torch.softmax(x, -1)
    if kind == "log_softmax":
        return lambda: torch.log_softmax(x, -1)
    if kind == "logsumexp":
        return lambda: torch.logsumexp(x, -1)
    if kind == "layernorm":
        return lambda: F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)
    if kind == "rmsnorm":
        return lambda: F.rms_norm(x, (x.shape[-1],), w, 1e-6)
    if kind == "row_cumsum":
        return lambda: torch.cumsum(x, 1)
    if kind == "cumsum":
        return lambda: torch.cumsum(x, 0)
    if kind == "column_sum":
        return lambda: x.sum(0)
    raise ValueError(kind)


def sum_verdict(kind, x, got, want):
    """ewc's and torch's sums against the sum in f64 and its error bound."""
    x64 = x.double()
    if kind == "row_cumsum":
        exact, mag, k = x64.cumsum(1), x64.abs().cumsum(1), x.shape[1]
    elif kind == "cumsum":
        exact, mag, k = x64.cumsum(0), x64.abs().cumsum(0), x.shape[0]
    else:
        exact, mag, k = x64.sum(0), x64.abs().sum(0), x.shape[0]
    u = 2.0 ** -24
    rounding = 2.0 ** -8 if x.dtype == torch.bfloat16 else u
    if k * u >= 1:
        # gamma(k) bounds nothing past 2^24 terms: say how far each is from
        # the f64 sum, in units of the largest sum of magnitudes.
        scale = float(mag.max()) or 1.0

        def worst(result):
            return float((result.double() - exact).abs().max()) / scale
        return "max error %.2e of sum|x| (torch: %.2e)" % (worst(got),
                                                           worst(want))
    bound = k * u / (1 - k * u) * mag + rounding * exact.abs()

    def outside(result):
        return int(((result.double() - exact).abs() > bound).sum())

    ours, theirs = outside(got), outside(want)
    text = "within the bound" if ours == 0 else "%d outside the bound" % ours
    if theirs:
        text += " (torch: %d outside)" % theirs
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=".")
    parser.add_argument("--quick", action="store_true",
                        help="2^24 elements and three shapes")
    parser.add_argument("--compile", action="store_true",
                        help="time torch.compile too")
    parser.add_argument("--kernels", default=",".join(KERNELS))
    args = parser.parse_args()
    total = 1 << 24 if args.quick else 1 << 28
    shapes_ = [(total // n, n) for n in (128, 1024, 4096, 32768)]
    shapes_ += [(256, 1 << 20 if not args.quick else 1 << 16),
                (total // 1000, 1000), (total // 4097, 4097)]
    if args.quick:
        shapes_ = [shapes_[0], shapes_[2], shapes_[5]]
    table = Table()

    vectors = [total, total + 1, 1 << 20]

    def run(kind, t):
        dt = DTYPES[t]
        size = torch.tensor([], dtype=dt).element_size()
        k = kernel(kind, t)
        tol = 1e-5 if t == "f32" else 1e-2
        cases = [(1, n) for n in vectors] if kind == "cumsum" else shapes_
        for m, n in cases:
            x = torch.randn(m, n, device="cuda").to(dt)
            if kind == "cumsum":
                x = x.view(n)
            w = torch.randn(n, device="cuda").to(dt)
            b = torch.randn(n, device="cuda").to(dt)
            args_ = {"layernorm": (x, w, b), "rmsnorm": (x, w)}.get(kind, (x,))
            ref = torch_ref(kind, x, w, b)
            want = ref()
            got = k(*args_)
            out = torch.empty_like(got)
            verdict = compare(got, want, tol)
            if kind in ("row_cumsum", "column_sum", "cumsum"):
                # A sum's error grows with its length k in any order: against
                # the sum in f64, docs/language.md's bound gamma(k) * sum |x|
                # (f32 compute), plus the output's rounding. torch's own
                # result is held to the same bound.
                verdict = sum_verdict(kind, x, got, want)
            impls = {"ewc": timed(lambda: k(*args_, out=out)),
                     "torch": timed(ref)}
            if args.compile:
                comp = maybe_compile(ref, True)
                if comp:
                    impls["compile"] = timed(comp)
            if kind == "softmax" and triton_softmax is not None and \
                    triton.next_power_of_2(n) <= 32768:
                tout = torch.empty_like(x)
                impls["triton"] = timed(lambda: triton_softmax(x, tout))
            if kind == "row_cumsum" and triton_row_cumsum is not None:
                tout = torch.empty_like(x)
                try:
                    triton_row_cumsum(x, tout)
                    impls["triton"] = timed(lambda: triton_row_cumsum(x, tout))
                except Exception as error:  # noqa: BLE001 - a peer's failure
                    print("triton row cumsum: %s" % error, file=sys.stderr)
            nbytes = (x.numel() + want.numel()) * size
            if kind in ("layernorm", "rmsnorm"):
                nbytes += (2 if kind == "layernorm" else 1) * n * size
            name = ("%s/%d" % (kind, n) if kind == "cumsum"
                    else "%s/%dx%d" % (kind, m, n))
            table.add(name, t, nbytes,
                      copy_gbps(x.numel(), dt), "copy of x", impls, verdict)
            del x, w, b, want, got, out

    ok = True
    for kind in args.kernels.split(","):
        if kind in ATTENTION:
            ok &= guarded(kind, run_attention, kind, table, args)
            continue
        for t in ("f32", "bf16"):
            ok &= guarded("%s %s" % (kind, t), run, kind, t)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "reductions.md"), "w") as f:
        f.write(table.markdown())
    with open(os.path.join(args.out, "reductions.json"), "w") as f:
        json.dump(table.rows, f, indent=1)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
