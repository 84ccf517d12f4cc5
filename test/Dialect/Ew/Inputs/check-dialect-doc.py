#!/usr/bin/env python3
"""Checks the ew dialect's reference that mlir-tblgen generates in the build
(build/docs/Ew/EwOps.md, -gen-op-doc) against the ops the dialect registers
(GET_OP_LIST of the generated EwOps.cpp.inc): every op has its section, and
every section its syntax (or an example, for a custom format) and a summary.

usage: check-dialect-doc.py EwOps.md EwOps.cpp.inc
"""
import re
import sys


def main(doc_path, inc_path):
    doc = open(doc_path).read()
    inc = open(inc_path).read()
    listed = inc.split("#ifdef GET_OP_LIST", 1)[1].split("#endif", 1)[0]
    ops = re.findall(r"::mlir::ew::(\w+),?", listed)
    sections = re.split(r"^### ", doc, flags=re.M)[1:]
    by_class = {}
    for section in sections:
        match = re.match(r"`(ew\.\w+)` \(ew::(\w+)\)", section)
        if match:
            by_class[match.group(2)] = (match.group(1), section)
    missing = [op for op in ops if op not in by_class]
    # A custom assembly format (ew.kernel) has no generated grammar: its
    # description shows the syntax in an example instead.
    no_syntax = [name for name, text in by_class.values()
                 if "Syntax:" not in text and "```mlir" not in text]
    no_text = [name for name, text in by_class.values()
               if not re.search(r"\n_[^\n]+_\n", text)]
    print("%d ops registered, %d documented" % (len(ops), len(by_class)))
    for what, names in (("without a section", missing),
                        ("without syntax", no_syntax),
                        ("without a summary", no_text)):
        print("%s: %s" % (what, ", ".join(names) or "none"))
    return 1 if missing or no_syntax or no_text else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
