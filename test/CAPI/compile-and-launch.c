// The C API from C on the CPU: compile a kernel from a string, read its
// signature, launch it on host arrays and check every element; then a compile
// error and a bad launch come back as strings (the first with file:line:col).
//
// RUN: %cc_ewc %s -lewc -o %t
// RUN: %t | FileCheck %s --strict-whitespace

#include "ewc-c/ewc.h"

#include <math.h>
#include <stdio.h>

static const char *kSource =
    "kernel leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n] {\n"
    "  return where(x >= 0.0, x, slope * x);\n"
    "}\n";

int main(void) {
  char *error = NULL;
  EwcModule module =
      ewcCompile(kSource, "leaky.ew", EWC_TARGET_CPU, NULL, &error);
  if (!module) {
    printf("unexpected error: %s\n", error);
    return 1;
  }
  // CHECK: target cpu, 1 kernel(s)
  printf("target %s, %d kernel(s)\n",
         ewcModuleGetTarget(module) == EWC_TARGET_CPU ? "cpu" : "cuda",
         ewcModuleGetNumKernels(module));
  int k = ewcModuleLookupKernel(module, "leaky_relu");
  // CHECK-NEXT: leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n]
  printf("%s\n", ewcKernelGetSignature(module, k));
  double slope;
  // CHECK-NEXT: param 1: slope f32 scalar, default 0.01
  printf("param 1: %s %s %s, default %g\n", ewcKernelGetParamName(module, k, 1),
         ewcElementTypeGetName(ewcKernelGetParamType(module, k, 1)),
         ewcKernelParamIsTensor(module, k, 1) ? "tensor" : "scalar",
         ewcKernelGetParamDefault(module, k, 1, &slope) ? slope : -1.0);

  enum { N = 1000 };
  float x[N], y[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i - 500) / 7.0f;
    y[i] = NAN;
  }
  // A tensor without a shape: the launch's n elements.
  EwcTensor xs = {x, 0, NULL, NULL};
  EwcArg args[2] = {ewcArgTensor(xs), ewcArgFloat(0.2)};
  void *outputs[1] = {y};
  char *launchError = ewcModuleLaunch(module, k, args, 2, outputs, 1, N, NULL);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += y[i] != (x[i] >= 0 ? x[i] : 0.2f * x[i]);
  // CHECK-NEXT: launch: ok, 0 wrong of 1000
  printf("launch: %s, %d wrong of %d\n", launchError ? launchError : "ok",
         wrong, N);
  ewcStringDestroy(launchError);

  // CHECK-NEXT: bad launch: kernel 'leaky_relu' takes 2 argument(s), got 1
  launchError = ewcModuleLaunch(module, k, args, 1, outputs, 1, N, NULL);
  printf("bad launch: %s\n", launchError ? launchError : "ok");
  ewcStringDestroy(launchError);
  // CHECK-NEXT: bad index: (null) -1 0
  printf("bad index: %s %d %d\n",
         ewcKernelGetName(module, 1) ? "name" : "(null)",
         ewcKernelGetNumParams(module, -1),
         ewcKernelGetParamDefault(module, k, 7, &slope));
  // CHECK-NEXT: bad launch: ewcModuleLaunch: no kernel 3
  launchError = ewcModuleLaunch(module, 3, args, 2, outputs, 1, N, NULL);
  printf("bad launch: %s\n", launchError ? launchError : "ok");
  ewcStringDestroy(launchError);
  ewcModuleDestroy(module);

  module = ewcCompile("kernel k(x: f32[n]) -> f32[n] {\n  return x +;\n}\n",
                      "bad.ew", EWC_TARGET_CPU, NULL, &error);
  // CHECK-NEXT: module null: 1
  // CHECK-NEXT: bad.ew:2:13: error: {{.+}}
  // CHECK-NEXT:   return x +;
  // CHECK-NEXT:             ^
  printf("module null: %d\n%s\n", module == NULL, error);
  ewcStringDestroy(error);
  return 0;
}
