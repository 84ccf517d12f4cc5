// Every way a C caller can get a launch or a query wrong comes back as a
// message, and nothing runs: a NULL module, a kernel index out of range, NULL
// arrays and negative counts, a tensor whose ndim and shape disagree, an
// EwcArgKind out of range, and what the driver rejects (the rank, dimensions
// that disagree, a negative stride, an output of the wrong shape, one that
// overlaps an input or repeats an element, an unknown or a missing
// dimension). The getters answer NULL or -1 for what does not exist.
//
// RUN: %cc_ewc %s -lewc -o %t
// RUN: %t | FileCheck %s --match-full-lines

#include "ewc-c/ewc.h"

#include <stdio.h>

static const char *kSource =
    "kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n] {\n"
    "  return x + b;\n"
    "}\n"
    "kernel fill(value: f32 = 0.5) -> f32[n] {\n"
    "  return value;\n"
    "}\n";

/// Prints `what: ` and the error (or "ran"), and frees it.
static void report(const char *what, char *error) {
  printf("%s: %s\n", what, error ? error : "ran");
  ewcStringDestroy(error);
}

enum { M = 3, N = 4 };

int main(void) {
  char *error = NULL;
  EwcModule module =
      ewcCompile(kSource, "errors.ew", EWC_TARGET_CPU, NULL, &error);
  if (!module) {
    printf("unexpected error: %s\n", error);
    return 1;
  }
  // Sentinels: no failed launch writes anything.
  float x[M * N], b[N + 1], y[M * N + 1];
  for (int e = 0; e < M * N; ++e)
    x[e] = (float)e;
  for (int e = 0; e < N + 1; ++e)
    b[e] = 1.0f;
  for (int e = 0; e < M * N + 1; ++e)
    y[e] = -7.0f;
  int64_t shape[2] = {M, N}, bShape[1] = {N}, rows[1] = {M};
  EwcTensor xt = {x, 2, shape, NULL}, bt = {b, 1, bShape, NULL};
  EwcTensor out = {y, 2, shape, NULL};
  EwcArg args[2] = {ewcArgTensor(xt), ewcArgTensor(bt)};

  // What the C API checks itself.
  // CHECK: null module: ewcModuleLaunchTensors: module is NULL
  report("null module",
         ewcModuleLaunchTensors(NULL, 0, args, 2, &out, 1, NULL));
  // CHECK-NEXT: bad index: ewcModuleLaunchTensors: no kernel 9
  report("bad index",
         ewcModuleLaunchTensors(module, 9, args, 2, &out, 1, NULL));
  // CHECK-NEXT: null args: ewcModuleLaunchTensors: numArgs is 2 but its array is NULL
  report("null args",
         ewcModuleLaunchTensors(module, 0, NULL, 2, &out, 1, NULL));
  // CHECK-NEXT: negative count: ewcModuleLaunchTensors: numArgs is -1
  report("negative count",
         ewcModuleLaunchTensors(module, 0, args, -1, &out, 1, NULL));
  // CHECK-NEXT: null outputs: ewcModuleLaunchTensors: numOutputs is 1 but its array is NULL
  report("null outputs",
         ewcModuleLaunchTensors(module, 0, args, 2, NULL, 1, NULL));
  EwcArg noShape[2] = {args[0], args[1]};
  noShape[0].tensor.shape = NULL;
  // CHECK-NEXT: no shape: ewcModuleLaunchTensors: argument 0 ('x') has ndim 2 but shape is NULL
  report("no shape",
         ewcModuleLaunchTensors(module, 0, noShape, 2, &out, 1, NULL));
  EwcArg negativeRank[2] = {args[0], args[1]};
  negativeRank[1].tensor.ndim = -1;
  // CHECK-NEXT: negative ndim: ewcModuleLaunchTensors: argument 1 ('b') has ndim -1
  report("negative ndim",
         ewcModuleLaunchTensors(module, 0, negativeRank, 2, &out, 1, NULL));
  EwcTensor outNoShape = {y, 1, NULL, NULL};
  // CHECK-NEXT: output no shape: ewcModuleLaunchTensors: output 0 has ndim 1 but shape is NULL
  report("output no shape",
         ewcModuleLaunchTensors(module, 0, args, 2, &outNoShape, 1, NULL));
  EwcArg badKind[2] = {args[0], args[1]};
  badKind[1].kind = (EwcArgKind)9;
  // CHECK-NEXT: bad kind: ewcModuleLaunchTensors: argument 1 ('b') has kind 9, which is no EwcArgKind
  report("bad kind",
         ewcModuleLaunchTensors(module, 0, badKind, 2, &out, 1, NULL));
  EwcLaunchOptions noNames = {NULL, 1, NULL, bShape};
  // CHECK-NEXT: no names: ewcModuleLaunchTensors: options->numDims is 1 but its array is NULL
  report("no names",
         ewcModuleLaunchTensors(module, 0, args, 2, &out, 1, &noNames));
  const char *nullName[1] = {NULL};
  EwcLaunchOptions nullNames = {NULL, 1, nullName, bShape};
  // CHECK-NEXT: null name: ewcModuleLaunchTensors: the name of dimension 0 in the options is NULL
  report("null name",
         ewcModuleLaunchTensors(module, 0, args, 2, &out, 1, &nullNames));

  // What the C++ API and the driver check, in their words.
  // CHECK-NEXT: too few: kernel 'bias_add' takes 2 argument(s), got 1
  report("too few", ewcModuleLaunchTensors(module, 0, args, 1, &out, 1, NULL));
  EwcArg scalarForTensor[2] = {args[0], ewcArgFloat(1.0)};
  // CHECK-NEXT: scalar for tensor: argument 1 ('b') of kernel 'bias_add' is a tensor f32; pass Arg::tensor
  report("scalar for tensor",
         ewcModuleLaunchTensors(module, 0, scalarForTensor, 2, &out, 1, NULL));
  EwcArg rank1[2] = {args[0], args[1]};
  rank1[0].tensor.ndim = 1;
  // CHECK-NEXT: wrong rank: 'x' has 1 dimension, but its type f32[m, n] has 2
  report("wrong rank",
         ewcModuleLaunchTensors(module, 0, rank1, 2, &out, 1, NULL));
  int64_t longer[1] = {N + 1};
  EwcArg mismatch[2] = {args[0], args[1]};
  mismatch[1].tensor.shape = longer;
  // CHECK-NEXT: mismatch: 'b' has n = 5 but 'x' has n = 4
  report("mismatch",
         ewcModuleLaunchTensors(module, 0, mismatch, 2, &out, 1, NULL));
  // The same from the shape query, which checks no output.
  int ranks[1];
  int64_t extents[2];
  // CHECK-NEXT: shape mismatch: 'b' has n = 5 but 'x' has n = 4
  report("shape mismatch", ewcModuleGetResultShapes(module, 0, mismatch, 2,
                                                    NULL, ranks, extents, 2));
  int64_t negative[2] = {-N, 1};
  EwcArg flipped[2] = {args[0], args[1]};
  flipped[0].tensor.strides = negative;
  // CHECK-NEXT: negative stride: 'x' has a negative extent or stride (shape [3, 4], strides [-4, 1]); only strides of 0 and up are supported
  report("negative stride",
         ewcModuleLaunchTensors(module, 0, flipped, 2, &out, 1, NULL));
  int64_t fewerRows[2] = {M - 1, N};
  EwcTensor shortOut = {y, 2, fewerRows, NULL};
  // CHECK-NEXT: output shape: the result has m = 2 but 'x' has m = 3
  report("output shape",
         ewcModuleLaunchTensors(module, 0, args, 2, &shortOut, 1, NULL));
  // Into x shifted by one element: overlapping, and not x's own view.
  EwcTensor shifted = {x + 1, 2, shape, NULL};
  // CHECK-NEXT: overlap: the result overlaps 'x' in memory; an output may be an input itself (the same view, in place) but may not share memory with another tensor otherwise
  report("overlap",
         ewcModuleLaunchTensors(module, 0, args, 2, &shifted, 1, NULL));
  int64_t repeated[2] = {0, 1};
  EwcTensor expanded = {y, 2, shape, repeated};
  // CHECK-NEXT: repeated: the result has stride 0 along its dimension 'm' (of extent 3): an output cannot repeat an element (an expanded view); write into memory of its own
  report("repeated",
         ewcModuleLaunchTensors(module, 0, args, 2, &expanded, 1, NULL));
  // The check without a launch says the same, and nothing (NULL, "ran" here)
  // for arguments a launch accepts.
  // CHECK-NEXT: check overlap: the result overlaps 'x' in memory; {{.*}}
  report("check overlap",
         ewcModuleCheckLaunch(module, 0, args, 2, &shifted, 1, NULL));
  // CHECK-NEXT: check null module: ewcModuleCheckLaunch: module is NULL
  report("check null module",
         ewcModuleCheckLaunch(NULL, 0, args, 2, &out, 1, NULL));
  // CHECK-NEXT: check valid: ran
  report("check valid", ewcModuleCheckLaunch(module, 0, args, 2, &out, 1, NULL));
  // CHECK-NEXT: no output: kernel 'bias_add' takes 2 parameter(s) and 1 output(s), got 2 and 0
  report("no output", ewcModuleLaunchTensors(module, 0, args, 2, &out, 0, NULL));
  const char *unknown[1] = {"k"};
  EwcLaunchOptions unknownDim = {NULL, 1, unknown, rows};
  // CHECK-NEXT: unknown dim: kernel 'bias_add' has no dimension 'k' (its dimensions are m, n)
  report("unknown dim",
         ewcModuleLaunchTensors(module, 0, args, 2, &out, 1, &unknownDim));
  int fill = ewcModuleLookupKernel(module, "fill");
  EwcArg fillArgs[1] = {ewcArgDefault()};
  // CHECK-NEXT: no extent: dimension 'n' of kernel 'fill' has no extent: no tensor argument has it, so give it (ewc-run --dim n=SIZE; in Python dims={'n': SIZE})
  report("no extent", ewcModuleGetResultShapes(module, fill, fillArgs, 1, NULL,
                                               ranks, extents, 2));

  // The shape query's own arrays.
  // CHECK-NEXT: no ranks: ewcModuleGetResultShapes: ranks is NULL
  report("no ranks",
         ewcModuleGetResultShapes(module, 0, args, 2, NULL, NULL, extents, 2));
  // CHECK-NEXT: no room: ewcModuleGetResultShapes: the results have 2 extents in all, but there is room for 1
  report("no room",
         ewcModuleGetResultShapes(module, 0, args, 2, NULL, ranks, extents, 1));
  // CHECK-NEXT: null module query: ewcModuleGetResultShapes: module is NULL
  report("null module query",
         ewcModuleGetResultShapes(NULL, 0, args, 2, NULL, ranks, extents, 2));

  // The 1-D launches.
  void *outputs[1] = {y};
  // CHECK-NEXT: 1-D null module: ewcModuleLaunch: module is NULL
  report("1-D null module",
         ewcModuleLaunch(NULL, 0, args, 2, outputs, 1, N, NULL));
  // CHECK-NEXT: 1-D null outputs: ewcModuleLaunch: numOutputs is 1 but its array is NULL
  report("1-D null outputs",
         ewcModuleLaunch(module, 0, args, 2, NULL, 1, N, NULL));
  EwcSlot slots[3];
  // CHECK-NEXT: packed null module: ewcModuleLaunchPacked: module is NULL
  report("packed null module", ewcModuleLaunchPacked(NULL, 0, slots, N, NULL));
  // A 2-D kernel through the 1-D launch: n elements are no [m, n].
  slots[0].pointer = x;
  slots[1].pointer = b;
  slots[2].pointer = y;
  // CHECK-NEXT: packed 2-D: 'x' has 1 dimension, but its type f32[m, n] has 2
  report("packed 2-D", ewcModuleLaunchPacked(module, 0, slots, N, NULL));

  // The getters.
  // CHECK-NEXT: getters: -1 -1 -1 0 null null null null -1 0 -1
  printf("getters: %d %d %d %d %s %s %s %s %d %d %d\n",
         ewcKernelGetNumDims(module, 7), ewcKernelGetParamNumDims(NULL, 0, 0),
         ewcKernelGetResultNumDims(module, 0, 1),
         ewcKernelGetParamNumDims(module, fill, 0),
         ewcKernelGetDim(module, 0, 2) ? "name" : "null",
         ewcKernelGetParamDim(module, 0, 0, -1) ? "name" : "null",
         ewcKernelGetResultDim(module, 0, 0, 2) ? "name" : "null",
         ewcElementTypeGetName((EwcElementType)42) ? "name" : "null",
         ewcElementTypeGetSize((EwcElementType)-1),
         ewcModuleGetNumKernels(NULL), ewcModuleLookupKernel(module, NULL));
  int touched = 0;
  for (int e = 0; e < M * N; ++e)
    touched += x[e] != (float)e || y[e] != -7.0f;
  // CHECK-NEXT: touched: 0
  printf("touched: %d\n", touched);
  ewcModuleDestroy(module);
  return 0;
}
