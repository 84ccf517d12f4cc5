# python/ewc on the CPU with NumPy: compile from a file and from a string,
# call kernels with keyword scalars, defaults, out= and several results, and
# get a clear exception for each kind of wrong call and for a compile error.
# 1-D contiguous calls of a kernel over one dimension take the packed launch
# (the fast path), everything else the general one; both give the same
# values. Shapes, views and their errors: broadcast.py, batch.py,
# out-views.py, dims.py, errors.py.
#
# RUN: %ewc_python %s %kernels | FileCheck %s

import os
import sys

import numpy as np

import ewc
from testutil import show

kernels = sys.argv[1]


mod = ewc.compile(os.path.join(kernels, "leaky_relu.ew"), device="cpu",
                    types={"T": "f32"})
# CHECK: <ewc module on cpu: leaky_relu>
print(mod)
# CHECK-NEXT: leaky_relu(x: f32[...], slope: f32 = 0.01) -> f32[...]
print(mod.leaky_relu.signature)

x = np.linspace(-4, 4, 1001, dtype=np.float32)
y = mod.leaky_relu(x, slope=0.2)
# CHECK-NEXT: slope=0.2: float32 (1001,) exact True
print("slope=0.2:", y.dtype, y.shape, "exact",
      np.array_equal(y, np.where(x >= 0, x, np.float32(0.2) * x)))
y = mod.leaky_relu(x)
# CHECK-NEXT: default: exact True
print("default:", "exact",
      np.array_equal(y, np.where(x >= 0, x, np.float32(0.01) * x)))
out = np.full(1001, np.nan, dtype=np.float32)
returned = mod.leaky_relu(x, 0.5, out=out)
# CHECK-NEXT: out=: same object True exact True
print("out=: same object", returned is out, "exact",
      np.array_equal(out, np.where(x >= 0, x, np.float32(0.5) * x)))
# A strided 1-D view takes the general launch, with the same values.
# CHECK-NEXT: strided: (501,) exact True
y_strided = mod.leaky_relu(x[::2], slope=0.25)
print("strided:", y_strided.shape, "exact", np.array_equal(
    y_strided, np.where(x[::2] >= 0, x[::2], np.float32(0.25) * x[::2])))

# Which launch a call takes: the general path is Kernel._general.
general_calls = []
kernel = mod.leaky_relu
general = kernel._general
kernel._general = lambda *a: general_calls.append(1) or general(*a)
kernel(x)
kernel(x, 0.5, out=out)
# CHECK-NEXT: fast path: 0 general call(s)
print("fast path: %d general call(s)" % len(general_calls))
kernel(x[::2])
kernel(x, out=np.empty(2002, np.float32)[::2])
# CHECK-NEXT: strided: 2 general call(s)
print("strided: %d general call(s)" % len(general_calls))
del kernel._general

two = ewc.compile(source="""
kernel split(x: f64[n], k: i32, flag: bool = true) -> (f64[n], bool[n]) {
  return x * f64(k), (x > 0.0) == flag;
}
""", device="cpu")
d = np.array([-1.5, 0.0, 2.0])
scaled, positive = two.split(d, k=3)
# CHECK-NEXT: two results: [-4.5  0.   6. ] [False False  True]
print("two results:", scaled, positive)

# The checked path behind the fast one: a read-only input is fine, a
# read-only output is not.
ro = x.copy()
ro.setflags(write=False)
# CHECK-NEXT: read-only input: exact True
print("read-only input:", "exact",
      np.array_equal(mod.leaky_relu(ro, slope=0.5),
                     np.where(x >= 0, x, np.float32(0.5) * x)))
# CHECK-NEXT: read-only out: ValueError: leaky_relu(): out[0] is read-only
show("read-only out", lambda: mod.leaky_relu(x, out=ro))

# An i64 default beyond 2^53 reaches the kernel exactly (a double would
# round it to ...992).
big = ewc.compile(source="""
kernel shift(x: i64[n], offset: i64 = 9007199254740993) -> i64[n] {
  return x + offset;
}
""", device="cpu")
# CHECK-NEXT: i64 default: [9007199254740992 9007199254740993 9007199254740994]
print("i64 default:", big.shift(np.array([-1, 0, 1])))

# Calls from several threads at once, each with its own slope: each thread
# fills its own argument slots (ctypes lets go of the GIL in the launch).
import threading
failures = []


def hammer(slope):
    expected = np.where(x >= 0, x, np.float32(slope) * x)
    for _ in range(2000):
        if not np.array_equal(mod.leaky_relu(x, slope=slope), expected):
            failures.append(slope)
            return


threads = [threading.Thread(target=hammer, args=(s,))
           for s in (0.1, 0.2, 0.3, 0.4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
# CHECK-NEXT: threads: 0 failed
print("threads: %d failed" % len(failures))

# Parameter names Python cannot bind itself (a keyword, out=, stream=) take
# the general binding; by position they work, and errors still name them.
odd = ewc.compile(source="""
kernel odd(lambda: f32[n], stream: f32 = 2.0, out: i32 = 3) -> f32[n] {
  return lambda * stream + f32(out);
}
""", device="cpu")
small = np.arange(4, dtype=np.float32)
# CHECK-NEXT: odd names: [3. 5. 7. 9.] [0. 1. 2. 3.]
print("odd names:", odd.odd(small), odd.odd(small, 1.0, 0))
# CHECK-NEXT: odd missing: TypeError: odd() missing argument 'lambda' (f32[n])
show("odd missing", lambda: odd.odd())
# CHECK-NEXT: too many: TypeError: leaky_relu() takes 2 argument(s), got 3
show("too many", lambda: mod.leaky_relu(x, 0.1, 0.2))

# CHECK-NEXT: wrong dtype: TypeError: leaky_relu(): 'x': expected f32 elements, got float64
show("wrong dtype", lambda: mod.leaky_relu(x.astype(np.float64)))
# CHECK-NEXT: wrong length: ValueError: leaky_relu(): out[0] has shape (3,), but the result has (1001,)
show("wrong length",
     lambda: mod.leaky_relu(x, out=np.empty(3, dtype=np.float32)))
# LeakyReLU is over '...': any shape, its result that shape. A kernel over
# one dimension takes 1-D tensors only.
# CHECK-NEXT: 2-D: (10, 100) exact True
y2 = mod.leaky_relu(x[:1000].reshape(10, 100), slope=0.5)
print("2-D:", y2.shape, "exact",
      np.array_equal(y2, np.where(x[:1000] >= 0, x[:1000],
                                  np.float32(0.5) * x[:1000]).reshape(10, 100)))
# CHECK-NEXT: 2-D for [n]: ValueError: odd(): 'lambda' has 2 dimensions, but its type f32[n] has 1; a kernel over any leading dimensions declares it as 'f32[..., n]'
show("2-D for [n]", lambda: odd.odd(small.reshape(2, 2)))
# CHECK-NEXT: missing: TypeError: split() missing argument 'k' (i32)
show("missing", lambda: two.split(d))
# CHECK-NEXT: unknown: TypeError: leaky_relu() has no parameter 'alpha' (it takes x, slope)
show("unknown", lambda: mod.leaky_relu(x, alpha=0.1))
# CHECK-NEXT: float for i32: TypeError: split(): 'k' is i32; got the float 2.5
show("float for i32", lambda: two.split(d, k=2.5))
# CHECK-NEXT: not an array: TypeError: leaky_relu(): 'x': expected a NumPy array (CPU) or a CUDA array (torch, CuPy), got list
show("not an array", lambda: mod.leaky_relu([1.0, 2.0]))
# stream= goes into the fast path's array as an address (the CPU ignores
# it): an int or a ctypes.c_void_p, nothing else.
import ctypes
# CHECK-NEXT: stream: exact True True
print("stream:", "exact",
      np.array_equal(mod.leaky_relu(x, stream=7), mod.leaky_relu(x)),
      np.array_equal(mod.leaky_relu(x, stream=ctypes.c_void_p(7)),
                     mod.leaky_relu(x)))
# CHECK-NEXT: stream str: TypeError: stream= is a CUstream's address (an int), got str
show("stream str", lambda: mod.leaky_relu(x, stream="0x7"))


class FakeCudaArray:
    __cuda_array_interface__ = {"data": (1 << 40, False), "shape": (1001,),
                                "typestr": "<f4", "version": 3}


# CHECK-NEXT: device: ValueError: leaky_relu(): 'x' is on cuda, but this module runs on the CPU (compile with device='cuda')
show("device", lambda: mod.leaky_relu(FakeCudaArray()))
# CHECK-NEXT: no kernel: AttributeError: module has no kernel 'relu' (it has leaky_relu)
show("no kernel", lambda: mod.relu)



class DLPackOnly:
    """Exposes a NumPy array through DLPack alone."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


dl_out = np.zeros(1001, dtype=np.float32)
mod.leaky_relu(DLPackOnly(x), slope=0.5, out=DLPackOnly(dl_out))
# CHECK-NEXT: dlpack: exact True
print("dlpack:", "exact",
      np.array_equal(dl_out, np.where(x >= 0, x, np.float32(0.5) * x)))
# CHECK-NEXT: dlpack dtype: TypeError: leaky_relu(): 'x': expected f32 elements, got DLPack type code 2, 64 bits x 1
show("dlpack dtype", lambda: mod.leaky_relu(DLPackOnly(np.zeros(1001)),
                                             out=dl_out))
# DLPack's strides are in elements.
dl_strided = np.full(1001, np.nan, dtype=np.float32)
mod.leaky_relu(DLPackOnly(x[::2]), slope=0.5,
               out=DLPackOnly(dl_strided[:501]))
# CHECK-NEXT: dlpack strides: exact True
print("dlpack strides:", "exact", np.array_equal(
    dl_strided[:501], np.where(x[::2] >= 0, x[::2], np.float32(0.5) * x[::2])))
# CHECK-NEXT: dlpack out: TypeError: leaky_relu(): cannot allocate an output like a DLPackOnly; pass out=
show("dlpack out", lambda: mod.leaky_relu(DLPackOnly(x)))

# The cache options are accepted (what they do: the cache's own tests).
cached = ewc.compile(os.path.join(kernels, "leaky_relu.ew"), device="cpu",
                     cache_dir="/nonexistent/ewc-cache", cache=False)
# CHECK-NEXT: cache options: exact True
print("cache options:", "exact",
      np.array_equal(cached.leaky_relu(x), mod.leaky_relu(x)))
# CHECK-NEXT: compile error: CompileError: bad.ew:2:13: error: expected an expression
# CHECK-NEXT:   return x +;
# CHECK-NEXT:             ^
show("compile error", lambda: ewc.compile(
    source="kernel k(x: f32[n]) -> f32[n] {\n  return x +;\n}\n",
    name="bad.ew", device="cpu"))
# CHECK-NEXT: missing file: CompileError: cannot read '/nonexistent.ew': No such file or directory
show("missing file", lambda: ewc.compile("/nonexistent.ew", device="cpu"))

# Views that interleave in one storage share no element: kernels/
# rotary_embedding.ew with the halves of x's last dimension as its inputs
# and the halves of one output array as its outputs (once refused as
# overlapping: the byte ranges do), against the formula in f64; an output
# three elements into the other half shares elements and is refused.
rope = ewc.compile(os.path.join(kernels, "rotary_embedding.ew"), device="cpu")
xr = np.random.default_rng(7).standard_normal((3, 5, 8)).astype(np.float32)
outr = np.full_like(xr, np.nan)
rope.rotary_embedding(xr[..., :4], xr[..., 4:], out=(outr[..., :4], outr[..., 4:]))
pos = np.arange(5)[:, None]
theta = pos * 10000.0 ** (-2.0 * np.arange(4)[None, :] / 8)
want1 = xr[..., :4] * np.cos(theta) - xr[..., 4:] * np.sin(theta)
want2 = xr[..., 4:] * np.cos(theta) + xr[..., :4] * np.sin(theta)
# CHECK-NEXT: interleaved outputs: True True
print("interleaved outputs:", np.allclose(outr[..., :4], want1, atol=1e-5),
      np.allclose(outr[..., 4:], want2, atol=1e-5))
# CHECK-NEXT: sharing outputs: ValueError: rotary_embedding(): result 0 overlaps result 1 in memory; an output may be an input itself (the same view, in place) but may not share memory with another tensor otherwise
show("sharing outputs", lambda: rope.rotary_embedding(
    xr[..., :4], xr[..., 4:], out=(outr[..., :4], outr[..., 1:5])))
