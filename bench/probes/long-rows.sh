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
source bench/probes/rows-lib.sh
echo "== scans: runtime's choice, a warp per row (--splits 1), forced tiles"
ab splits "1 2 8" "8192x32768 2048x131072 256x1048576 65536x4096" \
  "row_cumsum_f32 kernels/row_cumsum.ew --dim=m="
bench "cumsum f32 2^28" kernels/cumsum.ew --n 268435456
bench "cumsum f32 2^28+1" kernels/cumsum.ew --n 268435457
echo "== scans: tiles in blocks of 256 and 512 (--rows-block-size)"
for b in 256 512; do
  bench "cumsum f32 2^28 block=$b" kernels/cumsum.ew --n 268435456 --rows-block-size $b
  bench "row_cumsum f32 256x1048576 block=$b" kernels/row_cumsum.ew --dim m=256 --n 1048576 --rows-block-size $b
  bench "row_cumsum f32 8192x32768 block=$b" kernels/row_cumsum.ew --dim m=8192 --n 32768 --rows-block-size $b
done
bench "cumsum bf16 2^28" test/Integration/Inputs/scans.ew --kernel cumsum_bf16 --dim m=1 --n 268435456
echo "== online groups: the long rows' variant (512, one pass) against blocks of 256 (two passes)"
ab rows-block-size 256 "16384x16385 8192x32768 256x1048576" \
  "softmax_f32 /tmp/sm32.ew --batch=" "logsumexp_f32 kernels/logsumexp.ew --dim=m=" \
  "log_softmax_f32 kernels/log_softmax.ew --batch="
if [[ "${EWC_PROBE_BLOCKS_PER_SM:-0}" == 1 ]]; then
echo "== rows: blocks per SM"
ab blocks-per-sm "1 2 4 8" "65536x4096 16384x16384 8192x32768 256x1048576" \
  "softmax_f32 /tmp/sm32.ew --batch=" "logsumexp_f32 kernels/logsumexp.ew --dim=m=" \
  "layernorm_bf16 kernels/layernorm.ew --batch="
fi
