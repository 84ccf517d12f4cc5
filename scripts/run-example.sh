#!/usr/bin/env bash
# Builds ewc (scripts/build.sh) and runs the LeakyReLU example on 1024
# elements: on the GPU when a CUDA device is present, otherwise on the CPU.
# Extra arguments go to ewc-run, e.g. --arg slope=0.2 or --n 1000003.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${EWC_BUILD_DIR:-$root/build}

"$root/scripts/build.sh" "$build_dir"
echo "run-example: ewc-run kernels/leaky_relu.ew --n 1024 $*"
exec "$build_dir/bin/ewc-run" "$root/kernels/leaky_relu.ew" --n 1024 "$@"
