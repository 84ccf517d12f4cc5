# ewc.testing.bench() on the GPU (test/Python/testing.py has the CPU and
# the arguments): it measures the GPU's time between CUDA events, not the
# host's (a spin of known length that returns at once on the host), on
# torch's current stream (the same spin on a side stream), the flush of
# the L2 runs outside the timed span, the flush buffer is at least 256 MiB
# and twice the L2, and an ewc kernel on CUDA tensors gives ordered
# quantiles. (Whether the flush empties the L2 does not show reliably in a
# time: on the H100, a sum over 24 MiB took 0.021 ms flushed and 0.032 ms
# without, clocks and queueing weigh more than the L2 there.)
#
# REQUIRES: torch-cuda
# RUN: %ewc_torch_python %s | FileCheck %s

import statistics

import torch

import ewc
import ewc.testing
from ewc.testing import bench

# About 1 ms of spinning at the H200's 1.98 GHz (longer at a lower clock).
CYCLES = 2_000_000


def events_ms(fn, reps=10):
    """The median of fn()'s time between a pair of events, measured here."""
    fn()
    pairs = [(torch.cuda.Event(enable_timing=True),
              torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for start, end in pairs:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in pairs)


def spin():
    torch.cuda._sleep(CYCLES)


want = events_ms(spin)
got = bench(spin, flush_l2=False, device="cuda")
# CHECK: spin: GPU time True
print("spin: GPU time", abs(got - want) < 0.1 * want, "(%.3f ms, events %.3f)"
      % (got, want))

side = torch.cuda.Stream()
with torch.cuda.stream(side):
    got_side = bench(spin, flush_l2=False, n_warmup=2, n_repeat=10)
# CHECK-NEXT: side stream: GPU time True
print("side stream: GPU time", abs(got_side - want) < 0.1 * want,
      "(%.3f ms)" % got_side)

clock = ewc.testing._CudaClock(True)
# The flush runs before each call's start event, outside its time: a tiny
# kernel, flushed, takes far less than the flush (256 MiB zeroed, about
# 0.1 ms).
flush_ms = events_ms(clock.flush)
tiny = torch.empty(1, device="cuda")
tiny_ms = bench(lambda: tiny.fill_(1.0), device="cuda")
# CHECK-NEXT: flush outside the time: True
print("flush outside the time:", tiny_ms < 0.5 * flush_ms,
      "(%.4f ms a call, %.4f ms a flush)" % (tiny_ms, flush_ms))
l2 = torch.cuda.get_device_properties(0).L2_cache_size
size = clock.cache.numel() * clock.cache.element_size()
# CHECK-NEXT: flush buffer: True
print("flush buffer:", size >= max(256 << 20, 2 * l2), "(%d MiB, L2 %d MiB)"
      % (size >> 20, l2 >> 20))

mod = ewc.compile(source="""
kernel leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n] {
  return where(x >= 0.0, x, slope * x);
}
""", device="cuda")
x = torch.randn(1 << 24, device="cuda")
y = torch.empty_like(x)
ms, low, high = bench(lambda: mod.leaky_relu(x, out=y), quantiles=[0.5, 0.2, 0.8])
# 2^24 f32 in and out, 128 MiB: over 40 us at the H200's 4.8 TB/s.
# CHECK-NEXT: ewc kernel: True True
print("ewc kernel:", 0 < low <= ms <= high, ms > 0.02,
      "(%.4f ms, %.0f GB/s)" % (ms, 2 * x.numel() * 4 / ms / 1e6))
times = bench(lambda: mod.leaky_relu(x, out=y), return_mode="all", n_warmup=3,
              n_repeat=7)
# CHECK-NEXT: all: 7 True
print("all:", len(times), all(t > 0 for t in times))
# CHECK-NEXT: right: True
print("right:", torch.equal(y, torch.where(x >= 0, x, 0.01 * x)))
