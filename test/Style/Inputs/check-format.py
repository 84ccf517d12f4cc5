#!/usr/bin/env python3
"""Checks that every C, C++ and CUDA source of the repository at ROOT outside
test/ is as clang-format writes it (the .clang-format at the root): runs
`clang-format --dry-run -Werror` on them and prints each file it would
change. test/ is left out: its sources carry FileCheck and RUN lines in
comments, which clang-format's comment reflow would break.

usage: check-format.py ROOT [CLANG_FORMAT]
"""
import os
import subprocess
import sys

EXTENSIONS = (".c", ".cpp", ".h", ".cu")
SKIP_DIRS = {"test", "build", ".git", ".device"}


def sources(root):
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files"], check=True,
                                capture_output=True, text=True).stdout
        files = listed.split()
    except (OSError, subprocess.CalledProcessError):
        # Not a git checkout (an unpacked archive): walk it.
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith("build")
                       and x not in SKIP_DIRS]
            files += [os.path.relpath(os.path.join(d, f), root) for f in names]
    return sorted(f for f in files if f.endswith(EXTENSIONS)
                  and f.split("/")[0] not in SKIP_DIRS
                  and os.path.exists(os.path.join(root, f)))


def main(root, clang_format="clang-format"):
    files = sources(root)
    if not files:
        sys.exit("check-format: no sources under %s" % root)
    bad = []
    for f in files:
        result = subprocess.run([clang_format, "--dry-run", "-Werror", f],
                                cwd=root, capture_output=True, text=True)
        if result.returncode:
            bad.append(f)
    for f in bad:
        print("not clang-formatted: %s (clang-format -i %s)" % (f, f))
    print("%d sources, %d not clang-formatted" % (len(files), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().split("\n")[-1])
    main(*sys.argv[1:])
