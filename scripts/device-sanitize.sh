#!/usr/bin/env bash
# compute-sanitizer over the GPU code, run on the device machine after
# scripts/device-run.sh has unpacked the tools into /tmp/ewc-device.
#
# The matrix: the tools memcheck (with --leak-check full), initcheck and
# racecheck; every element type (test/Integration/Inputs/dtypes.ew has one
# kernel per type: f16, bf16, f32 through the others' f32 compute, f64, i32,
# i64, bool) plus a math kernel through libdevice (kernels/gelu.ew, f32) and
# the f32 and bf16 LeakyReLU; n in {0, 1, 3, 4, 5, 127, 128, 129, 1023, 1024,
# 1025, 2^20 + 1}, chosen around the vector widths (4 f32 or 8 bf16 per 16
# bytes) and the 128-thread block; base offsets of 0 to 3 elements, which
# move every tensor off its 16-byte alignment so the prologue, the vector
# body and the tail all run. Each case is one `ewc-run --inputs special` that
# must also print True.
#
# EWC_SANITIZE_MATRIX=shapes runs the shaped matrix instead: memcheck and
# initcheck over the N-D kernels of kernels/ (bias_gelu, row_scale,
# outer_add, transpose_add, batch_bias, the f32 and bf16 LeakyReLU over
# '...') in every ewc-run --layout, at offsets 0, 1 and 3: strided,
# broadcast, transposed and misaligned accesses, the vectorized and the
# scalar versions of each loop; and LeakyReLU with one tensor's alignment
# apart from the other's (--offset x=K, out0=K: the shifted variant).
#
# EWC_SANITIZE_MATRIX=reductions: memcheck, initcheck and racecheck over the
# reduction and scan kernels of kernels/ (the rows schedule and a thread per
# point) at odd extents around the warp (rows of 0, 33, 1000 and 3000, so
# that the lanes' unrolled chunks, their tails, idle lanes and a team of
# several warps with its shared slots and barriers all run),
# contiguous at offset 0 and in a random layout at offset 1.
#
# EWC_SANITIZE_MATRIX=random: memcheck and initcheck over issue 17's random
# numbers (test/Integration/Inputs/random.ew; kernels/dropout.ew and
# kernels/gaussian_noise.ew over batches of one to three dimensions,
# index_flat's position included), contiguous and strided.
#
# EWC_SANITIZE_MATRIX=vocabulary: memcheck and initcheck over issue 18's
# operations (the golden inputs of the math functions through libdevice, the
# remainders, sign and fma, the bitwise operations and shifts, the 8-, 16-
# and unsigned integer types, the 8-bit floats and bitcast, and the kernels
# rotary_embedding, hash, nan_to_zero, softplus, quantize, fp8_quantize) at
# extents around the vector widths (16 one-byte elements a vector) and the
# block, aligned and three elements in.
#
# The three tools run side by side (one GPU, 16 host cores); each case's
# verdict and the sanitizer's error summary go to one line of
# $OUT/sanitize-cases.txt, the whole log of every case that was not clean to
# $OUT/sanitize-failures.log. Prints a table last; exits non-zero when any case
# reported an error or did not print True.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=kernel-args.sh
source "$root/scripts/kernel-args.sh"
cd "$root" || exit 2
ewc=${EWC_RUN:-/tmp/ewc-device/bin/ewc-run}
sanitizer=${COMPUTE_SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
logs=${OUT:-/tmp}
# kernels/leaky_relu.ew is generic: each run checks it in f16, bf16, f32
# and f64.
files=(test/Integration/Inputs/dtypes.ew kernels/gelu.ew kernels/leaky_relu.ew)
sizes=(0 1 3 4 5 127 128 129 1023 1024 1025 1048577)
offsets=(0 1 2 3)
shape_files=(kernels/bias_gelu.ew kernels/row_scale.ew kernels/outer_add.ew
             kernels/transpose_add.ew kernels/batch_bias.ew kernels/leaky_relu.ew)

# one TOOL FILE OFFSET ARG...: one case (the ARGs go to ewc-run); prints its
# line, and keeps the whole log of a case that was not clean.
one() {
  local tool=$1 file=$2 off=$3 extra=() log rc verdict errors
  shift 3
  [[ $tool == memcheck ]] && extra=(--leak-check full)
  log=$(mktemp)
  "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
    "$ewc" "$file" --device cuda --inputs special --offset "$off" "$@" \
    >"$log" 2>&1
  rc=$?
  verdict=$(grep -cx True "$log")
  # memcheck and initcheck end with "ERROR SUMMARY: N errors", racecheck
  # with "RACECHECK SUMMARY: K hazards displayed (N errors, W warnings)".
  errors=$(grep -oE 'ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: .*\([0-9]+ error' "$log" |
           grep -oE '[0-9]+ error' | grep -oE '[0-9]+' | tail -1)
  local what="$*"
  if ((rc != 0)) || [[ "${errors:-?}" != 0 ]]; then
    { echo "=== $tool $file offset=$off $what"; cat "$log"; } \
      >"$faildir/$tool-$(basename "$file")-$off-${what//[^A-Za-z0-9=]/_}.log"
  fi
  rm -f "$log"
  printf '%s %s offset=%s %s rc=%s true=%s errors=%s\n' "$tool" \
    "$(basename "$file")" "$off" "$what" "$rc" "$verdict" "${errors:-?}"
}
export -f one
faildir=$(mktemp -d)
export ewc sanitizer logs faildir

"$sanitizer" --version | tail -1
start=$(date +%s)
# Every case is its own process (a CUDA context, a compile, the sanitizer's
# instrumentation: seconds each); 12 at a time on the 16 cores.
cases() {
  local tool file n off layout
  if [[ "${EWC_SANITIZE_MATRIX:-dtypes}" == shapes ]]; then
    # The shaped kernels in every layout of ewc-run --layout (each tensor a
    # strided view: padded rows, transposed, every other element, or each
    # its own), misaligned by the offset; odd extents (m = 37, n = 129), so rows start
    # at every alignment; '...' as 3x2.
    for tool in memcheck initcheck; do
      for file in "${shape_files[@]}"; do
        for layout in contiguous padded transposed strided random; do
          for off in 0 1 3; do
            if grep -q '\.\.\.' "$file"; then
              echo "$tool $file $off --layout $layout --n 129 --batch 3x2"
            else
              echo "$tool $file $off --layout $layout --dim m=37 --n 129"
            fi
          done
        done
      done
      # One tensor's alignment apart (the shifted variant: two aligned
      # vectors around each of x's, which must stay inside x): x one to three
      # elements in beside an aligned output and the reverse, at extents
      # around the loop's edges.
      for file in kernels/leaky_relu.ew; do
        for apart in x=1 x=2 x=3 out0=1 out0=3; do
          for n in 5 9 129 1025; do
            echo "$tool $file 0 --offset $apart --n $n"
          done
        done
      done
    done
    return
  fi
  if [[ "${EWC_SANITIZE_MATRIX:-dtypes}" == vocabulary ]]; then
    for tool in memcheck initcheck; do
      for file in test/Integration/Golden/Inputs/transcendental.ew \
          test/Integration/Golden/Inputs/remainder.ew \
          test/Integration/Golden/Inputs/bitwise.ew \
          test/Integration/Golden/Inputs/integers.ew kernels/quantize.ew \
          test/Integration/Golden/Inputs/float8.ew kernels/fp8_quantize.ew \
          test/Integration/Golden/Inputs/bitcast.ew \
          kernels/hash.ew kernels/nan_to_zero.ew kernels/softplus.ew; do
        for n in 1 5 129 1025 1048577; do
          for off in 0 3; do
            echo "$tool $file $off --n $n"
          done
        done
      done
      # RoPE over [b, s, h] with the halves as views of one tensor: odd s and h.
      for layout in contiguous random; do
        echo "$tool kernels/rotary_embedding.ew 1 --layout $layout --batch 3 --dim s=37 --dim h=65"
      done
    done
    return
  fi
  if [[ "${EWC_SANITIZE_MATRIX:-dtypes}" == random ]]; then
    # Issue 17's random numbers: every kernel of random.ew (seeds of each
    # width, i32 and i64 offsets) and the dropout and noise kernels over a
    # batch (index_flat), contiguous and strided, aligned and three in.
    for tool in memcheck initcheck; do
      for n in 1 5 129 1025 1048577; do
        for off in 0 3; do
          echo "$tool test/Integration/Inputs/random.ew $off --dim m=3 --dim n=$n"
        done
      done
      for layout in contiguous random; do
        for batch in 1 7x129 3x5x1025; do
          echo "$tool kernels/dropout.ew 1 --layout $layout --batch $batch"
          echo "$tool kernels/gaussian_noise.ew 1 --layout $layout --batch $batch"
        done
      done
    done
    return
  fi
  if [[ "${EWC_SANITIZE_MATRIX:-dtypes}" == reductions ]]; then
    local row
    for tool in memcheck initcheck racecheck; do
      for n in 0 33 1000 3000; do
        for layout in contiguous random; do
          off=0
          [[ $layout == random ]] && off=1
          {
            row="--layout $layout --n $n"
            echo "$tool kernels/softmax.ew $off $row --batch 5x3"
            echo "$tool kernels/layernorm.ew $off $row --batch 7"
            echo "$tool kernels/rmsnorm.ew $off $row --batch 7"
            echo "$tool kernels/log_softmax.ew $off $row --batch 7"
            echo "$tool kernels/logsumexp.ew $off $row --dim m=37"
            echo "$tool kernels/row_cumsum.ew $off $row --dim m=37"
            echo "$tool kernels/column_sum.ew $off $row --dim m=37"
            # The columns schedule split across blocks: the workspace, the
            # tickets, the shared slots between a tile and the next.
            echo "$tool kernels/column_sum.ew $off $row --dim m=1000 --splits 7"
            echo "$tool test/Integration/Inputs/columns.ew $off $row --dim m=300 --kernel column_stats --splits 3"
            # Scans split into tiles: the counter, the flags, the look-back,
            # the shared slots between a tile and the next.
            echo "$tool kernels/row_cumsum.ew $off $row --dim m=3 --splits 40"
            echo "$tool test/Integration/Inputs/scans.ew $off $row --dim m=2 --kernel row_scans --splits 5"
            # Online groups: the long rows' variant (blocks of 512), its
            # lanes' and warps' (max, sum) states through the shared slots.
            echo "$tool kernels/softmax.ew $off $row --batch 5 --rows-block-size 512"
            echo "$tool kernels/logsumexp.ew $off $row --dim m=7 --rows-block-size 512"
            # Rows kept in registers: every slot's load behind its mask, the
            # rest of a row past the slots (two a lane) looped over.
            echo "$tool kernels/softmax.ew $off $row --batch 5 --rows-resident 32"
            echo "$tool kernels/rmsnorm.ew $off $row --batch 5 --rows-resident 2"
          }
        done
      done
      # Decode attention's points on the lanes: a head of 64 (the pass that
      # fits), of 128 (the full pass), of 130 (the loops, two passes); caches
      # of 1 to 20000 (blocks of 128 and 512: the warps' states merged per
      # lane through the shared slots).
      for sd in 1:64 33:64 100:64 1000:128 100:130 20000:128; do
        s=${sd%:*} d=${sd#*:}
        echo "$tool kernels/decode_attention.ew 0 --dim b=2 --dim h=3 --dim s=$s --dim d=$d --arg scale=0.125"
        echo "$tool kernels/gqa_decode_attention.ew 0 --dim b=2 --dim g=2 --dim r=4 --dim s=$s --dim d=$d --arg scale=0.125"
      done
      # Its rows split across blocks that meet in the workspace (RowAccess.h;
      # the runtime splits the 6 rows above too): 7 splits of 33 (most warps'
      # states empty), two passes' tickets, one row of 20000 at the
      # runtime's splits.
      echo "$tool kernels/decode_attention.ew 0 --dim b=2 --dim h=3 --dim s=33 --dim d=64 --arg scale=0.125 --splits 7"
      echo "$tool kernels/decode_attention.ew 0 --dim b=1 --dim h=3 --dim s=1000 --dim d=130 --arg scale=0.125 --splits 3"
      echo "$tool kernels/decode_attention.ew 0 --dim b=1 --dim h=1 --dim s=20000 --dim d=128 --arg scale=0.125"
    done
    return
  fi
  for tool in memcheck initcheck racecheck; do
    for file in "${files[@]}"; do
      for n in "${sizes[@]}"; do
        for off in "${offsets[@]}"; do
          echo "$tool $file $off --n $n"
        done
      done
    done
  done
}
cases | xargs -P "${JOBS:-12}" -L 1 bash -c 'one "$@"' _ >"$logs/sanitize-cases.txt"
echo "matrix ran in $(($(date +%s) - start)) s"
# One file for every unclean case's log: the device call brings back 8 files.
cat "$faildir"/*.log >"$logs/sanitize-failures.log" 2>/dev/null
rm -rf "$faildir"

failed=0
printf '%-10s %6s %6s %8s\n' tool cases clean printed-True
for tool in memcheck initcheck racecheck; do
  f=$logs/sanitize-cases.txt
  grep -q "^$tool " "$f" || continue
  cases=$(grep -c "^$tool " "$f")
  clean=$(grep "^$tool " "$f" | grep -c 'rc=0 .* errors=0$')
  # One True per case: a file's kernels print one verdict together.
  printed=$(grep "^$tool " "$f" | grep -c 'true=1 ')
  printf '%-10s %6s %6s %8s\n' "$tool" "$cases" "$clean" "$printed"
  ((cases == clean && cases == printed && cases > 0)) || failed=1
done
exit "$failed"
