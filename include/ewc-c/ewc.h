/*===- ewc.h - The C API of ewc -----------------------------------*- C -*-===*\
|*                                                                            *|
|* For FFI from any language (python/ewc uses it through ctypes), in the      *|
|* manner of MLIR's C API: opaque handles, explicit destroy, errors as        *|
|* strings the caller frees. A thin layer over the C++ API (ewc/ewc.h); the   *|
|* kernel ABI behind ewcModuleLaunch is docs/abi.md. Nothing here aborts the  *|
|* program on bad input: every failure comes back as a message.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef EWC_C_EWC_H
#define EWC_C_EWC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a signature below changes, so FFI callers can check. */
#define EWC_C_API_VERSION 2

/** Where kernels run: the CUDA device if any (AUTO), the device, the CPU. */
typedef enum { EWC_TARGET_AUTO, EWC_TARGET_CUDA, EWC_TARGET_CPU } EwcTarget;

/** Element types, as the language spells them. */
typedef enum {
  EWC_BOOL,
  EWC_I32,
  EWC_I64,
  EWC_F16,
  EWC_BF16,
  EWC_F32,
  EWC_F64
} EwcElementType;

/** What an EwcArg holds. */
typedef enum {
  /** `data`: a tensor's elements (device pointer on the GPU, host on CPU). */
  EWC_ARG_TENSOR,
  /** `floatValue`: a scalar, converted to the parameter's type. */
  EWC_ARG_FLOAT,
  /** `intValue`: an integer or bool scalar. */
  EWC_ARG_INT,
  /** The parameter's default. */
  EWC_ARG_DEFAULT
} EwcArgKind;

/** One argument of a launch, for the parameter at its position. */
typedef struct {
  EwcArgKind kind;
  const void *data;
  double floatValue;
  int64_t intValue;
} EwcArg;

/** One argument of ewcModuleLaunchPacked, 8 bytes: a tensor's or an output's
 *  pointer, a float parameter's value, or a bool or integer parameter's. */
typedef union {
  const void *pointer;
  double floatValue;
  int64_t intValue;
} EwcSlot;

/** A compiled module; destroy with ewcModuleDestroy. */
typedef struct EwcModuleImpl *EwcModule;

/** The API version this library implements (EWC_C_API_VERSION). */
int ewcGetAPIVersion(void);

/** Compiles the .ew program `source` (NUL-terminated) for `target`; `name` is
 *  the file name its diagnostics give, `chip` the GPU architecture or NULL.
 *  On failure returns NULL and sets *error to the located diagnostics
 *  ("name:line:col: error: ..."), to be freed with ewcStringDestroy. */
EwcModule ewcCompile(const char *source, const char *name, EwcTarget target,
                     const char *chip, char **error);
/** ewcCompile for the file at `path`. */
EwcModule ewcCompileFile(const char *path, EwcTarget target, const char *chip,
                         char **error);

/** How to compile, for ewcCompileWithOptions: made by
 *  ewcCompileOptionsCreate (target AUTO, the device's chip, the default
 *  cache), destroyed by ewcCompileOptionsDestroy. The setters copy strings. */
typedef struct EwcCompileOptionsImpl *EwcCompileOptions;
EwcCompileOptions ewcCompileOptionsCreate(void);
void ewcCompileOptionsDestroy(EwcCompileOptions options);
void ewcCompileOptionsSetTarget(EwcCompileOptions options, EwcTarget target);
/** The GPU architecture (sm_XX); NULL or "": the device's. */
void ewcCompileOptionsSetChip(EwcCompileOptions options, const char *chip);
/** The on-disk cache of compiled GPU code; NULL or "": $EWC_CACHE_DIR, else
 *  $XDG_CACHE_HOME/ewc, else ~/.cache/ewc. */
void ewcCompileOptionsSetCacheDir(EwcCompileOptions options, const char *dir);
/** Non-zero: neither read nor write the cache. */
void ewcCompileOptionsSetNoCache(EwcCompileOptions options, int noCache);
/** ewcCompile and ewcCompileFile with `options` (NULL: the defaults). */
EwcModule ewcCompileWithOptions(const char *source, const char *name,
                                EwcCompileOptions options, char **error);
EwcModule ewcCompileFileWithOptions(const char *path,
                                    EwcCompileOptions options, char **error);
void ewcModuleDestroy(EwcModule module);
/** Frees a string the API returned. */
void ewcStringDestroy(char *string);

/** EWC_TARGET_CUDA or EWC_TARGET_CPU: where the kernels run. */
EwcTarget ewcModuleGetTarget(EwcModule module);
int ewcModuleGetNumKernels(EwcModule module);
/** The index of the kernel named `name`, or -1. */
int ewcModuleLookupKernel(EwcModule module, const char *name);

/* Kernel `k` of a module (0 <= k < ewcModuleGetNumKernels). Strings live as
   long as the module. An index out of range answers NULL, -1 (counts, flags)
   or 0 (ewcKernelGetParamDefault) instead of aborting. */
const char *ewcKernelGetName(EwcModule module, int k);
/** e.g. "leaky_relu(x: f32[n], slope: f32 = 0.01) -> f32[n]". */
const char *ewcKernelGetSignature(EwcModule module, int k);
int ewcKernelGetNumParams(EwcModule module, int k);
const char *ewcKernelGetParamName(EwcModule module, int k, int p);
EwcElementType ewcKernelGetParamType(EwcModule module, int k, int p);
int ewcKernelParamIsTensor(EwcModule module, int k, int p);
/** Whether scalar `p` has a default; if so, stores it as a double. */
int ewcKernelGetParamDefault(EwcModule module, int k, int p, double *value);
/** Whether scalar `p` has a default; if so, stores it in `slot` as
 *  ewcModuleLaunchPacked takes it (exact, also for an i64 beyond 2^53). */
int ewcKernelGetParamDefaultSlot(EwcModule module, int k, int p,
                                 EwcSlot *slot);
int ewcKernelGetNumResults(EwcModule module, int k);
EwcElementType ewcKernelGetResultType(EwcModule module, int k, int r);

/** "bool", "i32", ..., "f64". */
const char *ewcElementTypeGetName(EwcElementType type);
/** Bytes per element (bool: one). */
int ewcElementTypeGetSize(EwcElementType type);

/** Launches kernel `k` over `n` elements with one EwcArg per parameter and
 *  one output pointer per result. On the GPU the kernel is queued on `stream`
 *  (a CUstream; NULL: the default stream); on the CPU it has run on return.
 *  Returns NULL, or an error message to free with ewcStringDestroy. */
char *ewcModuleLaunch(EwcModule module, int k, const EwcArg *args,
                      int numArgs, void *const *outputs, int numOutputs,
                      int64_t n, void *stream);

/** ewcModuleLaunch for callers that pay per call for every argument they
 *  pass (FFI: python/ewc): `slots` holds one EwcSlot per parameter, then one
 *  per result, in the kernel's order. A tensor or output slot holds its
 *  pointer; a scalar slot its value, as `floatValue` for f16, bf16, f32 and
 *  f64 parameters, as `intValue` for bool, i32 and i64 (a default comes from
 *  ewcKernelGetParamDefaultSlot). Same errors as ewcModuleLaunch. */
char *ewcModuleLaunchPacked(EwcModule module, int k, const EwcSlot *slots,
                            int64_t n, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* EWC_C_EWC_H */
