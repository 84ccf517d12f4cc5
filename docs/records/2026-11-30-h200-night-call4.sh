#!/usr/bin/env bash
# Session 2026-11-30 (night), call 4: main with ewc's LLVM passes, the
# driver's JIT and vectors per thread by cost: every kernel's speed, compile
# times (compute cache off and on), launch, the benchmark, lit, a GPU fuzz run.
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
R=$D/bin/ewc-run
{
  echo "-- every kernel at 2^28, defaults (ew.elements_per_thread), then special inputs at 100003"
  for k in kernels/*.ew; do
    e=$($R $k --emit gpu | grep -o 'elements_per_thread = [0-9]*' | awk '{print $3}' | tr '\n' ',')
    p=$($R $k --n 268435456 --bench 2>/dev/null | grep -o '[0-9.]*% of the copy' | sed 's/% of the copy//' | tr '\n' ' ')
    ok=$($R $k --n 100003 --inputs special 2>&1 | tail -1)
    echo "$(basename $k .ew) E=$e $p special:$ok"
  done
} > $OUT/kernels.log 2>&1
c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include examples/compile_time.cpp \
  -L$D/lib -Wl,-rpath,$D/lib -lewc -L/usr/local/cuda/lib64/stubs -lcuda -o /tmp/ct 2>/dev/null
c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include examples/launch_overhead.cpp \
  -L$D/lib -Wl,-rpath,$D/lib -lewc -L/usr/local/cuda/lib64/stubs -lcuda -o /tmp/lo 2>/dev/null
{
  echo "-- compile_time, one kernel per process, CUDA_CACHE_DISABLE=1 (cold): driver JIT (default), nvJitLink"
  for round in 1 2 3; do
    for k in leaky_relu gelu hardswish; do
      echo "round $round driver    $(CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 /tmp/ct kernels/$k.ew | tail -1)"
      echo "round $round nvjitlink $(CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 EWC_PTX_ASSEMBLER=nvjitlink /tmp/ct kernels/$k.ew | tail -1)"
    done
  done
  echo "-- compile_time with the driver's compute cache warmed by an earlier process (fresh CUDA_CACHE_PATH), ewc's cache off"
  c=$(mktemp -d)
  for k in leaky_relu gelu hardswish; do CUDA_CACHE_PATH=$c EWC_NO_CACHE=1 /tmp/ct kernels/$k.ew > /dev/null; done
  for round in 1 2 3; do for k in leaky_relu gelu hardswish; do
    echo "round $round driver warm $(CUDA_CACHE_PATH=$c EWC_NO_CACHE=1 /tmp/ct kernels/$k.ew | tail -1)"
  done; done
  echo "-- timing tree, leaky_relu, cold (CUDA_CACHE_DISABLE=1)"
  CUDA_CACHE_DISABLE=1 $R kernels/leaky_relu.ew --n 1024 --no-cache --timing 2>&1
  echo "-- launch overhead, 3 processes"
  for i in 1 2 3; do /tmp/lo; done
} > $OUT/compile.log 2>&1
timeout 150 python3 bench/compare.py --ewc-run $R --out $OUT > $OUT/bench.log 2>&1
python3 $D/lit/lit.py -s test --param ewc_tools_dir=$D/bin --param llvm_tools_dir=$D/bin > $OUT/lit.log 2>&1
$D/bin/ewc-fuzz --device cuda --jobs 16 --seed 7 --count 1000000 --time-limit 90 > $OUT/fuzz.log 2>&1
tail -3 $OUT/lit.log; grep -E "^FAIL|FAILED" $OUT/lit.log | head; tail -3 $OUT/fuzz.log
