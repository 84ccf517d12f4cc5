// An LLVM fatal error inside a compilation (report_fatal_error, here from the
// driver's pass pipeline through the hook of libewc-test.so, test/lib/CAPI,
// which is libewc.so's C API plus test-only entry points) comes back as an
// error value, and the host program goes on: the next compilations, one
// failing the same way and one clean, work, and the kernel runs. A CPU launch
// on a bad pointer (a crash inside the kernel) is an error value too.
//
// A recovered fatal error leaks what the abandoned compilation had allocated
// (the recovery jumps out of it; docs/api.md), so an ASan build's leak check
// is off for this program.
//
// RUN: %cc_ewc %s -lewc-test -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t | FileCheck %s
// Without the recovery the process ends with LLVM's message and status 1:
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t 2>&1 | FileCheck %s --check-prefix=CHECK-NOT-EXITED

#include "ewc-c/ewc.h"

#include <stdio.h>

static const char *kSource = "kernel twice(x: f32[n]) -> f32[n] {\n"
                             "  return x + x;\n"
                             "}\n";

// libewc-test.so's (test/lib/CAPI/TestHooks.cpp); no header declares it.
char *ewcTestCompileWithFatalError(const char *source, const char *name,
                                   const char *reason);

static void compileWithFatalError(const char *what) {
  char *error = ewcTestCompileWithFatalError(kSource, "twice.ew",
                                             "Cannot select: a test hook");
  printf("%s: %s\n", what, error ? error : "compiled");
  ewcStringDestroy(error);
}

static EwcModule compile(const char *what) {
  char *error = NULL;
  EwcModule module =
      ewcCompile(kSource, "twice.ew", EWC_TARGET_CPU, NULL, &error);
  printf("%s: %s\n", what, module ? "compiled" : error);
  ewcStringDestroy(error);
  return module;
}

int main(void) {
  // CHECK: first: LLVM stopped the compilation with a fatal error: Cannot select: a test hook
  // CHECK-NEXT: second: LLVM stopped the compilation with a fatal error: Cannot select: a test hook
  compileWithFatalError("first");
  compileWithFatalError("second");
  // CHECK-NEXT: clean: compiled
  EwcModule module = compile("clean");
  float x[3] = {1, -2, 3}, y[3] = {0, 0, 0};
  EwcSlot slots[2];
  slots[0].pointer = x;
  slots[1].pointer = y;
  char *error = module ? ewcModuleLaunchPacked(module, 0, slots, 3, NULL) : NULL;
  // CHECK-NEXT: launch: ok, 2 -4 6
  printf("launch: %s, %g %g %g\n", error ? error : "ok", y[0], y[1], y[2]);
  ewcStringDestroy(error);
  slots[0].pointer = (void *)8;
  error = module ? ewcModuleLaunchPacked(module, 0, slots, 3, NULL) : NULL;
  // CHECK-NEXT: bad pointer: the launch crashed (signal 11) and was stopped; a bad pointer?
  printf("bad pointer: %s\n", error ? error : "ok");
  ewcStringDestroy(error);
  slots[0].pointer = x;
  error = module ? ewcModuleLaunchPacked(module, 0, slots, 3, NULL) : NULL;
  // CHECK-NEXT: after: ok
  printf("after: %s\n", error ? error : "ok");
  ewcStringDestroy(error);
  ewcModuleDestroy(module);
  // CHECK-NOT-EXITED-NOT: LLVM ERROR
  // CHECK-NOT-EXITED: after: ok
  return 0;
}
