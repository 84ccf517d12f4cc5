#!/usr/bin/env bash
# Builds ewc (scripts/build.sh) and runs the whole lit suite. The last line of
# output is always
#
#   N passed, N failed[, N skipped]
#
# counted from lit's own summary: "Passed" and "Passed With Retry" pass,
# "Unsupported" is skipped (e.g. GPU tests on a machine without one), every
# other outcome (Failed, Unresolved, Timed Out, Expectedly Failed, Unexpectedly
# Passed, ...) counts as failed. Exits non-zero when a test failed, when lit
# found no tests, or when the build or lit itself broke.
#
#   scripts/test.sh [LIT_ARG ...]      e.g. --filter Frontend
#
# EWC_BUILD_DIR overrides the build directory (default build/); EWC_CMAKE_ARGS
# adds -D flags to its configure (scripts/test-sanitized.sh).
# EWC_TEST_SANITIZED=1 also runs scripts/test-sanitized.sh and counts both.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${EWC_BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-22/bin/lit

finish() { # passed failed skipped status [reason]
  [[ -n "${5:-}" ]] && echo "test: $5"
  local line="$1 passed, $2 failed"
  (($3)) && line+=", $3 skipped"
  echo "$line"
  exit "$4"
}

# shellcheck disable=SC2086 # EWC_CMAKE_ARGS is a list of -D flags
if ! "$root/scripts/build.sh" "$build_dir" ${EWC_CMAKE_ARGS:-}; then
  finish 0 0 0 1 "build failed, no tests ran"
fi

log=$build_dir/test/lit.log
mkdir -p "$build_dir/test"
echo "test: lit -v $build_dir/test $*"
python3 "$lit" -v "$build_dir/test" "$@" 2>&1 | tee "$log"
lit_status=${PIPESTATUS[0]}

# lit prints its summary as "  <Label>: <count> (<percent>%)" lines after
# "Total Discovered Tests: <n>".
read -r total passed failed skipped < <(python3 - "$log" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
# Only the summary at the very end counts, not test output that looks alike.
totals = list(re.finditer(r"^Total Discovered Tests: (\d+)$", text, re.M))
total = totals[-1] if totals else None
summary = text[total.end():] if total else ""
counts = {m.group(1): int(m.group(2)) for m in
          re.finditer(r"^  ([A-Za-z][A-Za-z ]*?) *: *(\d+) \(", summary, re.M)}
passed = counts.pop("Passed", 0) + counts.pop("Passed With Retry", 0)
skipped = counts.pop("Unsupported", 0)
failed = sum(counts.values())
print(total.group(1) if total else -1, passed, failed, skipped)
PY
)
total=${total:--1} passed=${passed:-0} failed=${failed:-0} skipped=${skipped:-0}

if ((total < 0)); then
  finish 0 0 0 1 "lit ended without a summary (exit $lit_status, log $log)"
elif ((total == 0)); then
  finish 0 0 0 1 "lit found no tests"
fi
status=0 reason=
if ((failed > 0)); then
  status=1
elif ((lit_status != 0)); then
  status=1 reason="lit exited with status $lit_status"
fi

# EWC_TEST_SANITIZED=1 (CI, .ci/run): then the whole suite again on the
# sanitized build with the 60-second fuzzer runs (scripts/test-sanitized.sh),
# its counts added to these.
if [[ "${EWC_TEST_SANITIZED:-0}" == 1 ]]; then
  san_log=$build_dir/test/sanitized.log
  echo "test: the sanitized build, scripts/test-sanitized.sh $*"
  EWC_TEST_SANITIZED=0 "$root/scripts/test-sanitized.sh" "$@" 2>&1 | tee "$san_log"
  san_status=${PIPESTATUS[0]}
  read -r p f s < <(tail -n 1 "$san_log" |
    sed -nE 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/p')
  if [[ -z "${p:-}" ]]; then
    status=1 reason="the sanitized run ended without counts (log $san_log)"
  else
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
    ((san_status == 0)) || status=1
  fi
fi
finish "$passed" "$failed" "$skipped" "$status" "$reason"
