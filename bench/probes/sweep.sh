#!/bin/bash
# bench/probes/sweep.sh: the probes behind the open performance targets of
# docs/performance.md, in one device call, after scripts/device-run.sh has
# unpacked the tools into /tmp/ewc-device (EWC_DEVICE_SKIP can leave out
# everything else):
#
#   misaligned   bench/probes/misaligned.cu: LeakyReLU with x one or two
#                elements into its storage, ewc's unaligned variant (made here
#                by ewc-run and ewc-opt, as make-ptx.sh does) against torch's
#                scalar loop, aligned vectors with a shift, and the copies
#   vpt          ewc-run --bench at 1, 2, 4 and 8 vectors per thread for the
#                outer sum (f32, bf16; n = 768 and 65536) and bias + GELU
#                (f32, n = 768), blocks of 128 and 256
#   runtime      bench/probes/misaligned_runtime.py: the same case through
#                ewc's runtime (Python, C), torch and the copy; then ncu on
#                one ewc launch of x one element in and of x aligned (f32):
#                the grid, registers and duration of what the runtime runs
#   fuzzrate     ewc-fuzz --device both on 15 threads for 45 s each with the
#                driver's JIT and with nvJitLink: programs per second
#
#   bash bench/probes/sweep.sh [STEP ...]     (default: all four)
# Writes OUT (or /tmp/sweep)/sweep-STEP.log.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
bin=/tmp/ewc-device/bin
out=${OUT:-/tmp/sweep}
work=$(mktemp -d)
mkdir -p "$out"
steps=("$@")
((${#steps[@]})) || steps=(misaligned vpt runtime fuzzrate)

# kernel FILE NAME BODY PARAMS RESULT: a one-kernel .ew file.
kernel() {
  printf 'kernel %s(%s) -> %s {\n  return %s;\n}\n' "$2" "$4" "$5" "$3" > "$1"
}

misaligned() {
  local t ptx=()
  for t in f32 bf16; do
    kernel "$work/leaky-$t.ew" leaky 'where(x >= 0.0, x, slope * x)' \
      "x: $t[n], slope: f32 = 0.01" "$t[n]"
    # The unaligned variant: ew.unaligned on the kernel, ewc-run's passes.
    "$bin/ewc-run" "$work/leaky-$t.ew" --emit mlir |
      sed 's/^\(  ew.kernel .*\) {$/\1 attributes {ew.unaligned} {/' |
      "$bin/ewc-opt" -canonicalize -cse -convert-ew-to-gpu \
        -ew-vectorize-gpu-loops --ew-gpu-to-nvvm --ew-nvvm-to-ptx |
      python3 test/Pipelines/Inputs/extract-ptx.py > "$work/u-$t.ptx" || return 1
    ptx+=("$work/u-$t.ptx")
  done
  nvcc -O3 -arch=sm_90 bench/probes/misaligned.cu -o "$work/misaligned" \
    -lcuda || return 1
  "$work/misaligned" "${ptx[@]}"
}

# bench LABEL FILE ARGS...: ewc-run --bench's kernel line and ratio.
bench() {
  local label=$1 file=$2
  shift 2
  local text
  text=$(EWC_NO_CACHE=1 "$bin/ewc-run" "$file" --device cuda --bench "$@" 2>&1)
  printf '%-36s %s | %s\n' "$label" \
    "$(grep -m1 '^  kernel ' <<<"$text" | tr -s ' ')" \
    "$(grep -m1 'of the copy' <<<"$text" | tr -s ' ')"
}

vpt() {
  local t n v b total=$((1 << 28))
  for t in f32 bf16; do
    kernel "$work/outer-$t.ew" outer 'a + b' "a: $t[m], b: $t[n]" "$t[m, n]"
    for n in 768 65536; do
      for v in 1 2 4 8; do
        bench "outer $t n=$n v=$v" "$work/outer-$t.ew" \
          --dim m=$((total / n)) --dim n=$n --vectors-per-thread $v
      done
    done
  done
  for b in 128 256; do
    for v in 1 2 4 8; do
      bench "bias_gelu f32 n=768 v=$v block=$b" kernels/bias_gelu.ew \
        --dim m=$((total / 768)) --dim n=768 --vectors-per-thread $v \
        --block-size $b
    done
  done
}

runtime() {
  local k
  PYTHONUNBUFFERED=1 EWC_LIBRARY=/tmp/ewc-device/lib/libewc.so \
    python3 bench/probes/misaligned_runtime.py || return 1
  for k in 1 0; do
    echo "-- ncu, f32, x+$k"
    EWC_LIBRARY=/tmp/ewc-device/lib/libewc.so ncu --kernel-name regex:leaky \
      --section LaunchStats --section SpeedOfLight --section Occupancy \
      python3 bench/probes/misaligned_runtime.py --one $k f32 2>&1 |
      grep -E 'ew\$|Grid Size|Block Size|Registers|Duration|DRAM Through|Achieved Occ|Theoretical Occ|Memory Throughput'
  done
}

fuzzrate() {
  local assembler
  for assembler in driver nvjitlink; do
    echo "-- assembler $assembler"
    EWC_PTX_ASSEMBLER=$assembler EWC_NO_CACHE=1 "$bin/ewc-fuzz" --device both \
      --jobs 15 --seed 9600 --time-limit 45 --count 100000 \
      --load-pass-plugin=/tmp/ewc-device/lib/EwcTestPasses.so 2>&1 | tail -3
  done
}

status=0
for s in "${steps[@]}"; do
  echo "=== $s"
  start=$(date +%s)
  "$s" 2>&1 | tee "$out/sweep-$s.log"
  ((PIPESTATUS[0] == 0)) || status=1
  echo "=== $s: $(($(date +%s) - start)) s"
done
rm -rf "$work"
exit $status
