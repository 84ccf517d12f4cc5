#!/usr/bin/env bash
# The wheel a user installs, tried on the device machine (scripts/device-run.sh
# runs this when EWC_DEVICE_WHEEL names one; docs/api.md, "Installing"):
#
#   scripts/device-wheel.sh dist/ewc-0.1.0-py3-none-linux_x86_64.whl
#
# A fresh venv, `pip install` of the wheel with no index (none is reachable
# there), then, from a folder outside the source tree and with neither
# EWC_LIBRARY nor PYTHONPATH set: the version, the library the package
# found (its own copy), and the seed (examples/seed_leaky_relu.py) on the GPU,
# which prints True. The machine's torch lives in a venv of its own, whose
# packages a venv made from it cannot see with --system-site-packages (that
# means the base interpreter's): a .pth file in the new venv adds torch's
# site-packages after the venv's own, as a user's environment with torch
# installed beside ewc would have it.
set -euo pipefail

[[ $# == 1 && -f "$1" ]] || { echo "usage: $0 FILE.whl" >&2; exit 2; }
wheel=$(realpath "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${EWC_DEVICE_PYTHON:-python3}
home=$(mktemp -d)
venv=$home/venv

echo "wheel: $(basename "$wheel"), $(stat -c %s "$wheel") bytes"
"$python" -m venv "$venv"
torch_site=$("$python" -c 'import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))')
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$torch_site" >"$site/zz-torch.pth"
"$venv/bin/pip" install --no-index --no-deps --quiet "$wheel"
cd "$home"
clean=(env -u EWC_LIBRARY -u PYTHONPATH)
"${clean[@]}" "$venv/bin/python" - <<'PY'
import os
import ewc
library = ewc._capi.lib._name
print("ewc", ewc.__version__, "revision", ewc.__revision__)
print("library:", library)
inside = os.path.dirname(os.path.abspath(ewc.__file__))
if os.path.dirname(os.path.abspath(library)) != inside:
    raise SystemExit("the package did not load its own libewc.so")
PY
"${clean[@]}" "$venv/bin/python" "$root/examples/seed_leaky_relu.py"
