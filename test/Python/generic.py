# Generic kernels from Python: a module lists a kernel with type parameters
# as a GenericKernel (its signature with T, its constraints); a call reads T
# from the tensors typed T, compiles that specialization at its first use
# and keeps it; specialize() names the types; compile(types=) binds ahead of
# time; every misuse is a TypeError or a CompileError naming what is wrong.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc
from testutil import show

SOURCE = """
# x scaled by s, for every float type.
kernel scale<T: float>(x: T[n], s: f32 = 2) -> T[n] {
  return x * s;
}
kernel pick<T: any, U: int>(a: T[n], k: U[n], b: T) -> (T[n], U[n]) {
  return where(k > U(0), a, b), k + U(1);
}
kernel fill<T: float>(v: T) -> T[n] {
  return v;
}
kernel plain(x: f32[n]) -> f32[n] {
  return -x;
}
kernel add2<T: any>(x: T[n], y: T[n]) -> T[n] {
  return x + y;
}
"""

mod = ewc.compile(source=SOURCE, device="cpu", cache=False)
print(sorted(mod.kernels))
# CHECK: ['add2', 'fill', 'pick', 'plain', 'scale']
print(mod.scale)
print(mod.scale.type_params, mod.pick.type_params)
print(repr(mod.scale.doc))
# CHECK-NEXT: <ewc generic kernel scale<T: float>(x: T[n], s: f32 = 2) -> T[n]>
# CHECK-NEXT: {'T': 'float'} {'T': 'any', 'U': 'int'}
# CHECK-NEXT: 'x scaled by s, for every float type.'
print(isinstance(mod.scale, ewc.GenericKernel), isinstance(mod.plain, ewc.Kernel))
# CHECK-NEXT: True True

x32 = np.arange(-2, 3, dtype=np.float32)
x16 = x32.astype(np.float16)
print(mod.scale(x32), mod.scale(x32).dtype, mod.scale(x16).dtype)
# CHECK-NEXT: [-4. -2.  0.  2.  4.] float32 float16
print(mod.scale(x=x16, s=0.5))
# CHECK-NEXT: [-1.  -0.5  0.   0.5  1. ]
# Two parameters, bound from two tensors; the scalar b takes T.
a = np.array([1.5, 2.5, 3.5])
k = np.array([1, 0, -1], dtype=np.int64)
values, counts = mod.pick(a, k, 9.0)
print(values, values.dtype, counts, counts.dtype)
# CHECK-NEXT: [1.5 9.  9. ] float64 [2 1 0] int64
# Each binding compiled once, kept by the module.
mod.scale(x32)
print(sorted(mod._specializations))
# CHECK-NEXT: [(('T', 'f16'),), (('T', 'f32'),), (('T', 'f64'), ('U', 'i64'))]

# specialize() gives the compiled kernel of a binding.
k16 = mod.scale.specialize(T="f16")
print(k16.signature, isinstance(k16, ewc.Kernel))
# CHECK-NEXT: scale(x: f16[n], s: f32 = 2) -> f16[n] True
print(mod.fill.specialize(T="f64")(1.25, dims={"n": 3}))
# CHECK-NEXT: [1.25 1.25 1.25]

# A call whose typed tensors are all positional finds its kernel by their
# classes and dtypes (GenericKernel._by_classes): each binding apart, and a
# mismatch still reaches the checks below.
print(mod.add2(x32, x32).dtype, mod.add2(x16, x16).dtype,
      mod.add2(x32, x32).dtype, len(mod.add2._by_classes))
# CHECK-NEXT: float32 float16 float32 2

# Mistakes, each naming what is wrong.
show("int tensor", lambda: mod.scale(np.arange(3, dtype=np.int32)))
# CHECK-NEXT: int tensor: TypeError: scale(): 'x' has i32 elements, but T: float admits f16, bf16, f32, f64
show("two types", lambda: mod.add2(x32, x32.astype(np.float64)))
# CHECK-NEXT: two types: TypeError: add2(): T is f32 from 'x' but f64 from 'y'
print(mod.add2(y=x16, x=x16).dtype)
# CHECK-NEXT: float16
show("no ewc type", lambda: mod.scale(np.ones(3, np.complex64)))
# CHECK-NEXT: no ewc type: TypeError: scale(): 'x' has complex64 elements, which no type of T: float is
show("no tensor", lambda: mod.fill(1.0, dims={"n": 3}))
# CHECK-NEXT: no tensor: TypeError: fill(): no tensor argument gives the type of T; call fill.specialize(T=...) to choose it
show("unknown parameter", lambda: mod.scale.specialize(U="f32"))
# CHECK-NEXT: unknown parameter: TypeError: scale(): no type parameter 'U' (it has T)
show("not admitted", lambda: mod.scale.specialize(T="i64"))
# CHECK-NEXT: not admitted: TypeError: scale(): T = i64 is not admitted: 'T: float' admits f16, bf16, f32, f64
show("missing", lambda: mod.pick.specialize(T="f32"))
# CHECK-NEXT: missing: TypeError: pick(): give every type parameter, missing U
show("not a tensor", lambda: mod.scale([1.0, 2.0]))
# CHECK-NEXT: not a tensor: TypeError: scale(): 'x': expected a NumPy array (CPU) or a CUDA array (torch, CuPy), got list

# Bound ahead of time: the module holds the specialization as a Kernel.
bound = ewc.compile(source=SOURCE, device="cpu", cache=False,
                    types={"T": "bf16"})
print(sorted(bound.kernels), bound.scale.signature)
# CHECK-NEXT: ['add2', 'fill', 'pick', 'plain', 'scale'] scale(x: bf16[n], s: f32 = 2) -> bf16[n]
show("types of no kernel", lambda: ewc.compile(
    source=SOURCE, device="cpu", types={"V": "f32"}))
# CHECK-NEXT: types of no kernel: CompileError: no kernel has a type parameter 'V' (the types bind V=f32)
show("types not admitted", lambda: ewc.compile(
    source=SOURCE, device="cpu", types={"U": "f32"}))
# CHECK-NEXT: types not admitted: CompileError: <source>:6:21: error: kernel 'pick' cannot take U = f32: 'U: int' admits i32, i64
show("types misspelt", lambda: ewc.compile(
    source=SOURCE, device="cpu", types={"T": "float32"}))
# CHECK: types misspelt: CompileError: invalid types 'T=float32': unknown type 'float32' for T
show("types not a dict", lambda: ewc.compile(
    source=SOURCE, device="cpu", types="T=f32"))
# CHECK-NEXT: types not a dict: TypeError: ewc.compile(): types must be a dict of type parameter names to type names, such as {'T': 'bf16'}, got 'T=f32'
