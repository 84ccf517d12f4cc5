"""The CMake step of `pip install --no-build-isolation .` (pyproject.toml).

Builds libewc.so (the C API that python/ewc loads with ctypes) with
scripts/build.sh, which installs what is missing and runs CMake and Ninja,
and puts it inside the package, where python/ewc/_capi.py looks first. These
variables choose how (they are the build's, read by this script only):

  EWC_BUILD_DIR        the CMake build tree (default: build/, or
                       build-static/ with EWC_SELF_CONTAINED; a tree built
                       before is reused, only what changed is rebuilt)
  EWC_SELF_CONTAINED=1 link LLVM and MLIR into libewc.so, for a wheel that
                       runs where no LLVM is installed (the GPU machines)
  EWC_PREBUILT_LIBRARY package this libewc.so as it is, without CMake

The wheel is tagged py3-none-<platform>: libewc.so is no CPython extension
(ctypes loads it), so one wheel serves every Python 3 of that platform.
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))


def read_version():
    """ewc's version, from the one place that defines it: the top-level
    CMakeLists.txt's project() (the library reports the same)."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        match = re.search(r"^project\(ewc VERSION (\d+\.\d+\.\d+)\b", f.read(),
                          re.M)
    if not match:
        sys.exit("setup.py: no 'project(ewc VERSION x.y.z' in CMakeLists.txt")
    return match.group(1)


def wants_self_contained():
    return os.environ.get("EWC_SELF_CONTAINED", "") not in ("", "0", "OFF")


def build_library():
    """The path of a libewc.so to package: EWC_PREBUILT_LIBRARY's, or one
    built now by scripts/build.sh."""
    given = os.environ.get("EWC_PREBUILT_LIBRARY")
    if given:
        if not os.path.isfile(given):
            sys.exit("setup.py: EWC_PREBUILT_LIBRARY=%s is no file" % given)
        return given
    self_contained = wants_self_contained()
    build_dir = os.environ.get("EWC_BUILD_DIR") or os.path.join(
        ROOT, "build-static" if self_contained else "build")
    command = ["bash", os.path.join(ROOT, "scripts", "build.sh"), build_dir]
    if self_contained:
        command.append("-DEWC_SELF_CONTAINED=ON")
    command.append("ewc")
    print("setup.py: " + " ".join(command), flush=True)
    subprocess.check_call(command)
    return os.path.join(build_dir, "lib", "libewc.so")


class BuildPyWithLibrary(build_py):
    """build_py, then libewc.so into the package's build directory."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "ewc", "libewc.so")
        shutil.copyfile(build_library(), target)
        os.chmod(target, 0o755)
        # Symbols are for debuggers: stripped, a self-contained libewc.so
        # falls from about 99 MB to about 60 MB (the build tree keeps its
        # own). Where strip is missing the copy stays as built.
        if shutil.which("strip"):
            subprocess.check_call(["strip", "--strip-unneeded", target])


def wheel_command():
    """bdist_wheel tagged py3-none-<platform>, from the `wheel` package:
    pip's own environment's, else Debian's python3-wheel (a fresh venv
    holds only pip and setuptools, and no index is reachable to fetch it)."""
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:
        debian = "/usr/lib/python3/dist-packages"
        if not os.path.isdir(os.path.join(debian, "wheel")):
            return None
        sys.path.append(debian)
        from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            # Not pure: the wheel holds a shared library of one platform.
            self.root_is_pure = False

        def get_tag(self):
            return ("py3", "none") + tuple(super().get_tag()[2:])

    return PlatformWheel


commands = {"build_py": BuildPyWithLibrary}
platform_wheel = wheel_command()
if platform_wheel:
    commands["bdist_wheel"] = platform_wheel
setuptools_dir = os.path.join("build", "setuptools")
os.makedirs(os.path.join(ROOT, setuptools_dir), exist_ok=True)

setup(
    version=read_version(),
    cmdclass=commands,
    # setuptools' own build tree inside CMake's (git-ignored) build/, so
    # the repository root gets no second build/lib.
    options={"build": {"build_base": setuptools_dir},
             "egg_info": {"egg_base": setuptools_dir}},
)
