#!/usr/bin/env bash
# The f32 dropout against Triton's tutorial kernel, instruction by
# instruction, on the device machine (after scripts/device-run.sh unpacked
# the tools into /tmp/ewc-device): both kernels' SASS (cuobjdump), their
# instruction histograms, registers, and an ncu profile of one call each at
# n = 2^28 (speed of light, occupancy, instruction statistics, warp stalls);
# then the launched cubin's registers, the driver's JIT against nvJitLink, and
# register caps.
#
#   bash bench/probes/dropout-sass.sh OUTDIR
set -uo pipefail
out=${1:?usage: dropout-sass.sh OUTDIR}
mkdir -p "$out"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda-13.0}
export CUDA_HOME=$cuda # where nvJitLink is found
py=${PYTHON:-/opt/torch/.venv/bin/python3}
export EWC_LIBRARY=${EWC_LIBRARY:-/tmp/ewc-device/lib/libewc.so}
ewc_run=${EWC_RUN:-/tmp/ewc-device/bin/ewc-run}

"$ewc_run" "$root/kernels/dropout.ew" --emit ptx --chip sm_90 > "$out/ewc-dropout.ptx"
"$cuda/bin/ptxas" -arch=sm_90 -v "$out/ewc-dropout.ptx" -o "$out/ewc-dropout.cubin" \
  2>&1 | grep -E "Function properties|Used|spill" | tee "$out/ewc-ptxas.txt"
"$py" "$root/bench/probes/dropout-sass.py" "$out" | tee "$out/times.txt"
for k in ewc triton; do
  "$cuda/bin/cuobjdump" -sass "$out/$k-dropout.cubin" > "$out/$k-dropout.sass"
  # Opcode histogram (the mnemonic without its modifiers), per kernel file.
  grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_]+' "$out/$k-dropout.sass" |
    awk '{print $NF}' | sort | uniq -c | sort -rn > "$out/$k-histogram.txt"
  echo "== $k: $(awk '{s += $1} END {print s}' "$out/$k-histogram.txt") instructions"
  head -25 "$out/$k-histogram.txt"
done
# The autotuner's candidates (vectors a thread, block size, waves) and their
# times: whether a launch shape closes the gap.
timeout 120 "$ewc_run" "$root/kernels/dropout.ew" --n 268435456 --bench --autotune --verbose \
  --arg p=0.3 --arg seed=1234 2>&1 | tail -40 | tee "$out/autotune.txt"
# Points a thread against occupancy: 1, 2 (Triton's 8 points), 4 (the
# default for random numbers, kPointsPerThreadRandom) and 8 vectors a thread.
for v in 1 2 4 8; do
  echo "vectors per thread $v: $(EWC_NO_CACHE=1 timeout 60 "$ewc_run" "$root/kernels/dropout.ew" \
    --n 268435456 --bench --arg p=0.3 --arg seed=1234 --vectors-per-thread $v 2>&1 | grep 'of the copy')"
done | tee "$out/vectors.txt"
# The launched variant's cubin, from the module's own cache: an entry is a
# header, JSON and a NUL, then the cubin (docs/runtime.md), from its ELF
# magic on.
# cubins CACHE_DIR OUT_DIR: every cache entry's cubin.
cubins() {
  "$py" - "$1" "$2" <<'PY'
import os, sys
os.makedirs(sys.argv[2], exist_ok=True)
for dirpath, _, files in os.walk(sys.argv[1]):
    for name in files:
        data = open(os.path.join(dirpath, name), "rb").read()
        at = data.find(b"\x7fELF")
        if at >= 0:
            open(os.path.join(sys.argv[2], name + ".cubin"), "wb").write(data[at:])
PY
}
cubins "$out/cache" "$out/launched"
for f in "$out"/launched/*.cubin; do
  "$cuda/bin/cuobjdump" -sass "$f"; "$cuda/bin/cuobjdump" -res-usage "$f"
done > "$out/ewc-launched.sass" 2>&1
grep -E "REG|Function" "$out/ewc-launched.sass" | head
# The same PTX through the driver's JIT (the default, which gave the
# launched kernel 78 registers on the H100, 2026-12-06) and through
# nvJitLink (ptxas 13.0, which gives it 56 here): registers and time.
for asm in driver nvjitlink; do
  rm -rf "$out/cache-$asm"
  echo "$asm: $(EWC_PTX_ASSEMBLER=$asm timeout 60 "$ewc_run" "$root/kernels/dropout.ew" \
    --n 268435456 --bench --arg p=0.3 --arg seed=1234 --cache-dir "$out/cache-$asm" 2>&1 |
    grep 'of the copy')"
  cubins "$out/cache-$asm" "$out/cubins-$asm"
  for f in "$out/cubins-$asm"/*.cubin; do
    "$cuda/bin/cuobjdump" -res-usage "$f" 2>&1 | grep -A1 'Function ew' | grep -o 'REG:[0-9]*'
  done
done | tee "$out/assemblers.txt"
# Registers traded for occupancy (Triton's kernel: 32 registers, 16 blocks
# of 128 an SM): nvJitLink with a register cap, which a ptxas option asks.
for regs in 32 40 48 64; do
  echo "nvjitlink -maxrregcount=$regs: $(EWC_PTXAS_OPTIONS="-maxrregcount=$regs" EWC_NO_CACHE=1 \
    timeout 60 "$ewc_run" "$root/kernels/dropout.ew" --n 268435456 --bench --arg p=0.3 \
    --arg seed=1234 2>&1 | grep -E 'of the copy|error')"
done | tee "$out/register-caps.txt"
# One profile a kernel: ewc's second call (the optimized code, after
# wait_optimized) and Triton's one.
sections="--section SpeedOfLight --section Occupancy --section LaunchStats \
  --section ComputeWorkloadAnalysis --section InstructionStats \
  --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis"
for k in "regex:^ew.dropout --launch-skip 1" "regex:_seeded_dropout"; do
  # shellcheck disable=SC2086
  DROPOUT_SASS_PROFILED=1 "$cuda/bin/ncu" --kernel-name $k --launch-count 1 $sections \
    "$py" "$root/bench/probes/dropout-sass.py" "$out/ncu-run" >> "$out/ncu.txt" 2>&1
  echo "ncu $k: exit $?"
done
grep -E "dropout|Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occ|Executed Ipc|Issue Slots|Block Size|Grid Size|Waves|Eligible|Warp Cycles Per Issued|Executed Instructions  " \
  "$out/ncu.txt" | head -120
