// A module across the devices of a machine, against a fake CUDA driver of
// two devices that runs nothing (Inputs/fake-cuda.cpp, which checks that
// every load, lookup, launch and unload happens in its module's context):
// a launch runs on the device that holds its tensors, loading the module
// there at its first launch; tensors on two devices are an error; a launch
// from a thread with no context, or with another device's current, works
// and leaves the caller's context current; a module compiles for the
// caller's current device, or for the one its options name (issue 20).
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: c++ -std=c++17 -shared -fPIC -Wl,-soname,libcuda.so.1 %S/Inputs/fake-cuda.cpp -o %t.dir/libcuda.so.1
// RUN: %cc_ewc -pthread %s %t.dir/libcuda.so.1 -Wl,-rpath,%t.dir -lewc -o %t.dir/multi-device
// RUN: env LD_LIBRARY_PATH=%t.dir %t.dir/multi-device 2>&1 | FileCheck %s

#include "ewc-c/ewc.h"

#include <pthread.h>
#include <stdio.h>

/* The fake driver's, declared here: the program runs without cuda.h. */
int cuDevicePrimaryCtxRetain(void **context, int device);
int cuCtxSetCurrent(void *context);
void fakeCudaReport(const char *when);

static const char *kSource =
    "kernel leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n] {\n"
    "  return where(x >= 0.0, x, slope * x);\n"
    "}\n";

/* Memory of device d is the fake's address range from (d + 1) << 40. */
static void *on(int device, int offset) {
  return (void *)(((uintptr_t)(device + 1) << 40) + (uintptr_t)offset);
}

static EwcModule compileTiered(int device, int tiered) {
  EwcCompileOptions options = ewcCompileOptionsCreate();
  ewcCompileOptionsSetTarget(options, EWC_TARGET_CUDA);
  ewcCompileOptionsSetTiered(options, tiered);
  ewcCompileOptionsSetDevice(options, device);
  char *error = NULL;
  EwcModule module =
      ewcCompileWithOptions(kSource, "leaky.ew", options, &error);
  ewcCompileOptionsDestroy(options);
  if (!module) {
    printf("compile on %d: %s\n", device, error);
    ewcStringDestroy(error);
  }
  return module;
}

static EwcModule compileOn(int device) {
  return compileTiered(device, 0);
}

/* Launches leaky_relu from x on device `in` into y on device `out`. */
static void launch(EwcModule module, int in, int out, const char *what) {
  EwcTensor x = {on(in, 0), 0, NULL, NULL};
  EwcArg args[2] = {ewcArgTensor(x), ewcArgDefault()};
  void *outputs[1] = {on(out, 4096)};
  char *error = ewcModuleLaunch(module, 0, args, 2, outputs, 1, 1024, NULL);
  printf("%s: %s\n", what, error ? error : "ok");
  ewcStringDestroy(error);
}

static EwcModule shared;

static void *fromThread(void *unused) {
  (void)unused;
  launch(shared, 1, 1, "thread, device 1");
  launch(shared, 0, 0, "thread, device 0");
  fakeCudaReport("thread");
  return NULL;
}

int main(void) {
  // CHECK: start: retained 0 0, loads 0 0, launches 0 0, wrong 0, current -1
  fakeCudaReport("start");
  // No context current: device 0, whose context it makes current.
  EwcModule module = compileOn(-1);
  if (!module)
    return 1;
  // CHECK-NEXT: compiled: retained 1 0, loads 1 0, launches 0 0, wrong 0, current 0
  fakeCudaReport("compiled");
  // CHECK-NEXT: device 0: ok
  launch(module, 0, 0, "device 0");
  // The module loads on device 1 at its first launch there, in device 1's
  // context, which is current only for the call.
  // CHECK-NEXT: device 1: ok
  launch(module, 1, 1, "device 1");
  // CHECK-NEXT: device 1 again: ok
  launch(module, 1, 1, "device 1 again");
  // CHECK-NEXT: launched: retained 1 1, loads 1 1, launches 1 2, wrong 0, current 0
  fakeCudaReport("launched");

  // CHECK-NEXT: two devices: tensors on two devices: output 0 is on cuda:1 but 'x' is on cuda:0 (a launch runs on one device)
  launch(module, 0, 1, "two devices");
  // CHECK-NEXT: two devices: tensors on two devices: output 0 is on cuda:0 but 'x' is on cuda:1 (a launch runs on one device)
  launch(module, 1, 0, "two devices");
  int64_t shape[1] = {1024};
  EwcTensor x = {on(0, 0), 1, shape, NULL};
  EwcTensor y = {on(1, 0), 1, shape, NULL};
  EwcArg args[2] = {ewcArgTensor(x), ewcArgFloat(0.2)};
  char *error = ewcModuleCheckLaunch(module, 0, args, 2, &y, 1, NULL);
  // CHECK-NEXT: check: tensors on two devices: output 0 is on cuda:1 but 'x' is on cuda:0 (a launch runs on one device)
  printf("check: %s\n", error ? error : "accepted");
  ewcStringDestroy(error);
  // CHECK-NEXT: rejected: retained 1 1, loads 1 1, launches 1 2, wrong 0, current 0
  fakeCudaReport("rejected");

  // A thread with no current context launches on both devices.
  shared = module;
  pthread_t thread;
  pthread_create(&thread, NULL, fromThread, NULL);
  pthread_join(thread, NULL);
  // CHECK-NEXT: thread, device 1: ok
  // CHECK-NEXT: thread, device 0: ok
  // CHECK-NEXT: thread: retained 1 1, loads 1 1, launches 2 3, wrong 0, current -1
  ewcModuleDestroy(module);
  // CHECK-NEXT: destroyed: retained 0 0, loads 1 1, launches 2 3, wrong 0, current 0
  fakeCudaReport("destroyed");

  // With device 1's context current (torch's current device), a module
  // compiles for device 1 and touches no other device.
  void *context = NULL;
  cuDevicePrimaryCtxRetain(&context, 1);
  cuCtxSetCurrent(context);
  module = compileOn(-1);
  if (!module)
    return 1;
  // CHECK-NEXT: device 1 current: retained 0 2, loads 1 2, launches 2 3, wrong 0, current 1
  fakeCudaReport("device 1 current");
  // CHECK-NEXT: on device 1: ok
  launch(module, 1, 1, "on device 1");
  ewcModuleDestroy(module);
  // Named, device 0: device 1's context stays current.
  module = compileOn(0);
  if (!module)
    return 1;
  // CHECK-NEXT: on device 0: ok
  launch(module, 0, 0, "on device 0");
  // CHECK-NEXT: named: retained 1 1, loads 2 2, launches 3 4, wrong 0, current 1
  fakeCudaReport("named");
  ewcModuleDestroy(module);

  // Tiered: each device's module makes its optimized code on a thread of
  // its own (a second load on each device), and waiting waits for both.
  module = compileTiered(0, 1);
  if (!module)
    return 1;
  launch(module, 0, 0, "tiered on device 0");
  launch(module, 1, 1, "tiered on device 1");
  char *waited = ewcModuleWaitOptimized(module);
  // CHECK-NEXT: tiered on device 0: ok
  // CHECK-NEXT: tiered on device 1: ok
  // CHECK-NEXT: optimized: ok, 1
  printf("optimized: %s, %d\n", waited ? waited : "ok",
         ewcModuleIsOptimized(module));
  ewcStringDestroy(waited);
  // CHECK-NEXT: tiered: retained 1 2, loads 4 4, launches 4 5, wrong 0, current 1
  fakeCudaReport("tiered");
  ewcModuleDestroy(module);

  // CHECK-NEXT: compile on 5: no CUDA device 5: the driver sees 2 device(s), numbered from 0
  compileOn(5);
  // CHECK-NEXT: end: retained 0 1, loads 4 4, launches 4 5, wrong 0, current 1
  fakeCudaReport("end");
  return 0;
}
