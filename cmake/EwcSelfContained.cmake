#===- EwcSelfContained.cmake - Link LLVM statically into the tools -------===#
#
# Included by the top-level CMakeLists.txt when -DEWC_SELF_CONTAINED=ON, after
# find_package(MLIR) and HandleLLVMOptions and before any ewc target exists.
#
# The device machine has no LLVM (docs/building.md). Debian's LLVM and MLIR
# are built with LLVM_LINK_LLVM_DYLIB, so two things point at libLLVM.so:
#   1. our own add_mlir_library(... LINK_COMPONENTS ...) and
#      add_llvm_executable(), which read LLVM_LINK_LLVM_DYLIB;
#   2. the exported MLIR targets: each is a static archive whose
#      INTERFACE_LINK_LIBRARIES names `LLVM` (and MLIRExecutionEngine also
#      `MLIR`, the shared libMLIR.so) where the MLIR build had the component
#      libraries it used.
# Every LLVM component is installed as a static archive too (libLLVMCore.a,
# ...; imported targets LLVMCore, ... with correct dependencies among
# themselves), so (1) is a variable and (2) a rewrite of the imported targets.
#
# The result needs only libc, libm, libgcc_s, libstdc++, libz and libzstd
# (scripts/pack-device.sh checks this on every pack).
#
#===----------------------------------------------------------------------===#

# (1) Our libraries and tools map LINK_COMPONENTS to static component archives.
set(LLVM_LINK_LLVM_DYLIB OFF)

# (2) What replaces `LLVM` in the MLIR targets. The exports lost the per-library
# component lists, so this is the union the MLIR libraries ewc links draw on
# (IR, passes, translation to LLVM IR, NVPTX code generation for the ew-to-ptx
# pipeline, the ORC JIT of the CPU runtime). A static archive adds only the
# objects something references, so a component too many costs link time, not
# bytes; one too few shows up as an undefined symbol at link time.
#
# Left out on purpose because their imported targets name libraries that are
# not on the device or not installed: Debuginfod (libcurl), LineEditor
# (libedit), WindowsManifest (libxml2), Interpreter (libffi).
set(EWC_STATIC_LLVM_COMPONENTS
  Analysis
  AsmParser
  AsmPrinter
  BinaryFormat
  BitReader
  BitWriter
  CodeGen
  Core
  Coroutines
  Demangle
  ExecutionEngine
  FrontendHLSL
  FrontendOffloading
  FrontendOpenACC
  FrontendOpenMP
  InstCombine
  Instrumentation
  IPO
  IRReader
  JITLink
  Linker
  MC
  MCParser
  Object
  OrcJIT
  OrcShared
  OrcTargetProcess
  Passes
  PerfJITEvents
  ProfileData
  Remarks
  RuntimeDyld
  ScalarOpts
  SelectionDAG
  Support
  Target
  TargetParser
  TransformUtils
  Vectorize
  # Code generation targets: NVPTX for PTX, the host (X86) for the CPU JIT.
  NVPTX
  native
  )
llvm_map_components_to_libnames(EWC_STATIC_LLVM_LIBS ${EWC_STATIC_LLVM_COMPONENTS})

# Rewrites one target's INTERFACE_LINK_LIBRARIES: `LLVM` (also inside
# $<LINK_ONLY:...>) becomes the static component libraries; `MLIR` and libz3
# go. Nothing ewc links uses libMLIR.so's extra contents (no MLIRExecutionEngine:
# CpuJit loads objects with ORC itself), and libz3 is
# only needed by LLVM's Z3 constraint solver, which nothing here calls.
function(ewc_make_static target)
  get_target_property(libs ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT libs)
    return()
  endif()
  set(rewritten)
  foreach(lib IN LISTS libs)
    if(lib STREQUAL "LLVM")
      list(APPEND rewritten ${EWC_STATIC_LLVM_LIBS})
    elseif(lib STREQUAL "$<LINK_ONLY:LLVM>")
      foreach(static_lib IN LISTS EWC_STATIC_LLVM_LIBS)
        list(APPEND rewritten "$<LINK_ONLY:${static_lib}>")
      endforeach()
    elseif(lib STREQUAL "MLIR" OR lib STREQUAL "$<LINK_ONLY:MLIR>"
           OR lib MATCHES "/libz3\\.so$")
      # dropped, see above
    else()
      list(APPEND rewritten "${lib}")
    endif()
  endforeach()
  if(NOT rewritten STREQUAL libs)
    set_target_properties(${target} PROPERTIES
      INTERFACE_LINK_LIBRARIES "${rewritten}")
  endif()
endfunction()

foreach(target IN LISTS MLIR_EXPORTED_TARGETS LLVM_AVAILABLE_LIBS)
  if(TARGET ${target})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      ewc_make_static(${target})
    endif()
  endif()
endforeach()

# The archives are built with -ffunction-sections -fdata-sections, so
# --gc-sections drops what no kept code reaches: ewc-opt stripped is 44 MiB
# with it, 66 MiB without (add_llvm_executable passes it too; this covers any
# executable). --as-needed keeps a library off DT_NEEDED when nothing is taken
# from it (-ldl and -lrt, parts of libc since glibc 2.34).
string(APPEND CMAKE_EXE_LINKER_FLAGS " -Wl,--gc-sections -Wl,--as-needed")

message(STATUS "ewc: self-contained tools, LLVM linked statically "
               "(${EWC_STATIC_LLVM_COMPONENTS})")
