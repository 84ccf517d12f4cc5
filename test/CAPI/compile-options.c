// ewcCompileWithOptions from C: an options handle with every setter (the
// target, a chip, a cache directory, the cache off) compiles and runs on the
// CPU; NULL options are the defaults; a compile error still comes back
// located. That the values reach the driver: unittests/Driver/ApiTest.cpp.
//
// RUN: %cc_ewc %s -lewc -o %t
// RUN: %t | FileCheck %s

#include "ewc-c/ewc.h"

#include <stdio.h>

static const char *kSource = "kernel twice(x: f32[n]) -> f32[n] {\n"
                             "  return x + x;\n"
                             "}\n";

int main(void) {
  EwcCompileOptions options = ewcCompileOptionsCreate();
  ewcCompileOptionsSetTarget(options, EWC_TARGET_CPU);
  ewcCompileOptionsSetChip(options, "sm_90");
  ewcCompileOptionsSetCacheDir(options, "/nonexistent/ewc-cache");
  ewcCompileOptionsSetNoCache(options, 1);
  char *error = NULL;
  EwcModule module = ewcCompileWithOptions(kSource, "twice.ew", options, &error);
  float x[3] = {1, -2, 3}, y[3] = {0, 0, 0};
  EwcSlot slots[2];
  slots[0].pointer = x;
  slots[1].pointer = y;
  char *launchError =
      module ? ewcModuleLaunchPacked(module, 0, slots, 3, NULL) : NULL;
  // CHECK: options: cpu, launch ok, 2 -4 6
  printf("options: %s, launch %s, %g %g %g\n",
         !module ? error
         : ewcModuleGetTarget(module) == EWC_TARGET_CPU ? "cpu"
                                                        : "cuda",
         launchError ? launchError : "ok", y[0], y[1], y[2]);
  ewcStringDestroy(launchError);
  ewcModuleDestroy(module);

  module = ewcCompileFileWithOptions("/nonexistent.ew", options, &error);
  // CHECK-NEXT: missing file: cannot read '/nonexistent.ew': No such file or directory
  printf("missing file: %s\n", error);
  ewcStringDestroy(error);
  ewcCompileOptionsDestroy(options);

  // CHECK-NEXT: default options: module 1
  module = ewcCompileWithOptions(kSource, NULL, NULL, &error);
  printf("default options: module %d\n", module != NULL);
  ewcModuleDestroy(module);

  module = ewcCompileWithOptions("kernel k(x: f32[n]) -> f32[n] {\n  return y;\n}\n",
                                 "bad.ew", NULL, &error);
  // CHECK-NEXT: bad.ew:2:10: error: {{.+}}
  printf("%s\n", error);
  ewcStringDestroy(error);
  return 0;
}
