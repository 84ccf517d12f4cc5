# compile(autotune=True): a kernel's first call for a size measures the
# launch candidates on scratch outputs, so a call in place (out= the input)
# still computes once: x + 1, not x + 1 for every tuning run; later calls of
# the size reuse the choice; the results are those of the untuned module.
#
# RUN: %ewc_python %s | FileCheck %s

import numpy as np

import ewc

SOURCE = """
kernel inc(x: f32[n]) -> f32[n] {
  return x + 1.0;
}
"""

tuned = ewc.compile(source=SOURCE, device="cpu", cache=False, autotune=True)
plain = ewc.compile(source=SOURCE, device="cpu", cache=False)
n = 1 << 20
x = np.arange(n, dtype=np.float32)
y = x.copy()
tuned.inc(y, out=y)
print("in place once:", np.array_equal(y, x + 1))
# CHECK: in place once: True
tuned.inc(y, out=y)
print("again:", np.array_equal(y, x + 2))
# CHECK-NEXT: again: True
print("same as untuned:", np.array_equal(tuned.inc(x), plain.inc(x)))
# CHECK-NEXT: same as untuned: True
# Another size is another key; a small one as well.
z = np.ones(1000, dtype=np.float32)
tuned.inc(z, out=z)
print("small in place:", np.array_equal(z, np.full(1000, 2, np.float32)))
# CHECK-NEXT: small in place: True
