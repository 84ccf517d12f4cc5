/* embed.c - The C API from an installed ewc: a compile error comes back as
   a located message, and a generic kernel compiled from a file, specialized
   to f32 (ewcCompileOptionsSetTypes), runs on the CPU on tensors given with
   their shapes (ewcModuleLaunchTensors).
   Usage: embed-c KERNELS_DIR. Prints the error, then True or False. */

#include "ewc-c/ewc.h"

#include <stdio.h>

int main(int argc, char **argv) {
  char *error = NULL;
  EwcModule bad = ewcCompile("kernel k(x: f32[n]) -> f32[n] { return z; }",
                             "typo.ew", EWC_TARGET_CPU, NULL, &error);
  printf("%s\n", bad ? "no error" : error);
  ewcStringDestroy(error);

  char path[4096];
  snprintf(path, sizeof path, "%s/leaky_relu.ew", argc > 1 ? argv[1] : ".");
  /* kernels/leaky_relu.ew is `leaky_relu<T: float>`: bind T. */
  EwcCompileOptions options = ewcCompileOptionsCreate();
  ewcCompileOptionsSetTarget(options, EWC_TARGET_CPU);
  ewcCompileOptionsSetTypes(options, "T=f32");
  EwcModule module = ewcCompileFileWithOptions(path, options, &error);
  ewcCompileOptionsDestroy(options);
  if (!module) {
    printf("%s\n", error);
    return 2;
  }
  float x[3] = {-10, 0, 5}, y[3];
  int64_t shape[1] = {3};
  /* Strides NULL: contiguous. */
  EwcTensor input = {x, 1, shape, NULL}, output = {y, 1, shape, NULL};
  EwcArg args[2] = {ewcArgTensor(input), ewcArgDefault()};
  char *launchError = ewcModuleLaunchTensors(
      module, ewcModuleLookupKernel(module, "leaky_relu"), args, 2, &output, 1,
      NULL);
  if (launchError) {
    printf("%s\n", launchError);
    return 2;
  }
  int ok = y[0] == -10 * 0.01f && y[1] == 0 && y[2] == 5;
  printf("%s\n", ok ? "True" : "False");
  ewcModuleDestroy(module);
  return ok ? 0 : 1;
}
