#!/usr/bin/env bash
# Rows in 16-byte runs (docs/performance.md, "Rows in 16-byte runs"): on the
# device from the repository root with the pack carried, bash
# bench/probes/row-runs.sh. ewc-run --bench, % of the copy, of softmax,
# log_softmax, logsumexp and the norms in f32 and bf16 at issue 16's shapes:
# the runtime's choice for aligned rows (the default variant: each lane's
# row in runs of 16 bytes, one vector access per tensor and run) against
# --offset 1 (every tensor one element in: the unaligned variant, each
# lane's elements one at a time, the code before the runs). EWC_PROBE_SHAPES
# narrows the shapes.
source bench/probes/rows-lib.sh
printf 'kernel rmsnorm(x: f32[..., n], w: f32[n], eps: f32 = 1e-6) -> f32[..., n] {\n  return x * rsqrt(mean(x * x, n) + eps) * w;\n}\n' > /tmp/rms32.ew
printf 'kernel layernorm(x: f32[..., n], w: f32[n], b: f32[n], eps: f32 = 1e-5) -> f32[..., n] {\n  let mu = mean(x, n);\n  let xc = x - mu;\n  return xc * rsqrt(mean(xc * xc, n) + eps) * w + b;\n}\n' > /tmp/ln32.ew
printf 'kernel log_softmax(x: bf16[..., n]) -> bf16[..., n] {\n  let shifted = x - amax(x, n);\n  return shifted - log(sum(exp(shifted), n));\n}\n' > /tmp/lsm16.ew
printf 'kernel logsumexp(x: bf16[m, n]) -> bf16[m] {\n  let mx = amax(x, n);\n  return log(sum(exp(x - mx), n)) + mx;\n}\n' > /tmp/lse16.ew
KERNELS=("softmax_f32 /tmp/sm32.ew --batch=" "softmax_bf16 kernels/softmax.ew --batch="
  "log_softmax_f32 kernels/log_softmax.ew --batch=" "log_softmax_bf16 /tmp/lsm16.ew --batch="
  "logsumexp_f32 kernels/logsumexp.ew --dim=m=" "logsumexp_bf16 /tmp/lse16.ew --dim=m="
  "rmsnorm_f32 /tmp/rms32.ew --batch=" "rmsnorm_bf16 kernels/rmsnorm.ew --batch="
  "layernorm_f32 /tmp/ln32.ew --batch=" "layernorm_bf16 kernels/layernorm.ew --batch=")
shapes=${EWC_PROBE_SHAPES:-2097152x128 262144x1024 268435x1000 65536x4096 65520x4097 8192x32768 256x1048576}
echo "== % of the copy: aligned rows (runs) and --offset 1 (the unaligned variant)"
ab offset 1 "$shapes" "${KERNELS[@]}"
