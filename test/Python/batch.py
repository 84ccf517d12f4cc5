# Kernels over any leading dimensions from Python: scale(x: f32[..., n],
# s: f32[n], k: f32) on x of rank 1 (no batch), 2, 3 and 4, on a batch of
# permuted and sliced views, and two tensors sharing the batch exactly
# (mix(a: f32[..., n], b: f32[..., n])); every result is checked against
# NumPy and has x's shape. Batches that differ are a ValueError.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc

mod = ewc.compile(source="""
kernel scale(x: f32[..., n], s: f32[n], k: f32) -> f32[..., n] {
  return x * s + k;
}
kernel mix(a: f32[..., n], b: f32[..., n], w: f32[n]) -> f32[..., n] {
  return a * w + b;
}
""", device="cpu")

# CHECK: scale dims ('...', 'n'), x ('...', 'n'), result ('...', 'n')
print("scale dims %s, x %s, result %s" % (
    mod.scale.dims, mod.scale.params[0].dims, mod.scale.results[0].dims))

rng = np.random.default_rng(1)
s = rng.standard_normal(5).astype(np.float32)
k = 0.25


def check(what, x):
    y = mod.scale(x, s, k)
    print("%s: %s exact %s" % (what, y.shape,
                               np.array_equal(y, x * s + np.float32(k))))


big = rng.standard_normal((3, 4, 6, 5)).astype(np.float32)
# CHECK-NEXT: rank 1: (5,) exact True
check("rank 1", big[0, 0, 0])
# CHECK-NEXT: rank 2: (6, 5) exact True
check("rank 2", big[0, 0])
# CHECK-NEXT: rank 3: (4, 6, 5) exact True
check("rank 3", big[0])
# CHECK-NEXT: rank 4: (3, 4, 6, 5) exact True
check("rank 4", big)
# The batch dimensions permuted, n stays innermost.
# CHECK-NEXT: permuted batch: (6, 3, 4, 5) exact True
check("permuted batch", big.transpose(2, 0, 1, 3))
# CHECK-NEXT: sliced batch: (2, 2, 3, 5) exact True
check("sliced batch", big[1:, ::2, ::2])
# n strided too (every other of 10).
wide = rng.standard_normal((2, 3, 10)).astype(np.float32)
# CHECK-NEXT: strided n: (2, 3, 5) exact True
check("strided n", wide[:, :, ::2])
# An empty batch: nothing to compute, the right shape.
# CHECK-NEXT: empty batch: (0, 5) exact True
check("empty batch", np.empty((0, 5), np.float32))

b = rng.standard_normal((3, 4, 6, 5)).astype(np.float32)
w = rng.standard_normal(5).astype(np.float32)
# b's values in another layout: the batch is shared by shape, not strides.
b_view = b.transpose(1, 0, 2, 3).copy().transpose(1, 0, 2, 3)
# CHECK-NEXT: shared batch: (3, 4, 6, 5) False exact True
y = mod.mix(big, b_view, w)
print("shared batch:", y.shape, b_view.flags.c_contiguous, "exact",
      np.array_equal(y, big * w + b))
try:
    mod.mix(big, big[:, :3], w)
except ValueError as e:
    # CHECK-NEXT: ValueError: mix(): 'b' has the leading dimensions (...) [3, 3, 6] but 'a' has [3, 4, 6]; every tensor with '...' has the same ones
    print("ValueError:", e)
try:
    mod.scale(big, s[:4], k)
except ValueError as e:
    # CHECK-NEXT: ValueError: scale(): 's' has n = 4 but 'x' has n = 5
    print("ValueError:", e)
