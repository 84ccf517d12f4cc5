#!/usr/bin/env bash
# Decode attention's schedule (the rows schedule with the row's points on
# the lanes: docs/design.md, "Points on the lanes"): ewc-run on the device
# from the repository root with the pack carried,
#   bash bench/probes/attention.sh   (EWC_PROBE="verdicts bench" picks the
#                                     parts, both by default)
#  1. the verdict of decode_attention and its GQA form, with seeded and
#     special inputs, at odd and edge extents: heads of 1, 100, 128, 130
#     (two passes over the points), 300; caches of 0, 1, 1000 to 65536
#     (each block variant: 128, 256, 512 threads); every line must end in
#     True;
#  2. ewc-run --bench, % of the copy of the bytes moved, at issue 16's
#     shapes (b x h in {32, 256}, s in {1024, 8192, 65536}, d = 128);
#  3. (EWC_PROBE=splits) the rows split across blocks (RowAccess.h,
#     chooseLaneSplits) against --splits 1 (a block a row) and other
#     counts at the same shapes.
source bench/probes/rows-lib.sh
parts=${EWC_PROBE:-verdicts bench}
if [[ " $parts " == *" splits "* ]]; then
echo "== splits"
for bh in "4 8:1 4 8 16 32" "8 32:1 2 4"; do
  read -r b h <<<"${bh%:*}"
  for s in 1024 8192 65536; do
    for sp in default ${bh#*:}; do
      k=()
      [[ $sp != default ]] && k=(--splits $sp)
      bench "decode_attention b=$b h=$h s=$s splits=$sp" kernels/decode_attention.ew --dim b=$b --dim h=$h --dim s=$s --dim d=128 "${k[@]}"
    done
  done
done
fi
if [[ " $parts " == *" verdicts "* ]]; then
echo "== verdicts"
for shape in "2 3 1000 128" "1 1 1 128" "1 2 0 128" "2 2 100 1" "3 2 50 100" \
             "2 2 300 130" "1 2 5000 256" "1 1 20000 300" "2 2 65536 128"; do
  read -r b h s d <<<"$shape"
  for inputs in normal special; do
    run "decode_attention b=$b h=$h s=$s d=$d $inputs" kernels/decode_attention.ew \
      --dim b=$b --dim h=$h --dim s=$s --dim d=$d --inputs $inputs
    run "gqa_decode_attention b=$b g=$h r=3 s=$s d=$d $inputs" kernels/gqa_decode_attention.ew \
      --dim b=$b --dim g=$h --dim r=3 --dim s=$s --dim d=$d --inputs $inputs
  done
done
fi
[[ " $parts " == *" bench "* ]] || exit 0
echo "== % of the copy"
for bh in "4 8" "8 32"; do
  read -r b h <<<"$bh"
  for s in 1024 8192 65536; do
    bench "decode_attention b=$b h=$h s=$s" kernels/decode_attention.ew --dim b=$b --dim h=$h --dim s=$s --dim d=128
    bench "gqa_decode_attention b=$b g=$h r=8 s=$s" kernels/gqa_decode_attention.ew --dim b=$b --dim g=$h --dim r=8 --dim s=$s --dim d=128
  done
done
