"""Prints the PTX text of every gpu.binary in the MLIR module read from stdin.

ew-to-ptx leaves the PTX as the `assembly` string of a #gpu.object, with MLIR's
escapes (\\0A for a newline, \\XX for other bytes); this undoes them so that
FileCheck and ptxas see the PTX as ewc-run --emit ptx writes it.
"""
import re
import sys

text = sys.stdin.read()
found = False
for match in re.finditer(r'assembly = "((?:[^"\\]|\\.)*)"', text):
    found = True
    sys.stdout.write(re.sub(r"\\([0-9A-Fa-f]{2})",
                            lambda m: chr(int(m.group(1), 16)), match.group(1)))
if not found:
    sys.exit("no gpu.binary with PTX in the input")
