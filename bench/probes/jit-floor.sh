#!/usr/bin/env bash
# The driver's PTX JIT alone (bench/probes/jit-floor.cpp) on the PTX that
# ewc hands it for LeakyReLU and GELU: the tiered quick code's (LLVM at O0,
# EWC_PTX_OPT_LEVEL=0) and the optimized code's, beside an empty kernel,
# with the compute cache off; then ptxas the program on the same files for
# comparison. Run on the device machine after scripts/device-run.sh's
# unpack step: EWC_RUN names the packed ewc-run (default
# /tmp/ewc-device/bin/ewc-run). Output on stdout; scratch files in $TMPDIR.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ewc_run=${EWC_RUN:-/tmp/ewc-device/bin/ewc-run}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

c++ -std=c++17 -O2 -I/usr/local/cuda/include "$root/bench/probes/jit-floor.cpp" \
  -L/usr/local/cuda/lib64/stubs -lcuda -o "$work/jit-floor"

# The PTX of LLVM at O0 (the quick code's), O1 and O2 (the optimized
# code's), and what making it costs ewc (`--timing`'s PTX stage, a process
# each, medians of 3).
files=()
for kernel in leaky_relu gelu; do
  types=()
  [[ $kernel == leaky_relu ]] && types=(--type T=f32)
  for level in 0 1 2; do
    EWC_PTX_OPT_LEVEL=$level "$ewc_run" "$root/kernels/$kernel.ew" "${types[@]}" --emit ptx \
      > "$work/$kernel-llvm$level.ptx"
    files+=("$work/$kernel-llvm$level.ptx")
    for _ in 1 2 3; do
      EWC_PTX_OPT_LEVEL=$level "$ewc_run" "$root/kernels/$kernel.ew" "${types[@]}" --emit ptx \
        --timing 2>&1 >/dev/null | awk '/nvvm-to-ptx/ {print $1 * 1000}'
    done | sort -n | sed -n 2p | xargs printf "LLVM -O$level $kernel: PTX stage %.1f ms (median of 3)\n"
  done
done

# Twice, the second time in the reverse order: a file's place in the run
# must not be what its time says.
reversed=()
for ((i = ${#files[@]} - 1; i >= 0; i--)); do reversed+=("${files[i]}"); done
CUDA_CACHE_DISABLE=1 "$work/jit-floor" --rounds=${ROUNDS:-10} "${files[@]}" "${reversed[@]}"

# ptxas as a program: its process start included, as Triton pays it.
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
for file in "${files[@]}"; do
  for level in 0 3; do
    start=$(date +%s%N)
    for _ in 1 2 3 4 5; do
      /usr/local/cuda/bin/ptxas -arch=sm_$arch -O$level "$file" -o "$work/out.cubin"
    done
    end=$(date +%s%N)
    printf 'ptxas -O%d %-40s mean of 5: %.1f ms\n' "$level" "$(basename "$file")" \
      "$(awk -v a="$start" -v b="$end" 'BEGIN {print (b - a) / 5e6}')"
  done
done
