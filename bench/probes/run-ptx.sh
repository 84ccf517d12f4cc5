#!/bin/bash
# Runs ptx_launch over the PTX files of bench/probes/ptx (make-ptx.sh),
# named LABEL.SIGNATURE.E.ptx, on the device: the default variants with
# aligned tensors and with x one element in (which their checks send to the
# plain scalar tail), the unaligned ones (-u) with x one element in:
#   bash bench/probes/run-ptx.sh OUTDIR
set -u
out=${1:-/tmp/ptx-out}
mkdir -p "$out"
cd "$(dirname "$0")"
nvcc -O3 -arch=sm_90 ptx_launch.cu -o /tmp/ptx_launch -lcuda || exit 1
for f in ptx/*.ptx; do
  IFS=. read -r label sig e _ <<< "$(basename "$f")"
  kern='ew$bias'; [ "$sig" = leaky ] && kern='ew$leaky'
  offsets="0 1"
  case "$label" in *-u) offsets=1 ;; esac
  for xoff in $offsets; do
    /tmp/ptx_launch "$f" "$kern" "$sig" "$e" 262144 1024 $xoff 2>&1 | tee -a "$out/ptx.txt"
  done
done
