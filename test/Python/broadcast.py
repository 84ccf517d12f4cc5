# Broadcasting by name from Python: bias_add(x: f32[m, n], b: f32[n]) adds b
# to every row of x, on contiguous arrays and on NumPy views as they are
# (x.T, x[:, ::2], x[1:], a strided b, a stride-0 b from broadcast_to), each
# checked against NumPy; the result has the shape the dimensions give. A
# kernel's params, results and dims read back as the source declares them.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc

mod = ewc.compile(source="""
kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n] {
  return x + b;
}
kernel outer(a: f64[m], b: f64[n]) -> f64[m, n] {
  return a * b;
}
""", device="cpu")

bias_add = mod.bias_add
# CHECK: <ewc kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n]>
print(repr(bias_add))
# CHECK-NEXT: dims ('m', 'n')
print("dims", bias_add.dims)
# CHECK-NEXT: params [Param('x', 'f32', is_tensor=True, dims=('m', 'n'), default=None), Param('b', 'f32', is_tensor=True, dims=('n',), default=None)]
print("params", bias_add.params)
# CHECK-NEXT: results [Result('f64', dims=('m', 'n'))]
print("results", mod.outer.results)

rng = np.random.default_rng(0)
base = rng.standard_normal((6, 8)).astype(np.float32)
b8 = rng.standard_normal(8).astype(np.float32)
b6 = rng.standard_normal(6).astype(np.float32)


def check(what, x, b):
    y = bias_add(x, b)
    print("%s: %s %s exact %s" % (what, y.shape, y.flags.c_contiguous,
                                  np.array_equal(y, x + b)))


# CHECK-NEXT: contiguous: (6, 8) True exact True
check("contiguous", base, b8)
# CHECK-NEXT: x.T: (8, 6) True exact True
check("x.T", base.T, b6)
# CHECK-NEXT: x[:, ::2]: (6, 4) True exact True
check("x[:, ::2]", base[:, ::2], b8[:4])
# CHECK-NEXT: x[1:]: (5, 8) True exact True
check("x[1:]", base[1:], b8)
# CHECK-NEXT: x[1::2, 3:].T: (5, 3) True exact True
check("x[1::2, 3:].T", base[1::2, 3:].T, b6[::2])
# CHECK-NEXT: b[::2]: (6, 4) True exact True
check("b[::2]", base[:, :4], b8[::2])
# A read-only view with stride 0 is an input like any other.
# CHECK-NEXT: broadcast_to: (6, 8) True exact True
check("broadcast_to", np.broadcast_to(b8, (6, 8)), b8)

# Dimensions that no single tensor has in full: outer(a[m], b[n]).
a = np.arange(1, 4, dtype=np.float64)
c = np.arange(10, 50, 10, dtype=np.float64)
# CHECK-NEXT: outer: (3, 4) exact True
print("outer:", mod.outer(a, c).shape, "exact",
      np.array_equal(mod.outer(a, c), np.outer(a, c)))
# CHECK-NEXT: outer strided: exact True
print("outer strided:", "exact",
      np.array_equal(mod.outer(c[::3], a[::2]), np.outer(c[::3], a[::2])))

# The shapes a call would allocate.
# CHECK-NEXT: result_shapes: [(8, 6)]
print("result_shapes:", bias_add.result_shapes(base.T, b6))
