# ewc.compile's device= and calls on two GPUs, against a fake driver of two
# devices that runs nothing (test/CAPI/Inputs/fake-cuda.cpp: every load,
# lookup and launch checked in its module's context; device d's memory is
# the addresses from (d + 1) << 40, given here as CUDA array interface
# objects). "cuda:1" compiles and loads on device 1 only; the default then
# follows the current device; a call runs on its tensors' device, loading
# the module there once; tensors on two devices raise ValueError naming
# them; an ordinal the driver does not see fails the compile (issue 20).
#
# RUN: rm -rf %t.dir && mkdir -p %t.dir
# RUN: c++ -std=c++17 -shared -fPIC -Wl,-soname,libcuda.so.1 %S/../CAPI/Inputs/fake-cuda.cpp -o %t.dir/libcuda.so.1
# RUN: env LD_LIBRARY_PATH=%t.dir %ewc_python %s | FileCheck %s

import ctypes
import gc
import sys

import ewc
from testutil import show

# The library ewc loads (one soname, one instance): its counters.
fake = ctypes.CDLL("libcuda.so.1")


def report(when):
    sys.stdout.flush()
    fake.fakeCudaReport(when.encode())


class Memory:
    """n f32 elements of device `device`'s memory, as CuPy hands them."""

    def __init__(self, device, n, offset=0):
        self.__cuda_array_interface__ = {
            "shape": (n,), "typestr": "<f4", "strides": None, "version": 3,
            "data": (((device + 1) << 40) + offset, False)}


SOURCE = """
kernel leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n] {
  return where(x >= 0.0, x, slope * x);
}
"""

# CHECK: start: retained 0 0, loads 0 0, launches 0 0, wrong 0, current -1
report("start")
one = ewc.compile(source=SOURCE, device="cuda:1", tiered=False, cache=False)
# CHECK-NEXT: cuda:1: retained 0 1, loads 0 1, launches 0 0, wrong 0, current 1
report("cuda:1")
# Device 1's context is current now (none was): the default follows it.
same = ewc.compile(source=SOURCE, device="cuda", tiered=False, cache=False)
# CHECK-NEXT: default: retained 0 2, loads 0 2, launches 0 0, wrong 0, current 1
report("default")

one.leaky_relu(Memory(1, 1024), out=Memory(1, 1024, 4096))
one.leaky_relu(Memory(0, 1024), out=Memory(0, 1024, 4096))
one.leaky_relu(Memory(0, 1024), out=Memory(0, 1024, 4096))
# CHECK-NEXT: calls: retained 1 2, loads 1 2, launches 2 1, wrong 0, current 1
report("calls")
# CHECK-NEXT: two devices: ValueError: leaky_relu(): tensors on two devices: output 0 is on cuda:1 but 'x' is on cuda:0 (a launch runs on one device)
show("two devices",
     lambda: one.leaky_relu(Memory(0, 1024), out=Memory(1, 1024, 4096)))
# CHECK-NEXT: cuda:2: CompileError: no CUDA device 2: the driver sees 2 device(s), numbered from 0
show("cuda:2", lambda: ewc.compile(source=SOURCE, device="cuda:2"))
del one, same
gc.collect()  # a module and its kernels refer to each other
# CHECK-NEXT: end: retained 0 0, loads 1 2, launches 2 1, wrong 0, current 1
report("end")
