"""Runs every fenced block of a Markdown page (docs/tutorial.md) and compares
what each printed with the output the page shows under it, so that the page
cannot drift from what the tools do. Standard library only.

    run-tutorial.py docs/tutorial.md --tools build/bin [--keep]

Blocks, by the fence's info string:

    sh          bash -e -o pipefail, with --tools first on PATH
    python      a fresh interpreter (the one running this script, so the
                environment that makes `import ewc` work is inherited)
    python gpu  the same, where torch sees a CUDA device; elsewhere it is
                only compiled (a syntax check) and counted as skipped
    output      what the code block above it printed, stdout and stderr
                together; it follows that block, with only prose between

Any other fence is an error: a block that nothing runs would rot, which is
what this script is for. So is a code block that prints something but has no
output block: a reader should see what it prints. Every block starts in one
temporary directory shared by the whole page (so a kernel written there by
`cat > k.ew <<'EOF'` in one block is read by the next ones), each in a fresh
process: shell variables and Python names do not carry over. The kernel cache
($EWC_CACHE_DIR) lies in that directory too.

An output block is compared line by line, tabs expanded to 8 columns and
trailing whitespace ignored, with two wildcards (those of Rust's snapbox):

    ...     a line of its own: any number of lines, none included; an
            excerpt of a long output (PTX, IR) is `...`, the lines, `...`,
            which must appear in that order and next to each other
    [..]    within a line: any text in that line (timings, paths, hashes)

Everything else must match exactly, numbers included.

Prints one line per failure (file:line, what went wrong, a diff), then
`NAME: N blocks run, M outputs match, K skipped (gpu: ...)`. Exits 0 when
every block ran and every output matched, 1 otherwise, 2 when the page
breaks the rules above.
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

# A block that runs longer than this is stuck (the slowest, a CPU benchmark,
# takes a few seconds).
BLOCK_TIMEOUT_S = 300

FENCE = re.compile(r"^(\s*)```(.*)$")
CODE_KINDS = ("sh", "python", "python gpu")


class Block:
    def __init__(self, kind, line, text):
        self.kind = kind
        self.line = line  # the opening fence's line, 1-based
        self.text = text
        self.expected = None  # the output block that follows, if any


def parse(path):
    """The code blocks of the page, each with its output block. Raises
    ValueError (with file:line) where the page breaks the rules."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, last, i = [], None, 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        where = "%s:%d" % (path, i + 1)
        if m.group(1):
            # Indented fences (in lists) would be easy to miss here.
            raise ValueError("%s: indented fence; write it at column 0" % where)
        kind = " ".join(m.group(2).split())
        end = i + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end == len(lines):
            raise ValueError("%s: fence never closed" % where)
        text = "\n".join(lines[i + 1:end]) + "\n"
        if kind == "output":
            if last is None or last.expected is not None:
                raise ValueError("%s: an output block must follow a code block" % where)
            last.expected = (i + 1, text)
        elif kind in CODE_KINDS:
            last = Block(kind, i + 1, text)
            blocks.append(last)
        else:
            raise ValueError("%s: fence '```%s': nothing runs it (runnable: %s; "
                             "expected output: output)" % (where, kind, ", ".join(CODE_KINDS)))
        i = end + 1
    return blocks


def line_pattern(expected):
    return re.compile(".*".join(re.escape(part) for part in expected.split("[..]")))


def output_matches(expected, actual):
    """Whether `actual` (lines) matches `expected` (lines with `...` and
    `[..]`), by the set of output positions each prefix of `expected` can
    end at; no recursion, so a PTX listing of thousands of lines is fine."""
    ends = {0}
    for want in expected:
        if want == "...":
            ends = set(range(min(ends), len(actual) + 1)) if ends else set()
        else:
            pattern = line_pattern(want)
            ends = {j + 1 for j in ends if j < len(actual) and pattern.fullmatch(actual[j])}
        if not ends:
            return False
    return len(actual) in ends


def normalized(text):
    # Tabs expanded: PTX is indented with them, and an editor may not keep
    # them in the page.
    lines = [line.expandtabs(8).rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def page_lines(block):
    """The block's text, preceded by empty lines up to its first line."""
    return "\n" * block.line + block.text


def torch_cuda():
    """Why GPU blocks cannot run here, or None when they can."""
    probe = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.cuda.is_available())"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    if probe.returncode != 0:
        return "no torch"
    return None if probe.stdout.strip() == "True" else "torch sees no CUDA device"


def run_block(block, workdir, env):
    """What went wrong (None: nothing) and what the block printed."""
    if block.kind == "sh":
        command = ["bash", "-e", "-o", "pipefail", "-c", block.text]
        # A sanitized build's lit preloads ASan's shared runtime for the
        # Python interpreter (test/Python/lit.local.cfg); its tools carry
        # their own, and refuse to start beside a second one ("linked
        # against incompatible ASan runtimes": the CI's sanitized phase).
        env = {k: v for k, v in env.items() if k != "LD_PRELOAD"}
    else:
        # Named after the block's line and padded to it, so that a
        # traceback's line numbers are the page's.
        script = os.path.join(workdir, ".block-%d.py" % block.line)
        with open(script, "w", encoding="utf-8") as f:
            f.write(page_lines(block))
        command = [sys.executable, script]
    try:
        done = subprocess.run(command, cwd=workdir, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              timeout=BLOCK_TIMEOUT_S)
        return None if done.returncode == 0 else "exit status %d" % done.returncode, done.stdout
    except subprocess.TimeoutExpired as e:
        # What was captured comes as bytes here, whatever text mode says.
        printed = e.stdout or b""
        if isinstance(printed, bytes):
            printed = printed.decode("utf-8", "replace")
        return "timed out after %d s" % BLOCK_TIMEOUT_S, printed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", help="the Markdown file")
    parser.add_argument("--tools", required=True, help="the folder of ewc-run and ewc-opt")
    parser.add_argument("--keep", action="store_true",
                        help="keep the working directory and print its path")
    args = parser.parse_args()
    name = os.path.basename(args.page)
    try:
        blocks = parse(args.page)
    except (OSError, ValueError) as e:
        print("error: %s" % e)
        return 2

    workdir = tempfile.mkdtemp(prefix="ewc-tutorial-")
    env = dict(os.environ)
    env["PATH"] = os.path.abspath(args.tools) + os.pathsep + env.get("PATH", "")
    env["EWC_CACHE_DIR"] = os.path.join(workdir, "cache")
    # Python's prints and tracebacks in the order they happened.
    env["PYTHONUNBUFFERED"] = "1"
    # The blocks run elsewhere, so a relative PYTHONPATH=python or
    # EWC_LIBRARY=build/lib/libewc.so from the repository root would miss.
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(
            os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    if env.get("EWC_LIBRARY"):
        env["EWC_LIBRARY"] = os.path.abspath(env["EWC_LIBRARY"])

    no_gpu = torch_cuda() if any(b.kind == "python gpu" for b in blocks) else None
    ran = matched = skipped = failures = 0
    for block in blocks:
        where = "%s:%d" % (args.page, block.line)
        if block.kind == "python gpu" and no_gpu:
            try:
                compile(page_lines(block), args.page, "exec")
            except SyntaxError as e:
                print("%s: python gpu block does not compile: %s" % (where, e))
                failures += 1
            skipped += 1
            continue
        trouble, printed = run_block(block, workdir, env)
        ran += 1
        if trouble:
            print("%s: %s block failed (%s); it printed:" % (where, block.kind, trouble))
            print(printed, end="" if printed.endswith("\n") else "\n")
            failures += 1
            continue
        actual = normalized(printed)
        if block.expected is None:
            if actual:
                print("%s: %s block printed this but has no output block:"
                      % (where, block.kind))
                print("\n".join(actual))
                failures += 1
            continue
        expected_line, expected_text = block.expected
        expected = normalized(expected_text)
        if output_matches(expected, actual):
            matched += 1
            continue
        print("%s:%d: the output of the %s block at line %d differs "
              "(--- shown, +++ printed; `...` and `[..]` are wildcards):"
              % (args.page, expected_line, block.kind, block.line))
        for diff_line in difflib.unified_diff(expected, actual, "shown", "printed", lineterm=""):
            print(diff_line)
        failures += 1

    if args.keep:
        print("working directory: %s" % workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print("%s: %d blocks run, %d outputs match, %d skipped (gpu%s)"
          % (name, ran, matched, skipped, ": " + no_gpu if no_gpu else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
