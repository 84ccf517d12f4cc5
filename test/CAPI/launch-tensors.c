// ewcModuleLaunchTensors from C on the CPU: kernels over named dimensions
// read their dimensions back, ewcModuleGetResultShapes sizes the results, and
// each launch is checked element by element: bias_add broadcasting b over a
// transposed x (strides {1, m}), into an output view that writes every other
// column of a larger buffer (the gaps keep their sentinel), in place on x
// itself, a batch kernel over [..., n] on a 3-D x, and a fill whose one
// dimension only its result has, sized by the options' dims.
//
// RUN: %cc_ewc %s -lewc -o %t
// RUN: %t | FileCheck %s

#include "ewc-c/ewc.h"

#include <math.h>
#include <stdio.h>

static const char *kSource =
    "kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n] {\n"
    "  return x + b;\n"
    "}\n"
    "kernel scale(x: f32[..., n], s: f32[n], k: f32) -> f32[..., n] {\n"
    "  return x * s + k;\n"
    "}\n"
    "kernel fill(value: f32 = 0.5) -> f32[n] {\n"
    "  return value;\n"
    "}\n";

enum { M = 3, N = 4 };

static EwcModule module;

/// Prints kernel `k`'s dimensions, its parameters' and its results'.
static void printKernel(int k) {
  printf("%s: dims [", ewcKernelGetName(module, k));
  for (int d = 0; d < ewcKernelGetNumDims(module, k); ++d)
    printf("%s%s", d ? ", " : "", ewcKernelGetDim(module, k, d));
  printf("]");
  for (int p = 0; p < ewcKernelGetNumParams(module, k); ++p) {
    printf(" %s [", ewcKernelGetParamName(module, k, p));
    for (int d = 0; d < ewcKernelGetParamNumDims(module, k, p); ++d)
      printf("%s%s", d ? ", " : "", ewcKernelGetParamDim(module, k, p, d));
    printf("]");
  }
  for (int r = 0; r < ewcKernelGetNumResults(module, k); ++r) {
    printf(" -> [");
    for (int d = 0; d < ewcKernelGetResultNumDims(module, k, r); ++d)
      printf("%s%s", d ? ", " : "", ewcKernelGetResultDim(module, k, r, d));
    printf("]");
  }
  printf("\n");
}

static void printShapes(const char *what, int k, const EwcArg *args,
                        int numArgs, const EwcLaunchOptions *options) {
  int ranks[2];
  int64_t extents[8];
  char *error = ewcModuleGetResultShapes(module, k, args, numArgs, options,
                                         ranks, extents, 8);
  printf("%s:", what);
  if (error)
    printf(" %s", error);
  else
    for (int r = 0, e = 0; r < ewcKernelGetNumResults(module, k); ++r) {
      printf(" [");
      for (int d = 0; d < ranks[r]; ++d)
        printf("%s%lld", d ? ", " : "", (long long)extents[e++]);
      printf("]");
    }
  printf("\n");
  ewcStringDestroy(error);
}

int main(void) {
  char *error = NULL;
  module = ewcCompile(kSource, "shapes.ew", EWC_TARGET_CPU, NULL, &error);
  if (!module) {
    printf("unexpected error: %s\n", error);
    return 1;
  }
  int biasAdd = ewcModuleLookupKernel(module, "bias_add");
  int scale = ewcModuleLookupKernel(module, "scale");
  int fill = ewcModuleLookupKernel(module, "fill");
  // CHECK: bias_add: dims [m, n] x [m, n] b [n] -> [m, n]
  // CHECK-NEXT: scale: dims [..., n] x [..., n] s [n] k [] -> [..., n]
  // CHECK-NEXT: fill: dims [n] value [] -> [n]
  printKernel(biasAdd);
  printKernel(scale);
  printKernel(fill);

  // x is stored as its transpose xt[n][m], so x[i][j] = xt[j * M + i].
  float xt[N * M], b[N];
  for (int j = 0; j < N; ++j) {
    b[j] = 100.0f * (float)(j + 1);
    for (int i = 0; i < M; ++i)
      xt[j * M + i] = (float)(10 * i + j);
  }
  int64_t shape[2] = {M, N}, transposed[2] = {1, M}, bShape[1] = {N};
  EwcTensor x = {xt, 2, shape, transposed};
  EwcTensor bias = {b, 1, bShape, NULL};
  EwcArg args[2] = {ewcArgTensor(x), ewcArgTensor(bias)};
  // CHECK-NEXT: bias_add shapes: [3, 4]
  printShapes("bias_add shapes", biasAdd, args, 2, NULL);

  float y[M * N];
  for (int e = 0; e < M * N; ++e)
    y[e] = NAN;
  EwcTensor out = {y, 2, shape, NULL};
  error = ewcModuleLaunchTensors(module, biasAdd, args, 2, &out, 1, NULL);
  int wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      wrong += y[i * N + j] != xt[j * M + i] + b[j];
  // CHECK-NEXT: transposed x: ok, 0 wrong of 12
  printf("transposed x: %s, %d wrong of %d\n", error ? error : "ok", wrong,
         M * N);
  ewcStringDestroy(error);

  // The output view: every other column of a [M][2N] buffer.
  float wide[M * 2 * N];
  for (int e = 0; e < M * 2 * N; ++e)
    wide[e] = -1.0f;
  int64_t everyOther[2] = {2 * N, 2};
  EwcTensor view = {wide, 2, shape, everyOther};
  error = ewcModuleLaunchTensors(module, biasAdd, args, 2, &view, 1, NULL);
  int wrongWritten = 0, gapsTouched = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      wrongWritten += wide[i * 2 * N + 2 * j] != xt[j * M + i] + b[j];
      gapsTouched += wide[i * 2 * N + 2 * j + 1] != -1.0f;
    }
  // CHECK-NEXT: strided out: ok, 0 wrong, 0 gaps touched
  printf("strided out: %s, %d wrong, %d gaps touched\n", error ? error : "ok",
         wrongWritten, gapsTouched);
  ewcStringDestroy(error);

  // In place: the output is exactly x's view.
  float before[N * M];
  for (int e = 0; e < N * M; ++e)
    before[e] = xt[e];
  EwcTensor same = x;
  error = ewcModuleLaunchTensors(module, biasAdd, args, 2, &same, 1, NULL);
  wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      wrong += xt[j * M + i] != before[j * M + i] + b[j];
  // CHECK-NEXT: in place: ok, 0 wrong
  printf("in place: %s, %d wrong\n", error ? error : "ok", wrong);
  ewcStringDestroy(error);

  // scale over a batch [2, 3] of rows of N.
  enum { B0 = 2, B1 = 3 };
  float bx[B0 * B1 * N], by[B0 * B1 * N], s[N];
  for (int e = 0; e < B0 * B1 * N; ++e)
    bx[e] = (float)e;
  for (int j = 0; j < N; ++j)
    s[j] = (float)(j + 2);
  int64_t batchShape[3] = {B0, B1, N};
  EwcTensor batch = {bx, 3, batchShape, NULL}, sTensor = {s, 1, bShape, NULL};
  EwcArg scaleArgs[3] = {ewcArgTensor(batch), ewcArgTensor(sTensor),
                         ewcArgFloat(0.25)};
  // CHECK-NEXT: scale shapes: [2, 3, 4]
  printShapes("scale shapes", scale, scaleArgs, 3, NULL);
  EwcTensor batchOut = {by, 3, batchShape, NULL};
  error =
      ewcModuleLaunchTensors(module, scale, scaleArgs, 3, &batchOut, 1, NULL);
  wrong = 0;
  for (int e = 0; e < B0 * B1 * N; ++e)
    wrong += by[e] != bx[e] * s[e % N] + 0.25f;
  // CHECK-NEXT: batch: ok, 0 wrong of 24
  printf("batch: %s, %d wrong of %d\n", error ? error : "ok", wrong,
         B0 * B1 * N);
  ewcStringDestroy(error);

  // fill: n only from the options.
  const char *names[1] = {"n"};
  int64_t five[1] = {5};
  EwcLaunchOptions options = {NULL, 1, names, five};
  EwcArg fillArgs[1] = {ewcArgDefault()};
  // CHECK-NEXT: fill shapes: [5]
  printShapes("fill shapes", fill, fillArgs, 1, &options);
  float filled[6] = {0, 0, 0, 0, 0, 0};
  EwcTensor fillOut = {filled, 1, five, NULL};
  error =
      ewcModuleLaunchTensors(module, fill, fillArgs, 1, &fillOut, 1, &options);
  // CHECK-NEXT: fill: ok, 0.5 0.5 0.5 0.5 0.5 0
  printf("fill: %s, %g %g %g %g %g %g\n", error ? error : "ok", filled[0],
         filled[1], filled[2], filled[3], filled[4], filled[5]);
  ewcStringDestroy(error);
  ewcModuleDestroy(module);
  return 0;
}
