//===- ewc.h - The C++ API of ewc -------------------------------*- C++ -*-===//
//
// Compile a .ew program at run time and launch its kernels on your own
// buffers, on the CPU or on a CUDA device, on your own stream:
//
//   ewc::Result<ewc::Module> mod = ewc::compile(source, {ewc::Target::Cpu});
//   if (!mod) { puts(mod.error().c_str()); return; }    // file:line:col: ...
//   ewc::Status status = mod->launch("leaky_relu",
//       {ewc::Arg::tensor(x), ewc::Arg::number(0.2)}, {y}, n);
//
// Errors are values that carry the located diagnostic text; nothing here
// throws or exits, and an LLVM fatal error inside compile() is an error value
// too (docs/api.md). The header needs the C++17 standard library only (no
// LLVM, MLIR or ewc internals), so an application includes it as is. The
// kernel ABI behind launch() is docs/abi.md (ewc/ABI/KernelSignature.h).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_EWC_H
#define EWC_EWC_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ewc {
namespace driver {
class LoadedModule;
} // namespace driver

/// Where kernels run.
enum class Target {
  /// The CUDA device where the driver finds one, else the CPU.
  Auto,
  Cuda,
  Cpu,
};

/// Element types, as the language spells them (bool, i32, ..., f64).
/// Element types, as the language spells them (the types after F64 were
/// added later, so the earlier ones keep their numbers).
enum class ElementType {
  Bool,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  I8,
  I16,
  U8,
  U16,
  U32,
  U64,
  F8E4M3,
  F8E5M2
};

/// ewc's version, "MAJOR.MINOR.PATCH", and the commit the library was built
/// from (12 hex digits, "+" when the tree differed from it; "unknown" outside
/// a git checkout).
const char *getVersion();
const char *getRevision();

/// "bool", "i32", "i64", "f16", "bf16", "f32", "f64", "i8", "i16", "u8",
/// "u16", "u32", "u64", "f8e4m3" or "f8e5m2".
const char *getElementTypeName(ElementType type);
/// Bytes per element (bool: one byte holding 0 or 1).
unsigned getElementTypeSize(ElementType type);

/// How to compile.
struct Options {
  Target target = Target::Auto;
  /// The GPU architecture (sm_XX); empty: the device's.
  std::string chip;
  /// The on-disk cache of compiled code (GPU cubins, CPU objects). Empty:
  /// none. ewc reads no environment variables; the tools' default directory
  /// ($EWC_CACHE_DIR, else $XDG_CACHE_HOME/ewc, else ~/.cache/ewc) is the
  /// caller's to pass. CPU code is kept in the process's memory too.
  std::string cacheDir;
  /// Neither read nor write the cache, on disk or in memory.
  bool noCache = false;
  /// The specialization of generic kernels (`kernel f<T: float>`) to
  /// compile: each type parameter by name, such as {{"T", ElementType::BF16}}.
  /// The module then holds the concrete kernels and every generic kernel
  /// these types bind entirely, under its plain name; a generic kernel left
  /// free is listed in Module::genericKernels and not compiled. Each binding
  /// is cached on its own.
  std::vector<std::pair<std::string, ElementType>> types;
  /// Choose each kernel's launch parameters by measurement at its first
  /// launch for a size (the default among the candidates, within 50 ms, on
  /// scratch outputs), kept with the compiled code in the cache.
  bool autotune = false;
  /// Tiered compilation: a compile that misses the cache returns with code
  /// made quickly (GPU: LLVM at O0 before NVPTX and ptxas at -O0; CPU: the
  /// JIT at -O0, 4-5 ms for LeakyReLU and GELU against 36-64 ms at -O3)
  /// while the optimized code is made on a thread and replaces it at the
  /// launches after it is ready; only the optimized code is cached.
  /// Module::waitForOptimized waits for it.
  bool tiered = true;
  /// The GPU the module is compiled and loaded for first (its ordinal among
  /// the visible devices); -1: the device of the context current on the
  /// calling thread (torch's current device, once torch has used it), else
  /// device 0. A launch with tensors on another device loads the module
  /// there at its first launch (LaunchOptions::device). Last, so that
  /// aggregate initializers of the fields above keep their meaning.
  int device = -1;
};

/// A scalar value: `intValue` for bool and integers, `floatValue` for floats.
struct Scalar {
  ElementType type = ElementType::F32;
  double floatValue = 0;
  int64_t intValue = 0;
};

/// A parameter of a kernel: a tensor over named dimensions, or a scalar.
struct Param {
  std::string name;
  ElementType type = ElementType::F32;
  bool isTensor = false;
  /// A tensor's dimension names in its declared (memory) order, "..." first
  /// for any leading dimensions.
  std::vector<std::string> dims;
  /// A scalar's default, as the compiled kernel has it.
  std::optional<Scalar> defaultValue;
};

/// A result of a kernel: a tensor.
struct ResultType {
  ElementType type = ElementType::F32;
  std::vector<std::string> dims;
};

/// A kernel: its parameters, results and dimensions.
struct Kernel {
  std::string name;
  std::vector<Param> params;
  std::vector<ResultType> results;
  /// The kernel's dimensions ("..." first where a tensor has it).
  std::vector<std::string> dims;
  /// e.g. "bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n]".
  std::string signature;
  /// The comment right above the kernel in the source, without its `#`s
  /// ("" if none).
  std::string doc;
};

/// A type parameter of a generic kernel: `T: float`.
struct TypeParam {
  std::string name;
  /// "float" (f16, bf16, f32, f64), "int" (i32, i64) or "any" (all six).
  std::string constraint;
  /// The types the constraint admits, in that order.
  std::vector<ElementType> admits;
};

/// A generic kernel the module's Options::types leave free: a template,
/// checked under every binding it admits but not compiled. Compile again
/// with its type parameters in Options::types to launch it.
struct GenericKernel {
  std::string name;
  std::vector<TypeParam> typeParams;
  /// The parameters; one whose type is a type parameter has `typeParam`
  /// (its index in typeParams) and a meaningless `type`.
  struct GenericParam : Param {
    int typeParam = -1;
  };
  std::vector<GenericParam> params;
  /// The results' type parameters (-1: the result's own type, in
  /// `results`).
  std::vector<ResultType> results;
  std::vector<int> resultTypeParams;
  std::vector<std::string> dims;
  /// e.g. "leaky_relu<T: float>(x: T[...], slope: f32 = 0.01) -> T[...]".
  std::string signature;
  std::string doc;
};

/// A tensor: the address of its element at index 0 (a device pointer on
/// the GPU, a host pointer on the CPU), its extents, and its strides in
/// elements (any value from 0; empty: contiguous, row-major), as DLPack's
/// DLTensor has them.
struct Tensor {
  void *data = nullptr;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

/// Options of one launch.
struct LaunchOptions {
  /// A CUstream (null: the default stream); ignored on the CPU.
  void *stream = nullptr;
  /// Extents by name of the dimensions no tensor argument has.
  std::vector<std::pair<std::string, int64_t>> dims;
  /// On the CPU: the threads a launch may split among (0: one per hardware
  /// thread; launches under 2^16 points run on the calling thread).
  unsigned threads = 0;
  /// On the GPU: the device to launch on (its ordinal); -1: the one that
  /// holds the tensors. Where the driver sees more than one device, each
  /// tensor's device is read from its pointer (cuPointerGetAttribute, about
  /// 0.1 us a tensor), tensors on two devices (or on another than this one)
  /// are an error, and the module is loaded on a device at its first launch
  /// there; with one device nothing is asked. `stream` must be the device's.
  int device = -1;
};

/// Success, or the text of an error.
class Status {
public:
  Status() = default;
  static Status failure(std::string message) {
    Status status;
    status.message = std::move(message);
    status.failed = true;
    return status;
  }
  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }
  const std::string &error() const { return message; }

private:
  std::string message;
  bool failed = false;
};

/// A value, or the text of an error.
template <typename T> class Result {
public:
  Result(T value) : value(std::move(value)) {}
  Result(Status status) : status(std::move(status)) {}
  bool ok() const { return value.has_value(); }
  explicit operator bool() const { return ok(); }
  T &operator*() { return *value; }
  T *operator->() { return &*value; }
  const std::string &error() const { return status.error(); }

private:
  std::optional<T> value;
  Status status;
};

/// One argument of a launch, for the parameter at its position.
class Arg {
public:
  /// A tensor of any shape and strides (Tensor says how).
  static Arg tensor(Tensor tensor) {
    Arg arg(Kind::Tensor, tensor.data, 0, 0);
    arg.shape = std::move(tensor.shape);
    arg.strides = std::move(tensor.strides);
    return arg;
  }
  /// A contiguous tensor at `data` of the launch's one extent n (for the
  /// launch with n below).
  static Arg tensor(const void *data) { return Arg(Kind::Tensor, data, 0, 0); }
  /// A float scalar (converted to the parameter's type, rounding to nearest).
  static Arg number(double value) {
    return Arg(Kind::Float, nullptr, value, 0);
  }
  /// An integer or bool scalar (converted to the parameter's type).
  static Arg integer(int64_t value) {
    return Arg(Kind::Int, nullptr, 0, value);
  }
  /// The parameter's default.
  static Arg byDefault() { return Arg(Kind::Default, nullptr, 0, 0); }

  enum class Kind { Tensor, Float, Int, Default };
  Kind kind;
  const void *data;
  double floatValue;
  int64_t intValue;
  /// A tensor's extents and strides (an empty shape: 1-D of n, for the
  /// launch with n).
  std::vector<int64_t> shape, strides;

private:
  Arg(Kind kind, const void *data, double floatValue, int64_t intValue)
      : kind(kind), data(data), floatValue(floatValue), intValue(intValue) {}
};

/// Compiled kernels, loaded for one target.
class Module {
public:
  Module(Module &&) noexcept;
  Module &operator=(Module &&) noexcept;
  ~Module();

  /// Cuda or Cpu: where the kernels run.
  Target target() const;
  const std::vector<Kernel> &kernels() const;
  /// The kernel named `name`, or null.
  const Kernel *kernel(std::string_view name) const;
  /// Waits until a tiered compilation's optimized code has replaced the
  /// quick code (Options::tiered), as a benchmark does before it times, on
  /// every device the module is loaded on so far; at once otherwise. A
  /// failure says why the optimized code could not be made (the quick code
  /// stays: right, slower).
  Status waitForOptimized();
  /// Whether the launches run the optimized code now (always without
  /// tiering, or after a cache hit); false while the quick code runs, and
  /// after the optimized code failed.
  bool isOptimized() const;
  /// The generic kernels that Options::types left free (not launchable
  /// here: compile with their types).
  const std::vector<GenericKernel> &genericKernels() const;
  /// The generic kernel named `name` among genericKernels(), or null.
  const GenericKernel *genericKernel(std::string_view name) const;
  /// The types of generic kernel `kernel`'s type parameters, read from the
  /// element types of its arguments as Python reads them from tensors:
  /// `argTypes` has one entry per parameter, in order (std::nullopt for a
  /// scalar, or an argument that says none). Fails, naming the arguments,
  /// where two disagree, none gives a type parameter's type, or a type is
  /// one its constraint does not admit.
  Result<std::vector<std::pair<std::string, ElementType>>>
  inferTypes(std::string_view kernel,
             const std::vector<std::optional<ElementType>> &argTypes) const;
  /// This module's source compiled again with `types` added to its
  /// Options::types, its other options kept: the generic kernels they bind
  /// are kernels of the module returned, under their plain names. A
  /// compilation like any other (the kernel cache answers a binding
  /// compiled before): keep the module. With inferTypes, a generic kernel
  /// launched with the types of its tensors:
  ///
  ///   auto types = mod->inferTypes("vector_add", {ElementType::BF16,
  ///                                               ElementType::BF16});
  ///   ewc::Result<ewc::Module> bf16 = mod->specialize(*types);
  ///   bf16->launch("vector_add", ...);
  Result<Module> specialize(
      const std::vector<std::pair<std::string, ElementType>> &types) const;
  /// The compilation's warnings (such as an unused let), each a located
  /// diagnostic of one or more lines: "file:line:col: warning: ...".
  const std::vector<std::string> &warnings() const;

  /// Launches `kernel`: `params` has one Arg per parameter (in the kernel's
  /// order), `outputs` one tensor per result, of the result's shape (which
  /// resultShapes gives). Dimensions bind by name across the tensors; a
  /// disagreement, or an output that overlaps another tensor (unless it is
  /// an input itself, in place) or repeats an element, fails before
  /// anything runs. On the GPU the kernel is queued on options.stream, as
  /// cuLaunchKernel queues; on the CPU it has run when this returns.
  Status launch(std::string_view kernel, const std::vector<Arg> &params,
                const std::vector<Tensor> &outputs,
                const LaunchOptions &options = {});

  /// The same for kernels of one dimension and contiguous tensors: every
  /// tensor argument (Arg::tensor(data)) and output has `n` elements.
  Status launch(std::string_view kernel, const std::vector<Arg> &params,
                const std::vector<void *> &outputs, int64_t n,
                void *stream = nullptr);

  /// Whether `launch` would accept these arguments, without launching: the
  /// arguments marshalled and the launch planned (dimensions bound, outputs
  /// checked). A failure here is the caller's mistake; a launch that fails
  /// after this succeeded failed at run time.
  Status check(std::string_view kernel, const std::vector<Arg> &params,
               const std::vector<Tensor> &outputs,
               const LaunchOptions &options = {}) const;

  /// The shape of every result of `kernel` for the tensors among `params`
  /// and the extents in options.dims.
  Result<std::vector<std::vector<int64_t>>>
  resultShapes(std::string_view kernel, const std::vector<Arg> &params,
               const LaunchOptions &options = {}) const;

  /// The implementation's state (compile() makes it).
  struct Impl;
  explicit Module(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl;
};

/// Compiles the .ew program `source`; `name` is the file name its
/// diagnostics give ("name:line:col: error: ...").
Result<Module> compile(std::string_view source, const Options &options = {},
                       std::string_view name = "<source>");
/// Compiles the .ew file at `path`.
Result<Module> compileFile(const std::string &path,
                           const Options &options = {});

} // namespace ewc

#endif // EWC_EWC_H
