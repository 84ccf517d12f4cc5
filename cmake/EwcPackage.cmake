#===- EwcPackage.cmake - cmake --install's CMake package and Python ------===#
#
# Included last by the top-level CMakeLists.txt. The tools, libewc.so and the
# public headers install from their own folders; this adds EWCConfig.cmake
# (find_package(EWC CONFIG) -> EWC::ewc; with COMPONENTS Compiler also the
# static libraries as EWC::MLIREw, EWC::EWCPipelines, ...) and the Python
# package, which finds libewc.so in ../../lib beside it.
#
#===----------------------------------------------------------------------===#

include(CMakePackageConfigHelpers)
set(ewc_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/EWC)
# The MLIR package the libraries were built against: the Compiler
# component's targets name its targets (MLIRIR, ..., LLVM).
set(EWC_MLIR_DIR ${MLIR_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/EWCConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/EWCConfig.cmake
  INSTALL_DESTINATION ${ewc_cmake_dir}
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/EWCConfigVersion.cmake
  VERSION ${EWC_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/EWCConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/EWCConfigVersion.cmake
  DESTINATION ${ewc_cmake_dir})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/ewc
  DESTINATION python
  PATTERN __pycache__ EXCLUDE)
# No Python's own site-packages: which Python the prefix serves is the
# user's choice (pip install . puts the package into one). Say where it went.
install(CODE "message(STATUS \"ewc: the Python package is in \${CMAKE_INSTALL_PREFIX}/python: PYTHONPATH=\${CMAKE_INSTALL_PREFIX}/python python3 -c 'import ewc'\")")

# For compiler engineers: every header of include/ewc (dialect, passes,
# pipelines and their registration functions) and the ODS-generated .inc
# files beside them; the static libraries install from add_mlir_library.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ewc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/ewc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")

# The static libraries as imported targets for MLIR tools outside this tree.
# add_mlir_library installs each into the export set MLIRTargets, and
# add_llvm_library (the front end and the ABI, which need LLVM Support
# alone) into LLVMExports (LLVM's get_target_export_arg); here those sets
# become EWCTargets.cmake and EWCLLVMTargets.cmake, loaded by
# find_package(EWC CONFIG COMPONENTS Compiler) after find_package(MLIR). A
# self-contained build rewrites LLVM's targets for its own tools and has no
# such consumers: it installs none.
if(NOT EWC_SELF_CONTAINED)
  install(EXPORT LLVMExports
    FILE EWCLLVMTargets.cmake
    NAMESPACE EWC::
    DESTINATION ${ewc_cmake_dir})
  install(EXPORT MLIRTargets
    FILE EWCTargets.cmake
    NAMESPACE EWC::
    DESTINATION ${ewc_cmake_dir})
endif()
