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
pids=()
for ((k = 0; k < procs; ++k)); do
  # -v: a line for every program, so that a process that dies (a crash
  # that no CrashRecoveryContext catches, such as a stack overflow) shows
  # where it was.
  "$fuzz" "$@" -v --jobs "$jobs" --first $((k * 100000000)) --count "$span" \
    >"$outdir/fuzz-$k.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid"
  rc=$?
  ((rc > status)) && status=$rc
done
python3 - "$outdir" "$procs" "$jobs" <<'PY'
import re, sys
outdir, procs, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
summary = re.compile(
    r"^(\d+) programs, (\d+) ok, (\d+) mismatch, (\d+) rejected, "
    r"(\d+) compile-error, (\d+) run-error, (\d+) crash \((\d+) kernels, "
    r"([\d.]+) s, [\d.]+ programs/s\)(?:; (\d+) generic)?$")
totals = [0] * 8
generic = None
seconds = 0.0
missing = []
for k in range(procs):
    found = None
    last = None
    for line in open(f"{outdir}/fuzz-{k}.log", errors="replace"):
        match = summary.match(line.strip())
        if match:
            found = match
        program = re.match(r"^program (\d+): (\S+)", line)
        if program:
            last = int(program.group(1))
            if program.group(2) != "OK":
                # Each failure's line; its report is in that process's log.
                print(line.rstrip() + f" (fuzz-{k}.log)")
    if not found:
        missing.append(k)
        # One job runs its programs in order: the one after the last
        # reported was running when the process died.
        running = (last + 1) if last is not None else k * 100000000
        print(f"process {k} died without its summary (fuzz-{k}.log): "
              + (f"program {running} was running" if jobs == 1 else
                 f"after program {last}" if last is not None else
                 "before any program ended"))
        continue
    for i in range(8):
        totals[i] += int(found.group(i + 1))
    seconds = max(seconds, float(found.group(9)))
    if found.group(10) is not None:
        generic = (generic or 0) + int(found.group(10))
if missing:
    print(f"error: no summary from process(es) {missing} "
          f"(see {outdir}/fuzz-K.log)")
rate = totals[0] / seconds if seconds else 0.0
print(f"{totals[0]} programs, {totals[1]} ok, {totals[2]} mismatch, "
      f"{totals[3]} rejected, {totals[4]} compile-error, {totals[5]} "
      f"run-error, {totals[6]} crash ({totals[7]} kernels, {seconds:.1f} s, "
      f"{rate:.1f} programs/s)"
      + (f"; {generic} generic" if generic is not None else "")
      + f" [{procs} processes]")
PY
exit "$status"
