# Sanitized and fuzzing builds of ewc (docs/fuzzing.md, "Sanitized build").
#
#   -DEWC_SANITIZERS=address,undefined   instrument all of ewc's code
#   -DEWC_FUZZERS=ON                     also build the libFuzzer targets in fuzz/
#
# Both need clang (Debian's clang-22 and libclang-rt-22-dev, which
# `scripts/setup.sh fuzz` installs); scripts/test-sanitized.sh configures a
# separate build-fuzz/ with them. Debian's LLVM and MLIR libraries stay
# uninstrumented: ASan still checks every access our code makes, and the
# LLVM/MLIR headers we compile are instrumented where we inline them.

set(EWC_SANITIZERS "" CACHE STRING
  "Comma-separated -fsanitize= list for ewc's code, e.g. address,undefined")
option(EWC_FUZZERS "Build the libFuzzer targets in fuzz/ (clang only)" OFF)

if((EWC_SANITIZERS OR EWC_FUZZERS) AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "EWC_SANITIZERS and EWC_FUZZERS need clang "
    "(configure with CC=clang-22 CXX=clang++-22); this is ${CMAKE_CXX_COMPILER_ID}")
endif()

if(EWC_SANITIZERS)
  # A report is a failure: without -fno-sanitize-recover, UBSan prints and
  # goes on, and neither lit nor libFuzzer would notice. Frame pointers and
  # line tables give symbolized stacks for the price of ~1% in speed.
  # UBSan's vptr check needs RTTI, which LLVM (and so ewc) builds without;
  # clang leaves it out of "undefined" by itself under -fno-rtti.
  add_compile_options(-fsanitize=${EWC_SANITIZERS} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -gline-tables-only)
  add_link_options(-fsanitize=${EWC_SANITIZERS})
  # A shared library (libewc.so, linked with --no-undefined) cannot take the
  # static runtime that clang links into executables: it links the shared
  # one, found through its rpath. A program that loads it without being
  # instrumented itself (python3, test/CAPI's C programs) must preload that
  # runtime (EWC_SANITIZER_RUNTIME; test/lit.cfg.py does).
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir
    OUTPUT_VARIABLE EWC_SANITIZER_RUNTIME_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER}
    -print-file-name=libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so
    OUTPUT_VARIABLE EWC_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  # libewc-core.so is loaded by ewc's own executables, which carry the static
  # runtime: a second, shared one beside it would abort the process
  # (EWC_SANITIZER_RUNTIME_FROM_EXECUTABLE, lib/CMakeLists.txt).
  set(shared "$<AND:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,SHARED_LIBRARY>,$<NOT:$<BOOL:$<TARGET_PROPERTY:EWC_SANITIZER_RUNTIME_FROM_EXECUTABLE>>>>")
  add_link_options("$<${shared}:-shared-libsan>"
                   "$<${shared}:-Wl,-rpath,${EWC_SANITIZER_RUNTIME_DIR}>")
  message(STATUS "ewc: sanitizers ${EWC_SANITIZERS}")
endif()

if(EWC_FUZZERS)
  # Coverage feedback for libFuzzer in every library; only the targets in
  # fuzz/ link libFuzzer's main (-fsanitize=fuzzer), so the tools of this
  # build stay ordinary programs that the lit suite runs.
  add_compile_options(-fsanitize=fuzzer-no-link)
  message(STATUS "ewc: libFuzzer targets in fuzz/")
endif()
