# What Python's own tools see of a kernel: inspect.signature (names, .ew
# types as annotations, defaults of the parameter's Python type, keyword-only
# out/stream/dims), help()'s docstring (the signature, then the comment above
# the kernel in the source), compile warnings as ewc.CompileWarning, the
# version, and a program passed where a path goes.
#
# RUN: %ewc_python %s %kernels | FileCheck %s

import inspect
import os
import sys
import warnings

import ewc
from testutil import show

kernels = sys.argv[1]

print(ewc.__version__, ewc.__revision__)
# CHECK: {{^[0-9]+\.[0-9]+\.[0-9]+ ([0-9a-f]{12}\+?|unknown)$}}

source = """
# Not a doc: a blank line follows.

# Swish, x * sigmoid(beta * x).
#   beta = 1 is SiLU.
kernel swish(x: f32[n], beta: f32 = 1.0, k: i32 = 3, big: u64 = 9223372036854775807, on: bool = true) -> f32[n] {
  let unused = x * 2.0;
  return x / (1.0 + exp(-beta * x));
}
kernel pair(x: f32[m, n], y: f32[n]) -> (f32[m, n], f32[n]) { return x, y; }   # trailing
"""
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    mod = ewc.compile(source=source, device="cpu", name="swish.ew")
for w in caught:
    # Attributed to the caller of ewc.compile (stacklevel).
    print(w.category.__name__, os.path.basename(w.filename))
    print(w.message)
# CHECK: CompileWarning introspection.py
# CHECK-NEXT: swish.ew:7:7: warning: unused let 'unused'
# CHECK-NEXT:   let unused = x * 2.0;
# CHECK-NEXT:       ^~~~~~

print(inspect.signature(mod.swish))
# CHECK-NEXT: (x: 'f32[n]', beta: 'f32' = 1.0, k: 'i32' = 3, big: 'u64' = 9223372036854775807, on: 'bool' = True, *, out=None, stream=None, dims=None) -> 'f32[n]'
# An f32 default shows as written, not as the double it widens to
# (0.009999999776482582); f16 and bf16 alike.
narrow = ewc.compile(source="kernel d(x: f32[n], a: f32 = 0.01, h: f16 = 0.1, "
                     "b: bf16 = 0.3, w: f64 = 0.1) -> f32[n] { return x; }",
                     device="cpu")
print(inspect.signature(narrow.d))
# CHECK-NEXT: (x: 'f32[n]', a: 'f32' = 0.01, h: 'f16' = 0.1, b: 'bf16' = 0.3, w: 'f64' = 0.1, *, out=None, stream=None, dims=None) -> 'f32[n]'
print(inspect.signature(mod.pair))
# CHECK-NEXT: (x: 'f32[m, n]', y: 'f32[n]', *, out=None, stream=None, dims=None) -> 'tuple[f32[m, n], f32[n]]'
print(inspect.signature(type(mod.swish).__call__).parameters["self"].kind)
# CHECK-NEXT: POSITIONAL_ONLY
print([type(p.default).__name__ for p in mod.swish.params])
# CHECK-NEXT: ['NoneType', 'float', 'int', 'int', 'bool']

print(mod.swish.__doc__)
# CHECK-NEXT: swish(x: f32[n], beta: f32 = 1, k: i32 = 3, big: u64 = 9223372036854775807, on: bool = true) -> f32[n]
# CHECK-EMPTY:
# CHECK-NEXT: Swish, x * sigmoid(beta * x).
# CHECK-NEXT:   beta = 1 is SiLU.
# CHECK-EMPTY:
# CHECK-NEXT: Call it with
print(repr(mod.pair.doc))
# CHECK: ''

# A file's kernel: the comment block above it in kernels/leaky_relu.ew.
leaky = ewc.compile(os.path.join(kernels, "leaky_relu.ew"), device="cpu",
                    types={"T": "f32"})
print(leaky.leaky_relu.doc.splitlines()[0] != "")
# CHECK-NEXT: True

# -W error turns a compile warning into an exception.
with warnings.catch_warnings():
    warnings.simplefilter("error", ewc.CompileWarning)
    try:
        ewc.compile(source=source, device="cpu")
        print("no exception")
    except ewc.CompileWarning as e:
        print("raised:", str(e).splitlines()[0])
# CHECK-NEXT: raised: <source>:7:7: warning: unused let 'unused'


show("program as path", lambda: ewc.compile(
    "kernel f(x: f32[n]) -> f32[n] { return x; }", device="cpu"))
# CHECK-NEXT: program as path: ValueError: ewc.compile(): the first argument is a path, and 'kernel f(x: f32[n]) -> f32[n] { retur...' is no file but looks like a program; pass program text as ewc.compile(source=...)
show("multi-line program as path", lambda: ewc.compile(source.strip()))
# CHECK-NEXT: multi-line program as path: ValueError: ewc.compile(): the first argument is a path, and '# Not a doc: a blank line follows. # ...' is no file
show("missing file", lambda: ewc.compile("no_such.ew", device="cpu"))
# CHECK-NEXT: missing file: CompileError: cannot read 'no_such.ew'
show("path of a wrong type", lambda: ewc.compile(3))
# CHECK-NEXT: path of a wrong type: TypeError: ewc.compile(): path must be a str or os.PathLike naming a .ew file, got int
