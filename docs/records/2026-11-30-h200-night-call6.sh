#!/usr/bin/env bash
# Session 2026-11-30 (night), call 6: the final main: lit, the benchmark,
# launch and compile costs, a GPU+CPU fuzz run.
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
R=$D/bin/ewc-run
python3 $D/lit/lit.py -s test --param ewc_tools_dir=$D/bin --param llvm_tools_dir=$D/bin > $OUT/lit.log 2>&1
timeout 150 python3 bench/compare.py --ewc-run $R --out $OUT > $OUT/bench.log 2>&1
c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include examples/launch_overhead.cpp \
  -L$D/lib -Wl,-rpath,$D/lib -lewc -L/usr/local/cuda/lib64/stubs -lcuda -o /tmp/lo 2>/dev/null
c++ -std=c++17 -O2 -Iinclude -I/usr/local/cuda/include examples/compile_time.cpp \
  -L$D/lib -Wl,-rpath,$D/lib -lewc -L/usr/local/cuda/lib64/stubs -lcuda -o /tmp/ct 2>/dev/null
{
  echo "-- launch overhead, 3 processes"
  for i in 1 2 3; do /tmp/lo; done
  echo "-- compile_time, leaky_relu, one process each: every cache off (3), then the compute cache warm (3)"
  for i in 1 2 3; do CUDA_CACHE_DISABLE=1 EWC_NO_CACHE=1 /tmp/ct kernels/leaky_relu.ew | tail -1; done
  c=$(mktemp -d); CUDA_CACHE_PATH=$c EWC_NO_CACHE=1 /tmp/ct kernels/leaky_relu.ew > /dev/null
  for i in 1 2 3; do CUDA_CACHE_PATH=$c EWC_NO_CACHE=1 /tmp/ct kernels/leaky_relu.ew | tail -1; done
} > $OUT/host.log 2>&1
$D/bin/ewc-fuzz --device both --jobs 16 --seed 9 --count 1000000 --time-limit 90 > $OUT/fuzz.log 2>&1
tail -3 $OUT/lit.log; grep -E "^FAIL" $OUT/lit.log | head; tail -2 $OUT/fuzz.log; cat $OUT/host.log | grep -v "^note"
