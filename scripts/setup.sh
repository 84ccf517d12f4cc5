#!/usr/bin/env bash
# Installs what building and testing ewc needs on Debian 12, idempotently:
# apt runs only when a package is missing. Run as root (the dev, CI and
# device-build machines are root); otherwise sudo is used when present.
#
# Why each package:
#   llvm-22-dev libmlir-22-dev   LLVM/MLIR 22 headers, static archives and CMake
#                                packages (llvm-22-dev pulls libz3-dev, libffi-dev,
#                                libxml2-dev and libncurses-dev, which the exported
#                                LLVM targets name)
#   mlir-22-tools llvm-22-tools  mlir-tblgen (ODS), FileCheck, not, count, lit;
#                                every file LLVMExports/MLIRTargets check exists
#   zlib1g-dev libzstd-dev       ZLIB::ZLIB and zstd::libzstd_shared, which
#                                LLVMSupport links; only a static
#                                (-DEWC_SELF_CONTAINED=ON) link needs them
#   cmake ninja-build g++        the build; python3 for lit
#   xz-utils                     scripts/pack-device.sh
#   libgtest-dev                 GoogleTest for unittests/ (find_package(GTest))
#   python3-numpy                NumPy for python/ewc's CPU tests (test/Python)
#   python3-venv python3-setuptools python3-wheel
#                                pip install --no-build-isolation . (pyproject.toml
#                                and setup.py; test/Install/pip.test): a venv, and
#                                the build backend, since no package index is
#                                reachable to fetch one
# With the argument `fuzz` (scripts/test-sanitized.sh, scripts/fuzz.sh), also:
#   clang-22 libclang-rt-22-dev  clang and its runtimes (ASan, UBSan, libFuzzer)
#                                for the sanitized and fuzzing build in
#                                build-fuzz/ (docs/fuzzing.md); 22 MB to fetch,
#                                143 MB installed (2026-11-30), that the main
#                                build, made with g++, never needs
# Not needed: libcurl, libedit (only LLVMDebuginfod and LLVMLineEditor name them,
# and ewc links neither); the CUDA toolkit (the runtime loads the driver itself).
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          cmake ninja-build g++ python3 zlib1g-dev libzstd-dev xz-utils
          libgtest-dev python3-numpy python3-venv python3-setuptools
          python3-wheel)
if [[ "${1:-}" == fuzz ]]; then
  packages+=(clang-22 libclang-rt-22-dev)
elif (($#)); then
  echo "usage: scripts/setup.sh [fuzz]" >&2
  exit 2
fi

say() { echo "setup: $*"; }

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  say "all ${#packages[@]} packages present, nothing to install"
  exit 0
fi

sudo=()
if ((EUID != 0)); then
  if command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    say "missing ${missing[*]}, and not root (no sudo): install them as root" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
say "missing: ${missing[*]}"
say "apt-get update"
"${sudo[@]}" apt-get update -qq

# LLVM 22 comes from the apt sources these machines already have (Debian's
# bookworm-security serves 1:22.1.x); say so plainly when a machine lacks them.
candidate=$(apt-cache policy llvm-22-dev | awk '/Candidate:/ {print $2}')
if [[ -z "$candidate" || "$candidate" == "(none)" ]]; then
  say "no apt source offers llvm-22-dev (see 'apt-cache policy llvm-22-dev');" \
      "add a source that serves LLVM/MLIR 22 and rerun" >&2
  exit 1
fi
say "apt-get install ${missing[*]} (llvm-22-dev $candidate)"
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
say "installed ${#missing[@]} package(s)"
