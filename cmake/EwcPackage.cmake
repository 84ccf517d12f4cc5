#===- EwcPackage.cmake - cmake --install's CMake package and Python ------===#
#
# Included last by the top-level CMakeLists.txt. The tools, libewc.so and the
# public headers install from their own folders; this adds EWCConfig.cmake
# (find_package(EWC CONFIG) -> EWC::ewc) and the Python package, which finds
# libewc.so in ../../lib beside it.
#
#===----------------------------------------------------------------------===#

include(CMakePackageConfigHelpers)
set(ewc_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/EWC)
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

# For compiler engineers: every header of include/ewc (dialect, passes,
# pipelines and their registration functions) and the ODS-generated .inc
# files beside them; the static libraries install from add_mlir_library.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ewc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/ewc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")
