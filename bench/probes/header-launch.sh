#!/usr/bin/env bash
# Host cost of a launch through the exported header (header-launch.cpp), on
# the device machine: EWC_RUN is the ewc-run to emit the header with
# (default the packed one), CUDA_HOME the toolkit (headers and the driver's
# stub).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ewc_run=${EWC_RUN:-/tmp/ewc-device/bin/ewc-run}
cuda=${CUDA_HOME:-/usr/local/cuda}
dir=$(mktemp -d)
"$ewc_run" --emit header "$root/kernels/leaky_relu.ew" --type T=f32 > "$dir/leaky_relu.h"
c++ -std=c++17 -O2 -I"$cuda/include" -I"$dir" "$root/bench/probes/header-launch.cpp" \
  -L"$cuda/lib64/stubs" -lcuda -o "$dir/header-launch"
"$dir/header-launch"
