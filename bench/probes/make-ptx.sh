#!/bin/bash
# Writes the PTX that bench/probes/run-ptx.sh times, from this checkout's
# ewc-run (build/bin by default), into bench/probes/ptx/ (git-ignored: pass
# it to the device tool's carry): LABEL.SIGNATURE.E.ptx for bias_add f32 and
# bf16 and LeakyReLU f32 at 1, 2 and 4 vectors per thread, in the default
# variant and, with .u in the label, the unaligned one (ew.unaligned).
#   bash bench/probes/make-ptx.sh [path/to/ewc-run]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ewc_run=${1:-$here/../../build/bin/ewc-run}
ewc_opt=$(dirname "$ewc_run")/ewc-opt
cd "$here/ptx"
rm -f ./*.ptx
for v in 1 2 4; do
  for k in bias32:bias:4 biasbf16:biasbf16:8 leaky:leaky:4; do
    IFS=: read -r name sig per <<< "$k"
    e=$((per * v))
    EWC_NO_CACHE=1 "$ewc_run" "$name.ew" --emit ptx --vectors-per-thread "$v" \
      > "$name-v$v.$sig.$e.ptx"
    # The unaligned variant: ewc-run's own pipeline (ew-to-gpu's passes,
    # then the NVVM and PTX ones) on the kernel with ew.unaligned.
    "$ewc_run" "$name.ew" --emit mlir |
      sed 's/^\(  ew.kernel .*\) {$/\1 attributes {ew.unaligned} {/' |
      "$ewc_opt" -canonicalize -cse -convert-ew-to-gpu \
        -ew-vectorize-gpu-loops=vectors-per-thread="$v" --ew-gpu-to-nvvm \
        --ew-nvvm-to-ptx |
      python3 "$here/../../test/Pipelines/Inputs/extract-ptx.py" \
      > "$name-v$v-u.$sig.$e.ptx"
  done
done
