#!/usr/bin/env bash
# Runs one libFuzzer target of fuzz/ (docs/fuzzing.md, "Fuzzing") from the
# sanitized build, with its seed corpus and dictionary.
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_ARG ...]
#
# TARGET: frontend, compile, ew-opt or npy. Builds build-fuzz/ first
# (scripts/test-sanitized.sh --build-only) unless EWC_FUZZ_NO_BUILD=1.
# What the fuzzer finds new is kept in build-fuzz/fuzz-corpus/TARGET/ (so a
# second run starts where the first stopped), crashes in
# build-fuzz/fuzz-artifacts/; EWC_FUZZ_WORK=DIR puts both in DIR instead
# (the lit tests of test/Fuzz). EWC_FUZZ_BUILD_DIR overrides build-fuzz/. The exit status is libFuzzer's: 0 when the
# time ran out with no crash, leak, timeout or sanitizer report.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${EWC_FUZZ_BUILD_DIR:-$root/build-fuzz}
if (($# < 2)); then
  echo "usage: scripts/fuzz.sh frontend|compile|ew-opt|npy SECONDS [LIBFUZZER_ARG ...]" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2

# Seeds: what the repository already has where it fits (the examples and
# the front-end tests for .ew text), else fuzz/corpus/TARGET/.
dict=$root/fuzz/dict/$target.dict
case $target in
  frontend) seeds=("$root/kernels" "$root/test/Frontend") ;;
  # The input is a generator seed (fuzz/CompileFuzzer.cpp): no dictionary.
  compile) seeds=("$root/fuzz/corpus/compile") dict= ;;
  ew-opt | npy) seeds=("$root/fuzz/corpus/$target") ;;
  *) echo "fuzz: unknown target '$target'" >&2; exit 2 ;;
esac

if [[ "${EWC_FUZZ_NO_BUILD:-0}" != 1 ]]; then
  "$root/scripts/test-sanitized.sh" --build-only "fuzz-$target"
fi

corpus=$build_dir/fuzz-corpus/$target
artifacts=$build_dir/fuzz-artifacts
if [[ -n "${EWC_FUZZ_WORK:-}" ]]; then
  corpus=$EWC_FUZZ_WORK/corpus artifacts=$EWC_FUZZ_WORK
fi
mkdir -p "$corpus" "$artifacts"
args=(-max_total_time="$seconds"
      # Seconds per input: a hang is a bug. EWC_FUZZ_INPUT_TIMEOUT raises
      # it where one big program is slow but no hang: under ASan on a
      # loaded 2-core machine, fuzz-compile took 44 s for a program with
      # eleven math functions whose NVPTX code generation takes 2.0 s in
      # the release build (CI, 2026-12-05).
      -timeout="${EWC_FUZZ_INPUT_TIMEOUT:-10}"
      -rss_limit_mb=4096
      -print_final_stats=1
      -artifact_prefix="$artifacts/$target-")
[[ -n "$dict" ]] && args+=(-dict="$dict")
set -x
exec "$build_dir/bin/fuzz-$target" "${args[@]}" "$@" "$corpus" "${seeds[@]}"
