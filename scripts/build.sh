#!/usr/bin/env bash
# Builds ewc: installs what is missing (setup.sh), configures with CMake and
# builds with Ninja.
#
#   scripts/build.sh [BUILD_DIR] [-DVAR=VALUE ...] [NINJA_TARGET ...]
#
# BUILD_DIR defaults to build/ in the repository. Arguments starting with -D go
# to CMake (e.g. -DEWC_SELF_CONTAINED=ON), the rest are Ninja targets (default:
# all). EWC_JOBS overrides the number of parallel jobs (default: nproc).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$root/build
if (($#)) && [[ "$1" != -D* ]]; then
  build_dir=$1
  shift
fi
[[ "$build_dir" = /* ]] || build_dir=$PWD/$build_dir

cmake_args=()
targets=()
for a in "$@"; do
  if [[ "$a" == -D* ]]; then cmake_args+=("$a"); else targets+=("$a"); fi
done

"$root/scripts/setup.sh"

# Measured here (g++ 12, ld.bfd): compiling a file with MLIR headers peaks
# near 2 GiB (tools/ewc-opt/ewc-opt.cpp), the static link of ewc-opt near
# 0.8 GiB. Give each compile 2 GiB and each link 4 GiB (headroom for the bigger
# tools to come), never more jobs than cores.
mem_gib=$(awk '/MemTotal/ {print int($2 / 1048576)}' /proc/meminfo)
jobs=${EWC_JOBS:-$(nproc)}
((jobs <= mem_gib / 2)) || jobs=$((mem_gib / 2))
((jobs >= 1)) || jobs=1
link_jobs=$((mem_gib / 4))
((link_jobs <= jobs)) || link_jobs=$jobs
((link_jobs >= 1)) || link_jobs=1

echo "build: configure $build_dir ${cmake_args[*]:-}"
mkdir -p "$build_dir"
log=$build_dir/configure.log
cmake -S "$root" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DLLVM_PARALLEL_LINK_JOBS="$link_jobs" \
  "${cmake_args[@]}" >"$log" 2>&1 || {
    cat "$log" >&2
    echo "build: configure failed (log: $log)" >&2
    exit 1
  }

echo "build: ninja -j$jobs (links: $link_jobs at a time) ${targets[*]:-all}"
ninja -C "$build_dir" -j"$jobs" "${targets[@]}"
