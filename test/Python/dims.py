# dims= from Python: a dimension that only results have (fill -> f32[n],
# iota-like kernels over [m, n] with one input over n) gets its extent from
# dims=, or from the outputs given with out=; a dims= entry for a dimension
# a tensor has must agree with it. The errors: no extent, an unknown name,
# a disagreement (in the driver's words), a negative, a non-integer and an
# out-of-range extent, dims= that is no dict.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc
from testutil import show

mod = ewc.compile(source="""
kernel fill(value: f32 = 0.5) -> f32[n] {
  return value;
}
kernel rows(b: f64[n], k: f64) -> f64[m, n] {
  return b * k;
}
kernel twice(x: f32[n]) -> f32[n] {
  return x + x;
}
""", device="cpu")

# CHECK: fill: [0.5 0.5 0.5 0.5 0.5] float32
y = mod.fill(dims={"n": 5})
print("fill:", y, y.dtype)
# CHECK-NEXT: fill 0: (0,)
print("fill 0:", mod.fill(dims={"n": 0}).shape)
# CHECK-NEXT: fill value: [-2. -2. -2.]
print("fill value:", mod.fill(-2.0, dims={"n": 3}))
# The extent from out=, on the fast path (1-D contiguous) and the general
# one (a strided view: the gaps keep their zeros).
out = np.zeros(4, np.float32)
# CHECK-NEXT: fill out=: True [7. 7. 7. 7.]
print("fill out=:", mod.fill(7.0, out=out) is out, out)
strided = np.zeros(8, np.float32)
mod.fill(3.0, out=strided[::2])
# CHECK-NEXT: fill strided out=: [3. 0. 3. 0. 3. 0. 3. 0.]
print("fill strided out=:", strided)

b = np.array([1.0, 2.0, 3.0])
# CHECK-NEXT: rows: (2, 3) exact True
r = mod.rows(b, 10.0, dims={"m": 2})
print("rows:", r.shape, "exact", np.array_equal(r, np.tile(b * 10.0, (2, 1))))
# CHECK-NEXT: rows shapes: [(4, 3)]
print("rows shapes:", mod.rows.result_shapes(b, dims={"m": 4}))
# m from out=, as a transposed view.
target = np.zeros((3, 2))
mod.rows(b, 2.0, out=target.T)
# CHECK-NEXT: rows out=: exact True
print("rows out=:", "exact", np.array_equal(target.T, np.tile(b * 2.0, (2, 1))))
# dims= for a dimension x has: it must agree; on the general path.
x = np.arange(3, dtype=np.float32)
# CHECK-NEXT: agreeing: [0. 2. 4.]
print("agreeing:", mod.twice(x, dims={"n": 3}))


# CHECK-NEXT: no extent: ValueError: fill(): dimension 'n' of kernel 'fill' has no extent: no tensor argument has it, so give it (ewc-run --dim n=SIZE; in Python dims={'n': SIZE})
show("no extent", lambda: mod.fill())
# CHECK-NEXT: no m: ValueError: rows(): dimension 'm' of kernel 'rows' has no extent: {{.*}} dims={'m': SIZE})
show("no m", lambda: mod.rows(b, 1.0))
# CHECK-NEXT: unknown: ValueError: fill(): kernel 'fill' has no dimension 'm' (its dimensions are n)
show("unknown", lambda: mod.fill(dims={"n": 2, "m": 3}))
# CHECK-NEXT: disagreeing: ValueError: twice(): n = 4 was given, but 'x' has n = 3
show("disagreeing", lambda: mod.twice(x, dims={"n": 4}))
# CHECK-NEXT: negative: ValueError: fill(): dimension 'n' cannot have the extent -1
show("negative", lambda: mod.fill(dims={"n": -1}))
# CHECK-NEXT: float extent: TypeError: fill(): dims['n'] is an integer extent, got 2.5
show("float extent", lambda: mod.fill(dims={"n": 2.5}))
# CHECK-NEXT: huge extent: OverflowError: fill(): dims['n'] = 9223372036854775808 is out of the range of i64
show("huge extent", lambda: mod.fill(dims={"n": 2 ** 63}))
# CHECK-NEXT: not a dict: TypeError: fill(): dims= takes a dict of extents by dimension name, got list
show("not a dict", lambda: mod.fill(dims=[("n", 2)]))
