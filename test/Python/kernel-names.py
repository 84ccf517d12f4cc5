# Kernels named like the package's own names and Python's: ewc.compile,
# Module.kernels and .device, dunder names, a parameter named self, out,
# stream or dims. Every kernel is reached as mod[name] and computes its own body;
# attributes give way to the module's own and to Python's dunder names.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc

source = """
kernel compile(x: f32[n]) -> f32[n] { return x + 1.0; }
kernel kernels(x: f32[n]) -> f32[n] { return x + 2.0; }
kernel __call__(x: f32[n]) -> f32[n] { return x + 3.0; }
kernel device(x: f32[n]) -> f32[n] { return x + 4.0; }
kernel _handle(x: f32[n]) -> f32[n] { return x + 5.0; }
kernel __getattr__(self: f32[n], out: f32, stream: f32, dims: f32) -> f32[n] {
  return self + out + stream + dims;
}
kernel counts(dims: f32[n]) -> f32[n] { return dims * 2.0; }
"""
mod = ewc.compile(source=source, device="cpu")
x = np.arange(3, dtype=np.float32)
# CHECK: compile [1. 2. 3.]
# CHECK-NEXT: kernels [2. 3. 4.]
# CHECK-NEXT: __call__ [3. 4. 5.]
# CHECK-NEXT: device [4. 5. 6.]
# CHECK-NEXT: _handle [5. 6. 7.]
for name in ["compile", "kernels", "__call__", "device", "_handle"]:
    print(name, mod[name](x))
# CHECK-NEXT: __getattr__ [11. 12. 13.]
print("__getattr__", mod["__getattr__"](x, 3.0, 7.0, 1.0))
# A parameter named dims is positional: dims= is the call's own keyword.
# CHECK-NEXT: counts [0. 2. 4.] [0. 2. 4.]
print("counts", mod.counts(x), mod.counts(x, dims={"n": 3}))

# A kernel that no attribute of the module shadows is an attribute too.
# CHECK-NEXT: attribute compile [1. 2. 3.]
print("attribute compile", mod.compile(x))
# CHECK-NEXT: attribute device cpu
print("attribute device", mod.device)
# CHECK-NEXT: attribute kernels dict
print("attribute kernels", type(mod.kernels).__name__)
try:
    mod.__call__
except AttributeError as e:
    # CHECK-NEXT: AttributeError: kernel '__call__' is reached as mod['__call__']: dunder names are Python's
    print("AttributeError:", e)
try:
    mod["nope"]
except KeyError as e:
    # CHECK-NEXT: KeyError: "module has no kernel 'nope' (it has compile, kernels, __call__, device, _handle, __getattr__, counts)"
    print("KeyError:", e)
# CHECK-NEXT: True False
print("compile" in mod, "nope" in mod)
