#!/usr/bin/env bash
# Two A/Bs for long rows (docs/performance.md, "Scans split into tiles" and
# "Rows in flight and the L2"), ewc-run --bench on the device from the
# repository root with the pack carried: bash bench/probes/long-rows.sh
# (the blocks-per-SM A/B with EWC_PROBE_BLOCKS_PER_SM=1)
#  1. a scan's tiles: the runtime's choice against --splits 1 (a warp per row)
#     and a few forced tile counts;
#  2. the rows schedule's grid capped at 1, 2 and 4 blocks per SM
#     (--blocks-per-sm) against the default (4 waves of resident blocks): a
#     softmax reads its row three times, and fewer rows in flight may keep
#     the second and third reads in the L2 (50 MB).
EWC_DEVICE_SKIP="torch compile overhead seed example large lit libs" bash scripts/device-run.sh > /dev/null 2>&1
E=/tmp/ewc-device/bin/ewc-run
printf 'kernel softmax(x: f32[..., n]) -> f32[..., n] {\n  let e = exp(x - amax(x, n));\n  return e / sum(e, n);\n}\n' > /tmp/sm32.ew
bench() { # label args...
  local label=$1; shift
  r=$("$E" "$@" --bench 2>&1 | grep -o 'kernel at [0-9.]*%\|error.*' | head -1)
  echo "$label: $r"
}
echo "== scans: runtime's choice, a warp per row (--splits 1), forced tiles"
for shape in "8192 32768" "2048 131072" "256 1048576" "65536 4096"; do
  set -- $shape
  for s in default 1 2 8; do
    if [[ $s == default ]]; then k=(); else k=(--splits $s); fi
    bench "row_cumsum f32 ${1}x${2} splits=$s" kernels/row_cumsum.ew --dim m=$1 --n $2 "${k[@]}"
  done
done
bench "cumsum f32 2^28" kernels/cumsum.ew --n 268435456
bench "cumsum f32 2^28+1" kernels/cumsum.ew --n 268435457
echo "== scans: tiles of 2048 and 4096 (--rows-block-size 256, 512)"
for b in 256 512; do
  bench "cumsum f32 2^28 block=$b" kernels/cumsum.ew --n 268435456 --rows-block-size $b
  bench "row_cumsum f32 256x1048576 block=$b" kernels/row_cumsum.ew --dim m=256 --n 1048576 --rows-block-size $b
  bench "row_cumsum f32 8192x32768 block=$b" kernels/row_cumsum.ew --dim m=8192 --n 32768 --rows-block-size $b
done
bench "cumsum bf16 2^28" test/Integration/Inputs/scans.ew --kernel cumsum_bf16 --dim m=1 --n 268435456
echo "== online groups: the long rows' variant (512, one pass) against blocks of 256 (two passes)"
for shape in "16384 16385" "8192 32768" "256 1048576"; do
  set -- $shape
  for b in default 256; do
    if [[ $b == default ]]; then k=(); else k=(--rows-block-size $b); fi
    bench "softmax f32 ${1}x${2} block=$b" /tmp/sm32.ew --batch $1 --n $2 "${k[@]}"
    bench "logsumexp f32 ${1}x${2} block=$b" kernels/logsumexp.ew --dim m=$1 --n $2 "${k[@]}"
    bench "log_softmax f32 ${1}x${2} block=$b" kernels/log_softmax.ew --batch $1 --n $2 "${k[@]}"
  done
done
if [[ "${EWC_PROBE_BLOCKS_PER_SM:-0}" == 1 ]]; then
echo "== rows: blocks per SM"
for shape in "65536 4096" "16384 16384" "8192 32768" "256 1048576"; do
  set -- $shape
  for b in default 1 2 4 8; do
    if [[ $b == default ]]; then k=(); else k=(--blocks-per-sm $b); fi
    bench "softmax f32 ${1}x${2} bpsm=$b" /tmp/sm32.ew --batch $1 --n $2 "${k[@]}"
    bench "logsumexp f32 ${1}x${2} bpsm=$b" kernels/logsumexp.ew --dim m=$1 --n $2 "${k[@]}"
    bench "layernorm bf16 ${1}x${2} bpsm=$b" kernels/layernorm.ew --batch $1 --n $2 "${k[@]}"
  done
done
fi
