#!/usr/bin/env bash
# Runs ewc on the device machine (one H200, no LLVM), from the repository root
# there, with what scripts/pack-device.sh packed into .device/:
#
#   unpack    .device/ewc-device.tar.xz into /tmp/ewc-device
#   gpu       nvidia-smi summary
#   libs      ldd of the packed tools: nothing missing
#   example   ewc-run kernels/leaky_relu.ew --n 1024
#   large     ewc-run kernels/leaky_relu.ew --n 1000003 --arg slope=0.2
#   lit       the lit suite from the source tree with the packed tools (the
#             `cuda` feature turns on where the driver sees a device)
#   torch     bench/compare_torch.py: f32/f16/bf16 LeakyReLU against torch's,
#             bit for bit
#   compile   examples/compile_time.cpp against the packed libewc.so: .ew to
#             a loaded function, first and warm, nvJitLink against the
#             driver's JIT, kernel cache miss against hit, and a fresh
#             process on a warm cache; then whole ewc-run processes
#   seed      examples/seed_leaky_relu.py through python/ewc and the packed
#             libewc.so: prints True
#   overhead  examples/call_overhead.py: the host cost of a Python call at
#             n = 1024 against torch and Triton
#   bench     only when EWC_DEVICE_BENCH=1: bench/compare.py, ewc against
#             torch, Triton, torch.compile and the copy; it writes bench.md,
#             bench.png and bench.json beside the logs (docs/performance.md)
#   shapes    only when EWC_DEVICE_SHAPES=1: bench/shapes.py, the shaped
#             cases (ranks, per-tensor alignments, bias add, row scale, outer
#             sum, transposed and strided inputs) through python/ewc against
#             torch, torch.compile and Triton; shapes.md and shapes.json
#   reductions only when EWC_DEVICE_REDUCTIONS=1 (or a list of kernels):
#             bench/reductions.py, issue 16's kernels against torch (and
#             torch.compile with EWC_DEVICE_COMPILE=1); reductions.md/.json
#   vocabulary only when EWC_DEVICE_VOCABULARY=1: bench/vocabulary.py,
#             issue 18's kernels against torch's equivalents; vocabulary.md
#             and vocabulary.json
#   random    only when EWC_DEVICE_RANDOM=1: bench/rng.py, rand, randn
#             and randint against Triton's bit for bit, dropout and rand
#             against Triton and torch; rng.json
#   vector_add only when EWC_DEVICE_VECTOR_ADD=1: bench/vector_add.py, the
#             generic vector add (f32, bf16) against torch, torch.compile and
#             Triton's tutorial kernel autotuned; vector_add.json
#   sweep     only when EWC_DEVICE_SWEEP=1: bench/sweep.py, GB/s against
#             the element count for leaky_relu and softplus beside torch,
#             torch.compile and the copy (ewc.testing.perf_report); a CSV
#             file and a PNG per kernel
#   float8    only when EWC_DEVICE_FLOAT8=1: bench/probes/float8-torch.py,
#             every 8-bit conversion against torch's, both GPU modes
#   wheel     only when EWC_DEVICE_WHEEL=FILE.whl: scripts/device-wheel.sh,
#             that wheel into a fresh venv and the seed on the GPU from it
#   probes    only when EWC_DEVICE_PROBES=1: bench/probes/run-ptx.sh, the PTX
#             of bench/probes/ptx (make-ptx.sh here; carry it) timed alone
#   vpt       only when EWC_DEVICE_VPT=1: ewc-run --bench of LeakyReLU and
#             bias_add (f32, bf16; contiguous and padded rows) at 1, 2 and
#             4 vectors per thread: the numbers kVectorsPerThreadByCost rests on
#   cpu       only when EWC_DEVICE_CPU=1: ewc-run --bench --device cpu of
#             f32 and bf16 LeakyReLU over [4096, 4096] on every core and on
#             one, streaming stores by default, forced and off
#   fuzz      only when EWC_DEVICE_FUZZ=SECONDS: ewc-fuzz --device both
#             (EWC_DEVICE_FUZZ_DEVICE overrides) for that long as processes
#             of one thread, one a core and six more (EWC_DEVICE_FUZZ_PROCS
#             overrides), spread over the machine's GPUs
#             (scripts/fuzz-processes.sh: 14 processes gave 1.7 times the
#             programs of 14 threads in one process, docs/fuzzing.md),
#             seed EWC_DEVICE_FUZZ_SEED (default 15); EWC_DEVICE_FUZZ_ARGS
#             adds flags, e.g. --reductions
#   sanitize  only when EWC_DEVICE_SANITIZE=dtypes|shapes:
#             scripts/device-sanitize.sh with that matrix
#
# EWC_DEVICE_SKIP lists steps to leave out (e.g. "compile torch"). Every
# step runs whatever the previous ones did; each one's exit status and time
# are recorded. Logs go to /tmp/ewc-device-logs; where $OUT is set (the
# device call brings back at most 8 files of it) they end up in one
# $OUT/logs.tgz beside $OUT/summary.txt. A summary table comes last; the exit status
# is non-zero when any step failed. Extra arguments go to lit (e.g.
# --filter Integration).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=kernel-args.sh
source "$root/scripts/kernel-args.sh"
cd "$root" || exit 2
pack=$root/.device/ewc-device.tar.xz
dest=/tmp/ewc-device
logs=/tmp/ewc-device-logs
rm -rf "$logs"
mkdir -p "$logs"

names=() statuses=() seconds=() notes=()

# step NAME COMMAND...: runs COMMAND, tees its output to $logs/NAME.log.
step() {
  local name=$1
  shift
  # EWC_DEVICE_SKIP="compile torch": steps left out of a short call.
  [[ " ${EWC_DEVICE_SKIP:-} " == *" $name "* ]] && return 0
  echo
  echo "=== $name: $*"
  local start end status
  start=$(date +%s.%N)
  "$@" 2>&1 | tee "$logs/$name.log"
  status=${PIPESTATUS[0]}
  end=$(date +%s.%N)
  names+=("$name")
  statuses+=("$status")
  seconds+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", b - a}')")
  # The last line that says something, as the table's note.
  notes+=("$(grep -v '^[[:space:]]*$' "$logs/$name.log" | tail -1 | cut -c1-70)")
}

unpack() {
  [[ -f "$pack" ]] || { echo "no $pack: run scripts/pack-device.sh and carry .device"; return 1; }
  rm -rf "$dest"
  tar -C /tmp -xJf "$pack" || return 1
  cat "$dest/MANIFEST.txt"
  echo "unpacked $(du -sh "$dest" | cut -f1) into $dest"
}

gpu() {
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,clocks.max.sm \
    --format=csv
}

libs() {
  local status=0 f
  [[ -d "$dest/bin" ]] || { echo "nothing unpacked in $dest/bin"; return 1; }
  for f in "$dest"/bin/*; do
    echo "$(basename "$f"):"
    ldd "$f" | sed 's/^/  /'
    if ! ldd "$f" >/dev/null 2>&1 || ldd "$f" | grep -q 'not found'; then
      status=1
    fi
  done
  ((status == 0)) && echo "all libraries found"
  return "$status"
}

# Times to a loaded function (examples/compile_time.cpp says what each column
# is). CUDA_CACHE_DISABLE=1: the driver's own JIT cache would answer for it.
compile_times() {
  local exe=/tmp/ewc-compile-time dir kernels=(kernels/leaky_relu.ew:T=f32 kernels/gelu.ew)
  c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include examples/compile_time.cpp \
    -L"$dest/lib" -Wl,-rpath,"$dest/lib" -lewc -L/usr/local/cuda/lib64/stubs -lcuda \
    -o "$exe" || return 1
  echo "-- driver JIT (the default), no cache"
  CUDA_CACHE_DISABLE=1 "$exe" "${kernels[@]}" || return 1
  # Issue 17: compile to the first result, tiered and whole, and the swap.
  c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include examples/first_result.cpp \
    -L"$dest/lib" -Wl,-rpath,"$dest/lib" -lewc -L/usr/local/cuda/lib64/stubs -lcuda \
    -lpthread -o /tmp/ewc-first-result || return 1
  echo "-- time to the first result, every cache off"
  CUDA_CACHE_DISABLE=1 /tmp/ewc-first-result "${kernels[@]}" || return 1
  echo "-- the compile's stages, no cache (ewc-run --timing): whole, --tiered's quick code, LLVM O0 alone"
  local mode
  for mode in whole tiered llvm-O0; do
    for k in leaky_relu gelu; do
      echo "$mode $k:"
      local flags=() env=()
      [[ $mode == tiered ]] && flags=(--tiered)
      [[ $mode == llvm-O0 ]] && env=(EWC_PTX_OPT_LEVEL=0)
      env CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 "${env[@]}" "$dest/bin/ewc-run" \
        $(kernel_args $k) --n 1024 --timing "${flags[@]}" 2>&1 |
        grep -E 'compile$|nvvm-to-ptx|PTX to cubin|module load' || return 1
    done
  done
  # libewc reads no environment and its API has no assembler choice:
  # nvJitLink's compile time is ewc-run's (--timing, "PTX to cubin").
  echo "-- nvJitLink, no cache: ewc-run --timing's PTX to cubin"
  CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 EWC_PTX_ASSEMBLER=nvjitlink "$dest/bin/ewc-run" \
    kernels/leaky_relu.ew --type T=f32 --n 1024 --timing 2>&1 | grep 'PTX to cubin' || return 1
  dir=$(mktemp -d)
  "$exe" --cache-dir="$dir" "${kernels[@]}" >/dev/null || return 1
  echo "-- fresh process, cache filled by an earlier one ('first' is a hit)"
  "$exe" --cache-dir="$dir" "${kernels[@]}" || return 1
  echo "-- whole ewc-run --n 1024 processes (s): no cache, miss, hit"
  local t0 t1 t2 t3
  t0=$(date +%s.%N)
  EWC_NO_CACHE=1 "$dest/bin/ewc-run" kernels/leaky_relu.ew --type T=f32 --n 1024 >/dev/null || return 1
  t1=$(date +%s.%N)
  rm -rf "$dir"
  EWC_CACHE_DIR=$dir "$dest/bin/ewc-run" kernels/leaky_relu.ew --type T=f32 --n 1024 >/dev/null || return 1
  t2=$(date +%s.%N)
  EWC_CACHE_DIR=$dir "$dest/bin/ewc-run" kernels/leaky_relu.ew --type T=f32 --n 1024 || return 1
  t3=$(date +%s.%N)
  rm -rf "$dir"
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" \
    'BEGIN {printf "ewc-run: no cache %.3f, miss %.3f, hit %.3f\n", b - a, c - b, d - c}'
  # LLVM at -O0 before NVPTX compiles 2.5x faster (docs/performance.md); the
  # default changes only if every kernel stays right and as fast.
  echo "-- EWC_PTX_OPT_LEVEL=0: kernels right (special inputs), then speed against -O3"
  local k ok=0 all=0 o
  for k in kernels/*.ew; do
    # Reductions and scans at their own extents (GPU/reductions.test).
    grep -qE '\b(sum|mean|amax|amin|any|all|cumsum|cummax|cummin)\(' "$k" && continue
    all=$((all + 1))
    # 100003 points whatever the rank: --n sets every dimension.
    local shape=(--n 100003)
    grep -q '\[m, n\]\|\[n, m\]\|\[m\]' "$k" && shape=(--dim m=97 --n 1031)
    # --n 100003 would make s x h 10^10 points (40 GB a tensor).
    grep -q 's, h\]' "$k" && shape=(--dim s=97 --dim h=1031 --batch 3)
    local out
    if out=$(EWC_NO_CACHE=1 EWC_PTX_OPT_LEVEL=0 "$dest/bin/ewc-run" "$k" "${shape[@]}" \
      --inputs special 2>&1); then
      ok=$((ok + 1))
    else
      echo "O0 not True: $k: $(echo "$out" | tail -2 | tr '\n' ' ')"
    fi
  done
  echo "O0: $ok of $all kernels True"
  for k in leaky_relu gelu; do
    echo "$k O0: $(EWC_PTX_OPT_LEVEL=0 CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 "$dest/bin/ewc-run" \
      $(kernel_args $k) --n 1024 --timing 2>&1 | grep -m1 'compile')"
  done
  for k in leaky_relu gelu; do
    for o in 3 0; do
      echo "$k O$o: $(EWC_NO_CACHE=1 EWC_PTX_OPT_LEVEL=$o "$dest/bin/ewc-run" \
        $(kernel_args $k) --n 268435456 --bench | grep -o '[0-9.]*% of the copy')"
    done
  done
  ((ok == all))
}

# FileCheck, not and count name libz3.so.4, which is packed beside them.
export LD_LIBRARY_PATH=$dest/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

step unpack unpack
step gpu gpu
step libs libs
step example "$dest/bin/ewc-run" kernels/leaky_relu.ew --n 1024
step large "$dest/bin/ewc-run" kernels/leaky_relu.ew --n 1000003 --arg slope=0.2
# The benchmark first, when asked for: its numbers are what a short device
# call is for, and it checks ewc's results against torch's itself.
if [[ "${EWC_DEVICE_BENCH:-0}" == 1 ]]; then
  PYTHONUNBUFFERED=1 step bench python3 bench/compare.py \
    --ewc-run "$dest/bin/ewc-run" --out "$logs"
fi
if [[ "${EWC_DEVICE_SHAPES:-0}" == 1 ]]; then
  EWC_LIBRARY=$dest/lib/libewc.so PYTHONUNBUFFERED=1 step shapes \
    python3 bench/shapes.py --out "$logs"
fi
if [[ "${EWC_DEVICE_REDUCTIONS:-0}" != 0 ]]; then
  reduction_args=(--out "$logs")
  [[ "$EWC_DEVICE_REDUCTIONS" != 1 ]] && reduction_args+=(--kernels "$EWC_DEVICE_REDUCTIONS")
  [[ "${EWC_DEVICE_COMPILE:-0}" == 1 ]] && reduction_args+=(--compile)
  EWC_LIBRARY=$dest/lib/libewc.so PYTHONUNBUFFERED=1 step reductions \
    python3 bench/reductions.py "${reduction_args[@]}"
fi
if [[ "${EWC_DEVICE_VOCABULARY:-0}" == 1 ]]; then
  EWC_LIBRARY=$dest/lib/libewc.so PYTHONUNBUFFERED=1 step vocabulary \
    python3 bench/vocabulary.py --out "$logs"
fi
if [[ "${EWC_DEVICE_RANDOM:-0}" == 1 ]]; then
  EWC_LIBRARY=$dest/lib/libewc.so PYTHONUNBUFFERED=1 step random \
    python3 bench/rng.py --out "$logs"
fi
if [[ "${EWC_DEVICE_VECTOR_ADD:-0}" == 1 ]]; then
  EWC_LIBRARY=$dest/lib/libewc.so PYTHONUNBUFFERED=1 step vector_add \
    python3 bench/vector_add.py --out "$logs"
fi
if [[ "${EWC_DEVICE_SWEEP:-0}" == 1 ]]; then
  EWC_LIBRARY=$dest/lib/libewc.so PYTHONUNBUFFERED=1 step sweep \
    python3 bench/sweep.py --device cuda --compile --out "$logs"
fi
if [[ "${EWC_DEVICE_FLOAT8:-0}" == 1 ]]; then
  EWC_LIBRARY=$dest/lib/libewc.so EWC_RUN=$dest/bin/ewc-run PYTHONUNBUFFERED=1 \
    PYTHONPATH=$root/python step float8 python3 bench/probes/float8-torch.py
fi
if [[ -n "${EWC_DEVICE_WHEEL:-}" ]]; then
  step wheel bash scripts/device-wheel.sh "$EWC_DEVICE_WHEEL"
fi
if [[ "${EWC_DEVICE_PROBES:-0}" == 1 ]]; then
  step probes bash bench/probes/run-ptx.sh "$logs/probes"
fi
vectors_per_thread() {
  local k v layout
  for k in leaky_relu.ew:--type=T=f32:--n=268435456 leaky_relu.ew:--type=T=bf16:--n=268435456 \
           bias_gelu.ew:--dim=m=262144:--dim=n=1024 \
           "$root/bench/probes/ptx/bias32.ew:--dim=m=262144:--dim=n=1024" \
           "$root/bench/probes/ptx/biasbf16.ew:--dim=m=262144:--dim=n=1024"; do
    local file=${k%%:*} args=${k#*:}
    [[ $file == /* ]] || file=kernels/$file
    for v in 1 2 4; do
      for layout in "--layout=contiguous" "--layout=padded"; do
        echo "== $(basename "$file") v$v $layout"
        "$dest/bin/ewc-run" "$file" ${args//:/ } --device cuda --bench \
          --vectors-per-thread "$v" "$layout" 2>&1 | tail -4
      done
    done
  done
}
if [[ "${EWC_DEVICE_VPT:-0}" == 1 ]]; then
  step vpt vectors_per_thread
fi
step lit python3 "$dest/lit/lit.py" -v test \
  --param ewc_tools_dir="$dest/bin" --param llvm_tools_dir="$dest/bin" \
  --param ewc_library="$dest/lib/libewc.so" "$@"
step torch python3 bench/compare_torch.py --ewc-run "$dest/bin/ewc-run"
if [[ -f "$dest/lib/libewc.so" ]]; then
  step compile compile_times
  EWC_LIBRARY=$dest/lib/libewc.so step seed python3 examples/seed_leaky_relu.py
  EWC_LIBRARY=$dest/lib/libewc.so step overhead python3 examples/call_overhead.py --parts
fi

# The CPU path on this host's cores against a memcpy on as many threads
# (docs/performance.md's CPU row): f32 and bf16 LeakyReLU over [4096, 4096],
# all threads and one, with the default choice of streaming stores, with
# them forced and with them off.
cpu_bench() {
  echo "LLC: $(getconf LEVEL3_CACHE_SIZE) bytes, $(nproc) threads"
  local k t mode
  for k in leaky_relu leaky_relu_bf16; do
    for t in "$(nproc)" 1; do
      for mode in default 0 4611686018427387904; do
        local extra=()
        [[ $mode != default ]] && extra=(--cpu-streaming-stores-above "$mode")
        echo "== $k threads=$t streaming=$mode"
        "$dest/bin/ewc-run" $(kernel_args $k) --bench --device cpu \
          --batch 4096x4096 --cpu-threads "$t" "${extra[@]}" 2>&1 | tail -3
      done
    done
  done
}
if [[ "${EWC_DEVICE_CPU:-0}" == 1 ]]; then
  step cpu cpu_bench
fi

if [[ -n "${EWC_DEVICE_FUZZ:-}" ]]; then
  # A process a core and six more (22 on the 16 cores of one GPU's
  # machine, EWC_DEVICE_FUZZ_PROCS overrides), spread over every GPU the
  # machine has: the runs are bound by the host's cores, and a process also
  # waits on its GPU's runs. On an H100's machine 14 processes ran 13.9
  # programs a second, 18 ran 16.9 and 22 ran 17.4 (docs/fuzzing.md).
  fuzz_procs=${EWC_DEVICE_FUZZ_PROCS:-$(($(nproc) + 6))}
  fuzz_gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  if ((fuzz_gpus > 1)); then
    export EWC_FUZZ_GPUS
    EWC_FUZZ_GPUS=$(seq -s ' ' 0 $((fuzz_gpus - 1)))
  fi
  step fuzz bash scripts/fuzz-processes.sh "$dest/bin/ewc-fuzz" "$fuzz_procs" 1 \
    "$logs/fuzz" --device "${EWC_DEVICE_FUZZ_DEVICE:-both}" \
    --seed "${EWC_DEVICE_FUZZ_SEED:-15}" --time-limit "$EWC_DEVICE_FUZZ" \
    --save-failures "$logs/fuzz-failures" ${EWC_DEVICE_FUZZ_ARGS:-}
fi
if [[ -n "${EWC_DEVICE_SANITIZE:-}" ]]; then
  OUT=$logs EWC_SANITIZE_MATRIX=$EWC_DEVICE_SANITIZE JOBS=14 \
    EWC_RUN=$dest/bin/ewc-run \
    step sanitize bash scripts/device-sanitize.sh
fi

# lit's own counts, for the table.
lit_counts=$(python3 - "$logs/lit.log" <<'PY'
import re, sys
try:
    text = open(sys.argv[1], errors="replace").read()
except FileNotFoundError:
    sys.exit()  # lit was left out
totals = list(re.finditer(r"^Total Discovered Tests: (\d+)$", text, re.M))
if not totals:
    print("no lit summary"); sys.exit()
counts = {m.group(1): int(m.group(2)) for m in
          re.finditer(r"^  ([A-Za-z][A-Za-z ]*?) *: *(\d+) \(", text[totals[-1].end():], re.M)}
passed = counts.pop("Passed", 0) + counts.pop("Passed With Retry", 0)
skipped = counts.pop("Unsupported", 0)
# Tests a --filter left out are neither run nor failed.
excluded = counts.pop("Excluded", 0)
print(f"{passed} passed, {sum(counts.values())} failed, {skipped} skipped"
      + (f", {excluded} not selected" if excluded else ""))
PY
)
for i in "${!names[@]}"; do
  [[ "${names[$i]}" == lit ]] && notes[$i]=$lit_counts
done

failed=0
{
  echo
  echo "=== summary ($(date -u +%Y-%m-%dT%H:%MZ), logs in $logs)"
  printf '%-8s %4s %7s  %s\n' step rc seconds note
  for i in "${!names[@]}"; do
    printf '%-8s %4s %7s  %s\n' "${names[$i]}" "${statuses[$i]}" "${seconds[$i]}" "${notes[$i]}"
    ((statuses[i] == 0)) || failed=1
  done
} | tee "$logs/summary.txt"
if [[ -n "${OUT:-}" ]]; then
  tar czf "$OUT/logs.tgz" -C "$logs" . && cp "$logs/summary.txt" "$OUT/"
fi
# The pipe ran the loop in a subshell; count the failures again here.
for s in "${statuses[@]}"; do ((s == 0)) || failed=1; done
exit "$failed"
