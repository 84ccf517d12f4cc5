"""Seeded dropout, the seed family's test for issue 17: ewc's kernels/dropout.ew
against Triton's tutorial kernel ("Low-Memory Dropout") with the same seed.

    python3 examples/seeded_dropout.py          # on the GPU, with Triton: prints True
    python3 examples/seeded_dropout.py --cpu    # the CPU twin, with NumPy

run() draws x on the GPU with torch, applies ewc's dropout and Triton's
tutorial kernel with the same p and seed, and checks that the two keep the
same elements (the masks are equal bit for bit: both are tl.rand(seed,
offset) > p), that the kept values agree (ewc scales by 1 / (1 - p) as torch
does, the tutorial divides with div.full.f32: within 2 ulps), that another
seed gives another mask, and that the same seed gives the same mask again.

run_cpu() checks the CPU path against a Philox written here in NumPy from
Triton 3.6's triton/language/random.py: the same mask and values on the CPU,
for a flat array and a [256, n / 256] one alike.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.path.join(ROOT, "kernels", "dropout.ew")

try:
    import ewc
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc


def run(n=1 << 20, p=0.3, seed=1234):
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed,
                        BLOCK_SIZE: tl.constexpr):
        pid = tl.program_id(axis=0)
        block_start = pid * BLOCK_SIZE
        offsets = block_start + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        random = tl.rand(seed, offsets)
        x_keep = random > p
        output = tl.where(x_keep, x / (1 - p), 0.0)
        tl.store(output_ptr + offsets, output, mask=mask)

    def seeded_dropout(x, p, seed):
        output = torch.empty_like(x)
        grid = (triton.cdiv(x.numel(), 1024),)
        _seeded_dropout[grid](x, output, x.numel(), p, seed, BLOCK_SIZE=1024)
        return output

    mod = ewc.compile(KERNEL, device="cuda")
    # No zeros in x, so a zero in a result is a dropped element.
    x = torch.rand(n, device="cuda") + 0.5
    ours = mod.dropout(x, p, seed)
    theirs = seeded_dropout(x, p, seed)
    same_mask = bool(((ours == 0) == (theirs == 0)).all())
    close = torch.allclose(ours, theirs, rtol=3e-7, atol=0)
    again = bool((mod.dropout(x, p, seed) == ours).all())
    other = bool(((mod.dropout(x, p, seed + 1) == 0) != (ours == 0)).any())
    # Any shape: the mask follows the flat position (index_flat()).
    grid = mod.dropout(x.view(256, -1), p, seed).view(-1)
    return same_mask and close and again and other and bool(
        (grid == ours).all())


def philox_uniform(seed, offsets):
    """Triton 3.6's tl.rand(seed, offsets) for int64 offsets, in NumPy."""
    import numpy as np

    offsets = offsets.astype(np.uint64)
    c0 = (offsets & 0xFFFFFFFF).astype(np.uint64)
    c1 = (offsets >> np.uint64(32)).astype(np.uint64)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    seed = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
    k0 = np.uint64(int(seed) & 0xFFFFFFFF)
    k1 = np.uint64(int(seed) >> 32)
    mask = np.uint64(0xFFFFFFFF)
    for _ in range(10):
        a = c0 * np.uint64(0xD2511F53)
        b = c2 * np.uint64(0xCD9E8D57)
        c0, c1, c2, c3 = (((b >> np.uint64(32)) ^ c1 ^ k0) & mask, b & mask,
                          ((a >> np.uint64(32)) ^ c3 ^ k1) & mask, a & mask)
        k0 = (k0 + np.uint64(0x9E3779B9)) & mask
        k1 = (k1 + np.uint64(0xBB67AE85)) & mask
    x = c0.astype(np.uint32).view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def run_cpu(n=1 << 16, p=0.3, seed=1234):
    import numpy as np

    mod = ewc.compile(KERNEL, device="cpu")
    x = np.random.default_rng(0).random(n, dtype=np.float32) + 0.5
    ours = mod.dropout(x, p, seed)
    keep = philox_uniform(seed, np.arange(n)) > np.float32(p)
    scale = np.float32(1.0) / (np.float32(1.0) - np.float32(p))
    want = np.where(keep, x * scale, np.float32(0))
    # Any shape: the mask follows the flat position (index_flat()).
    grid = mod.dropout(x.reshape(256, -1), p, seed).reshape(-1)
    return bool(np.array_equal(ours, want)) and bool(np.array_equal(grid, ours))


if __name__ == "__main__":
    print(run_cpu() if "--cpu" in sys.argv[1:] else run())
