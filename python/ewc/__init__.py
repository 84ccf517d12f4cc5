"""ewc from Python: compile .ew kernels at run time and call them on arrays.

    import ewc, numpy as np
    mod = ewc.compile(source=\"\"\"
    kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n] { return x + b; }
    \"\"\", device="cpu")
    y = mod.bias_add(np.ones((3, 4), np.float32), np.arange(4, dtype=np.float32))

Tensors of any rank and strides (a NumPy view as it is: x.T, x[:, ::2]);
dimensions bind by name across the arguments, and a mismatch is a ValueError
in the driver's words. NumPy arrays (and torch CPU tensors) run on the CPU
path; torch CUDA tensors and other objects with __cuda_array_interface__ on
the GPU path, on torch's current stream when torch is in use; DLPack objects
on the device they name. Outputs are allocated in the results' shapes like
the first tensor argument, or passed with out= (any view: only it is
written); dims={'n': 5} gives the extent of a dimension only results have.
A type NumPy lacks (bf16, f8e4m3, f8e5m2) goes as its bit patterns, marked:
ewc.bits(x.view(np.uint16), "bf16"), ewc.bits(q.view(np.uint8), "f8e4m3");
such a result comes back marked.
Pure Python over the C API (include/ewc-c/ewc.h) with ctypes: one package
for any CPython 3.
"""

import ctypes
import inspect
import keyword
import math
import numbers
import os
import re
import struct
import sys
import threading
import warnings

from . import _arrays, _capi
from ._capi import lib

__all__ = ["compile", "bits", "Bits", "CompileError", "CompileWarning",
           "GenericKernel",
           "LaunchError", "Module", "Kernel", "Param", "Result"]

Bits = _arrays.Bits

# ewc's version ("MAJOR.MINOR.PATCH"), and the commit libewc.so was built
# from ("+" after it: the tree differed; "unknown": not built from git), as
# the library reports them: the package and the library are one release
# (the C API's version is checked on import, _capi.py).
__version__ = lib.ewcGetVersion().decode()
__revision__ = lib.ewcGetRevision().decode()


class CompileError(Exception):
    """A .ew program did not compile; the message is the located diagnostics
    ("file:line:col: error: ..." with the line and a caret)."""


class CompileWarning(UserWarning):
    """A warning of a compilation that succeeded (such as a `let` whose value
    is never used); the message is the located diagnostic, as ewc-run prints
    it. Python's warnings filters apply (e.g. -W error::ewc.CompileWarning)."""


class LaunchError(RuntimeError):
    """The driver refused a launch after the checks of the call itself (an
    output that overlaps an input, or repeats an element), or the runtime
    failed it (e.g. a CUDA error); the message is the driver's."""


#===------------------------------------------------------------------------===#
# Kernels
#===------------------------------------------------------------------------===#

class Param:
    """A parameter: a tensor over the dimensions `dims` (names, "..." first
    for any leading dimensions), or a scalar (dims ()) with its default (a
    float for the float types, an int for the integer types, a bool for
    bool; None: none)."""
    __slots__ = ("name", "type", "is_tensor", "dims", "default")

    def __init__(self, name, type_name, is_tensor, dims, default):
        self.name, self.type, self.is_tensor = name, type_name, is_tensor
        self.dims, self.default = dims, default

    def __repr__(self):
        return "Param(%r, %r, is_tensor=%r, dims=%r, default=%r)" % (
            self.name, self.type, self.is_tensor, self.dims, self.default)

    def annotation(self):
        """The parameter's type as the .ew source writes it: "f32[m, n]",
        "i32"."""
        return _type_text(self.type, self.dims if self.is_tensor else None)


class Result:
    """A result: a tensor of `type` over the dimensions `dims`."""
    __slots__ = ("type", "dims")

    def __init__(self, type_name, dims):
        self.type, self.dims = type_name, dims

    def __repr__(self):
        return "Result(%r, dims=%r)" % (self.type, self.dims)

    def annotation(self):
        """The result's type as the .ew source writes it: "f32[m, n]"."""
        return _type_text(self.type, self.dims)


def _type_text(type_name, dims):
    return type_name if dims is None else "%s[%s]" % (type_name,
                                                      ", ".join(dims))


def _names(count, get):
    return tuple(get(i).decode() for i in range(count))


def _round_to(value, type_name):
    """`value` rounded to nearest-even in f32, f16 or bf16."""
    if type_name == "f16":
        return struct.unpack("<e", struct.pack("<e", value))[0]
    single = struct.unpack("<f", struct.pack("<f", value))[0]
    if type_name == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", single))[0]
        bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return single


def _shortest(value, type_name):
    """The shortest decimal that `type_name` rounds to `value`: a default
    written 0.01 in an f32 signature shows as 0.01, not as the double
    0.009999999776482582 it widens to. f64 and the 8-bit floats (whose
    defaults are few and short) as they are."""
    if type_name not in ("f32", "f16", "bf16") or not math.isfinite(value):
        return value
    for digits in range(1, 10):
        candidate = float("%.*g" % (digits, value))
        if _round_to(candidate, type_name) == value:
            return candidate
    return value


def _default_value(handle, kernel, param, type_name, as_double):
    """A scalar parameter's default as a value of its Python type: float for
    the float types, int for the integers (exact for any i64 and u64: read
    from its slot), bool for bool."""
    if type_name in _arrays.FLOAT_TYPES:
        return _shortest(as_double, type_name)
    slot = _capi.EwcSlot()
    lib.ewcKernelGetParamDefaultSlot(handle, kernel, param,
                                     ctypes.byref(slot))
    if type_name == "bool":
        return bool(slot.intValue)
    if type_name.startswith("u"):
        # A u64 from 2^63 up is held as its bits in the int64 slot.
        return slot.intValue & (2 ** 64 - 1)
    return slot.intValue


# The range of each integer parameter type, for the OverflowError of a
# value outside it (ctypes would wrap it silently). A u64 value from 2^63
# up goes into its int64 slot as its bits: ctypes stores an int modulo
# 2^64, and the library takes the low bytes of the slot.
_INT_RANGES = {"bool": (0, 1), "i8": (-2 ** 7, 2 ** 7 - 1),
               "i16": (-2 ** 15, 2 ** 15 - 1), "i32": (-2 ** 31, 2 ** 31 - 1),
               "i64": (-2 ** 63, 2 ** 63 - 1), "u8": (0, 2 ** 8 - 1),
               "u16": (0, 2 ** 16 - 1), "u32": (0, 2 ** 32 - 1),
               "u64": (0, 2 ** 64 - 1)}


def bits(array, dtype):
    """`array`, unsigned integers of `dtype`'s width (uint16 for "bf16" or
    "f16", uint8 for "f8e4m3" or "f8e5m2"), marked as holding the bit
    patterns of the floating type `dtype`: a kernel takes it where it
    declares `dtype`, as an argument or in out=. Nothing is copied. The one
    way to pass bf16 or the 8-bit floats from NumPy: a plain uint16 (uint8)
    array binds to u16 (u8) only."""
    return Bits(array, dtype)


class Kernel:
    """A compiled kernel; call it like a function:
    kernel(x, b, slope=0.2, out=None, stream=None, dims=None).
    `params`, `results` and `dims` describe it; repr shows its signature."""

    def __init__(self, module, index):
        handle = module._handle
        self._module = module
        self._index = index
        self.name = lib.ewcKernelGetName(handle, index).decode()
        self.signature = lib.ewcKernelGetSignature(handle, index).decode()
        # The comment above the kernel in its source ("" if none).
        self.doc = lib.ewcKernelGetDoc(handle, index).decode()
        self.dims = _names(lib.ewcKernelGetNumDims(handle, index),
                           lambda d: lib.ewcKernelGetDim(handle, index, d))
        self.params = []
        for p in range(lib.ewcKernelGetNumParams(handle, index)):
            value = ctypes.c_double()
            has_default = lib.ewcKernelGetParamDefault(handle, index, p,
                                                       ctypes.byref(value))
            type_name = _capi.ELEMENT_TYPES[lib.ewcKernelGetParamType(
                handle, index, p)]
            default = None
            if has_default:
                default = _default_value(handle, index, p, type_name,
                                         value.value)
            self.params.append(Param(
                lib.ewcKernelGetParamName(handle, index, p).decode(),
                type_name,
                bool(lib.ewcKernelParamIsTensor(handle, index, p)),
                _names(lib.ewcKernelGetParamNumDims(handle, index, p),
                       lambda d: lib.ewcKernelGetParamDim(handle, index, p,
                                                          d)),
                default))
        self.results = [
            Result(_capi.ELEMENT_TYPES[lib.ewcKernelGetResultType(
                       handle, index, r)],
                   _names(lib.ewcKernelGetResultNumDims(handle, index, r),
                          lambda d: lib.ewcKernelGetResultDim(handle, index,
                                                              r, d)))
            for r in range(lib.ewcKernelGetNumResults(handle, index))]
        self._names = {p.name: i for i, p in enumerate(self.params)}
        # Everything a call needs that does not depend on its arguments is
        # made here once: a call is on the hot path (docs/api.md).
        self._device = module.device
        self._on_gpu = module.device == "cuda"
        # The packed launch (ewcModuleLaunchPacked) takes n elements per
        # tensor: it serves a kernel whose tensors are all over one and the
        # same dimension (a name, or '...' alone: then n is its one
        # extent), called on 1-D contiguous tensors.
        tensor_dims = {p.dims for p in self.params if p.is_tensor} | {
            r.dims for r in self.results}
        only = tensor_dims.pop() if len(tensor_dims) == 1 else ()
        self._packed = len(only) == 1
        # Dimensions no tensor parameter has: the result-shape query needs
        # them from dims=.
        bound = {d for p in self.params if p.is_tensor for d in p.dims}
        self._result_only = [d for d in self.dims if d not in bound]
        self._plan = []
        for i, param in enumerate(self.params):
            slot = _capi.EwcSlot()
            has_default = lib.ewcKernelGetParamDefaultSlot(
                handle, index, i, ctypes.byref(slot))
            kind = (_TENSOR if param.is_tensor else
                    _FLOAT if param.type in _arrays.FLOAT_TYPES else
                    _INT)
            # A default as the bits of its slot: exact for any i64.
            self._plan.append((i, kind, param.type,
                               "%s(): '%s'" % (self.name, param.name),
                               slot.intValue if has_default else None))
        self._out_wheres = ["%s(): out[%d]" % (self.name, r)
                            for r in range(len(self.results))]
        self._num_slots = _HEAD + len(self.params) + len(self.results)
        self._local = threading.local()
        self._handle = ctypes.c_void_p(handle)

    def __repr__(self):
        return "<ewc kernel %s>" % self.signature

    def _docstring(self):
        """help(kernel): its .ew signature, then the comment above it in the
        source."""
        text = self.signature
        if self.doc:
            text += "\n\n" + self.doc
        return text + ("\n\nCall it with the tensors and scalars above, by "
                       "position or name;\nout= takes the result arrays, "
                       "stream= a CUDA stream, dims= the\nextents of "
                       "dimensions only results have (docs/api.md).")

    def _make_signature(self):
        """inspect.signature(kernel): the parameters by name with their .ew
        types as annotations and their defaults (of the parameter's Python
        type), then the keyword-only out, stream and dims. A kernel whose
        parameter names Python cannot take (a keyword such as `lambda`)
        shows (*args, ...)."""
        kinds = inspect.Parameter
        tail = [kinds(name, kinds.KEYWORD_ONLY, default=None)
                for name in ("out", "stream", "dims")]
        results = [r.annotation() for r in self.results]
        returns = results[0] if len(results) == 1 else "tuple[%s]" % (
            ", ".join(results))
        try:
            params = [kinds(p.name, kinds.POSITIONAL_OR_KEYWORD,
                            annotation=p.annotation(),
                            default=kinds.empty if p.default is None else
                            p.default) for p in self.params]
            return inspect.Signature(params + tail, return_annotation=returns)
        except ValueError:
            # A name that is no Python identifier, or a parameter without
            # a default after one with (which Python's signatures reject
            # and the language allows).
            return inspect.Signature(
                [kinds("args", kinds.VAR_POSITIONAL)] + tail,
                return_annotation=returns)

    def _bind(self, args, kwargs):
        missing = len(self._plan) - len(args)
        if missing < 0:
            raise TypeError("%s() takes %d argument(s), got %d"
                            % (self.name, len(self.params), len(args)))
        values = [*args, *(_MISSING,) * missing]
        names = self._names
        for name in kwargs:
            index = names.get(name, -1)
            if index < 0 or values[index] is not _MISSING:
                self._bad_keyword(name, index)
            values[index] = kwargs[name]
        return values

    def _bad_keyword(self, name, index):
        if index < 0:
            raise TypeError("%s() has no parameter '%s' (it takes %s)"
                            % (self.name, name,
                               ", ".join(p.name for p in self.params)))
        raise TypeError("%s() got '%s' twice" % (self.name, name))

    def _missing(self, i):
        param = self.params[i]
        raise TypeError("%s() missing argument '%s' (%s%s)" % (
            self.name, param.name, param.type,
            "[%s]" % ", ".join(param.dims) if param.is_tensor else ""))

    #===--------------------------------------------------------------------===#
    # The fast path: 1-D contiguous tensors, ewcModuleLaunchPackedArray
    #===--------------------------------------------------------------------===#

    # A call runs a __call__ made for its kernel (_make_call): CPython binds
    # the arguments to the kernel's own parameter names, and each parameter
    # has its own straight-line checks; no loop, no keyword dict. 4.0 us
    # against 8.4 us for a loop over the parameters (leaky_relu with
    # slope= and out=, CPU path here). Whatever those checks do not take as
    # it is goes to _general, which takes anything and says what is wrong.

    def _slots(self):
        """This thread's array for ewcModuleLaunchPackedArray, as int64 and
        as double views of one buffer: the module and the kernel's index
        filled in, n, the stream and the slots filled per call. One per
        thread: ctypes lets go of the GIL during the launch, so another
        thread's call must not refill the array under it."""
        ints = (ctypes.c_int64 * self._num_slots)()
        floats = (ctypes.c_double * self._num_slots).from_buffer(ints)
        ints[0] = self._handle.value
        ints[1] = self._index
        self._local.slots = ints, floats
        return ints, floats

    def _fast_outputs(self, out, n, ints):
        """(the call's result, n) with the pointers of the outputs in `out`
        in `ints`, if they are all 1-D, contiguous and of n elements (any n
        where n < 0); else None."""
        given = out if isinstance(out, (tuple, list)) else (out,)
        if len(given) != len(self.results):
            return None
        base = _HEAD + len(self._plan)
        for r, value in enumerate(given):
            tensor = _fast_tensor(value, self.results[r].type, self._on_gpu)
            if tensor is None:
                return None
            if n < 0:
                n = tensor[1]
            elif tensor[1] != n:
                return None
            ints[base + r] = tensor[0]
        return (given[0] if len(given) == 1 else tuple(given)), n

    def _failed(self, error, call):
        """Raises for the failed launch of `call` (a _Call with its outputs
        set): the caller's mistake (an output that overlaps an input, a zero
        stride in an output) as a ValueError, what fails with arguments the
        driver accepts as a LaunchError. Asked only once a launch has
        failed: a call that succeeds pays nothing."""
        invalid = lib.ewcModuleCheckLaunch(
            self._handle, self._index, call.args, len(self.params),
            call.outputs, len(self.results), ctypes.byref(call.options))
        if invalid:
            _capi.take_string(error)
            raise ValueError("%s(): %s" % (self.name,
                                           _capi.take_string(invalid)))
        raise LaunchError("%s(): %s" % (self.name, _capi.take_string(error)))

    def _fast_failed(self, error, values, outputs, dims):
        """_failed for the packed launch of `values` into `outputs` (the
        array or the tuple it returns)."""
        _learn_types()
        call = _Call(self, values, dims)
        call.set_outputs(list(outputs) if type(outputs) is tuple
                         else [outputs])
        self._failed(error, call)

    #===--------------------------------------------------------------------===#
    # The general path: any shape and strides, ewcModuleLaunchTensors
    #===--------------------------------------------------------------------===#

    def _general(self, values, out, stream, dims):
        """Calls the kernel on `values` (one per parameter, _MISSING where
        none was given) with every check: tensors of any rank and strides,
        outputs allocated in the result shapes the driver computes."""
        _learn_types()
        call = _Call(self, values, dims)
        if out is None:
            shapes = call.result_shapes()
            outputs = [call.allocate(shape, result.type)
                       for shape, result in zip(shapes, self.results)]
        else:
            outputs = list(out) if isinstance(out, (tuple, list)) else [out]
            if len(outputs) != len(self.results):
                raise TypeError("%s() returns %d result(s), got %d in out=" % (
                    self.name, len(self.results), len(outputs)))
        arrays = call.set_outputs(outputs)
        if out is not None and all(d in call.dims for d in self._result_only):
            # The shapes the driver binds from the inputs: a ValueError for
            # an output of another shape, as for the inputs.
            for r, (array, shape) in enumerate(zip(arrays,
                                                   call.result_shapes())):
                if tuple(array.shape) != shape:
                    raise ValueError("%s has shape %s, but the result has %s"
                                     % (self._out_wheres[r],
                                        tuple(array.shape), shape))
        if stream is None and self._on_gpu:
            first = call.first or arrays[0]
            if first.kind == "torch":
                stream = _torch_stream(first.obj)
        call.options.stream = stream
        error = lib.ewcModuleLaunchTensors(
            self._handle, self._index, call.args, len(self.params),
            call.outputs, len(self.results), ctypes.byref(call.options))
        if error:
            self._failed(error, call)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def result_shapes(self, *args, dims=None, **kwargs):
        """The shape of each result for these arguments (scalars may be
        left out), as a list of tuples: what a call allocates."""
        values = self._bind(args, kwargs)
        _learn_types()
        return _Call(self, values, dims, scalars_optional=True).result_shapes()


class _Call:
    """The C API's arrays for one general call: EwcArgs, EwcTensors and
    EwcLaunchOptions, with everything they point to kept alive."""

    def __init__(self, kernel, values, dims, scalars_optional=False):
        self.kernel = kernel
        self.keep = []
        self.first = None
        self.max_rank = 0
        self.args = (_capi.EwcArg * len(kernel.params))()
        for (i, kind, type_name, where, default), value, arg in zip(
                kernel._plan, values, self.args):
            if value is _MISSING and default is None and kind != _TENSOR \
                    and scalars_optional:
                # Any value: a scalar has no part in the shapes.
                arg.kind = _capi.ARG_FLOAT if kind == _FLOAT else \
                    _capi.ARG_INT
            elif value is _MISSING:
                if kind == _TENSOR or default is None:
                    kernel._missing(i)
                arg.kind = _capi.ARG_DEFAULT
            elif kind == _TENSOR:
                array = _arrays.Array(value, where)
                array.check(type_name, kernel._device, where, False)
                arg.kind = _capi.ARG_TENSOR
                self._set_tensor(arg.tensor, array)
                if self.first is None:
                    self.first = array
            elif kind == _FLOAT:
                arg.kind = _capi.ARG_FLOAT
                arg.floatValue = _to_float(value, type_name, where)
            else:
                arg.kind = _capi.ARG_INT
                arg.intValue = _to_int(value, type_name, where)
        self.options = _capi.EwcLaunchOptions()
        self.dims = {} if dims is None else self._set_dims(dims)

    def _set_tensor(self, tensor, array):
        rank = len(array.shape)
        shape = (ctypes.c_int64 * rank)(*array.shape)
        tensor.data = array.pointer
        tensor.ndim = rank
        tensor.shape = shape
        if array.strides is not None:
            strides = (ctypes.c_int64 * rank)(*array.strides)
            tensor.strides = strides
            self.keep.append(strides)
        self.keep += [shape, array]
        self.max_rank = max(self.max_rank, rank)

    def _set_dims(self, dims):
        kernel = self.kernel.name
        if not hasattr(dims, "items"):
            raise TypeError("%s(): dims= takes a dict of extents by "
                            "dimension name, got %s" % (
                                kernel, type(dims).__name__))
        names, extents = [], []
        for name, extent in dims.items():
            if not isinstance(name, str):
                raise TypeError("%s(): dims= names a dimension by a str, got "
                                "%r" % (kernel, name))
            if isinstance(extent, bool) or not isinstance(extent,
                                                          numbers.Integral):
                raise TypeError("%s(): dims[%r] is an integer extent, got %r"
                                % (kernel, name, extent))
            extent = int(extent)
            low, high = _INT_RANGES["i64"]
            if not low <= extent <= high:
                raise OverflowError("%s(): dims[%r] = %d is out of the range "
                                    "of i64" % (kernel, name, extent))
            names.append(name.encode())
            extents.append(extent)
        self.options.numDims = len(names)
        self.options.dimNames = (ctypes.c_char_p * len(names))(*names)
        self.options.dimExtents = (ctypes.c_int64 * len(names))(*extents)
        return dict(dims)

    def result_shapes(self):
        kernel = self.kernel
        count = len(kernel.results)
        ranks = (ctypes.c_int * count)()
        # A result has its named dimensions and at most the batch of the
        # largest input.
        capacity = sum(len(r.dims) for r in kernel.results) + \
            count * self.max_rank
        extents = (ctypes.c_int64 * capacity)()
        error = lib.ewcModuleGetResultShapes(
            kernel._handle, kernel._index, self.args, len(kernel.params),
            ctypes.byref(self.options), ranks, extents, capacity)
        if error:
            raise ValueError("%s(): %s" % (kernel.name,
                                           _capi.take_string(error)))
        shapes, start = [], 0
        for rank in ranks:
            shapes.append(tuple(extents[start:start + rank]))
            start += rank
        return shapes

    def allocate(self, shape, type_name):
        """A new output like the first tensor argument; with none, NumPy's
        on the CPU, torch's or CuPy's on the GPU."""
        try:
            if self.first is not None:
                return self.first.allocate(shape, type_name)
            if not self.kernel._on_gpu:
                return _arrays.allocate("numpy", None, shape, type_name)
            if _arrays.torch() is not None:
                return _arrays.allocate("torch", "cuda", shape, type_name)
            if "cupy" in sys.modules:
                return _arrays.allocate("cupy", None, shape, type_name)
            raise TypeError("no tensor argument to allocate the outputs "
                            "like (and neither torch nor CuPy is imported); "
                            "pass out=")
        except TypeError as e:
            raise TypeError("%s(): %s" % (self.kernel.name, e)) from None

    def set_outputs(self, outputs):
        kernel = self.kernel
        self.outputs = (_capi.EwcTensor * len(outputs))()
        arrays = []
        for r, (value, tensor) in enumerate(zip(outputs, self.outputs)):
            where = kernel._out_wheres[r]
            array = _arrays.Array(value, where)
            array.check(kernel.results[r].type, kernel._device, where, True)
            self._set_tensor(tensor, array)
            arrays.append(array)
        return arrays


#===------------------------------------------------------------------------===#
# The generated __call__
#===------------------------------------------------------------------------===#

def _make_call(kernel):
    """The __call__ of `kernel`'s class: Python source made for its
    parameters, compiled once. Parameter names that Python cannot take as
    its own (keywords, out, stream, dims, self) go through Kernel._bind
    instead."""
    names = [p.name for p in kernel.params]
    own = all(name.isidentifier() and not keyword.iskeyword(name) and
              name not in ("self", "out", "stream", "dims") and
              not name.startswith("_ewc") for name in names)
    if own:
        local = names
        lines = ["def __call__(self, %s*_ewc_more, out=None, stream=None, "
                 "dims=None, **_ewc_named):" %
                 "".join(n + "=_MISSING, " for n in names),
                 # Only a wrong call has more: _bind says what is wrong.
                 "    if _ewc_more or _ewc_named:",
                 "        self._bind((%s*_ewc_more), _ewc_named)" %
                 "".join(n + ", " for n in names)]
    else:
        local = ["_ewc_a%d" % i for i in range(len(names))]
        lines = ["def __call__(self, *_ewc_args, out=None, stream=None, "
                 "dims=None, **_ewc_named):",
                 "    if _ewc_named or len(_ewc_args) != %d:" % len(names),
                 "        _ewc_args = self._bind(_ewc_args, _ewc_named)"]
        if local:
            lines.append("    %s, = _ewc_args" % ", ".join(local))
    general = "return self._general((%s), out, stream, dims)" % "".join(
        n + ", " for n in local)
    if kernel._packed:
        lines += _fast_body(kernel, local, general)
    else:
        lines.append("    " + general)
    namespace = {}
    exec("\n".join(lines), globals(), namespace)
    call = namespace["__call__"]
    call.__qualname__ = call.__name__ = kernel.name
    return call


def _take(name, type_name, on_gpu, slot, length, fail, indent):
    """Lines that put the address of `name` into slot `slot` and its
    length into `length` if it is a tensor the fast path takes as it is (a
    1-D contiguous tensor of `type_name`: a writable NumPy array on the CPU,
    a torch CUDA tensor on the GPU), else run the statement `fail`. What
    _fast_tensor checks, written out for one device: about 0.1 us a tensor
    less than calling it."""
    pad = " " * indent
    if on_gpu:
        return [pad + "if type(%s) is _TORCH_TENSOR and %s.dtype is "
                "_TORCH_DTYPES.get(%r) and %s.is_cuda and %s.dim() == 1 and "
                "%s.is_contiguous():" % (name, name, type_name, name, name,
                                         name),
                pad + "    _ewc_ints[%d] = %s.data_ptr()" % (slot, name),
                pad + "    %s = %s.numel()" % (length, name),
                pad + "else:",
                pad + "    " + fail]
    # from_buffer asks for a writable C-contiguous buffer: a read-only or
    # strided array raises.
    return [pad + "if type(%s) is not _NDARRAY or %s.dtype is not "
            "_NUMPY_DTYPES.get(%r) or %s.ndim != 1:" % (name, name, type_name,
                                                      name),
            pad + "    " + fail,
            pad + "try:",
            pad + "    _ewc_ints[%d] = _addressof(_from_buffer(%s))" % (slot,
                                                                      name),
            pad + "except (TypeError, ValueError, BufferError):",
            pad + "    " + fail,
            pad + "%s = %s.size" % (length, name)]


def _fast_body(kernel, local, general):
    """The lines of a packed kernel's __call__ after the binding: each
    tensor taken as it is if it is 1-D and contiguous, else (and for
    dims=) the statement `general`."""
    lines = ["    if dims is not None:",
             "        " + general,
             "    try:",
             "        _ewc_ints, _ewc_floats = self._local.slots",
             "    except AttributeError:",
             "        _ewc_ints, _ewc_floats = self._slots()"]
    on_gpu = kernel._on_gpu
    first = first_type = None
    for (i, kind, type_name, where, default), name in zip(kernel._plan,
                                                           local):
        if kind == _TENSOR:
            if first is None:
                first, first_type = name, type_name
                lines += _take(name, type_name, on_gpu, _HEAD + i, "_ewc_n",
                               general, 4)
            else:
                lines += _take(name, type_name, on_gpu, _HEAD + i, "_ewc_m",
                               general, 4)
                lines += ["    if _ewc_m != _ewc_n:",
                          "        " + general]
            continue
        # Plain floats and ints first: isinstance against the numbers ABCs
        # costs about a microsecond.
        if kind == _FLOAT:
            view, test, convert = "_ewc_floats", "type(%s) is float" % name, \
                "_to_float"
        else:
            low, high = _INT_RANGES[type_name]
            view, convert = "_ewc_ints", "_to_int"
            test = ("type(%s) is bool" % name if type_name == "bool" else
                    "type(%s) is int and %d <= %s <= %d" % (name, low, name,
                                                            high))
        slot = _HEAD + i
        lines += ["    if %s:" % test,
                  "        %s[%d] = %s" % (view, slot, name),
                  "    elif %s is _MISSING:" % name,
                  ("        _ewc_ints[%d] = %d" % (slot, default))
                  if default is not None else "        " + general,
                  "    else:",
                  "        %s[%d] = %s(%s, %r, %r)" % (view, slot, convert,
                                                       name, type_name, where)]
    base = _HEAD + len(kernel._plan)
    results = kernel.results
    if first is not None:
        lines.append("    if out is None:")
        for r, result in enumerate(results):
            lines += _new_output(r, result.type, first, first_type, on_gpu,
                                 base + r, general)
        lines.append("        _ewc_result = %s" % (
            "_ewc_out0" if len(results) == 1 else
            "(%s)" % "".join("_ewc_out%d, " % r for r in range(len(results)))))
        if len(results) == 1:
            # One array in out=, the common case, without _fast_outputs.
            lines.append("    elif type(out) is not tuple and type(out) is "
                         "not list:")
            lines += _take("out", results[0].type, on_gpu, base, "_ewc_m",
                           general, 8)
            lines += ["        if _ewc_m != _ewc_n:",
                      "            " + general,
                      "        _ewc_result = out"]
        lines += ["    else:",
                  "        _ewc_result = self._fast_outputs(out, _ewc_n, "
                  "_ewc_ints)",
                  "        if _ewc_result is None:",
                  "            " + general,
                  "        _ewc_result = _ewc_result[0]",
                  "    _ewc_first = %s" % first]
    else:
        # No tensor parameter (a fill): n from the outputs, or from dims=
        # on the general path.
        lines += ["    if out is None:",
                  "        " + general,
                  "    _ewc_result = self._fast_outputs(out, -1, _ewc_ints)",
                  "    if _ewc_result is None:",
                  "        " + general,
                  "    _ewc_result, _ewc_n = _ewc_result",
                  "    _ewc_first = _ewc_result if type(_ewc_result) is not "
                  "tuple else _ewc_result[0]"]
    # n and the stream in the array's head; torch's current stream on the
    # tensor's device (what _torch_stream does, inline) where none is given.
    lines += ["    _ewc_ints[2] = _ewc_n",
              "    if stream is None:",
              "        _ewc_ints[3] = (_raw_stream(_ewc_first.get_device()) if "
              "type(_ewc_first) is _TORCH_TENSOR else 0)",
              "    else:",
              "        _ewc_ints[3] = _stream_slot(stream)",
              "    _ewc_error = _launch_packed_array(_ewc_ints)",
              "    if _ewc_error:",
              "        self._fast_failed(_ewc_error, (%s), _ewc_result, "
              "dims)" % "".join(n + ", " for n in local),
              "    return _ewc_result"]
    return lines


def _new_output(r, type_name, first, first_type, on_gpu, slot, general):
    """The lines (in `if out is None:`) that make result `r`, `_ewc_out<r>`,
    like the tensor `first` (of `first_type`, which the fast path took)
    and put its address in slot `slot`. A new array is 1-D, contiguous and
    of its type by construction: no check, only its address (0.3 us less
    than taking it as an argument, NumPy, here)."""
    out = "_ewc_out%d" % r
    if on_gpu:
        if type_name == first_type:
            lines = ["        %s = _torch_empty_like(%s)" % (out, first)]
        else:
            # A torch older than 2.3 lacks uint16, uint32 and uint64: the
            # general path says so.
            lines = ["        if %r not in _TORCH_DTYPES:" % type_name,
                     "            " + general,
                     "        %s = _torch_empty_like(%s, "
                     "dtype=_TORCH_DTYPES[%r])" % (out, first, type_name)]
        return lines + ["        _ewc_ints[%d] = %s.data_ptr()" % (slot,
                                                                  out)]
    if type_name not in _arrays.NUMPY_OF:
        # NumPy has no such type: the general path returns its bits
        # (_arrays.allocate).
        return ["        " + general]
    return ["        %s = _numpy_empty(%s.shape, _NUMPY_DTYPES[%r])" % (
                out, first, type_name),
            "        _ewc_ints[%d] = _addressof(_from_buffer(%s))" % (slot,
                                                                    out)]


_MISSING = object()
_TENSOR, _FLOAT, _INT = range(3)
# The head of ewcModuleLaunchPackedArray's array: the module, the kernel's
# index, n and the stream come before the slots.
_HEAD = 4
_launch_packed_array = lib.ewcModuleLaunchPackedArray

# The classes, dtypes and functions of the fast path, filled in once NumPy
# or torch is seen (neither is imported here: torch costs seconds to
# import).
_NDARRAY = _TORCH_TENSOR = _numpy_empty = _torch_empty_like = None
_raw_stream = None
_NUMPY_DTYPES = {}
_TORCH_DTYPES = {}
_from_buffer = ctypes.c_char.from_buffer
_addressof = ctypes.addressof


def _fast_tensor(obj, type_name, on_gpu):
    """(pointer, n) of a 1-D contiguous tensor of `type_name` that the fast
    path takes as it is: a writable NumPy array on the CPU, a torch CUDA
    tensor on the GPU. None for anything else (the general path's). The
    generated calls check their arguments the same way inline (_take)."""
    cls = type(obj)
    if cls is _NDARRAY:
        if on_gpu or obj.dtype is not _NUMPY_DTYPES.get(type_name) or \
                obj.ndim != 1:
            return None
        # from_buffer asks for a writable C-contiguous buffer: a readonly
        # or strided array raises. 0.6 us a call cheaper than
        # obj.ctypes.data.
        try:
            return _addressof(_from_buffer(obj)), obj.size
        except (TypeError, ValueError, BufferError):
            return None
    if cls is _TORCH_TENSOR and on_gpu and (
            obj.dtype is _TORCH_DTYPES.get(type_name)) and (
            obj.is_cuda and obj.dim() == 1 and obj.is_contiguous()):
        return obj.data_ptr(), obj.numel()
    return None


def _learn_types():
    global _NDARRAY, _TORCH_TENSOR, _numpy_empty, _torch_empty_like, \
        _raw_stream
    numpy = sys.modules.get("numpy")
    if numpy is not None and _NDARRAY is None:
        # numpy.empty: 0.5 us; numpy.empty_like 2.4 us.
        _numpy_empty = numpy.empty
        _NUMPY_DTYPES.update((t, numpy.dtype(name))
                             for name, t in _arrays.NUMPY_TYPES.items())
        _NDARRAY = numpy.ndarray
    torch = _arrays.torch()
    if torch is not None and _TORCH_TENSOR is None:
        _TORCH_DTYPES.update((t, getattr(torch, name))
                             for name, t in _arrays.TORCH_NAMES.items()
                             if hasattr(torch, name))
        _torch_empty_like = torch.empty_like
        # What Triton calls too: torch.cuda.current_stream() builds a
        # Stream object, several microseconds a call.
        _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) \
            or (lambda index: torch.cuda.current_stream(index).cuda_stream)
        # Last: the fast path takes torch tensors from here on.
        _TORCH_TENSOR = torch.Tensor


def _stream_slot(stream):
    """A stream= as the integer of its slot: a CUstream's address, an int or
    a ctypes.c_void_p (what the void * of the C call took before)."""
    if isinstance(stream, int):
        return int(stream)
    if isinstance(stream, ctypes.c_void_p):
        return stream.value or 0
    raise TypeError("stream= is a CUstream's address (an int), got %s"
                    % type(stream).__name__)


def _torch_stream(tensor):
    """torch's current CUstream on `tensor`'s device."""
    if _raw_stream is None:
        _learn_types()
    return _raw_stream(tensor.get_device())


def _to_float(value, type_name, where):
    if isinstance(value, numbers.Real):
        try:
            return float(value)
        except OverflowError:
            raise OverflowError("%s is %s; %s is out of the range of a "
                                "double" % (where, type_name,
                                            type(value).__name__)) from None
    raise TypeError("%s is a scalar %s; got %s" % (
        where, type_name, type(value).__name__))


def _to_int(value, type_name, where):
    if isinstance(value, (bool, numbers.Integral)):
        value = int(value)
        low, high = _INT_RANGES[type_name]
        if not low <= value <= high:
            raise OverflowError("%s is %s; %d is out of its range [%d, %d]" % (
                where, type_name, value, low, high))
        return value
    if isinstance(value, numbers.Real):
        raise TypeError("%s is %s; got the float %r" % (where, type_name,
                                                        value))
    raise TypeError("%s is a scalar %s; got %s" % (
        where, type_name, type(value).__name__))


#===------------------------------------------------------------------------===#
# Modules
#===------------------------------------------------------------------------===#

# What each type parameter constraint admits (docs/language.md, "Generic
# kernels"), in the order the front end checks them.
_ADMITTED = {"float": ("f16", "bf16", "f32", "f64"), "int": ("i32", "i64"),
             "any": ("f16", "bf16", "f32", "f64", "i32", "i64")}


class GenericKernel:
    """A kernel with type parameters, `kernel f<T: float>(x: T[...])`: a call
    binds each parameter to its tensors' element type, compiles that
    specialization at its first use (cached in this module and on disk like
    any compilation) and calls it. kernel.specialize(T="bf16") gives the
    compiled Kernel itself; `type_params` maps each name to its constraint
    ("float", "int" or "any")."""

    def __init__(self, module, index):
        handle = module._handle
        self._module = module
        self.name = lib.ewcGenericKernelGetName(handle, index).decode()
        self.signature = lib.ewcGenericKernelGetSignature(
            handle, index).decode()
        self.doc = lib.ewcGenericKernelGetDoc(handle, index).decode()
        self.type_params = {}
        names = []
        for t in range(lib.ewcGenericKernelGetNumTypeParams(handle, index)):
            name = lib.ewcGenericKernelGetTypeParamName(handle, index,
                                                        t).decode()
            self.type_params[name] = lib.ewcGenericKernelGetTypeParamConstraint(
                handle, index, t).decode()
            names.append(name)
        # (position, name, type parameter) of every tensor parameter whose
        # element type is a type parameter: where a call reads the types.
        self._typed = []
        self._params = []
        for p in range(lib.ewcGenericKernelGetNumParams(handle, index)):
            pname = lib.ewcGenericKernelGetParamName(handle, index, p).decode()
            self._params.append(pname)
            t = lib.ewcGenericKernelGetParamTypeParam(handle, index, p)
            if t >= 0 and lib.ewcGenericKernelParamIsTensor(handle, index, p):
                self._typed.append((p, pname, names[t]))
        self._whats = {pname: "%s(): '%s'" % (self.name, pname)
                       for _, pname, _ in self._typed}
        self._by_types = {}
        # A call's fast path: the kernel by the class and dtype of each typed
        # tensor given by position (_element_type's key, read by one
        # generated function); any other call (a keyword, Bits, None, an
        # unhashable dtype, a first call) takes _dispatch, which fills it.
        self._by_classes = {}
        self._class_key = eval("lambda a: (%s)" % "".join(
            "type(a[%d]), a[%d].dtype, " % (p, p) for p, _, _ in self._typed))

    def __repr__(self):
        return "<ewc generic kernel %s>" % self.signature

    def specialize(self, **types):
        """The kernel compiled with these types, by type parameter name
        (T="bf16"); compiled once per binding and module."""
        for name, type_name in types.items():
            if name not in self.type_params:
                raise TypeError("%s(): no type parameter %r (it has %s)" % (
                    self.name, name, ", ".join(self.type_params)))
            admitted = _ADMITTED[self.type_params[name]]
            if type_name not in admitted:
                raise TypeError("%s(): %s = %s is not admitted: '%s: %s' "
                                "admits %s" % (
                                    self.name, name, type_name, name,
                                    self.type_params[name],
                                    ", ".join(admitted)))
        missing = [n for n in self.type_params if n not in types]
        if missing:
            raise TypeError("%s(): give every type parameter, missing %s" % (
                self.name, ", ".join(missing)))
        return self._module._specialization(types)[self.name]

    def _infer(self, args, kwargs):
        types = {}
        where = {}
        for position, pname, t in self._typed:
            if position < len(args):
                obj = args[position]
            elif pname in kwargs:
                obj = kwargs[pname]
            else:
                continue
            what = "%s(): '%s'" % (self.name, pname)
            type_name = _element_type(obj, what)
            if type_name is None:
                raise TypeError("%s has %s elements, which no type of %s: "
                                "%s is" % (
                                    what, _arrays.Array(
                                        obj, what).type_description(), t,
                                    self.type_params[t]))
            if t in types and types[t] != type_name:
                raise TypeError("%s: %s is %s from '%s' but %s from '%s'" % (
                    self.name + "()", t, types[t], where[t], type_name,
                    pname))
            types.setdefault(t, type_name)
            where.setdefault(t, pname)
        for t, constraint in self.type_params.items():
            if t not in types:
                raise TypeError("%s(): no tensor argument gives the type of "
                                "%s; call %s.specialize(%s=...) to choose it"
                                % (self.name, t, self.name, t))
            if types[t] not in _ADMITTED[constraint]:
                raise TypeError("%s(): '%s' has %s elements, but %s: %s "
                                "admits %s" % (
                                    self.name, where[t], types[t], t,
                                    constraint,
                                    ", ".join(_ADMITTED[constraint])))
        return types

    def __call__(self, *args, **kwargs):
        try:
            kernel = self._by_classes[self._class_key(args)]
        except (IndexError, AttributeError, KeyError, TypeError):
            return self._dispatch(args, kwargs)
        return kernel(*args, **kwargs)

    def _dispatch(self, args, kwargs):
        # The element types of the typed tensors, as a key of the kernels
        # called before: one dict lookup each, then one for the kernel.
        key = []
        for position, pname, _ in self._typed:
            obj = args[position] if position < len(args) else kwargs.get(
                pname)
            key.append(None if obj is None else _element_type(
                obj, self._whats[pname]))
        key = tuple(key)
        kernel = self._by_types.get(key)
        if kernel is None:
            kernel = self.specialize(**self._infer(args, kwargs))
            self._by_types[key] = kernel
        positional = all(p < len(args) and args[p] is not None and
                         type(args[p]) is not _arrays.Bits
                         for p, _, _ in self._typed)
        if positional:
            try:
                self._by_classes[self._class_key(args)] = kernel
            except (AttributeError, TypeError):  # an unhashable dtype
                pass
        return kernel(*args, **kwargs)


# (class, dtype) -> ewc element type of the arrays seen so far: a generic
# call reads its tensors' types without building an _arrays.Array each time.
_ELEMENT_TYPES = {}


def _element_type(obj, what):
    """The ewc element type of a tensor argument, as the launch reads it
    (None for a type ewc has none of)."""
    dtype = getattr(obj, "dtype", None)
    if dtype is None or type(obj) is _arrays.Bits:
        return _arrays.Array(obj, what).type
    key = (type(obj), dtype)
    try:
        return _ELEMENT_TYPES[key]
    except KeyError:
        type_name = _arrays.Array(obj, what).type
        _ELEMENT_TYPES[key] = type_name
        return type_name
    except TypeError:  # an unhashable dtype
        return _arrays.Array(obj, what).type


class Module:
    """Compiled kernels: mod["leaky_relu"](x) for any kernel, and
    mod.leaky_relu(x) for every kernel whose name is not one of the module's
    own attributes (device, kernels) or a dunder name (__call__, which
    Python's protocols probe): those are reached by subscript only."""

    def __init__(self, handle, recompile=None):
        self._handle = handle
        # recompile(types) compiles the same program with a binding of type
        # parameters: a generic kernel's specializations, one module each.
        self._recompile = recompile
        self._specializations = {}
        target = lib.ewcModuleGetTarget(handle)
        self.device = "cuda" if target == _capi.TARGET_CUDA else "cpu"
        self.kernels = {}
        for k in range(lib.ewcModuleGetNumKernels(handle)):
            kernel = Kernel(self, k)
            # Its own class, for a __call__ of its own (Python looks a call
            # up on the class).
            call = _make_call(kernel)
            signature = kernel._make_signature()
            call.__signature__ = signature.replace(parameters=[
                inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
            ] + list(signature.parameters.values()))
            # Named after the kernel: help(mod.swish) shows "class
            # swish(Kernel)" above the docstring.
            class_name = kernel.name if kernel.name.isidentifier() else "Kernel"
            kernel.__class__ = type(class_name, (Kernel,),
                                    {"__call__": call,
                                     "__module__": __name__,
                                     "__doc__": kernel._docstring(),
                                     "__signature__": signature})
            self.kernels[kernel.name] = kernel
        for g in range(lib.ewcModuleGetNumGenericKernels(handle)):
            generic = GenericKernel(self, g)
            self.kernels[generic.name] = generic
        # Each kernel that no attribute of the module shadows is an
        # attribute of its own, found without __getattr__ (0.3 us a call
        # less; __getattr__ still answers for the others).
        for name, kernel in self.kernels.items():
            if not (name in self.__dict__ or hasattr(Module, name) or
                    _is_dunder(name)):
                self.__dict__[name] = kernel

    def wait_optimized(self):
        """Waits until a tiered compilation's optimized code has replaced
        the quick code (compile(tiered=True), the default), as a benchmark
        does before it times; at once otherwise. Covers the generic kernels'
        specializations made so far (specialize(), or a call that inferred
        the types), each a compilation of its own. Raises CompileError if
        the optimized code could not be made (the quick code then stays)."""
        error = lib.ewcModuleWaitOptimized(self._handle)
        if error:
            raise CompileError(_capi.take_string(error))
        for module in list(self._specializations.values()):
            module.wait_optimized()

    def is_optimized(self):
        """Whether the calls run the optimized code now: True without
        tiering or after a cache hit; False while a tiered compilation's
        quick code runs, and after its optimized code failed. This module's
        own kernels (each specialization answers for its own)."""
        return bool(lib.ewcModuleIsOptimized(self._handle))

    def _specialization(self, types):
        key = tuple(sorted(types.items()))
        module = self._specializations.get(key)
        if module is None:
            module = self._recompile(dict(types))
            self._specializations[key] = module
        return module

    def __getitem__(self, name):
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        raise KeyError("module has no kernel %r (it has %s)" % (
            name, ", ".join(kernels) or "none"))

    def __contains__(self, name):
        return name in self.__dict__.get("kernels", {})

    def __getattr__(self, name):
        # Only names the module itself lacks come here.
        kernels = self.__dict__.get("kernels", {})
        if name in kernels and not _is_dunder(name):
            return kernels[name]
        if name in kernels:
            raise AttributeError("kernel '%s' is reached as mod[%r]: dunder "
                                 "names are Python's" % (name, name))
        raise AttributeError("module has no kernel '%s' (it has %s)" % (
            name, ", ".join(kernels) or "none"))

    def __dir__(self):
        own = set(super().__dir__())
        return sorted(own | {k for k in self.kernels
                             if k not in own and not _is_dunder(k)})

    def __del__(self):
        handle = self.__dict__.get("_handle")
        if handle:
            lib.ewcModuleDestroy(handle)
            self._handle = None

    def __repr__(self):
        return "<ewc module on %s: %s>" % (self.device,
                                           ", ".join(self.kernels))


def _is_dunder(name):
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _default_cache_dir():
    """The kernel cache's directory where compile() is given none, as the
    tools choose it (tools/Support/Environment.cpp; docs/runtime.md): the
    library reads no environment, so the package, a tool in that sense,
    passes it. None: no variable says (no cache)."""
    if os.environ.get("EWC_CACHE_DIR"):
        return os.environ["EWC_CACHE_DIR"]
    if os.environ.get("XDG_CACHE_HOME"):
        return os.path.join(os.environ["XDG_CACHE_HOME"], "ewc")
    if os.environ.get("HOME"):
        return os.path.join(os.environ["HOME"], ".cache", "ewc")
    return None


_DEVICES = {"auto": _capi.TARGET_AUTO, "cuda": _capi.TARGET_CUDA,
            "cpu": _capi.TARGET_CPU}


def compile(path=None, *, source=None, device="auto", chip=None,
            name=None, cache_dir=None, cache=True, types=None,
            autotune=False, tiered=True):
    """Compiles the .ew file `path`, or the program text `source`, for
    `device` ("auto": the CUDA device if the driver finds one, else the CPU;
    "cuda"; "cuda:N", the GPU of ordinal N first; "cpu"). On the GPU the
    module is loaded first on "cuda:N"'s device, else on torch's current
    device (the context current on this thread), else on device 0; a call
    runs on the device that holds its tensors, on that device's current
    torch stream, and loads the module there at its first call (tensors on
    two devices raise ValueError). `cache_dir`: where compiled code is cached, GPU and CPU
    (None: $EWC_CACHE_DIR, else $XDG_CACHE_HOME/ewc, else ~/.cache/ewc);
    CPU code is kept in this process's memory too. cache=False, or
    $EWC_NO_CACHE set to anything but "" or "0", neither reads nor writes
    either. `types` ({"T": "bf16"}) binds generic kernels' type parameters
    ahead of time; without it a generic kernel binds them from its
    arguments at each call (GenericKernel). autotune=True chooses each
    kernel's launch parameters by measurement at its first call for a size
    (the default among the candidates, within 50 ms, on scratch outputs),
    kept with the compiled code in the cache. tiered=True (the default)
    returns with code made quickly where a compile misses the cache (GPU:
    LLVM and ptxas at -O0; CPU: the JIT at -O0), the optimized code made on
    a thread replacing it at the calls after it is ready (Module.
    wait_optimized waits for it; only the optimized code is cached). Raises
    CompileError with the located diagnostics."""
    if (path is None) == (source is None):
        raise TypeError("ewc.compile() takes a path or source=, not both")
    if path is not None and not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError("ewc.compile(): path must be a str or os.PathLike "
                        "naming a .ew file, got %s" % type(path).__name__)
    if isinstance(path, str) and _looks_like_program(path):
        raise ValueError(
            "ewc.compile(): the first argument is a path, and %r is no file "
            "but looks like a program; pass program text as "
            "ewc.compile(source=...)" % _shorten(path))
    ordinal = -1
    if isinstance(device, str) and device.startswith("cuda:"):
        number = device[len("cuda:"):]
        if not number.isdigit() or not number.isascii():
            raise ValueError("device must be one of %s or 'cuda:N' with N a "
                             "device's ordinal, got %r" % (
                                 ", ".join(_DEVICES), device))
        ordinal = int(number)
    elif device not in _DEVICES:
        raise ValueError("device must be one of %s or 'cuda:N', got %r" % (
            ", ".join(_DEVICES), device))
    if types is not None and not (isinstance(types, dict) and all(
            isinstance(k, str) and isinstance(v, str)
            for k, v in types.items())):
        raise TypeError("ewc.compile(): types must be a dict of type "
                        "parameter names to type names, such as "
                        "{'T': 'bf16'}, got %r" % (types,))
    options = lib.ewcCompileOptionsCreate()
    try:
        lib.ewcCompileOptionsSetTarget(
            options, _DEVICES["cuda" if ordinal >= 0 else device])
        lib.ewcCompileOptionsSetDevice(options, ordinal)
        if chip:
            lib.ewcCompileOptionsSetChip(options, chip.encode())
        if cache_dir is None:
            cache_dir = _default_cache_dir()
        if cache_dir:
            lib.ewcCompileOptionsSetCacheDir(options,
                                             os.fsencode(cache_dir))
        no_cache = os.environ.get("EWC_NO_CACHE", "") not in ("", "0")
        lib.ewcCompileOptionsSetNoCache(options, no_cache or not cache)
        lib.ewcCompileOptionsSetAutotune(options, bool(autotune))
        lib.ewcCompileOptionsSetTiered(options, bool(tiered))
        if types:
            lib.ewcCompileOptionsSetTypes(options, ",".join(
                "%s=%s" % item for item in sorted(types.items())).encode())
        error = ctypes.c_void_p()
        if source is not None:
            handle = lib.ewcCompileWithOptions(
                source.encode(), (name or "<source>").encode(), options,
                ctypes.byref(error))
        else:
            handle = lib.ewcCompileFileWithOptions(
                os.fsencode(path), options, ctypes.byref(error))
    finally:
        lib.ewcCompileOptionsDestroy(options)
    if not handle:
        raise CompileError(_capi.take_string(error.value) or
                           "compilation failed")
    def recompile(bound):
        return compile(path, source=source,
                       device=device if ordinal >= 0 else module.device,
                       chip=chip,
                       name=name, cache_dir=cache_dir, cache=cache,
                       types=dict(types or {}, **bound), autotune=autotune,
                       tiered=tiered)

    module = Module(handle, recompile)
    for w in range(lib.ewcModuleGetNumWarnings(handle)):
        warnings.warn(lib.ewcModuleGetWarning(handle, w).decode(),
                      CompileWarning, stacklevel=2)
    return module


# A program's first declaration, which no file name starts with.
_PROGRAM_START = re.compile(r"\s*(#|kernel\s+\w+\s*\()")


def _looks_like_program(path):
    return not os.path.exists(path) and (
        "\n" in path or "{" in path or bool(_PROGRAM_START.match(path)))


def _shorten(text, limit=40):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
