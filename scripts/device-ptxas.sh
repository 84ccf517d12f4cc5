#!/usr/bin/env bash
# CUDA 13.0's ptxas miscompiles (docs/fuzzing.md, bug 4; docs/ptxas-bug/), on
# the device machine after scripts/device-run.sh's unpack step:
#
#   repro     docs/ptxas-bug/repro.py: the hand-written PTX cases at ptxas
#             -O3/-O2/-O1/-O0 and through the driver's JIT, with their SASS
#   levels    test/Integration/Inputs/ptxas-bugs.ew through ewc-run with ptxas
#             at each level (EWC_PTXAS_OPTIONS), and LeakyReLU's and GELU's
#             bandwidth at each level (n = 2^28)
#   workarounds  ewc's PTX rewrites (ptxas-workarounds): ptxas-bugs.ew and the
#             reduced programs of test/Integration/GPU/Fuzzed with all of
#             them, none, and each one left out; then the bandwidth of a few
#             kernels with all and with none
#   reruns    the GPU mismatches of the H200 fuzz runs of 2026-11-30 (seeds
#             2-4, after the bf16 fix), each rerun alone at ptxas's default
#             and at -O0, then reduced (--reduce) with what it reduces to
#             saved under $OUT/reduced
#
# PTXAS_STEPS="repro levels" runs only those. Logs go to $OUT (else /tmp).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=kernel-args.sh
source "$root/scripts/kernel-args.sh"
cd "$root" || exit 2
bin=${EWC_BIN:-/tmp/ewc-device/bin}
logs=${OUT:-/tmp}
only=" ${PTXAS_STEPS:-repro levels workarounds reruns} "
want() { [[ "$only" == *" $1 "* ]]; }

if want repro; then
  echo "=== repro"
  python3 docs/ptxas-bug/repro.py --sass "$logs/sass" 2>&1 | tee "$logs/ptxas-repro.log"
  tar -C "$logs" -czf "$logs/ptxas-sass.tar.gz" sass && rm -rf "$logs/sass"
fi

if want levels; then
  echo "=== levels"
  for level in 3 2 1 0; do
    echo "-- ptxas -O$level: $(EWC_NO_CACHE=1 EWC_PTXAS_OPTIONS=-Xptxas=-O$level "$bin/ewc-run" \
      test/Integration/Inputs/ptxas-bugs.ew --device cuda --inputs special --n 257 2>&1 | tr '\n' ' ')"
    for k in leaky_relu gelu; do
      echo "   $k: $(EWC_NO_CACHE=1 EWC_PTXAS_OPTIONS=-Xptxas=-O$level "$bin/ewc-run" \
        $(kernel_args $k) --device cuda --n 268435456 --bench 2>/dev/null | grep -o '[0-9.]*% of the copy' | tr '\n' ' ')"
    done
  done 2>&1 | tee "$logs/ptxas-levels.log"
fi

# One line per rewrite set: how many of the inputs print True.
try_workarounds() {  # SET
  local set=$1 ok=0 all=0 wrong=() f seed
  for f in test/Integration/Inputs/ptxas-bugs.ew test/Integration/GPU/Fuzzed/*.ew; do
    all=$((all + 1))
    seed=$(grep '^# RUN:.*--device cuda' "$f" | grep -o -- '--seed [0-9]*')
    if EWC_PTXAS_WORKAROUNDS=$set "$bin/ewc-run" "$f" --device cuda --n 257 --inputs special \
      $seed --no-cache 2>/dev/null | grep -q '^True$'; then
      ok=$((ok + 1))
    else
      wrong+=("$(basename "$f" .ew)")
    fi
  done
  echo "workarounds=$set: $ok of $all True; wrong: ${wrong[*]:-none}"
}
export -f try_workarounds
export bin
if want workarounds; then
  echo "=== workarounds"
  printf '%s\n' all none float-abs,float-select,int-minmax int-abs,float-select,int-minmax \
    int-abs,float-abs,int-minmax int-abs,float-abs,float-select int-abs float-abs float-select int-minmax |
    xargs -P 6 -I{} bash -c 'try_workarounds {}' | tee "$logs/ptxas-workarounds.log"
  [[ "${PTXAS_BENCH:-1}" == 1 ]] && for k in leaky_relu leaky_relu_bf16 gelu clamp int_ops hardswish; do
    for set in all none; do
      echo "$k workarounds=$set: $(EWC_NO_CACHE=1 EWC_PTXAS_WORKAROUNDS=$set "$bin/ewc-run" \
        $(kernel_args $k) --device cuda --n 268435456 --bench 2>/dev/null | grep -o '[0-9.]*% of the copy' | tr '\n' ' ')"
    done
  done 2>&1 | tee -a "$logs/ptxas-workarounds.log"
fi

# seed:program of each mismatch (records/2026-11-30-h200-fuzz-seed{2,3,4}.log).
mismatches="2:634 2:2914 2:3969 2:4140 2:4701 2:8256 2:9195 2:11608 2:12199 2:14155
  2:15160 2:16099 2:16540 2:17337 2:18384 2:21907 2:25880 2:28448 2:28559 2:28971
  3:8510 3:11197 3:11448 3:12056 3:14317
  4:9585 4:10927 4:11575 4:11834 4:12453 4:12718 4:14099 4:14937 4:16413 4:19829"
rerun() {  # SEED:PROGRAM -> one line: default verdict, -O0 verdict
  local seed=${1%%:*} program=${1##*:} a b
  a=$("$bin/ewc-fuzz" --device cuda --seed "$seed" --first "$program" --count 1 --n 257 \
    --inputs special 2>&1 | tail -1 | grep -o '[0-9]* ok, [0-9]* mismatch')
  b=$(EWC_PTXAS_OPTIONS=-Xptxas=-O0 "$bin/ewc-fuzz" --device cuda --seed "$seed" --first "$program" \
    --count 1 --n 257 --inputs special 2>&1 | tail -1 | grep -o '[0-9]* ok, [0-9]* mismatch')
  echo "seed $seed program $program: default [$a] -O0 [$b]"
}
reduce() {
  local seed=${1%%:*} program=${1##*:}
  timeout 100 "$bin/ewc-fuzz" --device cuda --seed "$seed" --first "$program" --count 1 --n 257 \
    --inputs special --reduce --save-failures "$logs/reduced/s$seed-p$program" \
    >"$logs/reduced/s$seed-p$program.log" 2>&1
}
export -f rerun reduce
export bin logs
if want reruns; then
  echo "=== reruns"
  echo $mismatches | tr ' ' '\n' | xargs -P 8 -I{} bash -c 'rerun {}' | sort -V | tee "$logs/ptxas-reruns.log"
  mkdir -p "$logs/reduced"
  echo $mismatches | tr ' ' '\n' | xargs -P 16 -I{} bash -c 'reduce {}'
  tar -C "$logs" -czf "$logs/ptxas-reduced.tar.gz" reduced && rm -rf "$logs/reduced"
  echo "reduced: $(tar -tzf "$logs/ptxas-reduced.tar.gz" | grep -c '\.ew$') .ew files"
fi
