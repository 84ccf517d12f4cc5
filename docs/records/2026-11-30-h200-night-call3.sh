#!/usr/bin/env bash
# Session 2026-11-30 (night), call 3: vectors per thread 1, 2, 4 for every
# kernel in kernels/ at n = 2^28 (blocks of 128, normal inputs).
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
R=$D/bin/ewc-run
{
  for k in kernels/*.ew; do
    line="$(basename $k .ew):"
    for v in 1 2 4; do
      p=$($R $k --n 268435456 --bench --vectors-per-thread $v 2>/dev/null | grep -o '[0-9.]*% of the copy' | tr '\n' ' ' | sed 's/% of the copy//g')
      line="$line vpt$v $p"
    done
    echo "$line"
  done
} > $OUT/vpt.log 2>&1
cat $OUT/vpt.log
