#!/usr/bin/env bash
# The sanitized build (docs/fuzzing.md, "Sanitized build"): ewc built by
# clang-22 with AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer
# in build-fuzz/, with the libFuzzer targets of fuzz/, then the whole lit
# suite on it, test/Fuzz's 60-second fuzzer runs included. Output and exit
# status as scripts/test.sh's (its last line is "N passed, N failed...").
#
#   scripts/test-sanitized.sh [LIT_ARG ...]
#   scripts/test-sanitized.sh --build-only [NINJA_TARGET ...]
#
# EWC_SANITIZED_BUILD_DIR overrides build-fuzz/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${EWC_SANITIZED_BUILD_DIR:-$root/build-fuzz}

"$root/scripts/setup.sh" fuzz
# The compiler is chosen at the first configure and kept in the cache.
export CC=clang-22 CXX=clang++-22
flags=(-DEWC_SANITIZERS=address,undefined -DEWC_FUZZERS=ON)

if [[ "${1:-}" == --build-only ]]; then
  shift
  exec "$root/scripts/build.sh" "$build_dir" "${flags[@]}" "$@"
fi
EWC_BUILD_DIR=$build_dir EWC_CMAKE_ARGS="${flags[*]}" exec "$root/scripts/test.sh" "$@"
