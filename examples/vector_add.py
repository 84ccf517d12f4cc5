"""Vector add, the seed family's test for issue 17's generic kernels: one
source, kernels/vector_add.ew (`vector_add<T: any>`), for every dtype.

    python3 examples/vector_add.py          # on the GPU, with torch: prints True
    python3 examples/vector_add.py --cpu    # the CPU twin, with NumPy

run() adds torch CUDA tensors of f32, bf16, f16, f64, i32 and i64: each call
reads T from the tensors, compiles that specialization at its first use
and keeps it, and each result is torch.allclose to torch's x + y (equal,
in fact: the floats add once and round once, integers wrap as torch's do);
strided views and a broadcast over a leading dimension work the same way,
and x and y of different types are refused, naming both.

run_cpu() does the same with NumPy arrays on the CPU (bf16 aside: NumPy has
none).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.path.join(ROOT, "kernels", "vector_add.ew")

try:
    import ewc
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc


def mixed_types_refused(mod, x, y):
    try:
        mod.vector_add(x, y)
    except TypeError as error:
        return "'x'" in str(error) and "'y'" in str(error)
    return False


def run(n=1 << 20):
    import torch

    mod = ewc.compile(KERNEL, device="cuda")
    ok = True
    for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64,
                  torch.int32, torch.int64):
        if dtype.is_floating_point:
            x = torch.randn(n, device="cuda").to(dtype)
            y = torch.randn(n, device="cuda").to(dtype)
        else:
            info = torch.iinfo(dtype)
            x = torch.randint(info.min, info.max, (n,), device="cuda",
                              dtype=dtype)
            y = torch.randint(info.min, info.max, (n,), device="cuda",
                              dtype=dtype)
        out = mod.vector_add(x, y)
        ok &= out.dtype == dtype and torch.allclose(out, x + y)
        ok &= torch.equal(out, x + y)
        # A strided view, and y broadcast over x's rows.
        wide = x.view(-1, 1024)
        ok &= torch.equal(mod.vector_add(wide[:, ::2], wide[:, 1::2]),
                          wide[:, ::2] + wide[:, 1::2])
    x = torch.randn(n, device="cuda")
    ok &= mixed_types_refused(mod, x, x.to(torch.float16))
    return bool(ok)


def run_cpu(n=1 << 16):
    import numpy as np

    mod = ewc.compile(KERNEL, device="cpu")
    rng = np.random.default_rng(0)
    ok = True
    for dtype in (np.float32, np.float16, np.float64, np.int32, np.int64):
        if np.issubdtype(dtype, np.floating):
            x = rng.standard_normal(n).astype(dtype)
            y = rng.standard_normal(n).astype(dtype)
        else:
            info = np.iinfo(dtype)
            x = rng.integers(info.min, info.max, n, dtype=dtype)
            y = rng.integers(info.min, info.max, n, dtype=dtype)
        with np.errstate(over="ignore"):
            want = x + y
        out = mod.vector_add(x, y)
        ok &= out.dtype == dtype and np.array_equal(out, want)
        wide = x.reshape(-1, 256)
        with np.errstate(over="ignore"):
            ok &= np.array_equal(mod.vector_add(wide[:, ::2], wide[:, 1::2]),
                                 wide[:, ::2] + wide[:, 1::2])
    x = rng.standard_normal(n).astype(np.float32)
    ok &= mixed_types_refused(mod, x, x.astype(np.float64))
    # One compilation per type used, kept for later calls.
    ok &= len(mod._specializations) == 5
    return bool(ok)


if __name__ == "__main__":
    print(run_cpu() if "--cpu" in sys.argv[1:] else run())
