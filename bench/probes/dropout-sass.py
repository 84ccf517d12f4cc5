"""Why kernels/dropout.ew (f32) runs at 0.95x Triton's tutorial dropout at
2^28 on an H100 (docs/performance.md, "Issue 17's random numbers"): both
kernels once each at n = 2^28 (p = 0.3, seed 1234), so that ncu can profile
them side by side (bench/probes/dropout-sass.sh), and Triton's cubin and PTX
written to DIR for cuobjdump, with its registers and spills.

  python3 bench/probes/dropout-sass.py DIR

ewc's kernel comes from kernels/dropout.ew through python/ewc (EWC_LIBRARY
names libewc.so), its optimized code (tiering waited for).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import rng  # noqa: E402  (bench/rng.py: the tutorial kernel, ewc)

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
n, p, seed = 1 << 28, 0.3, 1234
x = torch.rand(n, device="cuda") + 0.5
ours = torch.empty_like(x)
theirs = torch.empty_like(x)

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# A cache of its own: the cubin of the variant launched lands there, for
# cuobjdump (the optimized code only: tiering caches no quick code).
mod = rng.ewc.compile(os.path.join(root, "kernels", "dropout.ew"),
                      device="cuda", cache_dir=os.path.join(out_dir, "cache"))
mod.dropout(x, p, seed, out=ours)
mod.wait_optimized()
mod.dropout(x, p, seed, out=ours)
compiled = rng._seeded_dropout[(n // 1024,)](x, theirs, n, p, seed,
                                             BLOCK_SIZE=1024)
torch.cuda.synchronize()
print("mask equal:", bool(((ours == 0) == (theirs == 0)).all()))
with open(os.path.join(out_dir, "triton-dropout.cubin"), "wb") as f:
    f.write(compiled.asm["cubin"])
with open(os.path.join(out_dir, "triton-dropout.ptx"), "w") as f:
    f.write(compiled.asm["ptx"])
print("triton: registers %s, spills %s, warps %s" % (
    compiled.n_regs, compiled.n_spills,
    compiled.metadata.num_warps))
if os.environ.get("DROPOUT_SASS_PROFILED"):
    sys.exit(0)  # under ncu: one optimized call each is enough
for name, fn in (("ewc", lambda: mod.dropout(x, p, seed, out=ours)),
                 ("triton", lambda: rng.seeded_dropout(x, p, seed, theirs))):
    ms = rng.time_ms(fn)
    print("%s: %.3f ms, %.0f GB/s" % (name, ms, 8 * n / ms / 1e6))
