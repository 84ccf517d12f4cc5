#!/usr/bin/env bash
# Session 2026-11-30 (night), call 2: is nvJitLink's "PTX to cubin" cached
# by the driver's compute cache; ptxas's floor and --Ofast-compile; the
# hardswish kernel's resources and launch shape.
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
R=$D/bin/ewc-run
P=/usr/local/cuda/bin/ptxas
cat > /tmp/copy.ew <<'EW'
kernel copy(x: f32[n]) -> f32[n] {
  return x;
}
EW
cat > /tmp/hs_mul.ew <<'EW'
kernel hardswish_mul(x: f32[n]) -> f32[n] {
  return x * clamp(x + 3.0, 0.0, 6.0) * 0.16666667;
}
EW
cubin() { awk '/PTX to cubin/ {printf "%.1f ", $1*1000}'; }
{
  $P --version | tail -2
  $P --help | grep -i -A3 "fast-compile" | head -8
  echo "-- PTX to cubin (ms) of ewc-run --no-cache --timing, a fresh compute cache (CUDA_CACHE_PATH) per kernel: runs 1-4 with the cache, then 4 with CUDA_CACHE_DISABLE=1"
  for j in nvjitlink none; do
    for k in kernels/leaky_relu.ew kernels/gelu.ew /tmp/copy.ew; do
      c=$(mktemp -d)
      a=$(for i in 1 2 3 4; do CUDA_CACHE_PATH=$c EWC_NVJITLINK=$([ $j = none ] && echo none) $R $k --n 1024 --no-cache --timing 2>&1 | cubin; done)
      b=$(for i in 1 2 3 4; do CUDA_CACHE_DISABLE=1 EWC_NVJITLINK=$([ $j = none ] && echo none) $R $k --n 1024 --no-cache --timing 2>&1 | cubin; done)
      echo "$j $k: cache $a| disabled $b"
    done
  done
  echo "-- ptxas binary, wall ms (5 runs), on ewc's PTX"
  for k in kernels/leaky_relu.ew kernels/gelu.ew kernels/hardswish.ew /tmp/copy.ew; do
    $R $k --emit ptx > /tmp/k.ptx
    for o in "-O3" "-O3 --Ofast-compile=min" "-O3 --Ofast-compile=mid" "-O3 --Ofast-compile=max" "-O2" "-O1"; do
      t=$(for i in 1 2 3 4 5; do s=$(date +%s%N); $P -arch=sm_90 $o /tmp/k.ptx -o /tmp/k.cubin 2>&1 | head -2; e=$(date +%s%N); echo $(( (e-s)/100000 )); done | sort -n | tr '\n' ' ')
      echo "$k [$o]: $t(x0.1 ms)"
    done
    $P -arch=sm_90 -O3 -v /tmp/k.ptx -o /tmp/k.cubin 2>&1 | grep -E "registers|spill"
  done
  $P -arch=sm_90 -v <($R /tmp/hs_mul.ew --emit ptx) -o /tmp/m.cubin 2>&1 | grep -E "registers"
  echo "-- nvJitLink with --Ofast-compile: PTX to cubin (ms, 4 runs, cache off) and speed at 2^28"
  for o in "" "-Xptxas=--Ofast-compile=min" "-Xptxas=--Ofast-compile=mid" "-Xptxas=--Ofast-compile=max"; do
    for k in leaky_relu gelu hardswish; do
      t=$(for i in 1 2 3 4; do CUDA_CACHE_DISABLE=1 EWC_PTXAS_OPTIONS=$o $R kernels/$k.ew --n 1024 --no-cache --timing 2>&1 | cubin; done)
      b=$(EWC_PTXAS_OPTIONS=$o $R kernels/$k.ew --n 268435456 --bench --no-cache | grep -o '[0-9.]*% of the copy')
      ok=$(EWC_PTXAS_OPTIONS=$o $R kernels/$k.ew --n 100003 --inputs special --no-cache | tail -1)
      echo "[$o] $k: to cubin $t| $b | special inputs $ok"
    done
  done
} > $OUT/ptxas.log 2>&1
{
  echo "-- hardswish launch shapes at 2^28 (normal inputs)"
  for v in 1 2 4; do for b in 128 256 512; do
    echo "vectors-per-thread $v block-size $b: $($R kernels/hardswish.ew --n 268435456 --bench --vectors-per-thread $v --block-size $b | grep -o '[0-9.]*% of the copy')"
  done; done
  for w in 1 2 4 8; do
    echo "grid-waves $w: $($R kernels/hardswish.ew --n 268435456 --bench --grid-waves $w | grep -o '[0-9.]*% of the copy')"
  done
  $R kernels/hardswish.ew --n 268435456 --bench --json | head -40
} > $OUT/shapes.log 2>&1
