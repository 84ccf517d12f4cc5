"""Runs every kernel file of a directory with ewc-run in every --layout
(each tensor, input and output, a strided view: padded rows, transposed,
every other element, or each its own of those), misaligned by --offset, with
the special inputs, and prints one line per run and a summary.

  run-layouts.py EWC_RUN KERNELS_DIR DEVICE [--n N] [EWC_RUN_ARG ...]

The dimensions each file names get extents that exercise the layouts: m = 37
and n = 129 (--n, odd: rows start at every alignment; N instead where
given), k = 5, any other 3, and '...' the shape 3x2. The other arguments go
to every run. Exits 1 if any run printed anything but True.
"""

import os
import re
import subprocess
import sys

LAYOUTS = ["contiguous", "padded", "transposed", "strided", "random"]
EXTENTS = {"m": 37, "k": 5}


def dims_of(text):
    """The dimension names of the tensor types in `text`."""
    names = set()
    for dims in re.findall(r"\b(?:bool|i32|i64|f16|bf16|f32|f64)\[([^\]]*)\]", text):
        for dim in dims.split(","):
            dim = dim.strip()
            if dim and dim != "...":
                names.add(dim)
    return sorted(names)


def main():
    ewc_run, kernels, device = sys.argv[1:4]
    extra = sys.argv[4:]
    n = "129"
    if extra[:1] == ["--n"]:
        n, extra = extra[1], extra[2:]
    runs = failed = 0
    for name in sorted(os.listdir(kernels)):
        if not name.endswith(".ew"):
            continue
        path = os.path.join(kernels, name)
        with open(path) as f:
            dims = dims_of(f.read())
        for index, layout in enumerate(LAYOUTS):
            args = [ewc_run, path, "--device", device, "--inputs", "special",
                    "--layout", layout, "--offset", str(index % 4),
                    "--n", n, "--batch", "3x2", "--seed", str(index)] + extra
            for dim in dims:
                if dim != "n":
                    args += ["--dim", "%s=%d" % (dim, EXTENTS.get(dim, 3))]
            result = subprocess.run(args, capture_output=True, text=True)
            verdict = result.stdout.strip() or result.stderr.strip()
            runs += 1
            if verdict != "True":
                failed += 1
            print("%s %s: %s" % (name, layout, verdict))
    print("%d runs, %d did not print True" % (runs, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
