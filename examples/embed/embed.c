/* embed.c - The C API from an installed ewc: a compile error comes back as
   a located message, and a kernel compiled from a file runs on the CPU.
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
  EwcModule module = ewcCompileFile(path, EWC_TARGET_CPU, NULL, &error);
  if (!module) {
    printf("%s\n", error);
    return 2;
  }
  float x[3] = {-10, 0, 5}, y[3];
  EwcArg args[2] = {{EWC_ARG_TENSOR, x, 0, 0}, {EWC_ARG_DEFAULT, NULL, 0, 0}};
  void *outputs[1] = {y};
  char *launchError = ewcModuleLaunch(
      module, ewcModuleLookupKernel(module, "leaky_relu"), args, 2, outputs, 1,
      3, NULL);
  if (launchError) {
    printf("%s\n", launchError);
    return 2;
  }
  int ok = y[0] == -10 * 0.01f && y[1] == 0 && y[2] == 5;
  printf("%s\n", ok ? "True" : "False");
  ewcModuleDestroy(module);
  return ok ? 0 : 1;
}
