#!/usr/bin/env bash
# Session 2026-11-30 (night), call 7: main with the reference's sigmoid fixed:
# the lit suite, program 6171 of seed 9 again, and a fresh fuzz seed.
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
python3 $D/lit/lit.py -s test --param ewc_tools_dir=$D/bin --param llvm_tools_dir=$D/bin > $OUT/lit.log 2>&1
{
  $D/bin/ewc-fuzz --seed 9 --first 6171 --count 1 --size 4 --n 257 --inputs special --device both
  $D/bin/ewc-fuzz --device both --jobs 16 --seed 10 --count 1000000 --time-limit 120
} > $OUT/fuzz.log 2>&1
tail -3 $OUT/lit.log; grep -E "^FAIL" $OUT/lit.log | head; grep -E "programs,|MISMATCH" $OUT/fuzz.log
