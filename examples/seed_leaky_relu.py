"""The seed problem's own test, with ewc in place of Triton.

    python3 examples/seed_leaky_relu.py          # on the GPU: prints True
    python3 examples/seed_leaky_relu.py --cpu    # the CPU twin, with NumPy

run() allocates on the GPU with torch, launches kernels/leaky_relu.ew on
torch's current stream, and compares with torch.nn.functional.leaky_relu.
ewc is found as installed, else in this repository's python/ (libewc.so from
build/lib, or $EWC_LIBRARY).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.path.join(ROOT, "kernels", "leaky_relu.ew")

try:
    import ewc
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc


def run(n=1024, slope=0.01):
    import torch
    import torch.nn.functional as F

    mod = ewc.compile(KERNEL, device="cuda")
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    out = mod.leaky_relu(x, slope=slope)
    # Same stream as torch's own kernels, so no synchronization is needed.
    return torch.allclose(out, F.leaky_relu(x, slope))


def run_cpu(n=1024, slope=0.01):
    """run() on the CPU path, with NumPy and the formula of F.leaky_relu."""
    import numpy as np

    mod = ewc.compile(KERNEL, device="cpu")
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    out = mod.leaky_relu(x, slope=slope)
    return bool(np.allclose(out, np.where(x >= 0, x, np.float32(slope) * x)))


if __name__ == "__main__":
    if "--cpu" in sys.argv[1:]:
        print(run_cpu(n=1024, slope=0.01))
    else:
        print(run(n=1024, slope=0.01))
