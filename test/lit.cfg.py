# -*- Python -*-
# The ewc lit suite. Normally loaded through the build's lit.site.cfg.py;
# on the device machine (no build tree) it is run straight from the source
# tree with --param ewc_tools_dir=... --param llvm_tools_dir=... instead.

import ctypes
import os
import platform
import shutil
import tempfile

import lit.formats
import lit.util

config.name = "EWC"
config.test_format = lit.formats.ShTest(not lit.util.which("bash") is None)
config.suffixes = [".mlir", ".ew", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)

params = lit_config.params
ewc_tools_dir = params.get("ewc_tools_dir", getattr(config, "ewc_tools_dir", None))
llvm_tools_dir = params.get("llvm_tools_dir", getattr(config, "llvm_tools_dir", None))
if ewc_tools_dir is None or llvm_tools_dir is None:
    lit_config.fatal("run lit on the build tree, or pass --param ewc_tools_dir=DIR "
                     "--param llvm_tools_dir=DIR")
config.llvm_tools_dir = llvm_tools_dir
config.ewc_tools_dir = ewc_tools_dir
if hasattr(config, "ewc_obj_root"):
    config.test_exec_root = os.path.join(config.ewc_obj_root, "test")
    config.available_features.add("build-tree")
    config.substitutions.append(("%ewc_obj_root", config.ewc_obj_root))

if not hasattr(config, "llvm_config"):
    import lit.llvm
    lit.llvm.initialize(lit_config, config)
from lit.llvm import llvm_config

llvm_config.with_system_environment(["HOME", "TMP", "TEMP", "LD_LIBRARY_PATH"])
# The tests' kernel cache: emptied when lit starts, so that no run reads what
# an earlier build or run left there, and nothing goes to ~/.cache/ewc (HOME
# is passed, for torch). The tests of the cache itself set their own.
kernel_cache = os.path.join(
    getattr(config, "test_exec_root", None) or tempfile.gettempdir(),
    "ewc-kernel-cache")
shutil.rmtree(kernel_cache, ignore_errors=True)
config.environment["EWC_CACHE_DIR"] = kernel_cache
llvm_config.use_default_substitutions()
config.substitutions.append(("%ewc_src_root", os.path.dirname(config.test_source_root)))
config.substitutions.append(("%kernels", os.path.join(os.path.dirname(config.test_source_root), "kernels")))

# The test pass plugin (test/lib/Transforms), beside libewc-core.so in the
# lib/ next to the tools' bin/, in the build tree as in the device pack.
# libewc.so (the C and C++ APIs), beside the tools' libraries: build/lib in
# a build tree, lib/ of the device's pack.
config.substitutions.append(("%ewc_lib_dir", os.path.join(
    os.path.dirname(os.path.abspath(ewc_tools_dir)), "lib")))
config.substitutions.append(("%ewc_test_passes", os.path.join(
    os.path.dirname(os.path.abspath(ewc_tools_dir)), "lib", "EwcTestPasses.so")))

tool_dirs = [ewc_tools_dir, llvm_tools_dir]
llvm_config.add_tool_substitutions(["ewc-fuzz", "ewc-opt", "ewc-run", "ewc-lsp-server", "FileCheck", "not", "count", "split-file"], tool_dirs)


def cuda_device_present():
    """True when the CUDA driver loads and reports at least one device: the
    same check ewc-run's --device auto makes, done here without ewc."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    if cuda.cuInit(0) != 0:
        return False
    count = ctypes.c_int(0)
    return cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


def cuda_device_chip():
    """The first device's chip name (sm_XX), for tests that compile for it."""
    cuda = ctypes.CDLL("libcuda.so.1")
    device, major, minor = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
    cuda.cuDeviceGet(ctypes.byref(device), 0)
    # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR and _MINOR (cuda.h).
    cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, device)
    cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, device)
    return "sm_%d%d" % (major.value, minor.value)


# The host's architecture, for tests of the CPU JIT's code (x86-64 levels).
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

# A sanitized build (cmake/EwcSanitizers.cmake): one feature per sanitizer,
# and `fuzzers` where the libFuzzer targets of fuzz/ were built (test/Fuzz).
for sanitizer in filter(None, getattr(config, "ewc_sanitizers", "").split(",")):
    config.available_features.add(sanitizer.strip())
# ASan's shared runtime, which a program that is not instrumented itself
# must load first to load the sanitized libewc.so (test/CAPI, test/Python).
config.ewc_sanitizer_runtime = getattr(config, "ewc_sanitizer_runtime", "")
# Leaks that are a library's own, not ewc's (test/lsan.supp says which).
if "address" in config.available_features:
    config.environment["LSAN_OPTIONS"] = "suppressions=" + os.path.join(
        config.test_source_root, "lsan.supp")
if getattr(config, "ewc_fuzzers", False):
    config.available_features.add("fuzzers")
    config.substitutions.append(("%ewc_obj_root", config.ewc_obj_root))


# GPU tests (test/Integration/GPU) need a device; they run on the H200.
if cuda_device_present():
    config.available_features.add("cuda")
    config.substitutions.append(("%cuda_chip", cuda_device_chip()))


def nvjitlink_present():
    """True when ewc can load nvJitLink (lib/Runtime/CudaJitLink.cpp looks in
    the same places): --emit header embeds cubins with it."""
    for name in ["libnvJitLink.so.13", "libnvJitLink.so.12",
                 "/usr/local/cuda/lib64/libnvJitLink.so.13"]:
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            pass
    return False


if nvjitlink_present():
    config.available_features.add("nvjitlink")

# PTX is assembled with ptxas where the CUDA toolkit has one.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# The CUDA driver API's header, for compiling what --emit header writes.
if os.path.exists("/usr/local/cuda/include/cuda.h") and shutil.which("c++"):
    config.available_features.add("cuda-header")
    config.substitutions.append(("%cuda_include", "/usr/local/cuda/include"))

# The source style check (Style/clang-format.test) with the clang-format the
# sources were formatted with: Debian 12's, version 14. Another version may
# format differently, so the check needs this one.
clang_format = shutil.which("clang-format-14")
if clang_format:
    config.available_features.add("clang-format")
    config.substitutions.append(("%clang_format", clang_format))
