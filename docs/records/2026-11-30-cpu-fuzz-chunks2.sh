#!/bin/bash
# Chunks 33-39 of the 100k-program CPU run (seed 600), with main bf06f03's ewc-fuzz
# (chunks 0-32 ran with 7c042a0, before the int -> f16 and slack fixes).
cd /work/main
for i in $(seq 33 39); do
  echo "=== chunk $i seed 600 first $((i*2500)) $(date -u +%H:%M:%S)"
  /work/fuzzbin/ewc-fuzz-bf06f03 --seed 600 --first $((i*2500)) --count 2500 --size 5 --n 257 --inputs special --save-failures /work/fuzzlogs/cpu100k-failures2 2>&1 | tail -4
done
echo "=== done $(date -u +%H:%M:%S)"
