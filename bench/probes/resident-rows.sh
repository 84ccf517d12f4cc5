#!/usr/bin/env bash
# The rows kept in registers (docs/performance.md, "Rows kept in registers"):
# ewc-run on the device from the repository root with the pack carried,
# bash bench/probes/resident-rows.sh (EWC_PROBE="verdicts bench" picks the
# parts, both by default)
#  1. the verdict of the looping teams (the runtime's choice) and of the
#     resident variant (--rows-resident 1, 32, 64) with special inputs at
#     odd and edge extents: each line must end in True;
#  2. ewc-run --bench, % of the copy, the runtime's choice against
#     --rows-resident 32 and 64 at issue 16's shapes.
source bench/probes/rows-lib.sh
printf 'kernel rmsnorm(x: f32[..., n], w: f32[n], eps: f32 = 1e-6) -> f32[..., n] {\n  return x * rsqrt(mean(x * x, n) + eps) * w;\n}\n' > /tmp/rms32.ew
printf 'kernel layernorm(x: f32[..., n], w: f32[n], b: f32[n], eps: f32 = 1e-5) -> f32[..., n] {\n  let mu = mean(x, n);\n  let xc = x - mu;\n  return xc * rsqrt(mean(xc * xc, n) + eps) * w + b;\n}\n' > /tmp/ln32.ew
KERNELS=("softmax_f32 /tmp/sm32.ew --batch=" "softmax_bf16 kernels/softmax.ew --batch="
  "log_softmax_f32 kernels/log_softmax.ew --batch=" "logsumexp_f32 kernels/logsumexp.ew --dim=m="
  "rmsnorm_f32 /tmp/rms32.ew --batch=" "rmsnorm_bf16 kernels/rmsnorm.ew --batch="
  "layernorm_f32 /tmp/ln32.ew --batch=" "layernorm_bf16 kernels/layernorm.ew --batch=")
parts=${EWC_PROBE:-verdicts bench}
if [[ " $parts " == *" verdicts "* ]]; then
echo "== verdicts"
for kernel in "${KERNELS[@]}"; do
  read -r label file rowsflag <<<"$kernel"
  for shape in 3x1 5x0 7x31 33x100 9x1000 9x4097 3x16385 2x32768; do
    rows=${shape%x*} length=${shape#*x}
    for v in default 1 32 64; do
      [[ $v == 1 || $v == 64 ]] && [[ $length -lt 1000 ]] && continue
      k=(); [[ $v != default ]] && k=(--rows-resident $v)
      run "$label ${rows}x${length} resident=$v" $file $rowsflag$rows --n $length --inputs special "${k[@]}"
    done
  done
done
fi
[[ " $parts " == *" bench "* ]] || exit 0
# EWC_PROBE_SHAPES and EWC_PROBE_VALUES (values of --rows-resident besides
# the runtime's choice) narrow the sweep; 64 only for rows of 16384 and more.
shapes=${EWC_PROBE_SHAPES:-2097152x128 262144x1024 268435x1000 65536x4096 65520x4097 16384x16384 8192x32768}
values=${EWC_PROBE_VALUES:-32 64}
echo "== % of the copy: the runtime's choice (default: the looping teams), --rows-resident N"
for shape in $shapes; do
  length=${shape#*x} v=$values
  ((length < 16384)) && v=${values//64/}
  ab rows-resident "$v" "$shape" "${KERNELS[@]}"
done
