#!/usr/bin/env bash
# The edges that the lit suite cannot afford, run on the device machine after
# scripts/device-run.sh has unpacked the tools into /tmp/ewc-device:
#
#   big-bf16  bf16 LeakyReLU over 2^31 + 5 elements (64-bit indices), checked
#   big-f32   f32 LeakyReLU over 2^31 + 11 elements, checked
#   host      a whole `ewc-run --n 268435459` (2^28 + 3), wall time, with
#             --timing's report of every stage in its log
#   host-cpu  the same on the CPU JIT (--device cpu), where the host's own
#             stages (inputs, outputs, reference) are easiest to see
#   fuzz      ewc-fuzz --device both --jobs 16: 100,000 random programs on
#             the GPU and the CPU JIT, each checked against the reference
#   nodev     CUDA_VISIBLE_DEVICES= (driver present, no device): --device auto
#             falls back to the CPU with a note; --device cuda is an error
#
# Each prints its output and wall time; logs go to $OUT (or /tmp). Exits
# non-zero when a check did not give what it should.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
ewc=${EWC_RUN:-/tmp/ewc-device/bin/ewc-run}
fuzz=${EWC_FUZZ:-$(dirname "$ewc")/ewc-fuzz}
logs=${OUT:-/tmp}
failed=0

# check NAME EXPECTED_EXIT COMMAND...: runs COMMAND, times it, compares its
# exit status.
# EDGES="host fuzz" runs only the checks named; EWC_FUZZ_SECONDS bounds the
# fuzz run (ewc-fuzz --time-limit: no program starts after it) so that it
# ends inside one device call.
only=" ${EDGES:-} "
check() {
  local name=$1 want=$2
  shift 2
  [[ "$only" == "  " || "$only" == *" $name "* ]] || return 0
  local start end status
  start=$(date +%s.%N)
  "$@" >"$logs/edge-$name.log" 2>&1
  status=$?
  end=$(date +%s.%N)
  printf '%-9s exit %d (want %d) %6.1f s  %s\n' "$name" "$status" "$want" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')" \
    "$(tr '\n' ' ' <"$logs/edge-$name.log" | cut -c1-150)"
  ((status == want)) || failed=1
}

check big-bf16 0 "$ewc" kernels/leaky_relu.ew --type T=bf16 --device cuda --n 2147483653
check big-f32 0 "$ewc" kernels/leaky_relu.ew --type T=f32 --device cuda --n 2147483659
check host 0 "$ewc" kernels/leaky_relu.ew --type T=f32 --device cuda --n 268435459 --timing
check host-cpu 0 "$ewc" kernels/leaky_relu.ew --type T=f32 --device cpu --n 268435459 --timing
check fuzz 0 "$fuzz" --device both --jobs 16 --seed 1 --count 100000 --n 257 --inputs special \
  --time-limit "${EWC_FUZZ_SECONDS:-0}"
check nodev 0 env CUDA_VISIBLE_DEVICES= "$ewc" kernels/leaky_relu.ew --n 1000
check nodev-cuda 2 env CUDA_VISIBLE_DEVICES= "$ewc" kernels/leaky_relu.ew --device cuda --n 1000
exit "$failed"
