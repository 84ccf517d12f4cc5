"""ewc from Python: compile .ew kernels at run time and call them on arrays.

    import ewc, numpy as np
    mod = ewc.compile(source=open("kernels/leaky_relu.ew").read(), device="cpu")
    y = mod.leaky_relu(np.arange(5, dtype=np.float32), slope=0.2)

NumPy arrays (and torch CPU tensors) run on the CPU path; torch CUDA tensors
and other objects with __cuda_array_interface__ on the GPU path, on torch's
current stream when torch is in use; DLPack objects on the device they name. Outputs are allocated like the first
tensor argument, or passed with out=. Pure Python over the C API
(include/ewc-c/ewc.h) with ctypes: one package for any CPython 3.
"""

import ctypes
import functools
import keyword
import numbers
import os
import sys
import threading

from . import _capi
from ._capi import lib

__all__ = ["compile", "CompileError", "LaunchError", "Module", "Kernel"]


class CompileError(Exception):
    """A .ew program did not compile; the message is the located diagnostics
    ("file:line:col: error: ..." with the line and a caret)."""


class LaunchError(RuntimeError):
    """The runtime refused or failed a launch (e.g. a CUDA error)."""


#===------------------------------------------------------------------------===#
# Arrays
#===------------------------------------------------------------------------===#

_NUMPY_TYPES = {"bool": "bool", "int32": "i32", "int64": "i64",
                "float16": "f16", "float32": "f32", "float64": "f64"}
_NUMPY_OF = {v: k for k, v in _NUMPY_TYPES.items()}
_NUMPY_BY_DTYPE = None  # numpy.dtype -> ewc type, made on first use
_CAI_TYPES = {"|b1": "bool", "<i4": "i32", "<i8": "i64", "<f2": "f16",
              "<f4": "f32", "<f8": "f64"}
_TORCH_NAMES = {"bool": "bool", "int32": "i32", "int64": "i64",
                "float16": "f16", "bfloat16": "bf16", "float32": "f32",
                "float64": "f64"}


def _torch():
    # torch only if the program imported it: importing it here would cost
    # seconds and is never needed for NumPy.
    return sys.modules.get("torch")


class _Array:
    """One tensor argument or output, whatever library holds it."""
    __slots__ = ("obj", "pointer", "size", "type", "device", "contiguous",
                 "writable", "kind", "capsule", "description")

    def __init__(self, obj, what):
        self.obj = obj
        self.writable = True
        # NumPy first, by exact type: the CPU path's common case. Its dtype
        # is looked up by the dtype object (dtype.name costs 1.6 us a call).
        numpy = sys.modules.get("numpy")
        if numpy is not None and type(obj) is numpy.ndarray:
            self._from_numpy(obj, numpy)
            return
        torch = _torch()
        if torch is not None and isinstance(obj, torch.Tensor):
            self.kind = "torch"
            self.pointer = obj.data_ptr()
            self.size = obj.numel()
            self.type = _TORCH_NAMES.get(str(obj.dtype).replace("torch.", ""))
            self.device = obj.device.type
            self.contiguous = obj.is_contiguous()
            return
        cai = getattr(obj, "__cuda_array_interface__", None)
        if cai is not None:
            self.kind = type(obj).__module__.split(".")[0]
            self.pointer, readonly = cai["data"]
            self.writable = not readonly
            self.size = 1
            for extent in cai["shape"]:
                self.size *= extent
            self.type = _CAI_TYPES.get(cai["typestr"])
            self.device = "cuda"
            strides = cai.get("strides")
            self.contiguous = strides is None or _c_contiguous(
                cai["shape"], strides, int(cai["typestr"][2:]))
            return
        if numpy is not None and isinstance(obj, numpy.ndarray):
            self._from_numpy(obj, numpy)
            return
        if hasattr(obj, "__dlpack__"):
            self._from_dlpack(obj, what)
            return
        raise TypeError("%s: expected a NumPy array (CPU) or a CUDA array "
                        "(torch, CuPy), got %s" % (what, type(obj).__name__))

    def _from_numpy(self, obj, numpy):
        global _NUMPY_BY_DTYPE
        if _NUMPY_BY_DTYPE is None:
            _NUMPY_BY_DTYPE = {numpy.dtype(name): t
                               for name, t in _NUMPY_TYPES.items()}
        self.kind = "numpy"
        self.pointer = obj.ctypes.data
        self.size = obj.size
        self.type = _NUMPY_BY_DTYPE.get(obj.dtype)
        self.device = "cpu"
        flags = obj.flags
        self.contiguous = flags.c_contiguous
        self.writable = flags.writeable

    def _from_dlpack(self, obj, what):
        # The capsule stays referenced while this _Array lives; dropping it
        # unused calls the producer's deleter (the DLPack protocol).
        self.kind = "dlpack"
        self.capsule = obj.__dlpack__()
        pointer = ctypes.pythonapi.PyCapsule_GetPointer(self.capsule,
                                                        b"dltensor")
        tensor = ctypes.cast(pointer, ctypes.POINTER(_DLTensor)).contents
        self.pointer = (tensor.data or 0) + tensor.byte_offset
        shape = [tensor.shape[i] for i in range(tensor.ndim)]
        self.size = 1
        for extent in shape:
            self.size *= extent
        code, bits, lanes = (tensor.dtype.code, tensor.dtype.bits,
                             tensor.dtype.lanes)
        self.type = _DLPACK_TYPES.get((code, bits)) if lanes == 1 else None
        self.description = "DLPack type code %d, %d bits x %d" % (code, bits,
                                                                 lanes)
        self.device = {1: "cpu", 2: "cuda"}.get(tensor.device.device_type,
                                                "device type %d" %
                                                tensor.device.device_type)
        self.contiguous = not tensor.strides or _c_contiguous(
            shape, [tensor.strides[i] * (bits // 8)
                    for i in range(tensor.ndim)], bits // 8)

    def empty_like(self, type_name):
        """A new array of this one's shape and device, of `type_name`."""
        if self.kind == "torch":
            torch = _torch()
            dtype = getattr(torch, _TORCH_NAMES_INV[type_name])
            return torch.empty(self.obj.shape, dtype=dtype,
                               device=self.obj.device)
        if self.kind == "numpy":
            import numpy
            if type_name not in _NUMPY_OF:
                raise TypeError("NumPy has no %s; pass out=" % type_name)
            return numpy.empty(self.obj.shape, dtype=_NUMPY_OF[type_name])
        if self.kind == "cupy":
            import cupy
            return cupy.empty(self.obj.shape, dtype=_NUMPY_OF[type_name])
        raise TypeError("cannot allocate an output like a %s; pass out="
                        % type(self.obj).__name__)


_TORCH_NAMES_INV = {v: k for k, v in _TORCH_NAMES.items()}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    """DLPack's DLTensor, the first member of the DLManagedTensor that a
    "dltensor" capsule points to."""
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


# (DLDataTypeCode, bits) -> ewc type: kDLInt 0, kDLFloat 2, kDLBfloat 4,
# kDLBool 6.
_DLPACK_TYPES = {(0, 32): "i32", (0, 64): "i64", (2, 16): "f16",
                 (2, 32): "f32", (2, 64): "f64", (4, 16): "bf16",
                 (6, 8): "bool"}
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object,
                                                  ctypes.c_char_p]


def _c_contiguous(shape, strides, itemsize):
    expected = itemsize
    for extent, stride in reversed(list(zip(shape, strides))):
        if extent != 1 and stride != expected:
            return False
        expected *= extent
    return True


#===------------------------------------------------------------------------===#
# Kernels and modules
#===------------------------------------------------------------------------===#

class Param:
    __slots__ = ("name", "type", "is_tensor", "default")

    def __init__(self, name, type_name, is_tensor, default):
        self.name, self.type = name, type_name
        self.is_tensor, self.default = is_tensor, default

    def __repr__(self):
        return "Param(%r, %r, is_tensor=%r, default=%r)" % (
            self.name, self.type, self.is_tensor, self.default)


class Kernel:
    """A compiled kernel; call it like a function:
    kernel(x, slope=0.2, out=None, stream=None)."""

    def __init__(self, module, index):
        handle = module._handle
        self._module = module
        self._index = index
        self.name = lib.ewcKernelGetName(handle, index).decode()
        self.signature = lib.ewcKernelGetSignature(handle, index).decode()
        self.params = []
        for p in range(lib.ewcKernelGetNumParams(handle, index)):
            value = ctypes.c_double()
            has_default = lib.ewcKernelGetParamDefault(handle, index, p,
                                                       ctypes.byref(value))
            self.params.append(Param(
                lib.ewcKernelGetParamName(handle, index, p).decode(),
                _capi.ELEMENT_TYPES[lib.ewcKernelGetParamType(handle, index,
                                                              p)],
                bool(lib.ewcKernelParamIsTensor(handle, index, p)),
                value.value if has_default else None))
        self.results = [
            _capi.ELEMENT_TYPES[lib.ewcKernelGetResultType(handle, index, r)]
            for r in range(lib.ewcKernelGetNumResults(handle, index))]
        self._names = {p.name: i for i, p in enumerate(self.params)}
        # Everything a call needs that does not depend on its arguments is
        # made here once: a call is on the hot path (docs/api.md).
        self._on_gpu = module.device == "cuda"
        self._plan = []
        for i, param in enumerate(self.params):
            slot = _capi.EwcSlot()
            has_default = lib.ewcKernelGetParamDefaultSlot(
                handle, index, i, ctypes.byref(slot))
            kind = (_TENSOR if param.is_tensor else
                    _FLOAT if param.type in _FLOAT_TYPES else _INT)
            # A default as the bits of its slot: exact for any i64.
            self._plan.append((i, kind, param.type,
                               "%s(): '%s'" % (self.name, param.name),
                               slot.intValue if has_default else None))
        self._out_wheres = ["%s(): out[%d]" % (self.name, r)
                            for r in range(len(self.results))]
        self._num_slots = len(self.params) + len(self.results)
        self._local = threading.local()
        self._launch = functools.partial(lib.ewcModuleLaunchPacked,
                                         ctypes.c_void_p(handle),
                                         ctypes.c_int(index))

    def __repr__(self):
        return "<ewc kernel %s>" % self.signature

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

    def _slots(self):
        """This thread's slot array, as int64 and as double views of one
        buffer. One per thread: ctypes lets go of the GIL during the launch,
        so another thread's call must not refill the array under it."""
        ints = (ctypes.c_int64 * self._num_slots)()
        floats = (ctypes.c_double * self._num_slots).from_buffer(ints)
        self._local.slots = ints, floats
        return ints, floats

    # A call runs a __call__ made for its kernel (_make_call): CPython binds
    # the arguments to the kernel's own parameter names, and each parameter
    # has its own straight-line checks; no loop, no keyword dict. 4.0 us
    # against 8.4 us for a loop over the parameters (leaky_relu with
    # slope= and out=, CPU path here).

    def _missing(self, i):
        param = self.params[i]
        raise TypeError("%s() missing argument '%s' (%s%s)" % (
            self.name, param.name, param.type,
            "[n]" if param.is_tensor else ""))

    def _bad_length(self, i, size, first, n):
        raise ValueError("%s has %d elements, but '%s' has %d; all tensors "
                         "need the same length" % (
                             self._plan[i][3], size, self.params[first].name,
                             n))

    def _outputs(self, out, first, n, ints):
        """Puts the outputs' pointers into `ints`, allocated like `first`
        unless given in `out`; returns them, the first tensor and n."""
        base = len(self._plan)
        if out is None:
            if first is None:
                raise TypeError("%s() has no tensor argument to size its "
                                "outputs by; pass out=" % self.name)
            outputs = [_empty_like(first, t) for t in self.results]
            for r, output in enumerate(outputs):
                ints[base + r] = _tensor(output, self.results[r],
                                         self._on_gpu, "out", True)[0]
            return outputs, first, n
        given = out if isinstance(out, (tuple, list)) else (out,)
        if len(given) != len(self.results):
            raise TypeError("%s() returns %d result(s), got %d in out=" % (
                self.name, len(self.results), len(given)))
        for r, value in enumerate(given):
            ints[base + r], size = _tensor(value, self.results[r],
                                           self._on_gpu, self._out_wheres[r],
                                           True)
            if first is None:
                first, n = value, size
            elif size != n:
                self._bad_out_length(r, size, n)
        return given, first, n

    def _bad_out_length(self, r, size, n):
        raise ValueError("%s has %d elements, the inputs %d" % (
            self._out_wheres[r], size, n))


def _make_call(kernel):
    """The __call__ of `kernel`'s class: Python source made for its
    parameters, compiled once. Parameter names that Python cannot take as
    its own (keywords, out, stream, self) go through Kernel._bind instead."""
    names = [p.name for p in kernel.params]
    own = all(name.isidentifier() and not keyword.iskeyword(name) and
              name not in ("self", "out", "stream") and
              not name.startswith("_ewc") for name in names)
    if own:
        local = names
        head = ["def __call__(self, %s*_ewc_more, out=None, stream=None, "
                "**_ewc_named):" % "".join(n + "=_MISSING, " for n in names),
                # Only a wrong call has more: _bind says what is wrong.
                "    if _ewc_more or _ewc_named:",
                "        self._bind((%s*_ewc_more), _ewc_named)" %
                "".join(n + ", " for n in names)]
    else:
        local = ["_ewc_a%d" % i for i in range(len(names))]
        head = ["def __call__(self, *_ewc_args, out=None, stream=None, "
                "**_ewc_named):",
                "    if _ewc_named or len(_ewc_args) != %d:" % len(names),
                "        _ewc_args = self._bind(_ewc_args, _ewc_named)",
                "    %s, = _ewc_args" % ", ".join(local) if local else ""]
    lines = head + [
        "    try:",
        "        _ewc_ints, _ewc_floats = self._local.slots",
        "    except AttributeError:",
        "        _ewc_ints, _ewc_floats = self._slots()"]
    on_gpu = kernel._on_gpu
    first = None
    for (i, kind, type_name, where, default), name in zip(kernel._plan,
                                                           local):
        if kind == _TENSOR:
            lines += ["    if %s is _MISSING:" % name,
                      "        self._missing(%d)" % i]
            if first is None:
                first = i
                lines.append("    _ewc_ints[%d], _ewc_n = _tensor(%s, %r, %r, "
                             "%r, False)" % (i, name, type_name, on_gpu,
                                             where))
            else:
                lines += ["    _ewc_ints[%d], _ewc_size = _tensor(%s, %r, %r,"
                          " %r, False)" % (i, name, type_name, on_gpu, where),
                          "    if _ewc_size != _ewc_n:",
                          "        self._bad_length(%d, _ewc_size, %d, "
                          "_ewc_n)" % (i, first)]
            continue
        # Plain floats and ints first: isinstance against the numbers ABCs
        # costs about a microsecond.
        view, plain, convert = (("_ewc_floats", "float", "_to_float")
                                if kind == _FLOAT else
                                ("_ewc_ints", "int", "_to_int"))
        lines += ["    if type(%s) is %s:" % (name, plain),
                  "        %s[%d] = %s" % (view, i, name),
                  "    elif %s is _MISSING:" % name,
                  ("        _ewc_ints[%d] = %d" % (i, default))
                  if default is not None else
                  "        self._missing(%d)" % i,
                  "    else:",
                  "        %s[%d] = %s(%s, %r, %r)" % (view, i, convert, name,
                                                       type_name, where)]
    first_name = "None" if first is None else local[first]
    base = len(kernel._plan)
    if first is not None:
        lines.append("    if out is None:")
        for r, type_name in enumerate(kernel.results):
            lines += ["        _ewc_out%d = _empty_like(%s, %r)" % (
                          r, first_name, type_name),
                      "        _ewc_ints[%d] = _tensor(_ewc_out%d, %r, %r, "
                      "'out', True)[0]" % (base + r, r, type_name, on_gpu)]
        lines += ["        _ewc_result = %s" % (
                      "_ewc_out0" if len(kernel.results) == 1 else
                      "(%s)" % "".join("_ewc_out%d, " % r for r in
                                        range(len(kernel.results)))),
                  "        _ewc_first = %s" % first_name]
        if len(kernel.results) == 1:
            # One array in out=, the common case, without _outputs.
            lines += ["    elif type(out) is not tuple and type(out) is not "
                      "list:",
                      "        _ewc_ints[%d], _ewc_size = _tensor(out, %r, %r, "
                      "%r, True)" % (base, kernel.results[0], on_gpu,
                                     kernel._out_wheres[0]),
                      "        if _ewc_size != _ewc_n:",
                      "            self._bad_out_length(0, _ewc_size, _ewc_n)",
                      "        _ewc_result = out",
                      "        _ewc_first = %s" % first_name]
        lines.append("    else:")
    indent = "        " if first is not None else "    "
    lines += [indent + "_ewc_result, _ewc_first, _ewc_n = self._outputs("
              "out, %s, %s, _ewc_ints)" % (
                  first_name, "-1" if first is None else "_ewc_n"),
              indent + "_ewc_result = _ewc_result[0] if len(_ewc_result) == 1"
              " else tuple(_ewc_result)",
              "    if stream is None and type(_ewc_first) is _TORCH_TENSOR:",
              "        stream = _torch_stream(_ewc_first)",
              "    _ewc_error = self._launch(_ewc_ints, _ewc_n, stream)",
              "    if _ewc_error:",
              "        raise LaunchError(_capi.take_string(_ewc_error))",
              "    return _ewc_result"]
    namespace = {}
    exec("\n".join(lines), globals(), namespace)
    call = namespace["__call__"]
    call.__qualname__ = call.__name__ = kernel.name
    return call


_MISSING = object()
_TENSOR, _FLOAT, _INT = range(3)
_FLOAT_TYPES = ("f16", "bf16", "f32", "f64")

# The classes and dtypes of the fast paths, filled in once NumPy or torch
# is seen (neither is imported here: torch costs seconds to import).
_NDARRAY = _TORCH_TENSOR = _numpy_empty = None
_NUMPY_DTYPES = {}
_TORCH_DTYPES = {}
_from_buffer = ctypes.c_char.from_buffer
_addressof = ctypes.addressof


def _tensor(obj, type_name, on_gpu, where, output):
    """(pointer, size) of a tensor argument or output, checked."""
    cls = type(obj)
    if cls is _NDARRAY and not on_gpu and (
            obj.dtype is _NUMPY_DTYPES.get(type_name)):
        # from_buffer asks for a writable C-contiguous buffer: a readonly
        # or strided array raises and takes the checked path below.
        # 0.6 us a call cheaper than obj.ctypes.data.
        try:
            return _addressof(_from_buffer(obj)), obj.size
        except (TypeError, ValueError, BufferError):
            pass
    elif cls is _TORCH_TENSOR and on_gpu and (
            obj.dtype is _TORCH_DTYPES.get(type_name)) and (
            obj.is_cuda and obj.is_contiguous()):
        return obj.data_ptr(), obj.numel()
    _learn_types()
    array = _Array(obj, where)
    _check_array(array, type_name, "cuda" if on_gpu else "cpu", where)
    if output and not array.writable:
        raise ValueError("%s is read-only" % where)
    return array.pointer, array.size


def _learn_types():
    global _NDARRAY, _TORCH_TENSOR, _numpy_empty
    numpy = sys.modules.get("numpy")
    if numpy is not None and _NDARRAY is None:
        _numpy_empty = numpy.empty
        _NUMPY_DTYPES.update((t, numpy.dtype(name))
                             for name, t in _NUMPY_TYPES.items())
        _NDARRAY = numpy.ndarray
    torch = _torch()
    if torch is not None and _TORCH_TENSOR is None:
        _TORCH_DTYPES.update((t, getattr(torch, name))
                             for name, t in _TORCH_NAMES.items())
        _TORCH_TENSOR = torch.Tensor


def _empty_like(first, type_name):
    """A new array of `first`'s shape and device, of `type_name`."""
    cls = type(first)
    if cls is _NDARRAY and type_name in _NUMPY_DTYPES:
        # 0.5 us; numpy.empty_like 2.4 us.
        return _numpy_empty(first.shape, _NUMPY_DTYPES[type_name])
    if cls is _TORCH_TENSOR:
        dtype = _TORCH_DTYPES[type_name]
        torch = _torch()
        return (torch.empty_like(first) if first.dtype is dtype else
                torch.empty_like(first, dtype=dtype))
    return _Array(first, "first").empty_like(type_name)


_raw_stream = None


def _torch_stream(tensor):
    """torch's current CUstream on `tensor`'s device."""
    global _raw_stream
    if _raw_stream is None:
        torch = _torch()
        # What Triton calls too: torch.cuda.current_stream() builds a
        # Stream object, several microseconds a call.
        _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) \
            or (lambda index: torch.cuda.current_stream(index).cuda_stream)
    return _raw_stream(tensor.get_device())


def _check_array(array, type_name, device, where):
    if array.type != type_name:
        raise TypeError("%s: expected %s elements, got %s" % (
            where, type_name, _type_of(array)))
    if array.device != device:
        raise ValueError("%s is on %s, but this module runs on the %s "
                         "(compile with device='%s')" % (
                             where, array.device,
                             "GPU" if device == "cuda" else "CPU",
                             array.device))
    if not array.contiguous:
        raise ValueError("%s is not contiguous" % where)


def _type_of(array):
    if array.kind == "dlpack":
        return array.description
    obj = array.obj
    return str(getattr(obj, "dtype", None) or
               getattr(obj, "__cuda_array_interface__", {}).get("typestr"))


def _to_float(value, type_name, where):
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError("%s is a scalar %s; got %s" % (
        where, type_name, type(value).__name__))


def _to_int(value, type_name, where):
    if isinstance(value, (bool, numbers.Integral)):
        return int(value)
    if isinstance(value, numbers.Real):
        raise TypeError("%s is %s; got the float %r" % (where, type_name,
                                                        value))
    raise TypeError("%s is a scalar %s; got %s" % (
        where, type_name, type(value).__name__))


class Module:
    """Compiled kernels: mod["leaky_relu"](x) for any kernel, and
    mod.leaky_relu(x) for every kernel whose name is not one of the module's
    own attributes (device, kernels) or a dunder name (__call__, which
    Python's protocols probe): those are reached by subscript only."""

    def __init__(self, handle):
        self._handle = handle
        target = lib.ewcModuleGetTarget(handle)
        self.device = "cuda" if target == _capi.TARGET_CUDA else "cpu"
        self.kernels = {}
        for k in range(lib.ewcModuleGetNumKernels(handle)):
            kernel = Kernel(self, k)
            # Its own class, for a __call__ of its own (Python looks a call
            # up on the class).
            kernel.__class__ = type("Kernel", (Kernel,),
                                    {"__call__": _make_call(kernel),
                                     "__module__": __name__})
            self.kernels[kernel.name] = kernel

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


_DEVICES = {"auto": _capi.TARGET_AUTO, "cuda": _capi.TARGET_CUDA,
            "cpu": _capi.TARGET_CPU}


def compile(path=None, *, source=None, device="auto", chip=None,
            name=None, cache_dir=None, cache=True):
    """Compiles the .ew file `path`, or the program text `source`, for
    `device` ("auto": the CUDA device if the driver finds one, else the CPU;
    "cuda"; "cpu"). `cache_dir`: where compiled GPU code is cached (None:
    $EWC_CACHE_DIR, else $XDG_CACHE_HOME/ewc, else ~/.cache/ewc);
    cache=False neither reads nor writes it. Raises CompileError with the
    located diagnostics."""
    if (path is None) == (source is None):
        raise TypeError("ewc.compile() takes a path or source=, not both")
    if device not in _DEVICES:
        raise ValueError("device must be one of %s, got %r" % (
            ", ".join(_DEVICES), device))
    options = lib.ewcCompileOptionsCreate()
    try:
        lib.ewcCompileOptionsSetTarget(options, _DEVICES[device])
        if chip:
            lib.ewcCompileOptionsSetChip(options, chip.encode())
        if cache_dir is not None:
            lib.ewcCompileOptionsSetCacheDir(options,
                                             os.fsencode(cache_dir))
        lib.ewcCompileOptionsSetNoCache(options, not cache)
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
    return Module(handle)
