/*===- ewc.h - The C API of ewc -----------------------------------*- C -*-===*\
|*                                                                            *|
|* For FFI from any language (python/ewc uses it through ctypes), in the      *|
|* manner of MLIR's C API: opaque handles, explicit destroy, errors as        *|
|* strings the caller frees. A thin layer over the C++ API (ewc/ewc.h); the   *|
|* kernel ABI behind the launches is docs/abi.md. Nothing here aborts the     *|
|* program on bad input: every failure comes back as a message, and a getter  *|
|* given a NULL module or an index out of range answers NULL, 0 or -1.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef EWC_C_EWC_H
#define EWC_C_EWC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a signature or a struct below changes, so FFI callers can
   check. 3: tensors of any rank and strides (EwcTensor, EwcArg.tensor,
   ewcModuleLaunchTensors, ewcModuleCheckLaunch, ewcModuleGetResultShapes),
   the dimensions of kernels, parameters and results; EwcArg's members were
   reordered. 4: the library reads no environment variables, so a compile
   caches GPU code only in a directory the caller sets
   (ewcCompileOptionsSetCacheDir; python/ewc passes the tools' default), and
   the EWC_* variables are the tools' (docs/runtime.md). No struct changed.
   5: ewcModuleLaunchPackedArray (added; nothing else changed).
   6: EwcElementType gains EWC_I8, EWC_I16, EWC_U8, EWC_U16, EWC_U32 and
   EWC_U64 after EWC_F64 (the earlier values are unchanged).
   7: EwcElementType gains EWC_F8E4M3 and EWC_F8E5M2 after EWC_U64.
   8: ewcGetVersion, ewcGetRevision, ewcKernelGetDoc,
   ewcModuleGetNumWarnings and ewcModuleGetWarning (added; nothing else
   changed).
   9: generic kernels: ewcCompileOptionsSetTypes and the ewcGenericKernel*
   functions; ewcCompileOptionsSetAutotune; ewcCompileOptionsSetTiered and
   ewcModuleWaitOptimized (added; nothing else changed).
   10: ewcGenericKernelInferTypes, ewcModuleSpecialize and
   ewcModuleIsOptimized (added; nothing else changed).
   11: ewcCompileOptionsSetDevice (added); a GPU launch runs on the device
   that holds its tensors (no signature or struct changed). */
#define EWC_C_API_VERSION 11

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
  EWC_F64,
  /* Added in version 6: the earlier types keep their numbers. */
  EWC_I8,
  EWC_I16,
  EWC_U8,
  EWC_U16,
  EWC_U32,
  EWC_U64,
  /* Added in version 7: torch's float8_e4m3fn and float8_e5m2, passed as
     their bits (one byte each). */
  EWC_F8E4M3,
  EWC_F8E5M2
} EwcElementType;

/** A tensor, as DLPack's DLTensor has it: the address of its element at
 *  index 0 (a device pointer on the GPU, a host pointer on the CPU), its
 *  `ndim` extents, and its strides in elements (any value from 0). The API
 *  reads `shape` and `strides` during the call only. */
typedef struct {
  void *data;
  int ndim;
  const int64_t *shape;
  /** NULL: contiguous, row-major. */
  const int64_t *strides;
} EwcTensor;

/** What an EwcArg holds. */
typedef enum {
  /** `tensor`. */
  EWC_ARG_TENSOR,
  /** `floatValue`: a scalar, converted to the parameter's type. */
  EWC_ARG_FLOAT,
  /** `intValue`: an integer or bool scalar. */
  EWC_ARG_INT,
  /** The parameter's default. */
  EWC_ARG_DEFAULT
} EwcArgKind;

/** One argument of a launch, for the parameter at its position; the
 *  ewcArg* functions below make one. (The scalars come first so that an
 *  initializer of version 2's layout, {kind, pointer, ...}, does not
 *  compile.) */
typedef struct {
  EwcArgKind kind;
  double floatValue;
  int64_t intValue;
  EwcTensor tensor;
} EwcArg;

static inline EwcArg ewcArgTensor(EwcTensor tensor) {
  EwcArg arg = {EWC_ARG_TENSOR, 0, 0, tensor};
  return arg;
}
static inline EwcArg ewcArgFloat(double value) {
  EwcArg arg = {EWC_ARG_FLOAT, value, 0, {0, 0, 0, 0}};
  return arg;
}
static inline EwcArg ewcArgInt(int64_t value) {
  EwcArg arg = {EWC_ARG_INT, 0, value, {0, 0, 0, 0}};
  return arg;
}
static inline EwcArg ewcArgDefault(void) {
  EwcArg arg = {EWC_ARG_DEFAULT, 0, 0, {0, 0, 0, 0}};
  return arg;
}

/** Options of one launch (and of a result-shape query); NULL where a
 *  function takes a pointer to one: the default stream, no extents. */
typedef struct {
  /** A CUstream (NULL: the default stream); ignored on the CPU. */
  void *stream;
  /** Extents by name of the dimensions that no tensor argument has (a
   *  dimension only results have): dimExtents[i] for dimNames[i]. */
  int numDims;
  const char *const *dimNames;
  const int64_t *dimExtents;
} EwcLaunchOptions;

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

/** ewc's version ("MAJOR.MINOR.PATCH") and the commit the library was built
    from (12 hex digits, "+" when the tree differed from it; "unknown" outside
    a git checkout). Static strings: do not free. */
const char *ewcGetVersion(void);
const char *ewcGetRevision(void);

/*===----------------------------------------------------------------------===*
 * Compilation
 *===----------------------------------------------------------------------===*/

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
 *  ewcCompileOptionsCreate (target AUTO, the device's chip, no on-disk
 *  cache), destroyed by ewcCompileOptionsDestroy. The setters copy strings.
 *  ewcCompile and ewcCompileFile compile with no on-disk cache either. */
typedef struct EwcCompileOptionsImpl *EwcCompileOptions;
EwcCompileOptions ewcCompileOptionsCreate(void);
void ewcCompileOptionsDestroy(EwcCompileOptions options);
void ewcCompileOptionsSetTarget(EwcCompileOptions options, EwcTarget target);
/** The GPU architecture (sm_XX); NULL or "": the device's. */
void ewcCompileOptionsSetChip(EwcCompileOptions options, const char *chip);
/** The on-disk cache of compiled code (GPU cubins, CPU objects); NULL or
 *  "": none. The library reads no environment: the tools' default
 *  ($EWC_CACHE_DIR, else $XDG_CACHE_HOME/ewc, else ~/.cache/ewc) is the
 *  caller's to pass, as python/ewc does. CPU code is kept in the process's
 *  memory too. */
void ewcCompileOptionsSetCacheDir(EwcCompileOptions options, const char *dir);
/** Non-zero: neither read nor write the cache, on disk or in memory. */
void ewcCompileOptionsSetNoCache(EwcCompileOptions options, int noCache);
/** The specialization of generic kernels (`kernel f<T: float>`) to compile,
 *  as "T=bf16" or "T=f32,U=i64": the module holds the concrete kernels and
 *  every generic kernel these types bind entirely, under its plain name
 *  (each binding is cached on its own); a generic kernel left free is
 *  listed by ewcModuleGetNumGenericKernels and not compiled. NULL or "":
 *  none. A misspelt binding fails the compilation. */
void ewcCompileOptionsSetTypes(EwcCompileOptions options, const char *types);
/** Non-zero: choose each kernel's launch parameters by measurement at its
 *  first launch for a size (the default among the candidates, within 50 ms,
 *  on scratch outputs), kept with the compiled code in the cache. */
void ewcCompileOptionsSetAutotune(EwcCompileOptions options, int autotune);
/** Zero: no tiered compilation (on by default: a compile that misses the
 *  cache returns with quick code, the optimized code made on a thread
 *  replaces it at later launches; ewcModuleWaitOptimized). */
void ewcCompileOptionsSetTiered(EwcCompileOptions options, int tiered);
/** The GPU the module is compiled and loaded for first (its ordinal among
 *  the visible devices); -1, the default: the device of the context current
 *  on the calling thread (torch's current device), else device 0. */
void ewcCompileOptionsSetDevice(EwcCompileOptions options, int device);
/** ewcCompile and ewcCompileFile with `options` (NULL: the defaults). */
EwcModule ewcCompileWithOptions(const char *source, const char *name,
                                EwcCompileOptions options, char **error);
EwcModule ewcCompileFileWithOptions(const char *path, EwcCompileOptions options,
                                    char **error);
void ewcModuleDestroy(EwcModule module);
/** Waits until a tiered compilation's optimized code has replaced the quick
 *  code (at once without tiering), as benchmarks do before timing; NULL, or
 *  why the optimized code could not be made (the quick code stays). */
char *ewcModuleWaitOptimized(EwcModule module);
/** 1 where the launches run the optimized code now (always without tiering
 *  or after a cache hit), 0 while the quick code runs or after the optimized
 *  code failed (version 10). */
int ewcModuleIsOptimized(EwcModule module);
/** Frees a string the API returned. */
void ewcStringDestroy(char *string);

/*===----------------------------------------------------------------------===*
 * Kernels
 *===----------------------------------------------------------------------===*/

/** EWC_TARGET_CUDA or EWC_TARGET_CPU: where the kernels run. */
EwcTarget ewcModuleGetTarget(EwcModule module);
int ewcModuleGetNumKernels(EwcModule module);
/** The index of the kernel named `name`, or -1. */
int ewcModuleLookupKernel(EwcModule module, const char *name);
/** The compilation's warnings (such as an unused let): each a located
    diagnostic of one or more lines, "file:line:col: warning: ...", living as
    long as the module; NULL for an index out of range. */
int ewcModuleGetNumWarnings(EwcModule module);
const char *ewcModuleGetWarning(EwcModule module, int index);

/* Kernel `k` of a module (0 <= k < ewcModuleGetNumKernels). Strings live as
   long as the module. An index out of range answers NULL, -1 (counts, flags)
   or 0 (ewcKernelGetParamDefault*) instead of aborting. */
const char *ewcKernelGetName(EwcModule module, int k);
/** e.g. "bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n]". */
const char *ewcKernelGetSignature(EwcModule module, int k);
/** The comment right above the kernel in its source, without the `#`s, one
    line per line ("" if none). */
const char *ewcKernelGetDoc(EwcModule module, int k);
/** The kernel's dimensions: each name once, "..." first where a tensor has
 *  the leading dimensions `...`. */
int ewcKernelGetNumDims(EwcModule module, int k);
const char *ewcKernelGetDim(EwcModule module, int k, int d);

int ewcKernelGetNumParams(EwcModule module, int k);
const char *ewcKernelGetParamName(EwcModule module, int k, int p);
EwcElementType ewcKernelGetParamType(EwcModule module, int k, int p);
int ewcKernelParamIsTensor(EwcModule module, int k, int p);
/** A tensor parameter's dimension names in its declared (memory) order, "..."
 *  first for any leading dimensions; a scalar has none (0). */
int ewcKernelGetParamNumDims(EwcModule module, int k, int p);
const char *ewcKernelGetParamDim(EwcModule module, int k, int p, int d);
/** Whether scalar `p` has a default; if so, stores it as a double. */
int ewcKernelGetParamDefault(EwcModule module, int k, int p, double *value);
/** Whether scalar `p` has a default; if so, stores it in `slot` as
 *  ewcModuleLaunchPacked takes it (exact, also for an i64 beyond 2^53). */
int ewcKernelGetParamDefaultSlot(EwcModule module, int k, int p, EwcSlot *slot);

int ewcKernelGetNumResults(EwcModule module, int k);
EwcElementType ewcKernelGetResultType(EwcModule module, int k, int r);
/** Result `r`'s dimension names, as ewcKernelGetParamDim's. */
int ewcKernelGetResultNumDims(EwcModule module, int k, int r);
const char *ewcKernelGetResultDim(EwcModule module, int k, int r, int d);

/* The generic kernels the module's types left free (templates: checked
   under every binding they admit, not compiled), `g` from 0. Strings live
   as long as the module; an index out of range answers NULL or -1. */
int ewcModuleGetNumGenericKernels(EwcModule module);
const char *ewcGenericKernelGetName(EwcModule module, int g);
/** e.g. "leaky_relu<T: float>(x: T[...], slope: f32 = 0.01) -> T[...]". */
const char *ewcGenericKernelGetSignature(EwcModule module, int g);
const char *ewcGenericKernelGetDoc(EwcModule module, int g);
int ewcGenericKernelGetNumTypeParams(EwcModule module, int g);
const char *ewcGenericKernelGetTypeParamName(EwcModule module, int g, int t);
/** "float" (f16, bf16, f32, f64), "int" (i32, i64) or "any" (all six). */
const char *ewcGenericKernelGetTypeParamConstraint(EwcModule module, int g,
                                                   int t);
int ewcGenericKernelGetNumParams(EwcModule module, int g);
const char *ewcGenericKernelGetParamName(EwcModule module, int g, int p);
/** The type parameter that is parameter `p`'s element type (its index), or
    -1 for a concrete type (ewcGenericKernelGetParamType's). */
int ewcGenericKernelGetParamTypeParam(EwcModule module, int g, int p);
EwcElementType ewcGenericKernelGetParamType(EwcModule module, int g, int p);
int ewcGenericKernelParamIsTensor(EwcModule module, int g, int p);
/** The types of generic kernel `g`'s type parameters, read from the element
 *  types of its arguments (`argTypes`: one per parameter, in order, up to
 *  `numArgs`; -1 for a scalar or an argument that says none), as
 *  "T=bf16,U=i32" for ewcModuleSpecialize or ewcCompileOptionsSetTypes, to
 *  free with ewcStringDestroy. NULL and *error (to free) where two
 *  arguments disagree, none gives a type parameter's type, or a type is one
 *  its constraint does not admit. */
char *ewcGenericKernelInferTypes(EwcModule module, int g, const int *argTypes,
                                 int numArgs, char **error);
/** `module`'s source compiled again with `types` ("T=bf16,U=i32") added to
 *  its types, its other options kept: the generic kernels they bind are
 *  kernels of the new module (destroy it with ewcModuleDestroy), under
 *  their plain names. NULL and *error on failure. */
EwcModule ewcModuleSpecialize(EwcModule module, const char *types,
                              char **error);

/** "bool", "i32", ..., "f64"; NULL for a value outside EwcElementType. */
const char *ewcElementTypeGetName(EwcElementType type);
/** Bytes per element (bool: one); -1 for a value outside EwcElementType. */
int ewcElementTypeGetSize(EwcElementType type);

/*===----------------------------------------------------------------------===*
 * Launches
 *===----------------------------------------------------------------------===*/

/* Every launch and query returns NULL, or an error message to free with
   ewcStringDestroy; a launch that fails has run nothing, except where the
   runtime itself fails (a CUDA error). Dimensions bind by name across the
   tensors, and the errors say which disagree ("'b' has n = 768 but 'x' has
   n = 1024"). On the GPU a kernel is queued on the stream (as cuLaunchKernel
   queues) of the device that holds its tensors: where the driver sees more
   than one device, each tensor's is read from its pointer
   (cuPointerGetAttribute), tensors on two devices are an error, and the
   module is loaded on a device at its first launch there; the stream must be
   that device's. On the CPU it has run when the call returns. */

/** Launches kernel `k` with one EwcArg per parameter and one EwcTensor per
 *  result, of the result's shape (ewcModuleGetResultShapes). Tensors may have
 *  any strides from 0; an output may not overlap another tensor unless it is
 *  exactly an input (in place), nor repeat an element (a stride of 0 along
 *  an extent above 1). `options` may be NULL. */
char *ewcModuleLaunchTensors(EwcModule module, int k, const EwcArg *args,
                             int numArgs, const EwcTensor *outputs,
                             int numOutputs, const EwcLaunchOptions *options);

/** What ewcModuleLaunchTensors would say of these arguments, without
 *  launching: NULL if it would accept them, else its message. A launch that
 *  fails on arguments this accepts failed at run time (FFI callers tell a
 *  caller's mistake from a runtime failure so). */
char *ewcModuleCheckLaunch(EwcModule module, int k, const EwcArg *args,
                           int numArgs, const EwcTensor *outputs,
                           int numOutputs, const EwcLaunchOptions *options);

/** The shape of every result of kernel `k` for the tensors among `args` and
 *  the extents in `options` (NULL: none): ranks[r] is result r's rank
 *  (room for ewcKernelGetNumResults), and its extents follow result r - 1's
 *  in `extents`, which has room for `capacity` (too little is an error that
 *  says how much is needed). Scalar arguments are checked as by a launch. */
char *ewcModuleGetResultShapes(EwcModule module, int k, const EwcArg *args,
                               int numArgs, const EwcLaunchOptions *options,
                               int *ranks, int64_t *extents, int capacity);

/** The launch of kernels over one dimension with contiguous tensors: every
 *  tensor argument whose ndim is 0 is `n` contiguous elements at its
 *  tensor.data (one with a shape is taken as it is), and each output pointer
 *  `n` contiguous elements; a kernel whose one dimension no parameter has (a
 *  fill) takes its extent from `n`. */
char *ewcModuleLaunch(EwcModule module, int k, const EwcArg *args, int numArgs,
                      void *const *outputs, int numOutputs, int64_t n,
                      void *stream);

/** ewcModuleLaunch for callers that pay per call for every argument they
 *  pass (FFI: python/ewc's path for 1-D contiguous tensors): `slots` holds
 *  one EwcSlot per parameter, then one per result, in the kernel's order. A
 *  tensor or output slot holds its pointer to `n` contiguous elements; a
 *  scalar slot its value, as `floatValue` for f16, bf16, f32 and f64
 *  parameters, as `intValue` for bool and the integer types (u64 values
 *  from 2^63 on as their bits; a default comes from
 *  ewcKernelGetParamDefaultSlot). */
char *ewcModuleLaunchPacked(EwcModule module, int k, const EwcSlot *slots,
                            int64_t n, void *stream);

/** ewcModuleLaunchPacked with its other arguments in the first four slots
 *  of the one array: `array[0].pointer` the module, `array[1].intValue` k,
 *  `array[2].intValue` n, `array[3].pointer` the stream, and from
 *  `array + 4` on the slots. One argument, for a caller that pays for each
 *  (Python's ctypes converted the five of ewcModuleLaunchPacked in 0.39 us
 *  and takes one array in 0.10 us) and refills one array instead. */
char *ewcModuleLaunchPackedArray(const EwcSlot *array);

#ifdef __cplusplus
}
#endif

#endif /* EWC_C_EWC_H */
