"""The seed's test for the reduction and scan kernels of kernels/: each
allocates on the GPU with torch, runs the kernel on torch's current stream,
and compares with torch's own function; prints one line per kernel and True
last when every one matched.

    python3 examples/reductions.py        # on the GPU

Tensors of any leading shape go in as they are: softmax of x[b, s, n] is
torch.softmax(x, -1) with the batch `...` = (b, s). ewc is found as
installed, else in this repository's python/ (libewc.so from build/lib, or
$EWC_LIBRARY).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    import ewc
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc


def load(name):
    return getattr(ewc.compile(os.path.join(ROOT, "kernels", name + ".ew"),
                               device="cuda"), name)


def run():
    import torch
    import torch.nn.functional as F

    torch.manual_seed(0)
    bf16 = dict(rtol=1.6e-2, atol=1e-2)  # one bf16 rounding either side
    f32 = dict(rtol=1e-5, atol=1e-6)
    results = {}

    x = torch.randn(4, 50, 1000, device="cuda", dtype=torch.bfloat16)
    results["softmax"] = torch.allclose(
        load("softmax")(x).float(), torch.softmax(x.float(), -1), **bf16)

    x = torch.randn(4, 50, 1000, device="cuda")
    results["log_softmax"] = torch.allclose(
        load("log_softmax")(x), torch.log_softmax(x, -1), **f32)

    x = torch.randn(300, 4097, device="cuda")
    results["logsumexp"] = torch.allclose(
        load("logsumexp")(x), torch.logsumexp(x, -1), **f32)

    x = torch.randn(8, 64, 768, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(768, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(768, device="cuda", dtype=torch.bfloat16)
    results["layernorm"] = torch.allclose(
        load("layernorm")(x, w, b).float(),
        F.layer_norm(x.float(), (768,), w.float(), b.float(), 1e-5), **bf16)
    results["rmsnorm"] = torch.allclose(
        load("rmsnorm")(x, w).float(),
        F.rms_norm(x.float(), (768,), w.float(), 1e-6), **bf16)

    x = torch.randn(33, 1000, device="cuda")
    # A running sum's error grows with the row: 1e-4 is ~50x f32's at 1000.
    results["row_cumsum"] = torch.allclose(
        load("row_cumsum")(x), torch.cumsum(x, 1), rtol=1e-5, atol=1e-4)

    x = torch.randn(1000, 257, device="cuda")
    results["column_sum"] = torch.allclose(
        load("column_sum")(x), x.sum(0), rtol=1e-5, atol=1e-4)

    b_, h, s, d = 2, 8, 1000, 128
    q = torch.randn(b_, h, d, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(b_, h, s, d, device="cuda", dtype=torch.bfloat16)
    v = torch.randn(b_, h, s, d, device="cuda", dtype=torch.bfloat16)
    scale = d ** -0.5
    want = F.scaled_dot_product_attention(
        q[:, :, None].float(), k.float(), v.float(), scale=scale)[:, :, 0]
    results["decode_attention"] = torch.allclose(
        load("decode_attention")(q, k, v, scale=scale).float(), want, **bf16)

    g, r = 2, 4
    q = torch.randn(b_, g, r, d, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(b_, g, s, d, device="cuda", dtype=torch.bfloat16)
    v = torch.randn(b_, g, s, d, device="cuda", dtype=torch.bfloat16)
    want = F.scaled_dot_product_attention(
        q.float(), k.float(), v.float(), scale=scale)
    results["gqa_decode_attention"] = torch.allclose(
        load("gqa_decode_attention")(q, k, v, scale=scale).float(), want,
        **bf16)
    return results


if __name__ == "__main__":
    results = run()
    for name, ok in results.items():
        print("%s: %s" % (name, ok))
    print(all(results.values()))
