//===- Libdevice.cpp - libdevice bitcode built into ewc -------------------===//
//
// CMake passes EWC_LIBDEVICE_PATH when it found libdevice.10.bc at configure
// time; the assembler's .incbin then copies the file into this object's
// read-only data, with no generated source and no run-time file. Without it,
// ewc builds and runs, and only kernels that call libdevice fail to compile.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/GPUToPTX/GPUToPTX.h"

#ifdef EWC_LIBDEVICE_PATH
// 16-byte aligned: LLVM's bitcode reader wants at least 4. Hidden symbols,
// so that the references below are PC-relative and nothing is exported.
__asm__(".pushsection .rodata.ewc_libdevice, \"a\", @progbits\n"
        ".balign 16\n"
        ".globl ewc_libdevice_begin\n"
        ".hidden ewc_libdevice_begin\n"
        "ewc_libdevice_begin:\n"
        ".incbin \"" EWC_LIBDEVICE_PATH "\"\n"
        ".globl ewc_libdevice_end\n"
        ".hidden ewc_libdevice_end\n"
        "ewc_libdevice_end:\n"
        ".popsection\n");

extern "C" {
__attribute__((visibility("hidden"))) extern const char ewc_libdevice_begin[];
__attribute__((visibility("hidden"))) extern const char ewc_libdevice_end[];
}

llvm::ArrayRef<char> mlir::ew::getEmbeddedLibdevice() {
  return {ewc_libdevice_begin, ewc_libdevice_end};
}
#else
llvm::ArrayRef<char> mlir::ew::getEmbeddedLibdevice() { return {}; }
#endif
