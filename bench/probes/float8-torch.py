"""f8e4m3 and f8e5m2 against torch's float8_e4m3fn and float8_e5m2 on the
H200, bit for bit, with each of ewc's two GPU conversions (the sm_89+ cvt,
the default, and the integer code, EWC_FLOAT8_CONVERSIONS=integer, which
ewc-run reads: the library takes no such option):

- f32 -> f8 on every one of the 2^32 f32 bit patterns, in chunks of 2^26
  through .npy files and ewc-run (which also checks each chunk against its
  own reference), EWC_PROBE_JOBS (12) of them at once;
- f16 and bf16 -> f8 on every one of their 65536 patterns;
- f8 -> f32, f16 and bf16 on every one of the 256 patterns (values; NaN
  payloads are not part of the contract: docs/language.md);
- the fp8 quantize of kernels/fp8_quantize.ew (python/ewc, the default
  conversions) against torch's (x * scale).clamp(-448, 448)
  .to(float8_e4m3fn) on 2^26 normal values, and its time against torch's
  eager ops and a copy of the same bytes (CUDA events, median of 50).

Prints one line per check and "all equal" at the end when every check held.

  EWC_LIBRARY=.../libewc.so EWC_RUN=.../ewc-run python3 \
      bench/probes/float8-torch.py
"""
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
import ewc

F8 = {"f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}
SOURCE = """
kernel to8(x: f32[n]) -> (f8e4m3[n], f8e5m2[n]) {
  return f8e4m3(x), f8e5m2(x);
}
kernel half_to8(h: f16[n], b: bf16[n]) -> (f8e4m3[n], f8e5m2[n], f8e4m3[n], f8e5m2[n]) {
  return f8e4m3(h), f8e5m2(h), f8e4m3(b), f8e5m2(b);
}
kernel from8(a: f8e4m3[n], c: f8e5m2[n]) -> (f32[n], f16[n], bf16[n], f32[n], f16[n], bf16[n]) {
  return f32(a), f16(a), bf16(a), f32(c), f16(c), bf16(c);
}
"""
EWC_RUN = os.environ.get("EWC_RUN", "ewc-run")
JOBS = int(os.environ.get("EWC_PROBE_JOBS", "12"))
work = tempfile.mkdtemp()
source_path = os.path.join(work, "float8.ew")
with open(source_path, "w") as f:
    f.write(SOURCE)
ok = True


def report(what, equal, detail=""):
    global ok
    ok &= bool(equal)
    print("%s: %s%s" % (what, "equal" if equal else "DIFFERENT", detail),
          flush=True)


def run(mode, kernel, inputs, results):
    """ewc-run `kernel` on the GPU with `mode`'s conversions: `inputs` maps
    parameter names to NumPy arrays (8-bit floats and bf16 as their bits);
    returns the results as NumPy arrays of bits. Safe to call from several
    threads at once (each call has its own folder)."""
    folder = tempfile.mkdtemp(dir=work)
    args = [EWC_RUN, source_path, "--kernel", kernel, "--device", "cuda"]
    for name, array in inputs.items():
        path = os.path.join(folder, name + ".npy")
        np.save(path, array)
        args.append("--input=%s=%s" % (name, path))
    for r in range(results):
        args.append("--save=out%d=%s" % (r, os.path.join(folder, "out%d.npy" % r)))
    env = dict(os.environ, EWC_FLOAT8_CONVERSIONS=mode)
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    if done.stdout.strip() != "True":
        report("ewc-run %s (%s) against its reference" % (kernel, mode), False,
               ": " + (done.stdout + done.stderr).strip()[-300:])
    outs = [np.load(os.path.join(folder, "out%d.npy" % r))
            for r in range(results)]
    shutil.rmtree(folder)
    return outs


def torch_bits(values, dtype):
    """torch's conversion of NumPy `values` to `dtype`, as NumPy bits."""
    return values.to(dtype).view(torch.uint8 if dtype in F8.values() else
                                 torch.int16).cpu().numpy()


for mode in ("integer", "hardware"):
    # ewc-run checks each chunk against its reference on one host core
    # (about 2 s per 2^24 elements): JOBS chunks at once.
    chunk = 1 << 26
    diffs, first = {name: 0 for name in F8}, {name: [] for name in F8}

    def patterns(lo):
        return np.arange(lo, lo + chunk, dtype=np.uint64).astype(np.uint32)

    with ThreadPoolExecutor(JOBS) as pool:
        runs = [(lo, pool.submit(lambda lo=lo: run(
            mode, "to8", {"x": patterns(lo).view(np.float32)}, 2)))
            for lo in range(0, 1 << 32, chunk)]
    for lo, future in runs:
        bits = patterns(lo)
        got = future.result()
        xt = torch.from_numpy(bits.view(np.int32)).cuda().view(torch.float32)
        for name, out in zip(F8, got):
            want = torch_bits(xt, F8[name])
            where = np.nonzero(out.view(np.uint8) != want)[0]
            diffs[name] += where.size
            for i in where[:3 - len(first[name])]:
                first[name].append("0x%08x: ewc 0x%02x torch 0x%02x" % (
                    bits[i], out.view(np.uint8)[i], want[i]))
    for name in F8:
        report("f32 -> %s (%s), 2^32 patterns" % (name, mode),
               diffs[name] == 0, "" if not diffs[name] else
               " (%d differ: %s)" % (diffs[name], "; ".join(first[name])))

    raw = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    got = run(mode, "half_to8", {"h": raw.view(np.float16), "b": raw}, 4)
    rt = torch.from_numpy(raw.view(np.int16)).cuda()
    sources = [("f16", rt.view(torch.float16))] * 2 + \
              [("bf16", rt.view(torch.bfloat16))] * 2
    for (src, xt), name, out in zip(sources, list(F8) * 2, got):
        where = np.nonzero(out.view(np.uint8) != torch_bits(xt, F8[name]))[0]
        report("%s -> %s (%s), 65536 patterns" % (src, name, mode),
               where.size == 0, "" if not where.size else
               " (%d differ)" % where.size)

    patterns = np.arange(256, dtype=np.uint32).astype(np.uint8)
    got = run(mode, "from8", {"a": patterns, "c": patterns}, 6)
    pt = torch.from_numpy(patterns).cuda()
    targets = [torch.float32, torch.float16, torch.bfloat16] * 2
    for r, (out, to) in enumerate(zip(got, targets)):
        src = pt.view(F8["f8e4m3"] if r < 3 else F8["f8e5m2"])
        want = src.to(to).float().cpu().numpy()
        value = (torch.from_numpy(out.view(np.int16)).view(torch.bfloat16)
                 .float().numpy() if to == torch.bfloat16 else
                 out.astype(np.float32))
        same = (value == want) | (np.isnan(value) & np.isnan(want))
        same &= np.signbit(value) == np.signbit(want)
        same |= np.isnan(value) & np.isnan(want)
        report("%s -> %s (%s), 256 patterns" % (
            "f8e4m3" if r < 3 else "f8e5m2", str(to).split(".")[1], mode),
            bool(same.all()))


def same_bytes(got, want):
    """Equal bytes of two torch tensors; the places that differ if not."""
    g, w = got.view(torch.uint8), want.view(torch.uint8)
    diff = (g != w).nonzero().flatten()
    return diff.numel() == 0, diff


def timed(fn):
    for _ in range(5):
        fn()
    times = []
    for _ in range(50):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


q = ewc.compile(path="kernels/fp8_quantize.ew", device="cuda")
torch.manual_seed(0)
n = 1 << 26
x = torch.randn(n, device="cuda") * 3
scale = 64.0
want = (x * scale).clamp(-448.0, 448.0).to(torch.float8_e4m3fn)
equal, where = same_bytes(q.quantize_fp8(x, scale=scale), want)
report("fp8 quantize, 2^26 values", equal,
       "" if equal else " (%d differ)" % where.numel())
out = torch.empty(n, device="cuda", dtype=torch.float8_e4m3fn)
te = timed(lambda: q.quantize_fp8(x, scale=scale, out=out))
tt = timed(lambda: (x * scale).clamp(-448.0, 448.0).to(torch.float8_e4m3fn))
# A copy of the same bytes: 4 bytes read and 1 written per element.
src = torch.empty(n * 5 // 2, device="cuda", dtype=torch.uint8)
dst = torch.empty_like(src)
tc = timed(lambda: dst.copy_(src))
gbs = lambda ms: (n * 5) / ms / 1e6
print("fp8 quantize 2^26 f32 -> f8e4m3: ewc %.3f ms (%.0f GB/s), torch eager "
      "%.3f ms (%.0f GB/s), copy of 5 bytes per element %.3f ms (%.0f GB/s)"
      % (te, gbs(te), tt, gbs(tt), tc, gbs(tc)))
print("all equal" if ok else "SOME DIFFERENT")
sys.exit(0 if ok else 1)
