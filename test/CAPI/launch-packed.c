// ewcModuleLaunchPacked from C on the CPU: one EwcSlot per parameter and per
// result, a default read with ewcKernelGetParamDefaultSlot (exact for an i64
// beyond 2^53, which a double would round), two results checked element by
// element, and again through ewcModuleLaunchPackedArray (the other arguments
// in the array's first slots); a bad kernel index, a NULL module and a NULL
// array come back as strings.
//
// RUN: %cc_ewc %s -lewc -o %t
// RUN: %t | FileCheck %s

#include "ewc-c/ewc.h"

#include <stdio.h>

static const char *kSource =
    "kernel mix(x: i64[n], scale: f64, offset: i64 = 9007199254740993)\n"
    "    -> (i64[n], f64[n]) {\n"
    "  return x + offset, f64(x) * scale;\n"
    "}\n";

int main(void) {
  char *error = NULL;
  EwcModule module = ewcCompile(kSource, "mix.ew", EWC_TARGET_CPU, NULL, &error);
  if (!module) {
    printf("unexpected error: %s\n", error);
    return 1;
  }
  EwcSlot offset;
  // CHECK: default: 1 9007199254740993
  int hasDefault = ewcKernelGetParamDefaultSlot(module, 0, 2, &offset);
  printf("default: %d %lld\n", hasDefault, (long long)offset.intValue);
  // CHECK-NEXT: no default: 0
  printf("no default: %d\n", ewcKernelGetParamDefaultSlot(module, 0, 1, NULL));

  enum { N = 100 };
  int64_t x[N], sum[N];
  double scaled[N];
  for (int i = 0; i < N; ++i)
    x[i] = i - 50;
  EwcSlot slots[5];
  slots[0].pointer = x;
  slots[1].floatValue = 0.5;
  slots[2] = offset;
  slots[3].pointer = sum;
  slots[4].pointer = scaled;
  char *launchError = ewcModuleLaunchPacked(module, 0, slots, N, NULL);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += sum[i] != x[i] + 9007199254740993LL || scaled[i] != x[i] * 0.5;
  // CHECK-NEXT: launch: ok, 0 wrong of 100
  printf("launch: %s, %d wrong of %d\n", launchError ? launchError : "ok",
         wrong, N);
  ewcStringDestroy(launchError);

  // ewcModuleLaunchPackedArray: the same launch with module, k, n and the
  // stream in the array's first four slots; the results written again.
  EwcSlot array[4 + 5];
  array[0].pointer = module;
  array[1].intValue = 0;
  array[2].intValue = N;
  array[3].pointer = NULL;
  for (int i = 0; i < 5; ++i)
    array[4 + i] = slots[i];
  for (int i = 0; i < N; ++i)
    sum[i] = scaled[i] = -1;
  launchError = ewcModuleLaunchPackedArray(array);
  wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += sum[i] != x[i] + 9007199254740993LL || scaled[i] != x[i] * 0.5;
  // CHECK-NEXT: array: ok, 0 wrong of 100
  printf("array: %s, %d wrong of %d\n", launchError ? launchError : "ok",
         wrong, N);
  ewcStringDestroy(launchError);
  // CHECK-NEXT: array, kernel 2^40: ewcModuleLaunchPackedArray: no kernel 1099511627776
  array[1].intValue = (int64_t)1 << 40;
  launchError = ewcModuleLaunchPackedArray(array);
  printf("array, kernel 2^40: %s\n", launchError);
  ewcStringDestroy(launchError);
  // CHECK-NEXT: array, no module: ewcModuleLaunchPackedArray: module is NULL
  array[0].pointer = NULL;
  array[1].intValue = 0;
  launchError = ewcModuleLaunchPackedArray(array);
  printf("array, no module: %s\n", launchError);
  ewcStringDestroy(launchError);
  // CHECK-NEXT: no array: ewcModuleLaunchPackedArray: array is NULL
  launchError = ewcModuleLaunchPackedArray(NULL);
  printf("no array: %s\n", launchError);
  ewcStringDestroy(launchError);

  // CHECK-NEXT: bad kernel: ewcModuleLaunchPacked: no kernel 1
  launchError = ewcModuleLaunchPacked(module, 1, slots, N, NULL);
  printf("bad kernel: %s\n", launchError);
  ewcStringDestroy(launchError);
  // CHECK-NEXT: no slots: ewcModuleLaunchPacked: slots is NULL
  launchError = ewcModuleLaunchPacked(module, 0, NULL, N, NULL);
  printf("no slots: %s\n", launchError);
  ewcStringDestroy(launchError);
  ewcModuleDestroy(module);
  return 0;
}
