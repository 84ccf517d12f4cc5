"""Tensors from any library as the C API takes them, and new ones like them.

Array reads a NumPy array, a torch tensor, an object with
__cuda_array_interface__ (CuPy, Numba) or any DLPack object (__dlpack__):
the address of its element at index 0, its shape, its strides in elements
(NumPy's and the CUDA array interface's are in bytes), its ewc element type
and its device. Kernel calls that are not the 1-D fast path go through here
(python/ewc/__init__.py). Bits marks an array of unsigned integers as the bit
patterns of a floating type its library lacks (NumPy's bf16, f8e4m3 and
f8e5m2).
"""

import ctypes
import sys
from . import _capi

NUMPY_TYPES = {"bool": "bool", "int8": "i8", "int16": "i16", "int32": "i32",
               "int64": "i64", "uint8": "u8", "uint16": "u16",
               "uint32": "u32", "uint64": "u64", "float16": "f16",
               "float32": "f32", "float64": "f64"}
NUMPY_OF = {v: k for k, v in NUMPY_TYPES.items()}
_NUMPY_BY_DTYPE = None  # numpy.dtype -> ewc type, made on first use
_CAI_TYPES = {"|b1": "bool", "|i1": "i8", "<i2": "i16", "<i4": "i32",
              "<i8": "i64", "|u1": "u8", "<u2": "u16", "<u4": "u32",
              "<u8": "u64", "<f2": "f16", "<f4": "f32", "<f8": "f64"}
# torch has uint16, uint32 and uint64 from 2.3 on; an older one lacks them
# (the package then skips those names: _learn_types, allocate).
TORCH_NAMES = {"bool": "bool", "int8": "i8", "int16": "i16", "int32": "i32",
               "int64": "i64", "uint8": "u8", "uint16": "u16",
               "uint32": "u32", "uint64": "u64", "float16": "f16",
               "bfloat16": "bf16", "float32": "f32", "float64": "f64",
               "float8_e4m3fn": "f8e4m3", "float8_e5m2": "f8e5m2"}
_TORCH_NAMES_INV = {v: k for k, v in TORCH_NAMES.items()}
# Bytes per element of each ewc type, from the library's table.
ELEMENT_SIZES = _capi.ELEMENT_SIZES
# The floating types: scalars of these go as doubles, and Bits holds them.
FLOAT_TYPES = ("f16", "bf16", "f32", "f64", "f8e4m3", "f8e5m2")


def bits_holder(type_name):
    """The unsigned integer type of `type_name`'s width, which holds its bit
    patterns (u16 for bf16, u8 for f8e4m3 and f8e5m2)."""
    return "u%d" % (8 * ELEMENT_SIZES[type_name])


class Bits:
    """An array of unsigned integers marked as holding the bit patterns of
    the floating type `dtype` (ewc.bits): the one way to pass a type that
    the array's library lacks, such as bf16 from NumPy as uint16 or f8e4m3
    as uint8. A kernel
    takes it where it declares `dtype`, as an argument or in out=, and
    returns one for such a result it allocates from NumPy or CuPy."""
    __slots__ = ("array", "dtype")

    def __init__(self, array, dtype):
        if dtype not in FLOAT_TYPES:
            raise ValueError("ewc.bits() marks the bit patterns of a "
                             "floating type (%s), got %r" % (
                                 ", ".join(FLOAT_TYPES), dtype))
        self.array, self.dtype = array, dtype

    def __repr__(self):
        return "ewc.bits(%r, %r)" % (self.array, self.dtype)


def torch():
    """torch if the program imported it: importing it here would cost
    seconds and is never needed for NumPy."""
    return sys.modules.get("torch")


class Array:
    """One tensor argument or output, whatever library holds it."""
    __slots__ = ("obj", "pointer", "shape", "strides", "type", "device",
                 "writable", "kind", "capsule", "description")

    def __init__(self, obj, what):
        # description: what type_description says instead of the dtype.
        self.description = None
        if type(obj) is Bits:
            self._read(obj.array, what)
            self._as_bits(obj.dtype, what)
        else:
            self._read(obj, what)

    def _read(self, obj, what):
        self.obj = obj
        self.writable = True
        # strides: in elements; None for contiguous (row-major).
        self.strides = None
        numpy = sys.modules.get("numpy")
        if numpy is not None and isinstance(obj, numpy.ndarray):
            self._from_numpy(obj, numpy, what)
            return
        tch = torch()
        if tch is not None and isinstance(obj, tch.Tensor):
            self.kind = "torch"
            self.pointer = obj.data_ptr()
            self.shape = tuple(obj.shape)
            # torch's strides are in elements and never negative.
            self.strides = tuple(obj.stride())
            self.type = TORCH_NAMES.get(str(obj.dtype).replace("torch.", ""))
            self.device = obj.device.type
            return
        cai = getattr(obj, "__cuda_array_interface__", None)
        if cai is not None:
            self.kind = type(obj).__module__.split(".")[0]
            self.pointer, readonly = cai["data"]
            self.writable = not readonly
            self.shape = tuple(cai["shape"])
            self.type = _CAI_TYPES.get(cai["typestr"])
            self.device = "cuda"
            if cai.get("strides") is not None:
                self.strides = element_strides(cai["strides"],
                                               int(cai["typestr"][2:]), what)
            return
        if hasattr(obj, "__dlpack__"):
            self._from_dlpack(obj)
            return
        raise TypeError("%s: expected a NumPy array (CPU) or a CUDA array "
                        "(torch, CuPy), got %s" % (what, type(obj).__name__))

    def _from_numpy(self, obj, numpy, what):
        global _NUMPY_BY_DTYPE
        if _NUMPY_BY_DTYPE is None:
            _NUMPY_BY_DTYPE = {numpy.dtype(name): t
                               for name, t in NUMPY_TYPES.items()}
        self.kind = "numpy"
        # The address of element [0, ..., 0], also for a view with negative
        # strides (which element_strides refuses).
        self.pointer = obj.__array_interface__["data"][0]
        self.shape = obj.shape
        self.type = _NUMPY_BY_DTYPE.get(obj.dtype)
        self.device = "cpu"
        self.writable = obj.flags.writeable
        if not obj.flags.c_contiguous:
            self.strides = element_strides(obj.strides, obj.itemsize, what)

    def _from_dlpack(self, obj):
        # The capsule stays referenced while this Array lives; dropping it
        # unused calls the producer's deleter (the DLPack protocol).
        self.kind = "dlpack"
        self.capsule = obj.__dlpack__()
        pointer = ctypes.pythonapi.PyCapsule_GetPointer(self.capsule,
                                                        b"dltensor")
        tensor = ctypes.cast(pointer, ctypes.POINTER(_DLTensor)).contents
        self.pointer = (tensor.data or 0) + tensor.byte_offset
        self.shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
        if tensor.strides:
            # DLPack's strides are in elements already.
            self.strides = tuple(tensor.strides[i]
                                 for i in range(tensor.ndim))
        code, bits, lanes = (tensor.dtype.code, tensor.dtype.bits,
                             tensor.dtype.lanes)
        self.type = _DLPACK_TYPES.get((code, bits)) if lanes == 1 else None
        self.description = "DLPack type code %d, %d bits x %d" % (code, bits,
                                                                 lanes)
        self.device = {1: "cpu", 2: "cuda"}.get(tensor.device.device_type,
                                                "device type %d" %
                                                tensor.device.device_type)

    def _as_bits(self, dtype, what):
        holder = bits_holder(dtype)
        if self.type != holder:
            raise TypeError("%s: ewc.bits(x, %r) takes the bit patterns of %s "
                            "as %s (%s), got %s" % (
                                what, dtype, dtype, NUMPY_OF[holder], holder,
                                self.type_description()))
        self.type = dtype
        self.description = "%s bit patterns (ewc.bits)" % dtype

    def check(self, type_name, device, where, output):
        """Raises what is wrong with this array as `where` of a kernel on
        `device` that takes `type_name` elements."""
        if self.type != type_name:
            hint = ""
            if type_name in FLOAT_TYPES and self.type == bits_holder(
                    type_name):
                # Never taken silently: u16 is a type of its own.
                hint = ("; to pass the bit patterns of %s, mark them: "
                        "ewc.bits(x, %r)" % (type_name, type_name))
            raise TypeError("%s: expected %s elements, got %s%s" % (
                where, type_name, self.type_description(), hint))
        if self.device != device:
            raise ValueError("%s is on %s, but this module runs on the %s "
                             "(compile with device='%s')" % (
                                 where, self.device,
                                 "GPU" if device == "cuda" else "CPU",
                                 self.device))
        if self.strides is not None and any(s < 0 for s in self.strides):
            raise ValueError("%s has a negative stride (strides %s in "
                             "elements); ewc takes strides of 0 and up: pass "
                             "a copy" % (where, _tuple(self.strides)))
        if output and not self.writable:
            raise ValueError("%s is read-only" % where)

    def type_description(self):
        if self.description is not None:
            return self.description
        obj = self.obj
        return str(getattr(obj, "dtype", None) or
                   getattr(obj, "__cuda_array_interface__", {}).get(
                       "typestr"))

    def allocate(self, shape, type_name):
        """A new contiguous array of `shape` and `type_name` on this one's
        device, from this one's library."""
        return allocate(self.kind, getattr(self.obj, "device", None), shape,
                        type_name, type(self.obj).__name__)


def allocate(kind, device, shape, type_name, like=None):
    """A new contiguous array from library `kind` ("numpy", "torch",
    "cupy") on `device` (torch's); `like` names the type of the array it is
    made like, for the error where no library of those is."""
    if kind == "torch":
        tch = torch()
        dtype = getattr(tch, _TORCH_NAMES_INV[type_name], None)
        if dtype is None:
            raise TypeError("torch %s has no %s; pass out=" % (
                tch.__version__, type_name))
        return tch.empty(shape, dtype=dtype, device=device)
    if kind in ("numpy", "cupy"):
        library = __import__(kind)
        if type_name in NUMPY_OF:
            return library.empty(shape, dtype=NUMPY_OF[type_name])
        # A type the library lacks (bf16) comes back as its bits, marked as
        # ewc.bits marks an argument: it goes on into the next kernel.
        return Bits(library.empty(shape, dtype=NUMPY_OF[bits_holder(
            type_name)]), type_name)
    raise TypeError("cannot allocate an output like a %s; pass out=" % (
        like or kind))


def element_strides(byte_strides, itemsize, what):
    """Strides in bytes as strides in elements."""
    strides = tuple(s // itemsize for s in byte_strides)
    if any(s % itemsize for s in byte_strides):
        raise ValueError("%s has strides %s in bytes, not multiples of its "
                         "element size %d" % (
                             what, _tuple(byte_strides), itemsize))
    return strides


def _tuple(values):
    return str(tuple(int(v) for v in values))


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


# (DLDataTypeCode, bits) -> ewc type: kDLInt 0, kDLUInt 1, kDLFloat 2,
# kDLBfloat 4, kDLBool 6, kDLFloat8_e4m3fn 10, kDLFloat8_e5m2 12 (DLPack
# 1.1).
_DLPACK_TYPES = {(0, 8): "i8", (0, 16): "i16", (0, 32): "i32",
                 (0, 64): "i64", (1, 8): "u8", (1, 16): "u16",
                 (1, 32): "u32", (1, 64): "u64", (2, 16): "f16",
                 (2, 32): "f32", (2, 64): "f64", (4, 16): "bf16",
                 (6, 8): "bool", (10, 8): "f8e4m3", (12, 8): "f8e5m2"}
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object,
                                                  ctypes.c_char_p]
