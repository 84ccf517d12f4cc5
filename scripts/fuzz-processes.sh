#!/usr/bin/env bash
# Runs ewc-fuzz as PROCS processes of JOBS threads each, every process on its
# own range of program indices of one seed (--first), and adds up their
# summaries into one line of ewc-fuzz's own form, so that a run split this
# way counts (and reproduces: each failure's reproducer names its index) as
# one run of that seed.
#
#   scripts/fuzz-processes.sh EWC_FUZZ PROCS JOBS OUTDIR [ewc-fuzz flags...]
#
# The flags go to every process (--seed, --time-limit, --device, ...); do not
# pass --first or --count. Each process's output is OUTDIR/fuzz-K.log; each
# failure's first line, then the sum, are printed, and the exit status is
# that of the worst process.
#
# Why processes: on the GPU ewc-fuzz's threads share one process's CUDA
# driver, whose PTX JIT they may wait on (docs/fuzzing.md, "Where a GPU run's
# time goes", measures threads against processes).
#
# A process that dies (a crash that no CrashRecoveryContext catches: its
# handler runs on the stack that a stack overflow has used up) is, with one
# job, started again after the program it was running, which counts as a
# crash ("program N: DIED"), for what is left of --time-limit; with several
# jobs the program is not known, and the process stays dead.
#
# EWC_FUZZ_GPUS="0 1 ..." spreads the processes over those CUDA devices,
# process K on the (K mod N)-th (its CUDA_VISIBLE_DEVICES): a GPU run is
# bound by the host's cores, so a machine of several GPUs has the cores for
# more processes (scripts/device-run.sh sets it where it sees several).
set -uo pipefail

if [[ $# -lt 4 ]]; then
  echo "usage: $0 EWC_FUZZ PROCS JOBS OUTDIR [ewc-fuzz flags...]" >&2
  exit 2
fi
fuzz=$1 procs=$2 jobs=$3 outdir=$4
shift 4
mkdir -p "$outdir"
# Each process's range (its --count): far more programs than any run
# reaches, so that --time-limit ends the run; EWC_FUZZ_SPAN=K makes it K
# programs a process (a short run that ends by itself, as in the tests).
span=${EWC_FUZZ_SPAN:-100000000}
# --time-limit, which a restarted process gets what is left of; the other
# flags as given.
limit=0
flags=()
while [[ $# -gt 0 ]]; do
  case $1 in
  --time-limit) limit=$2; shift 2 ;;
  --time-limit=*) limit=${1#--time-limit=}; shift ;;
  *) flags+=("$1"); shift ;;
  esac
done
start=$(date +%s.%N)
# Each program is compiled once, so the CUDA driver's own JIT cache (in the
# home directory, up to 256 MiB by default) is written a cubin a kernel and
# never read back: off, as ewc-fuzz turns off ewc's cache. It grows on a
# machine kept warm between calls, where the rate fell call by call (14.6,
# 12.7, 10.0 programs a second, seeds 9153-9155: docs/fuzzing.md).
export CUDA_CACHE_DISABLE=${CUDA_CACHE_DISABLE:-1}
read -r -a gpus <<<"${EWC_FUZZ_GPUS:-}"

# run_process K: process K's programs, restarted after each death (one job).
run_process() {
  local k=$1 log="$outdir/fuzz-$1.log"
  local first=$((k * 100000000)) end=$((k * 100000000 + span))
  local rc=0 died=0
  : >"$log"
  if ((${#gpus[@]})); then
    export CUDA_VISIBLE_DEVICES=${gpus[k % ${#gpus[@]}]}
    echo "process $k: CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES" >>"$log"
  fi
  while ((first < end)); do
    local left=()
    if [[ $limit != 0 ]]; then
      local remaining
      remaining=$(awk -v l="$limit" -v s="$start" -v n="$(date +%s.%N)" \
        'BEGIN {r = l - (n - s); printf "%.3f", (r > 0 ? r : 0)}')
      [[ $remaining == 0.000 ]] && break
      left=(--time-limit "$remaining")
    fi
    # -v: a line for every program, so that a death shows where it was.
    "$fuzz" "${flags[@]}" "${left[@]}" -v --jobs "$jobs" --first "$first" \
      --count $((end - first)) >>"$log" 2>&1
    rc=$?
    # Exit 0, 1 (failures) and 2 (usage) end with ewc-fuzz's own summary.
    if ((rc <= 2)); then
      ((died && rc == 0)) && rc=1
      return "$rc"
    fi
    local last
    last=$(grep -oE '^program [0-9]+:' "$log" | tail -1 | grep -oE '[0-9]+')
    if ((jobs != 1)); then
      echo "process $k died (exit $rc) after program ${last:-none}" >>"$log"
      return "$rc"
    fi
    local running=$((${last:-$((first - 1))} + 1))
    echo "program $running: DIED (exit $rc; started again after it)" >>"$log"
    died=1
    first=$((running + 1))
  done
  # A death is a failure, whatever the last start's status.
  ((died && rc == 0)) && rc=1
  return "$rc"
}

pids=()
for ((k = 0; k < procs; ++k)); do
  run_process "$k" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid"
  rc=$?
  ((rc > status)) && status=$rc
done
python3 - "$outdir" "$procs" "$start" "$(date +%s.%N)" <<'PY'
import re, sys
outdir, procs = sys.argv[1], int(sys.argv[2])
seconds = float(sys.argv[4]) - float(sys.argv[3])
summary = re.compile(
    r"^(\d+) programs, .* \((\d+) kernels, [\d.]+ s, [\d.]+ programs/s\)"
    r"(?:; (\d+) generic)?$")
# The verdicts from each program's line (-v), which a process that died
# printed too; kernels and generic programs from the summaries, which it
# did not (a lower bound then).
verdicts = ["OK", "MISMATCH", "REJECTED", "COMPILE-ERROR", "RUN-ERROR",
            "CRASH"]
counts = dict.fromkeys(verdicts, 0)
kernels = 0
generic = None
missing = []
for k in range(procs):
    found = False
    for line in open(f"{outdir}/fuzz-{k}.log", errors="replace"):
        line = line.rstrip()
        match = summary.match(line)
        if match:
            found = True
            kernels += int(match.group(2))
            if match.group(3) is not None:
                generic = (generic or 0) + int(match.group(3))
            continue
        program = re.match(r"^program (\d+): (\S+)", line)
        if program:
            verdict = program.group(2)
            # A death is a crash that no CrashRecoveryContext caught.
            counts["CRASH" if verdict == "DIED" else verdict] += 1
            if verdict != "OK":
                # Each failure's line; its report is in that process's log.
                print(f"{line} (fuzz-{k}.log)")
        elif line.startswith(f"process {k} died"):
            print(f"{line} (fuzz-{k}.log)")
    if not found:
        missing.append(k)
if missing:
    print(f"error: no summary from process(es) {missing} "
          f"(see {outdir}/fuzz-K.log)")
total = sum(counts.values())
rate = total / seconds if seconds > 0 else 0.0
print(f"{total} programs, {counts['OK']} ok, {counts['MISMATCH']} mismatch, "
      f"{counts['REJECTED']} rejected, {counts['COMPILE-ERROR']} "
      f"compile-error, {counts['RUN-ERROR']} run-error, {counts['CRASH']} "
      f"crash ({kernels} kernels, {seconds:.1f} s, {rate:.1f} programs/s)"
      + (f"; {generic} generic" if generic is not None else "")
      + f" [{procs} processes]")
PY
exit "$status"
