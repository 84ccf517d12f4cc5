"""Writes DIR/lets.ew, DIR/inline.ew and DIR/renames.ew: the same chain of
OPS additions spelled as one-line lets and inline, and a chain of 1024 lets
that only rename (let-chain-depth.test)."""
import os
import sys

out, ops = sys.argv[1], int(sys.argv[2])
with open(os.path.join(out, "lets.ew"), "w") as f:
    f.write("kernel f(x: f32[n]) -> f32[n] {\n  let a0 = x;\n")
    for k in range(1, ops + 1):
        f.write("  let a%d = a%d + 1.0;\n" % (k, k - 1))
    f.write("  return a%d;\n}\n" % ops)
with open(os.path.join(out, "inline.ew"), "w") as f:
    f.write("kernel f(x: f32[n]) -> f32[n] {\n  return x%s;\n}\n"
            % (" + 1.0" * ops))
with open(os.path.join(out, "renames.ew"), "w") as f:
    f.write("kernel f(x: f32[n]) -> f32[n] {\n  let a0 = x + 1.0;\n")
    for k in range(1, 1024):
        f.write("  let a%d = a%d;\n" % (k, k - 1))
    f.write("  return a1023;\n}\n")
