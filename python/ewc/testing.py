"""Benchmarking in the manner of triton.testing: bench() times a function as
triton.testing.do_bench does (CUDA events on the GPU, time.perf_counter on
the CPU, the cache flushed before each timed call), and perf_report() with
Benchmark sweeps a function over sizes and implementations into a table, a
CSV file and a plot, as triton.testing.perf_report does.

    import numpy as np, ewc, ewc.testing
    mod = ewc.compile("kernels/leaky_relu.ew", device="cpu",
                      types={"T": "f32"})
    mod.wait_optimized()   # a tiered compile's optimized code, not its quick one
    x = np.random.randn(1 << 22).astype(np.float32)
    y = np.empty_like(x)
    ms = ewc.testing.bench(lambda: mod.leaky_relu(x, out=y))
    ms, low, high = ewc.testing.bench(lambda: mod.leaky_relu(x, out=y),
                                      quantiles=[0.5, 0.2, 0.8])

docs/api.md ("Benchmarking: ewc.testing") says what is measured, and where
this differs from Triton.
"""

import functools
import math
import numbers
import os
import statistics
import time

from ._report import Benchmark, Mark, perf_report

__all__ = ["bench", "Benchmark", "Mark", "perf_report", "RETURN_MODES"]

RETURN_MODES = ("min", "max", "mean", "median", "all")
_DEVICES = (None, "cpu", "cuda")

# The GPU flush buffer: Triton's 256 MiB (5x the 50 MiB L2 of an H100 or
# H200), or twice the L2 where a device has more than 128 MiB of it.
GPU_FLUSH_BYTES = 256 << 20
# The CPU flush buffer where sysfs does not give the last-level cache size
# (this dev machine's container hides /sys/devices/system/cpu/cpu0/cache):
# Triton's size again, over twice the L3 an EPYC core sees (32-96 MiB a
# CCD) and a Sapphire Rapids Xeon shares (up to 112.5 MB); a larger L3
# (Emerald Rapids: 320 MB) needs sysfs to size the flush.
CPU_FLUSH_BYTES = 256 << 20
_SYSFS_CACHE = "/sys/devices/system/cpu/cpu0/cache"
# Calls of fn timed together for the first estimate of its time, as Triton.
_ESTIMATE_CALLS = 5


def bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None,
          return_mode="median", flush_l2=True, device=None, *,
          n_warmup=None, n_repeat=None):
    """The time of one call of `fn()` in milliseconds, as
    triton.testing.do_bench measures it: fn() once, then 5 calls (each
    after a cache flush) to estimate its time, then warm-up calls for
    `warmup` ms and timed calls for `rep` ms by that estimate (at least one
    of each), each timed call after a flush of the cache (flush_l2) and of
    the .grad of the tensors in `grad_to_none`.

    Returns the median of the timed calls (return_mode "min", "max",
    "mean", "median", or "all": the list of every call's time); with
    `quantiles` (numbers in [0, 1]), the list of those quantiles instead,
    linearly interpolated (a single one as a number).

    device: "cuda" times with CUDA events on torch's current stream, the
    flush zeroing a buffer past the L2; "cpu" times each call with
    time.perf_counter (fn must have finished when it returns, as an ewc
    CPU launch has), the flush adding to a NumPy buffer twice the
    last-level cache; None: "cuda" if torch is importable and sees a CUDA
    device, else "cpu". n_warmup, n_repeat: counts of calls instead of the
    time budgets (the spelling of Intel's XPU backend for Triton)."""
    _check_bench_args(fn, warmup, rep, grad_to_none, quantiles, return_mode,
                      flush_l2, device, n_warmup, n_repeat)
    if device is None:
        device = "cuda" if _torch_cuda()[0] is not None else "cpu"
    clock = _CudaClock(flush_l2) if device == "cuda" else _CpuClock(flush_l2)
    fn()
    clock.sync()
    if n_warmup is None or n_repeat is None:
        # The estimate includes the flushes, as Triton's does: the budgets
        # bound the wall time of the whole measurement, flushes included.
        begin = clock.mark()
        for _ in range(_ESTIMATE_CALLS):
            clock.flush()
            fn()
        end = clock.mark()
        clock.sync()
        # A floor of 1 ns: perf_counter can return the same value twice.
        estimate = max(clock.elapsed_ms(begin, end) / _ESTIMATE_CALLS, 1e-6)
        if n_warmup is None:
            n_warmup = max(1, int(warmup / estimate))
        if n_repeat is None:
            n_repeat = max(1, int(rep / estimate))
    for _ in range(n_warmup):
        fn()
    marks = []
    for _ in range(n_repeat):
        # fn must not accumulate gradients if it runs a backward pass.
        for tensor in grad_to_none or ():
            tensor.grad = None
        clock.flush()
        begin = clock.mark()
        fn()
        marks.append((begin, clock.mark()))
    clock.sync()
    times = [clock.elapsed_ms(begin, end) for begin, end in marks]
    return _summarize(times, quantiles, return_mode)


def _check_bench_args(fn, warmup, rep, grad_to_none, quantiles, return_mode,
                      flush_l2, device, n_warmup, n_repeat):
    where = "ewc.testing.bench(): "
    if not callable(fn):
        raise TypeError(where + "fn must be callable, got %s"
                        % type(fn).__name__)
    for name, value, positive in (("warmup", warmup, False),
                                  ("rep", rep, True)):
        if not _is_number(value):
            raise TypeError(where + "%s must be a number of milliseconds, "
                            "got %s" % (name, type(value).__name__))
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise ValueError(where + "%s must be %s milliseconds, got %r" % (
                name, "more than 0" if positive else "0 or more", value))
    for name, value, least in (("n_warmup", n_warmup, 0),
                               ("n_repeat", n_repeat, 1)):
        if value is None:
            continue
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise TypeError(where + "%s must be an int or None, got %s"
                            % (name, type(value).__name__))
        if value < least:
            raise ValueError(where + "%s must be %d or more, got %d"
                             % (name, least, value))
    if grad_to_none is not None and not hasattr(grad_to_none, "__iter__"):
        raise TypeError(where + "grad_to_none must be a list of tensors or "
                        "None, got %s" % type(grad_to_none).__name__)
    if quantiles is not None:
        if isinstance(quantiles, (str, bytes)) or not hasattr(quantiles,
                                                               "__iter__"):
            raise TypeError(where + "quantiles must be a list of numbers in "
                            "[0, 1] or None, got %s"
                            % type(quantiles).__name__)
        quantiles = list(quantiles)
        bad = [q for q in quantiles if not _is_number(q) or not 0 <= q <= 1]
        if bad or not quantiles:
            raise ValueError(where + "quantiles must be numbers in [0, 1], "
                             "got %r" % (quantiles,))
    if return_mode not in RETURN_MODES:
        raise ValueError(where + "return_mode must be one of %s, got %r"
                         % (", ".join(RETURN_MODES), return_mode))
    if not isinstance(flush_l2, bool):
        raise TypeError(where + "flush_l2 must be True or False, got %r"
                        % (flush_l2,))
    if device not in _DEVICES:
        raise ValueError(where + "device must be 'cuda', 'cpu' or None, got %r"
                         % (device,))
    if device == "cuda" and _torch_cuda()[0] is None:
        raise RuntimeError(where + "device='cuda' times with torch's CUDA "
                           "events, but %s" % _torch_cuda()[1])


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@functools.lru_cache(maxsize=None)
def _torch_cuda():
    """(torch, None) if torch is importable and sees a CUDA device, else
    (None, why not). Asked once: a failed import is not cached by Python
    and costs a search of sys.path each time."""
    try:
        import torch
    except ImportError as error:
        return None, "torch is not importable (%s)" % error
    if not torch.cuda.is_available():
        return None, "torch sees no CUDA device"
    return torch, None


#===------------------------------------------------------------------------===#
# Clocks: where the time comes from, and how the cache is flushed
#===------------------------------------------------------------------------===#

class _CudaClock:
    """CUDA events recorded on torch's current stream: a mark is an event,
    so the time is the GPU's between them, however early fn() returns."""

    def __init__(self, flush):
        self.torch = torch = _torch_cuda()[0]
        self.cache = None
        if flush:
            device = torch.cuda.current_device()
            l2 = getattr(torch.cuda.get_device_properties(device),
                         "L2_cache_size", 0) or 0
            self.cache = torch.empty(max(GPU_FLUSH_BYTES, 2 * l2) // 4,
                                     dtype=torch.int, device="cuda")

    def flush(self):
        if self.cache is not None:
            self.cache.zero_()

    def mark(self):
        event = self.torch.cuda.Event(enable_timing=True)
        event.record()
        return event

    def sync(self):
        self.torch.cuda.synchronize()

    @staticmethod
    def elapsed_ms(begin, end):
        return begin.elapsed_time(end)


class _CpuClock:
    """time.perf_counter around each call: fn() must have done its work
    when it returns."""

    def __init__(self, flush):
        self.cache = None
        if flush:
            try:
                import numpy
            except ImportError:
                raise RuntimeError("ewc.testing.bench(): flush_l2=True on the "
                                   "CPU writes a NumPy buffer, but NumPy is "
                                   "not importable; pass flush_l2=False")
            llc = _cpu_cache_bytes()
            self.add = numpy.add
            # ones, not zeros: written now, so that the estimate's first
            # flush pays no page faults (zeros maps pages on first touch).
            self.cache = numpy.ones(
                (2 * llc if llc else CPU_FLUSH_BYTES) // 8, dtype=numpy.uint64)

    def flush(self):
        # A read and a write of every line, through the cache. A plain fill
        # would not do: NumPy may make it a memset, and glibc (2.40 on)
        # does a memset this large with non-temporal stores, which bypass
        # the cache and evict nothing.
        if self.cache is not None:
            self.add(self.cache, 1, out=self.cache)

    mark = staticmethod(time.perf_counter)

    def sync(self):
        pass

    @staticmethod
    def elapsed_ms(begin, end):
        return (end - begin) * 1e3


def _cpu_cache_bytes(root=_SYSFS_CACHE):
    """The size in bytes of the last-level cache that cpu0 sees (the data or
    unified cache of the highest level, as sysfs lists them under `root`),
    or None where sysfs does not say."""
    try:
        entries = os.listdir(root)
    except OSError:
        return None
    best = None
    for entry in entries:
        if not entry.startswith("index"):
            continue
        try:
            fields = {}
            for name in ("level", "type", "size"):
                with open(os.path.join(root, entry, name)) as f:
                    fields[name] = f.read().strip()
            level, size = int(fields["level"]), fields["size"]
            # "32768K"; the kernel prints K, the other suffixes for safety.
            scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(size[-1:])
            nbytes = int(size[:-1]) * scale if scale else int(size)
        except (OSError, ValueError):
            continue
        if fields["type"] != "Instruction" and (best is None or
                                                (level, nbytes) > best):
            best = (level, nbytes)
    return best[1] if best else None


#===------------------------------------------------------------------------===#
# Statistics
#===------------------------------------------------------------------------===#

def _quantile(ordered, q):
    """The q-quantile of the sorted list `ordered`, linearly interpolated
    between the two nearest ranks (numpy's and torch.quantile's default,
    which Triton's do_bench uses)."""
    point = q * (len(ordered) - 1)
    lower, upper = math.floor(point), math.ceil(point)
    t = point - lower
    return (1 - t) * ordered[lower] + t * ordered[upper]


def _summarize(times, quantiles, return_mode):
    """What bench() returns for the timed calls' `times` (ms)."""
    if quantiles is not None:
        ordered = sorted(times)
        values = [_quantile(ordered, q) for q in quantiles]
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.mean,
            "median": statistics.median}[return_mode](times)
