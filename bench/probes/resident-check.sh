#!/usr/bin/env bash
# One device call for the resident rows (docs/gpu-runs.md, "2026-12-04,
# morning"): the GPU lit tests of the rows schedule and its mutations, the
# resident-rows probe's A/B (EWC_PROBE_SHAPES, EWC_PROBE_VALUES) and its
# verdicts; each part's output under $OUT.
EWC_DEVICE_SKIP="torch compile seed overhead example large" bash scripts/device-run.sh --filter 'Mutations/GPU/(resident|lane-tail|drop-first|online|stale|half-butterfly|warp-share)|Integration/GPU/(rows-block|reductions|kernels)' > "$OUT/lit.txt" 2>&1
grep -E "^(FAIL|UNRES)|Passed|Failed" "$OUT/lit.txt" | head -20
EWC_PROBE=bench bash bench/probes/resident-rows.sh > "$OUT/bench.txt" 2>&1
cat "$OUT/bench.txt"
EWC_PROBE=verdicts timeout 200 bash bench/probes/resident-rows.sh > "$OUT/verdicts.txt" 2>&1
echo "verdicts: $(grep -c ': True$' "$OUT/verdicts.txt") True"
grep -v ': True$' "$OUT/verdicts.txt" | head -30
