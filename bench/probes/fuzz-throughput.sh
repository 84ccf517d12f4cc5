#!/usr/bin/env bash
# Where a GPU fuzz run's time goes, and how to spend the device's cores on it:
# ewc-fuzz on the GPU as one process of many threads (the driver's JIT and
# nvJitLink), as one thread alone (each program's uncontended times), as many
# processes of one thread (scripts/fuzz-processes.sh), and on the CPU alone
# for comparison; each for SECONDS with --timing. docs/fuzzing.md, "Where a
# GPU run's time goes", records a run.
#
#   bench/probes/fuzz-throughput.sh EWC_FUZZ SECONDS OUTDIR [workers]
#
# workers: the threads or processes of the parallel cases (default 14, the
# number the device runs use on a 16-core host).
set -uo pipefail
fuzz=$1 seconds=$2 outdir=$3 workers=${4:-14}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$outdir"
# Every feature in, as the issues' counts want them; one seed per case so
# that no two cases time the same programs.
flags=(--random --generic --reductions --inputs special --layout random
  --timing --time-limit "$seconds")
# The single-process cases' count (fuzz-processes.sh sets its own): far
# more than they reach, so that the time limit ends each case (the first
# run, without it, stopped the threads' cases at ewc-fuzz's default 100).
many=(--count 100000000)

run() {
  local name=$1
  shift
  echo "== $name"
  "$@" >"$outdir/$name.log" 2>&1
  echo "exit $?"
  grep -E '^[0-9]+ programs|^mean per program|^error' "$outdir/$name.log"
}

run cuda-1-thread "$fuzz" --device cuda --seed 9101 --jobs 1 "${flags[@]}" "${many[@]}"
run cuda-threads "$fuzz" --device cuda --seed 9102 --jobs "$workers" \
  "${flags[@]}" "${many[@]}"
EWC_PTX_ASSEMBLER=nvjitlink run cuda-threads-nvjitlink "$fuzz" \
  --device cuda --seed 9103 --jobs "$workers" "${flags[@]}" "${many[@]}"
echo "== cuda-processes"
bash "$root/scripts/fuzz-processes.sh" "$fuzz" "$workers" 1 \
  "$outdir/cuda-processes" --device cuda --seed 9104 "${flags[@]}"
echo "exit $?"
grep -h '^mean per program' "$outdir"/cuda-processes/fuzz-*.log | head -3
run cpu-threads "$fuzz" --device cpu --seed 9105 --jobs "$workers" \
  "${flags[@]}" "${many[@]}"
