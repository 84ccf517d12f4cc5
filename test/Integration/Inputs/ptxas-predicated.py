"""Predicated forms of the PTX that CUDA 13.0's ptxas miscompiles
(docs/ptxas-bug/README.md), through ewc's ptxas-workarounds and the CUDA
driver (whose JIT is ptxas at its default -O3), on device 0.

    python3 ptxas-predicated.py EWC_OPT

Each case is a one-thread kernel k(in, out) whose instruction that ptxas
mistreats runs under a guard that is true (`@%p1`) or, negated, false for the
input (`@!%p1`). The PTX goes into a gpu.binary, through `EWC_OPT
--ptxas-workarounds=workarounds=W` for W = all and none, and each build runs
once; a line per case and build says whether the 8-byte result is the one
the PTX ISA defines.
"""
import os
import re
import subprocess
import sys

# The reproducer's kernel frame and driver harness (docs/ptxas-bug/repro.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "docs", "ptxas-bug"))
from repro import FOOTER, HEADER, INT32_MIN, INT64_MIN, NAN, Cuda  # noqa: E402

# name, PTX body (in: [%rd1], out: [%rd2]), input (u64), right result (u64)
CASES = [
    ("@%p abs.s64 then min 0", """
\tld.global.b64 %rd3, [%rd1];
\tsetp.ne.s64 %p1, %rd3, 0;
\tmov.b64 %rd4, 7;
\t@%p1 abs.s64 %rd4, %rd3;
\tmin.s64 %rd5, %rd4, 0;
\tst.global.b64 [%rd2], %rd5;
""", INT64_MIN, INT64_MIN),
    ("@!%p abs.s32 then min 0", """
\tld.global.b32 %r1, [%rd1];
\tsetp.eq.s32 %p1, %r1, 0;
\tmov.b32 %r2, 7;
\t@!%p1 abs.s32 %r2, %r1;
\tmin.s32 %r3, %r2, 0;
\tst.global.b32 [%rd2], %r3;
""", INT32_MIN, INT32_MIN),
    ("@%p abs.f32 of NaN >= 0", """
\tld.global.b32 %r1, [%rd1];
\tsetp.ne.b32 %p2, %r1, 0;
\tmov.b32 %r2, 0;
\t@%p2 abs.f32 %r2, %r1;
\tsetp.ge.f32 %p1, %r2, 0f00000000;
\tselp.b32 %r3, 1, 0, %p1;
\tst.global.b32 [%rd2], %r3;
""", NAN, 0),
    ("@%p selp.f32 -1.0, -0.0", """
\tld.global.b32 %r1, [%rd1];
\tsetp.ge.f32 %p1, %r1, 0f3F000000;
\tsetp.eq.f32 %p2, %r1, 0f00000000;
\tmov.b32 %r2, 0f3F800000;
\t@%p2 selp.f32 %r2, 0fBF800000, 0f80000000, %p1;
\tst.global.b32 [%rd2], %r2;
""", 0, 0x80000000),
    ("guard false: @%p abs.s64 keeps its destination", """
\tld.global.b64 %rd3, [%rd1];
\tsetp.eq.s64 %p1, %rd3, 0;
\tmov.b64 %rd4, 7;
\t@%p1 abs.s64 %rd4, %rd3;
\tmin.s64 %rd5, %rd4, 0;
\tst.global.b64 [%rd2], %rd5;
""", INT64_MIN, 0),
]


def through_ewc(ewc_opt, ptx, workarounds):
    escaped = "".join(c if c.isalnum() or c in " .,;:%@!{}[]()_-+$" else
                      "\\%02X" % ord(c) for c in ptx)
    module = ('module attributes {gpu.container_module} {\n  gpu.binary '
              '@m [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "%s">]'
              '\n}\n' % escaped)
    out = subprocess.run([ewc_opt, "--ptxas-workarounds=workarounds=" +
                          workarounds], input=module, capture_output=True,
                         text=True, check=True).stdout
    text = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', out).group(1)
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
                  text)


def main():
    cuda = Cuda()
    for name, body, value, right in CASES:
        for workarounds in ("all", "none"):
            ptx = through_ewc(sys.argv[1], HEADER + body + FOOTER, workarounds)
            got = cuda.run(ptx.encode() + b"\0", value)
            verdict = "right" if got == right else "WRONG (0x%x)" % got
            print("%s, workarounds=%s: %s" % (name, workarounds, verdict))


main()
