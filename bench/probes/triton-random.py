"""What Triton's tl.rand, tl.randn and tl.randint return, recorded on the
device machine, so that ewc's rand/randn/randint (issue 17) can be checked
against Triton itself where Triton is not installed (CI, this repository's
test/Integration/CPU/Inputs/triton-random-*.txt).

Writes to $OUT (or the directory given as argv[1]):

- random.py: the installed triton/language/random.py, the file ewc matches;
- versions.txt: Triton's and torch's versions and the file's path;
- rand.ptx, randn.ptx, randint.ptx (i32 and i64 offsets): Triton's PTX, to
  see which instructions implement log, cos and sin in randn;
- golden-<kind>-<offset dtype>.txt: one line per (seed, offset): the seed,
  the offset and the result's bits in hex (f32 bits for rand/randn, the raw
  integer for randint), for seeds around 0, 2^31 and 2^32 and above, and
  offsets 0..255, the ends of the offset type's range and random ones.

  python3 bench/probes/triton-random.py [outdir]
"""
import os
import sys

import numpy as np
import torch
import triton
import triton.language as tl

out_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
os.makedirs(out_dir, exist_ok=True)

import triton.language.random as trandom

with open(trandom.__file__) as f:
    source = f.read()
with open(os.path.join(out_dir, "random.py"), "w") as f:
    f.write(source)
with open(os.path.join(out_dir, "versions.txt"), "w") as f:
    f.write(f"triton {triton.__version__}\ntorch {torch.__version__}\n"
            f"file {trandom.__file__}\n"
            f"device {torch.cuda.get_device_name()}\n")


@triton.jit
def rng_kernel(out_ptr, seed, off_ptr, n, KIND: tl.constexpr,
               BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    off = tl.load(off_ptr + i, mask=mask)
    if KIND == 0:
        r = tl.rand(seed, off)
    elif KIND == 1:
        r = tl.randn(seed, off)
    else:
        r = tl.randint(seed, off)
    tl.store(out_ptr + i, r, mask=mask)


KINDS = ["rand", "randn", "randint"]

# Seeds: Triton types a Python int argument i32 when it fits (and
# specializes 1), i64 above; both paths are covered. Negative seeds too.
SEEDS = [0, 1, 42, 123456789, 2**31 - 1, -1, -7, 2**31, 2**32 - 1, 2**32,
         2**32 + 5, 0x123456789ABCDEF, 2**63 - 1]


def offsets(dtype):
    rng = np.random.default_rng(17)
    if dtype == torch.int32:
        info = np.iinfo(np.int32)
        ends = [info.min, info.min + 1, -1, info.max - 1, info.max]
        rand = rng.integers(info.min, info.max, 512, dtype=np.int64)
    else:
        info = np.iinfo(np.int64)
        ends = [info.min, info.min + 1, -1, info.max - 1, info.max,
                2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 3]
        rand = rng.integers(info.min, info.max, 512, dtype=np.int64)
    vals = list(range(256)) + ends + [int(v) for v in rand]
    return torch.tensor(vals, dtype=dtype, device="cuda")


for odtype, oname in [(torch.int32, "i32"), (torch.int64, "i64")]:
    offs = offsets(odtype)
    n = offs.numel()
    for kind_index, kind in enumerate(KINDS):
        lines = []
        for seed in SEEDS:
            if kind == "randint":
                out = torch.empty(n, dtype=odtype, device="cuda")
            else:
                out = torch.empty(n, dtype=torch.float32, device="cuda")
            compiled = rng_kernel[(triton.cdiv(n, 256),)](
                out, seed, offs, n, KIND=kind_index, BLOCK=256)
            torch.cuda.synchronize()
            if seed == 42:
                with open(os.path.join(out_dir, f"{kind}-{oname}.ptx"),
                          "w") as f:
                    f.write(compiled.asm["ptx"])
            if kind == "randint":
                bits = out.cpu().numpy().astype(np.int64)
                width = 32 if odtype == torch.int32 else 64
                bits = [int(b) & ((1 << width) - 1) for b in bits]
            else:
                bits = [int(b) & 0xFFFFFFFF
                        for b in out.view(torch.int32).cpu().numpy()]
            for o, b in zip(offs.cpu().numpy().tolist(), bits):
                lines.append(f"{seed} {o} {b:x}\n")
        with open(os.path.join(out_dir, f"golden-{kind}-{oname}.txt"),
                  "w") as f:
            f.write(f"# triton {triton.__version__} tl.{kind}, offsets "
                    f"{oname}: seed offset result-bits(hex)\n")
            f.writelines(lines)
        print(f"{kind} {oname}: {len(lines)} values")
print("done")
