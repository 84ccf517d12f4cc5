# compile() is tiered by default: a compile that misses the cache returns
# with quick code, right from the first call; wait_optimized() returns once
# the optimized code has replaced it; the results are the same before and
# after, and as with tiered=False; a second compile of the program in this
# process loads the cached optimized code.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc

SOURCE = """
kernel gelu_tanh(x: f32[n]) -> f32[n] {
  return 0.5 * x * (1.0 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
}
"""

x = np.linspace(-6, 6, 1 << 16, dtype=np.float32)
tiered = ewc.compile(source=SOURCE, device="cpu", cache=False)
first = tiered.gelu_tanh(x)
tiered.wait_optimized()
after = tiered.gelu_tanh(x)
plain = ewc.compile(source=SOURCE, device="cpu", cache=False, tiered=False)
print("same before and after:", np.array_equal(first, after))
print("same as untiered:", np.array_equal(after, plain.gelu_tanh(x)))
# CHECK: same before and after: True
# CHECK-NEXT: same as untiered: True
plain.wait_optimized()  # at once: nothing to wait for
print("waited; optimized:", tiered.is_optimized(), plain.is_optimized())
# CHECK-NEXT: waited; optimized: True True

# A generic kernel's specializations are compilations of their own, each
# tiered: the module's wait_optimized() waits for those made so far.
GENERIC = SOURCE.replace("gelu_tanh(x: f32[n]) -> f32[n]",
                         "gelu_tanh<T: float>(x: T[n]) -> T[n]")
generic = ewc.compile(source=GENERIC, device="cpu", cache=False)
y = generic.gelu_tanh(x.astype(np.float64))
spec = generic._specialization({"T": "f64"})
generic.wait_optimized()
print("specialization optimized:", spec.is_optimized(),
      np.array_equal(y, generic.gelu_tanh(x.astype(np.float64))))
# CHECK-NEXT: specialization optimized: True True
