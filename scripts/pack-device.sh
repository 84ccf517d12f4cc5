#!/usr/bin/env bash
# Builds the self-contained tools (LLVM linked statically, see
# cmake/EwcSelfContained.cmake) into build-static/ and packs what a device run
# needs into .device/ (git-ignored), for the device call's `carry`:
#
#   .device/ewc-device.tar.xz   ewc-device/bin/   ewc-opt, ewc-run, ewc-fuzz
#                                                (stripped), FileCheck, not,
#                                                count, split-file
#                               ewc-device/lib/   libz3.so.4 (see below),
#                                                libewc-core.so (the tools'
#                                                one LLVM and MLIR), libewc.so
#                                                (the C API for python/ewc),
#                                                EwcTestPasses.so (stripped)
#                               ewc-device/lit/   lit.py and the lit package
#   .device/MANIFEST.txt        what is inside, sizes, source revision
#
# scripts/device-run.sh unpacks and runs it on the device machine. Prints the
# carry path and the packed size last.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${EWC_STATIC_BUILD_DIR:-$root/build-static}
llvm_bin=/usr/lib/llvm-22/bin
lit_pkg=/usr/lib/llvm-22/utils/lit/lit
out=$root/.device
# The device call carries at most 64 MiB, working tree included.
limit_mib=48

say() { echo "pack: $*"; }
mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }

# EWC_PACK_TOOLS overrides the list (e.g. "ewc-opt" while ewc-run is broken).
if [[ -n "${EWC_PACK_TOOLS:-}" ]]; then
  read -r -a tools <<<"$EWC_PACK_TOOLS"
else
  tools=(ewc-opt)
  [[ -f "$root/tools/ewc-run/CMakeLists.txt" ]] && tools+=(ewc-run)
  # test/Tools/ewc-fuzz and Integration/GPU/fuzz.test, and device-edges.sh.
  [[ -f "$root/tools/ewc-fuzz/CMakeLists.txt" ]] && tools+=(ewc-fuzz)
fi

# libewc-core.so, which every tool links (lib/CMakeLists.txt: one copy of
# LLVM and MLIR for all of them), libewc.so (lib/CAPI), which python/ewc loads,
# and the test pass plugin EwcTestPasses.so (test/Mutations on the device).
libs=(ewc-core ewc)
plugins=(EwcTestPasses)
"$root/scripts/build.sh" "$build_dir" -DEWC_SELF_CONTAINED=ON "${tools[@]}" "${libs[@]}" "${plugins[@]}"

# Whatever a tool needs must be on the device: glibc's libc and libm, the GCC
# runtime, zlib and zstd. Never libLLVM, libMLIR, libz3 or libcuda (the runtime
# dlopens the driver).
# The tools also need libewc-core.so, found beside them as $ORIGIN/../lib.
allowed='^(libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libstdc\+\+\.so\.6|libz\.so\.1|libzstd\.so\.1|ld-linux-x86-64\.so\.2|libewc-core\.so)$'
binaries=()
for t in "${tools[@]}"; do binaries+=("bin/$t"); done
for l in "${libs[@]}"; do binaries+=("lib/lib$l.so"); done
for p in "${plugins[@]}"; do binaries+=("lib/$p.so"); done
for t in "${binaries[@]}"; do
  needed=$(readelf -d "$build_dir/$t" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  bad=$(grep -Ev "$allowed" <<<"$needed" || true)
  if [[ -n "$bad" ]]; then
    say "$t needs libraries the device lacks: $(echo $bad)" >&2
    exit 1
  fi
  say "$t needs only: $(echo $needed)"
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pkg=$stage/ewc-device
mkdir -p "$pkg/bin" "$pkg/lib" "$pkg/lit"

raw_total=0
for t in "${tools[@]}"; do
  strip -o "$pkg/bin/$t" "$build_dir/bin/$t"
  raw=$(stat -c %s "$build_dir/bin/$t")
  raw_total=$((raw_total + raw))
  say "$t: $(mib "$raw") linked, $(mib "$(stat -c %s "$pkg/bin/$t")") stripped"
done
for l in "${libs[@]}"; do
  strip -o "$pkg/lib/lib$l.so" "$build_dir/lib/lib$l.so"
  say "lib$l.so: $(mib "$(stat -c %s "$pkg/lib/lib$l.so")") stripped"
done
for p in "${plugins[@]}"; do
  strip -o "$pkg/lib/$p.so" "$build_dir/lib/$p.so"
  say "$p.so: $(mib "$(stat -c %s "$pkg/lib/$p.so")") stripped"
done
# The tools find libewc-core.so through $ORIGIN/../lib (the build's run path).
for t in "${tools[@]}"; do
  if ! readelf -d "$pkg/bin/$t" | grep -q 'R.*PATH.*\$ORIGIN/../lib'; then
    say "$t has no \$ORIGIN/../lib run path: it would not find libewc-core.so" >&2
    exit 1
  fi
done

# Debian links FileCheck, not, count and split-file against libz3.so.4 (23 MB) but they
# call nothing in it: the loader only needs a file of that name. Carry an empty
# library with that soname instead, unless a tool does import a Z3 symbol.
z3_users=""
for t in FileCheck not count split-file; do
  cp -L "$llvm_bin/$t" "$pkg/bin/$t"
  if nm -D --undefined-only "$pkg/bin/$t" | grep -q ' Z3_'; then
    z3_users+=" $t"
  fi
done
if [[ -z "$z3_users" ]]; then
  echo '/* Stands in for libz3.so.4, which FileCheck, not and count name but never call. */' \
    >"$stage/z3stub.c"
  cc -shared -fPIC -Wl,-soname,libz3.so.4 -o "$pkg/lib/libz3.so.4" "$stage/z3stub.c"
  z3_note="empty stand-in (no Z3 symbol imported)"
else
  cp -L /usr/lib/x86_64-linux-gnu/libz3.so.4 "$pkg/lib/libz3.so.4"
  z3_note="the real one (imported by$z3_users)"
fi
say "libz3.so.4: $z3_note"

# lit is pure Python; a launcher that finds the package beside it.
cp -r "$lit_pkg" "$pkg/lit/lit"
find "$pkg/lit" -name __pycache__ -prune -exec rm -rf {} +
cat >"$pkg/lit/lit.py" <<'PY'
#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit.main import main
if __name__ == "__main__":
    main()
PY
chmod +x "$pkg/lit/lit.py"

rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$([[ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ]] && echo " plus uncommitted changes" || true)
{
  echo "ewc device pack, $(date -u +%Y-%m-%dT%H:%MZ), source $rev$dirty"
  echo "built on $(. /etc/os-release && echo "$PRETTY_NAME"), $(c++ --version | head -1)"
  echo "libz3.so.4: $z3_note"
  (cd "$stage" && find ewc-device -type f \( -path '*/bin/*' -o -path '*/lib/*' \) -printf '%10s  %p\n' | sort -k2)
} >"$pkg/MANIFEST.txt"

rm -rf "$out"
mkdir -p "$out"
say "xz"
# libewc-core.so and libewc.so each hold LLVM and MLIR, so much of their
# bytes are alike but tens of MiB apart: a dictionary larger than the tar
# (256 MiB) finds them (checked on 2026-12-01, when every tool had its own
# copy too: 231 MiB packed to 25.6 MiB, where -6 with its 8 MiB dictionary gave
# 57.8 MiB). Single-threaded (threads split the dictionary).
tar -C "$stage" -cf - ewc-device |
  xz -T1 --lzma2=preset=9e,dict=256MiB >"$out/ewc-device.tar.xz"
cp "$pkg/MANIFEST.txt" "$out/MANIFEST.txt"

unpacked=$(du -sb "$pkg" | cut -f1)
packed=$(du -sb "$out" | cut -f1)
echo "packed: $(mib "$unpacked") unpacked -> $(mib "$packed") in .device/" \
  "(tools $(mib "$raw_total") before strip)" | tee -a "$out/MANIFEST.txt"
if ((packed > limit_mib * 1048576)); then
  say "over the ${limit_mib} MiB budget (the device carries 64 MiB with the tree)" >&2
  exit 1
fi
echo "carry: .device ($(mib "$packed"))"
