#!/usr/bin/env bash
# Session 2026-11-30 (night), call 1: cold compile with ewc's LLVM passes
# against default<O2> and nvJitLink against the driver's JIT; hardswish's
# inputs; the benchmark; the lit suite.
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
R=$D/bin/ewc-run
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include examples/compile_time.cpp \
  -L$D/lib -Wl,-rpath,$D/lib -lewc -L/usr/local/cuda/lib64/stubs -lcuda -o /tmp/ct
{
  for round in 1 2 3; do
    for k in leaky_relu gelu hardswish; do
      echo "== round $round $k lean nvJitLink";  CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 /tmp/ct kernels/$k.ew | tail -1
      echo "== round $round $k lean driverJIT";  CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 EWC_NVJITLINK=none /tmp/ct kernels/$k.ew | tail -1
      echo "== round $round $k O2 nvJitLink";    CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 EWC_LLVM_PASSES= /tmp/ct kernels/$k.ew | tail -1
      echo "== round $round $k O2 driverJIT";    CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 EWC_LLVM_PASSES= EWC_NVJITLINK=none /tmp/ct kernels/$k.ew | tail -1
    done
  done
  for a in "" none; do
    for i in 1 2; do
      echo "== timing tree, EWC_NVJITLINK='$a'"
      CUDA_CACHE_DISABLE=1 EWC_NVJITLINK=$a $R kernels/leaky_relu.ew --n 1024 --no-cache --timing 2>&1
    done
  done
} > $OUT/compile.log 2>&1
{
  cat > /tmp/hs_mul.ew <<'EW'
kernel hardswish_mul(x: f32[n]) -> f32[n] {
  return x * clamp(x + 3.0, 0.0, 6.0) * 0.16666667;
}
EW
  for k in kernels/hardswish.ew /tmp/hs_mul.ew; do
    for inp in normal uniform ints special; do
      echo "$k --inputs $inp: $($R $k --n 268435456 --bench --inputs $inp | grep -o '[0-9.]* GB/s.*')"
    done
  done
  for s in 1 2 3; do echo "hardswish seed $s: $($R kernels/hardswish.ew --n 268435456 --bench --seed $s | grep -o '[0-9.]* GB/s.*')"; done
  for k in leaky_relu gelu mish; do echo "$k: $($R kernels/$k.ew --n 268435456 --bench | grep -o '[0-9.]* GB/s.*')"; done
  $R kernels/hardswish.ew --emit ptx > $OUT/hardswish.ptx
} > $OUT/hardswish.log 2>&1
timeout 150 python3 bench/compare.py --ewc-run $R --out $OUT > $OUT/bench.log 2>&1
python3 $D/lit/lit.py -s test --param ewc_tools_dir=$D/bin --param llvm_tools_dir=$D/bin > $OUT/lit.log 2>&1
tail -3 $OUT/lit.log
grep -E "FAIL" $OUT/lit.log | head
