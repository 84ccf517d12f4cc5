#!/usr/bin/env bash
# A/B of the rows schedule's block size (docs/performance.md, "Teams of several
# warps"; call 7 of 2026-12-03): ewc-run --bench with --rows-block-size 128,
# 256 and 512. Run on the device from the repository root with the pack
# carried: bash bench/probes/rows-block-size.sh
EWC_DEVICE_SKIP="torch compile overhead seed example large lit libs" bash scripts/device-run.sh > /dev/null 2>&1
E=/tmp/ewc-device/bin/ewc-run
printf 'kernel softmax(x: f32[..., n]) -> f32[..., n] {\n  let e = exp(x - amax(x, n));\n  return e / sum(e, n);\n}\n' > /tmp/sm32.ew
run() { # label args...
  local label=$1; shift
  for b in 128 256 512; do
    r=$("$E" "$@" --bench --rows-block-size $b 2>&1 | grep -o 'kernel at [0-9.]*%')
    echo "$label block=$b $r"
  done
}
run "softmax f32 1024" /tmp/sm32.ew --batch 262144 --n 1024
run "softmax f32 1000" /tmp/sm32.ew --batch 268435 --n 1000
run "softmax f32 128" /tmp/sm32.ew --batch 2097152 --n 128
run "softmax f32 4096" /tmp/sm32.ew --batch 65536 --n 4096
run "softmax f32 32768" /tmp/sm32.ew --batch 8192 --n 32768
run "softmax bf16 1024" kernels/softmax.ew --batch 262144 --n 1024
run "softmax bf16 4096" kernels/softmax.ew --batch 65536 --n 4096
run "logsumexp f32 1024" kernels/logsumexp.ew --dim m=262144 --n 1024
run "logsumexp f32 1000" kernels/logsumexp.ew --dim m=268435 --n 1000
run "rmsnorm bf16 1000" kernels/rmsnorm.ew --batch 268435 --n 1000
# The long rows (the second call of call 7).
run "softmax f32 16384" /tmp/sm32.ew --batch 16384 --n 16384
run "softmax f32 2^20" /tmp/sm32.ew --batch 256 --n 1048576
run "logsumexp f32 2^20" kernels/logsumexp.ew --dim m=256 --n 1048576
run "rmsnorm bf16 2^20" kernels/rmsnorm.ew --batch 256 --n 1048576
run "rmsnorm bf16 32768" kernels/rmsnorm.ew --batch 8192 --n 32768
