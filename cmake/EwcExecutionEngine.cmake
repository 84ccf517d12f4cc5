#===- EwcExecutionEngine.cmake - MLIR's ExecutionEngine, statically -------===#
#
# Included by lib/Runtime (EWCRuntime links it) and by the installed
# EWCConfig.cmake (whose EWC::EWCRuntime names it), after find_package(MLIR).
#
#===----------------------------------------------------------------------===#

# Debian's MLIR is built with MLIR_LINK_MLIR_DYLIB, so the exported
# MLIRExecutionEngine target names all of libMLIR.so as its dependency. Linked
# as is, it would load a second copy of MLIR beside the static MLIR libraries
# the rest of ewc links (two sets of TypeIDs and globals). Re-import the same
# archive with the static libraries its one object file actually needs.
if(NOT TARGET EWCMLIRExecutionEngine)
  get_target_property(ewc_mlir_execution_engine_archive MLIRExecutionEngine
    LOCATION)
  add_library(EWCMLIRExecutionEngine STATIC IMPORTED)
  set_target_properties(EWCMLIRExecutionEngine PROPERTIES
    IMPORTED_LOCATION "${ewc_mlir_execution_engine_archive}"
    INTERFACE_LINK_LIBRARIES
      "MLIRBuiltinToLLVMIRTranslation;MLIRLLVMDialect;MLIRLLVMToLLVMIRTranslation;MLIRTargetLLVMIRExport")
endif()
