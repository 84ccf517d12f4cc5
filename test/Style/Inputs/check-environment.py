#!/usr/bin/env python3
"""Checks the house rule "libraries read no environment variables": no
source under ROOT/lib calls getenv, secure_getenv, LLVM's Process::GetEnv or
the path functions that read $HOME and $XDG_CACHE_HOME, or touches environ.
Options come in through the libraries' option structs, which the tools fill
from the environment in one place (tools/Support/Environment.h). Prints each
line that breaks the rule, then a count.

usage: check-environment.py ROOT
"""
import os
import re
import sys

EXTENSIONS = (".c", ".cpp", ".h", ".inc", ".def")
# A name, not a word inside one ("environment" in a comment is fine).
READS = re.compile(r"(?<![A-Za-z0-9_])(secure_getenv|getenv|GetEnv|_?_?environ"
                   r"|home_directory|cache_directory)(?![A-Za-z0-9_])")


def main(root):
    lib = os.path.join(root, "lib")
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(lib)
                   for f in names if f.endswith(EXTENSIONS))
    if not files:
        sys.exit("check-environment: no sources under %s" % lib)
    readers = set()
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if READS.search(line):
                    readers.add(path)
                    print("reads the environment: %s:%d: %s" % (
                        os.path.relpath(path, root), number, line.strip()))
    print("%d sources under lib/, %d read the environment" % (
        len(files), len(readers)))
    sys.exit(1 if readers else 0)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().split("\n")[-1])
    main(sys.argv[1])
