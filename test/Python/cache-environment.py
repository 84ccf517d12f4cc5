# The package reads the kernel cache's variables itself (libewc reads no
# environment) and passes the directory it picks, as the tools pick it
# (tools/Support/Environment.cpp): $EWC_CACHE_DIR, else $XDG_CACHE_HOME/ewc,
# else $HOME/.cache/ewc, else none. What a cache directory does is the GPU
# tests' (test/Integration/GPU/kernel-cache.test).
#
# RUN: env EWC_CACHE_DIR=/ewc XDG_CACHE_HOME=/xdg HOME=/home/u %ewc_python %s | FileCheck %s --check-prefix=CHECK-EWC
# CHECK-EWC: default cache: /ewc
# RUN: env -u EWC_CACHE_DIR XDG_CACHE_HOME=/xdg HOME=/home/u %ewc_python %s | FileCheck %s --check-prefix=CHECK-XDG
# CHECK-XDG: default cache: /xdg/ewc
# RUN: env -u EWC_CACHE_DIR XDG_CACHE_HOME= HOME=/home/u %ewc_python %s | FileCheck %s --check-prefix=CHECK-HOME
# CHECK-HOME: default cache: /home/u/.cache/ewc
# RUN: env -u EWC_CACHE_DIR -u XDG_CACHE_HOME -u HOME %ewc_python %s | FileCheck %s --check-prefix=CHECK-NONE
# CHECK-NONE: default cache: None

import ewc

print("default cache:", ewc._default_cache_dir())
