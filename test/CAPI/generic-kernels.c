// Generic kernels from C: a module compiled without types lists its
// templates (ewcModuleGetNumGenericKernels and the ewcGenericKernel*
// accessors) and compiles none of them; launching one by name finds no
// kernel; ewcCompileOptionsSetTypes binds T, and the module then holds the
// specialization under its plain name; a misspelt or inadmissible binding
// fails the compile, saying why. ewcGenericKernelInferTypes reads T from the
// arguments' element types, and ewcModuleSpecialize compiles the module's
// source again with them.
//
// RUN: %cc_ewc %s -lewc -o %t
// RUN: %t | FileCheck %s

#include "ewc-c/ewc.h"

#include <stdio.h>

static const char *kSource =
    "# x scaled by s.\n"
    "kernel scale<T: float>(x: T[n], s: f32 = 2) -> T[n] {\n"
    "  return x * s;\n"
    "}\n"
    "kernel plain(x: f32[n]) -> f32[n] {\n"
    "  return -x;\n"
    "}\n";

int main(void) {
  EwcCompileOptions options = ewcCompileOptionsCreate();
  ewcCompileOptionsSetTarget(options, EWC_TARGET_CPU);
  ewcCompileOptionsSetNoCache(options, 1);
  char *error = NULL;
  EwcModule module = ewcCompileWithOptions(kSource, "g.ew", options, &error);
  if (!module) {
    printf("%s\n", error);
    return 1;
  }
  // CHECK: kernels 1 (plain), generic 1: scale<T: float>(x: T[n], s: f32 = 2)
  // -> T[n]
  printf("kernels %d (%s), generic %d: %s\n", ewcModuleGetNumKernels(module),
         ewcKernelGetName(module, 0), ewcModuleGetNumGenericKernels(module),
         ewcGenericKernelGetSignature(module, 0));
  // CHECK-NEXT: scale: T float; x T tensor 1; s f32 tensor 0; doc 'x scaled by
  // s.'
  printf("%s: %s %s; %s %s tensor %d; %s %s tensor %d; doc '%s'\n",
         ewcGenericKernelGetName(module, 0),
         ewcGenericKernelGetTypeParamName(module, 0, 0),
         ewcGenericKernelGetTypeParamConstraint(module, 0, 0),
         ewcGenericKernelGetParamName(module, 0, 0),
         ewcGenericKernelGetParamTypeParam(module, 0, 0) == 0 ? "T" : "?",
         ewcGenericKernelParamIsTensor(module, 0, 0),
         ewcGenericKernelGetParamName(module, 0, 1),
         ewcElementTypeGetName(ewcGenericKernelGetParamType(module, 0, 1)),
         ewcGenericKernelParamIsTensor(module, 0, 1),
         ewcGenericKernelGetDoc(module, 0));
  // Out of range: NULL and -1, no abort.
  // CHECK-NEXT: out of range: (null) -1 -1 (null)
  printf("out of range: %s %d %d %s\n", ewcGenericKernelGetName(module, 1),
         ewcGenericKernelGetNumParams(module, -1),
         ewcGenericKernelGetParamTypeParam(module, 0, 5),
         ewcGenericKernelGetTypeParamName(module, 0, 1));
  // CHECK-NEXT: lookup scale: -1
  printf("lookup scale: %d\n", ewcModuleLookupKernel(module, "scale"));
  ewcModuleDestroy(module);

  ewcCompileOptionsSetTypes(options, "T=f16");
  module = ewcCompileWithOptions(kSource, "g.ew", options, &error);
  // CHECK-NEXT: T=f16: 2 kernels, 0 generic, scale(x: f16[n], s: f32 = 2) ->
  // f16[n]
  int k = module ? ewcModuleLookupKernel(module, "scale") : -1;
  printf("T=f16: %d kernels, %d generic, %s\n",
         module ? ewcModuleGetNumKernels(module) : -1,
         module ? ewcModuleGetNumGenericKernels(module) : -1,
         k >= 0 ? ewcKernelGetSignature(module, k) : error);
  ewcModuleDestroy(module);

  ewcCompileOptionsSetTypes(options, "T=float16");
  module = ewcCompileWithOptions(kSource, "g.ew", options, &error);
  // CHECK-NEXT: misspelt: invalid types 'T=float16': unknown type 'float16' for
  // T
  printf("misspelt: %s\n", module ? "compiled" : error);
  ewcStringDestroy(error);

  ewcCompileOptionsSetTypes(options, "T=i32");
  module = ewcCompileWithOptions(kSource, "g.ew", options, &error);
  // CHECK-NEXT: inadmissible: g.ew:2:14: error: kernel 'scale' cannot take T =
  // i32: 'T: float' admits f16, bf16, f32, f64
  printf("inadmissible: %s\n", module ? "compiled" : error);
  ewcStringDestroy(error);

  // NULL clears the binding.
  ewcCompileOptionsSetTypes(options, NULL);
  module = ewcCompileWithOptions(kSource, "g.ew", options, &error);
  // CHECK: cleared: 1 generic
  printf("cleared: %d generic\n",
         module ? ewcModuleGetNumGenericKernels(module) : -1);

  // The types from the arguments' element types (-1: a scalar's, none).
  int fromTensors[] = {EWC_BF16, -1};
  char *types = ewcGenericKernelInferTypes(module, 0, fromTensors, 2, &error);
  // CHECK-NEXT: inferred: T=bf16
  printf("inferred: %s\n", types ? types : error);
  EwcModule bf16 = types ? ewcModuleSpecialize(module, types, &error) : NULL;
  ewcStringDestroy(types);
  k = bf16 ? ewcModuleLookupKernel(bf16, "scale") : -1;
  // CHECK-NEXT: specialized: scale(x: bf16[n], s: f32 = 2) -> bf16[n]
  printf("specialized: %s\n", k >= 0 ? ewcKernelGetSignature(bf16, k) : error);
  ewcModuleDestroy(bf16);
  int wrong[] = {EWC_I32};
  types = ewcGenericKernelInferTypes(module, 0, wrong, 1, &error);
  // CHECK-NEXT: not admitted: scale: 'x' has i32 elements, but T: float admits
  // f16, bf16, f32, f64
  printf("not admitted: %s\n", types ? types : error);
  ewcStringDestroy(types ? types : error);
  int none[] = {-1, -1};
  types = ewcGenericKernelInferTypes(module, 0, none, 2, &error);
  // CHECK-NEXT: no tensor: scale: no argument gives the type of T; pass it to
  // specialize
  printf("no tensor: %s\n", types ? types : error);
  ewcStringDestroy(types ? types : error);
  int bogus[] = {99};
  types = ewcGenericKernelInferTypes(module, 0, bogus, 1, &error);
  // CHECK-NEXT: bogus: ewcGenericKernelInferTypes: argument 0 has element type
  // 99, which is no EwcElementType
  printf("bogus: %s\n", types ? types : error);
  ewcStringDestroy(types ? types : error);
  EwcModule clash = ewcModuleSpecialize(module, "T=i64", &error);
  // CHECK-NEXT: specialize T=i64: g.ew:2:14: error: kernel 'scale' cannot take
  // T = i64
  printf("specialize T=i64: %s\n", clash ? "compiled" : error);
  ewcStringDestroy(error);
  ewcModuleDestroy(module);
  ewcCompileOptionsDestroy(options);
  return 0;
}
