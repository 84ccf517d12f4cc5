# Outputs given with out= as views: only the view's elements are written,
# the memory around them (every other column, the transposed layout, the
# rows left out) keeps its sentinel; the call returns the view itself. In
# place (out= an input's exact view) works, also on the fast path; several
# results take a tuple of views. What an output may not be: read-only, of
# another shape, overlapping an input it is not, repeating an element.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc
from testutil import show

mod = ewc.compile(source="""
kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n] {
  return x + b;
}
kernel split(x: f32[n]) -> (f32[n], bool[n]) {
  return x * 2.0, x > 0.0;
}
""", device="cpu")

rng = np.random.default_rng(2)
x = rng.standard_normal((4, 6)).astype(np.float32)
b = rng.standard_normal(6).astype(np.float32)
expected = x + b
SENTINEL = np.float32(-999.0)


def written(what, shape, select):
    """Writes the result into the view `select` takes of a buffer of
    `shape`; prints whether it holds the result and everything else the
    sentinel."""
    buffer = np.full(shape, SENTINEL, np.float32)
    view = select(buffer)
    returned = mod.bias_add(x, b, out=view)
    gaps = np.ones(shape, bool)
    select(gaps)[...] = False
    print("%s: returned the view %s, exact %s, gaps untouched %s" % (
        what, returned is view, np.array_equal(view, expected),
        bool(np.all(buffer[gaps] == SENTINEL))))


# CHECK: every other column: returned the view True, exact True, gaps untouched True
written("every other column", (4, 12), lambda buffer: buffer[:, ::2])
# CHECK-NEXT: transposed: returned the view True, exact True, gaps untouched True
written("transposed", (6, 4), lambda buffer: buffer.T)
# CHECK-NEXT: inner block: returned the view True, exact True, gaps untouched True
written("inner block", (6, 9), lambda buffer: buffer[1:5, 2:8])
# CHECK-NEXT: every third row: returned the view True, exact True, gaps untouched True
written("every third row", (12, 7), lambda buffer: buffer[::3, 1:])

# In place: out= is x's own view (a transposed one here).
xt = x.T.copy().T
mod.bias_add(xt, b, out=xt)
# CHECK-NEXT: in place: exact True
print("in place:", "exact", np.array_equal(xt, expected))
# The fast path in place.
v = rng.standard_normal(6).astype(np.float32)
v_expected = v * 2
doubled, positive = mod.split(v, out=(v, np.zeros(6, bool)))
# CHECK-NEXT: fast in place: True exact True
print("fast in place:", doubled is v, "exact", np.array_equal(v, v_expected))

# Two results into strided views of one buffer each.
values = np.full(12, SENTINEL)
flags = np.ones(12, bool)
w = rng.standard_normal(6).astype(np.float32)
mod.split(w, out=(values[::2], flags[1::2]))
# CHECK-NEXT: two views: exact True True, gaps untouched True True
print("two views: exact %s %s, gaps untouched %s %s" % (
    np.array_equal(values[::2], w * 2), np.array_equal(flags[1::2], w > 0),
    np.all(values[1::2] == SENTINEL), np.all(flags[::2])))


readonly = np.zeros((4, 6), np.float32)
readonly.setflags(write=False)
# CHECK-NEXT: read-only: ValueError: bias_add(): out[0] is read-only
show("read-only", lambda: mod.bias_add(x, b, out=readonly))
# CHECK-NEXT: shape: ValueError: bias_add(): out[0] has shape (6, 4), but the result has (4, 6)
show("shape", lambda: mod.bias_add(x, b, out=np.zeros((6, 4), np.float32)))
# CHECK-NEXT: count: TypeError: split() returns 2 result(s), got 1 in out=
show("count", lambda: mod.split(w, out=(np.zeros(6, np.float32),)))
# CHECK-NEXT: dtype: TypeError: split(): out[1]: expected bool elements, got float32
show("dtype", lambda: mod.split(w, out=(np.zeros(6, np.float32),
                                        np.zeros(6, np.float32))))
# Overlapping x without being its view: x shifted by one row.
grid = rng.standard_normal((5, 6)).astype(np.float32)
# CHECK-NEXT: overlap: ValueError: bias_add(): the result overlaps 'x' in memory; an output may be an input itself (the same view, in place) but may not share memory with another tensor otherwise
show("overlap", lambda: mod.bias_add(grid[1:], b, out=grid[:4]))
# CHECK-NEXT: overlap 1-D: ValueError: split(): result 0 overlaps 'x' in memory; {{.*}}
show("overlap 1-D", lambda: mod.split(values[1:7], out=(values[:6],
                                                        flags[:6])))
repeated = np.lib.stride_tricks.as_strided(np.zeros(6, np.float32),
                                           (4, 6), (0, 4))
# CHECK-NEXT: repeated: ValueError: bias_add(): the result has stride 0 along its dimension 'm' (of extent 4): an output cannot repeat an element (an expanded view); write into memory of its own
show("repeated", lambda: mod.bias_add(x, b, out=repeated))
