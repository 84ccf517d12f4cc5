# Each wrong call of a kernel over named dimensions raises before anything
# runs, naming the argument: dimensions that disagree and a wrong rank
# (ValueError in the driver's words), negative strides (ValueError: ewc takes
# strides of 0 and up), strides that are no whole elements, an output that
# overlaps an input it is not (ValueError in the driver's words), and
# integers out of range of the parameter's type (OverflowError; ctypes would
# wrap them). The output's sentinel shows that nothing ran.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc
from testutil import show

mod = ewc.compile(source="""
kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n] {
  return x + b;
}
kernel shift(x: i32[n], k: i32, big: i64 = 0, flag: bool = false) -> i32[n] {
  return where(flag, x, x + k + i32(big));
}
kernel scale(x: f64[n], s: f64) -> f64[n] {
  return x * s;
}
""", device="cpu")

x = np.arange(12, dtype=np.float32).reshape(3, 4)
b = np.ones(4, np.float32)
out = np.full((3, 4), -1.0, np.float32)


# Dimensions.
# CHECK: mismatch: ValueError: bias_add(): 'b' has n = 3 but 'x' has n = 4
show("mismatch", lambda: mod.bias_add(x, b[:3]))
# CHECK-NEXT: mismatch x.T: ValueError: bias_add(): 'b' has n = 4 but 'x' has n = 3
show("mismatch x.T", lambda: mod.bias_add(x.T, b))
# CHECK-NEXT: mismatch out=: ValueError: bias_add(): 'b' has n = 3 but 'x' has n = 4
show("mismatch out=", lambda: mod.bias_add(x, b[:3], out=out))
# CHECK-NEXT: rank: ValueError: bias_add(): 'b' has 2 dimensions, but its type f32[n] has 1; a kernel over any leading dimensions declares it as 'f32[..., n]'
show("rank", lambda: mod.bias_add(x, x))
# CHECK-NEXT: rank 0: ValueError: bias_add(): 'x' has 0 dimensions, but its type f32[m, n] has 2
show("rank 0", lambda: mod.bias_add(np.ones((), np.float32), b))
# CHECK-NEXT: rank of out: ValueError: bias_add(): out[0] has shape (12,), but the result has (3, 4)
show("rank of out", lambda: mod.bias_add(x, b, out=out.reshape(12)))

# Strides.
# CHECK-NEXT: negative: ValueError: bias_add(): 'x' has a negative stride (strides (-4, 1) in elements); ewc takes strides of 0 and up: pass a copy
show("negative", lambda: mod.bias_add(x[::-1], b))
# CHECK-NEXT: negative 1-D: ValueError: bias_add(): 'b' has a negative stride (strides (-1,) in elements); ewc takes strides of 0 and up: pass a copy
show("negative 1-D", lambda: mod.bias_add(x, b[::-1]))
# CHECK-NEXT: negative out: ValueError: bias_add(): out[0] has a negative stride (strides (4, -1) in elements); ewc takes strides of 0 and up: pass a copy
show("negative out", lambda: mod.bias_add(x, b, out=out[:, ::-1]))
# CHECK-NEXT: negative fast: ValueError: scale(): 'x' has a negative stride (strides (-1,) in elements); ewc takes strides of 0 and up: pass a copy
show("negative fast", lambda: mod.scale(np.arange(3.0)[::-1], 2.0))
records = np.zeros((3, 4), dtype=[("v", np.float32), ("tag", np.int8)])
# CHECK-NEXT: byte strides: ValueError: bias_add(): 'x' has strides (20, 5) in bytes, not multiples of its element size 4
show("byte strides", lambda: mod.bias_add(records["v"], b))

# Memory.
grid = np.zeros((4, 4), np.float32)
# CHECK-NEXT: overlap: ValueError: bias_add(): the result overlaps 'x' in memory; {{.*}}
show("overlap", lambda: mod.bias_add(grid[:3], b, out=grid[1:]))
# CHECK-NEXT: overlap b: ValueError: bias_add(): the result overlaps 'b' in memory; {{.*}}
show("overlap b", lambda: mod.bias_add(x, grid[0], out=grid[:3]))

# Integers out of range.
v = np.arange(3, dtype=np.int32)
# CHECK-NEXT: i32 high: OverflowError: shift(): 'k' is i32; 2147483648 is out of its range [-2147483648, 2147483647]
show("i32 high", lambda: mod.shift(v, 2 ** 31))
# CHECK-NEXT: i32 low: OverflowError: shift(): 'k' is i32; -2147483649 is out of its range [-2147483648, 2147483647]
show("i32 low", lambda: mod.shift(v, -2 ** 31 - 1))
# CHECK-NEXT: i32 numpy: OverflowError: shift(): 'k' is i32; 4294967296 is out of its range [-2147483648, 2147483647]
show("i32 numpy", lambda: mod.shift(v, np.int64(2 ** 32)))
# CHECK-NEXT: i64: OverflowError: shift(): 'big' is i64; 9223372036854775808 is out of its range [-9223372036854775808, 9223372036854775807]
show("i64", lambda: mod.shift(v, 1, big=2 ** 63))
# CHECK-NEXT: bool: OverflowError: shift(): 'flag' is bool; 2 is out of its range [0, 1]
show("bool", lambda: mod.shift(v, 1, flag=2))
# The edges of each range are values.
# CHECK-NEXT: edges: [-2147483648 -2147483647 -2147483646] [ 2147483647 -2147483648 -2147483647] [0 1 2]
print("edges:", mod.shift(v, -2 ** 31), mod.shift(v, 2 ** 31 - 1),
      mod.shift(v, 1, big=-1, flag=1))
# A float parameter given an int too large for a double.
# CHECK-NEXT: float: OverflowError: scale(): 's' is f64; int is out of the range of a double
show("float", lambda: mod.scale(np.arange(3.0), 10 ** 400))

# CHECK-NEXT: nothing ran: True
print("nothing ran:", bool(np.all(out == -1.0)) and bool(np.all(grid == 0)))

# A device that is no device's spelling raises before anything compiles
# (issue 20: "cuda:N" names a GPU by its ordinal).
# CHECK-NEXT: device cuda:x: ValueError: device must be one of auto, cuda, cpu or 'cuda:N' with N a device's ordinal, got 'cuda:x'
show("device cuda:x", lambda: ewc.compile(source="", device="cuda:x"))
# CHECK-NEXT: device cuda:-1: ValueError: device must be one of auto, cuda, cpu or 'cuda:N' with N a device's ordinal, got 'cuda:-1'
show("device cuda:-1", lambda: ewc.compile(source="", device="cuda:-1"))
# CHECK-NEXT: device gpu: ValueError: device must be one of auto, cuda, cpu or 'cuda:N', got 'gpu'
show("device gpu", lambda: ewc.compile(source="", device="gpu"))
