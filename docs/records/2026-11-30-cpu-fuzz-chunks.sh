#!/bin/bash
# 100k-program CPU run in chunks of 2500 (each chunk prints its own summary).
cd /work/main
for i in $(seq 0 39); do
  echo "=== chunk $i seed 600 first $((i*2500)) $(date -u +%H:%M:%S)"
  /work/fuzzbin/ewc-fuzz-7c042a0 --seed 600 --first $((i*2500)) --count 2500 --size 5 --n 257 --inputs special --save-failures /work/fuzzlogs/cpu100k-failures 2>&1 | tail -4
done
echo "=== done $(date -u +%H:%M:%S)"
