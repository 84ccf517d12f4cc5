"""ctypes bindings of the C API (include/ewc-c/ewc.h) in libewc.so.

Where the library is found, in order: $EWC_LIBRARY; libewc.so inside this
package (installed by pip: setup.py puts it there); lib/libewc.so beside the
package (cmake --install's tree: <prefix>/python/ewc -> <prefix>/lib); the
build tree build/lib/libewc.so of the repository this package sits in.
"""

import ctypes
import os

API_VERSION = 11  # EWC_C_API_VERSION

TARGET_AUTO, TARGET_CUDA, TARGET_CPU = 0, 1, 2
ARG_TENSOR, ARG_FLOAT, ARG_INT, ARG_DEFAULT = 0, 1, 2, 3


class EwcSlot(ctypes.Union):
    _fields_ = [("pointer", ctypes.c_void_p), ("floatValue", ctypes.c_double),
                ("intValue", ctypes.c_int64)]


class EwcTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("ndim", ctypes.c_int),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64))]


class EwcArg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("floatValue", ctypes.c_double),
                ("intValue", ctypes.c_int64), ("tensor", EwcTensor)]


class EwcLaunchOptions(ctypes.Structure):
    _fields_ = [("stream", ctypes.c_void_p), ("numDims", ctypes.c_int),
                ("dimNames", ctypes.POINTER(ctypes.c_char_p)),
                ("dimExtents", ctypes.POINTER(ctypes.c_int64))]


def _candidates():
    if os.environ.get("EWC_LIBRARY"):
        yield os.environ["EWC_LIBRARY"]
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libewc.so")
    yield os.path.join(here, "..", "..", "lib", "libewc.so")
    yield os.path.join(here, "..", "..", "build", "lib", "libewc.so")


def _load():
    tried = []
    for path in _candidates():
        path = os.path.normpath(path)
        if os.path.exists(path):
            return ctypes.CDLL(path)
        tried.append(path)
    raise ImportError("ewc: cannot find libewc.so (tried %s); set EWC_LIBRARY"
                      % ", ".join(tried))


lib = _load()

_P = ctypes.c_void_p
_S = ctypes.c_char_p


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_declare("ewcGetAPIVersion", ctypes.c_int)
# Checked first: an older library lacks functions declared below.
if lib.ewcGetAPIVersion() != API_VERSION:
    raise ImportError("ewc: libewc.so implements C API version %d, this "
                      "package expects %d" % (lib.ewcGetAPIVersion(),
                                              API_VERSION))
_declare("ewcGetVersion", _S)
_declare("ewcGetRevision", _S)
_declare("ewcCompile", _P, _S, _S, ctypes.c_int, _S, ctypes.POINTER(_P))
_declare("ewcCompileFile", _P, _S, ctypes.c_int, _S, ctypes.POINTER(_P))
_declare("ewcCompileOptionsCreate", _P)
_declare("ewcCompileOptionsDestroy", None, _P)
_declare("ewcCompileOptionsSetTarget", None, _P, ctypes.c_int)
_declare("ewcCompileOptionsSetChip", None, _P, _S)
_declare("ewcCompileOptionsSetCacheDir", None, _P, _S)
_declare("ewcCompileOptionsSetNoCache", None, _P, ctypes.c_int)
_declare("ewcCompileOptionsSetTypes", None, _P, _S)
_declare("ewcCompileOptionsSetAutotune", None, _P, ctypes.c_int)
_declare("ewcCompileOptionsSetTiered", None, _P, ctypes.c_int)
_declare("ewcCompileOptionsSetDevice", None, _P, ctypes.c_int)
_declare("ewcModuleWaitOptimized", _P, _P)
_declare("ewcModuleIsOptimized", ctypes.c_int, _P)
_declare("ewcCompileWithOptions", _P, _S, _S, _P, ctypes.POINTER(_P))
_declare("ewcCompileFileWithOptions", _P, _S, _P, ctypes.POINTER(_P))
_declare("ewcModuleDestroy", None, _P)
# Strings the caller frees come back as void * so ctypes keeps the pointer.
_declare("ewcStringDestroy", None, _P)
_declare("ewcModuleGetTarget", ctypes.c_int, _P)
_declare("ewcModuleGetNumKernels", ctypes.c_int, _P)
_declare("ewcModuleGetNumWarnings", ctypes.c_int, _P)
_declare("ewcModuleGetWarning", _S, _P, ctypes.c_int)
_declare("ewcModuleGetNumGenericKernels", ctypes.c_int, _P)
_declare("ewcGenericKernelGetName", _S, _P, ctypes.c_int)
_declare("ewcGenericKernelGetSignature", _S, _P, ctypes.c_int)
_declare("ewcGenericKernelGetDoc", _S, _P, ctypes.c_int)
_declare("ewcGenericKernelGetNumTypeParams", ctypes.c_int, _P, ctypes.c_int)
_declare("ewcGenericKernelGetTypeParamName", _S, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcGenericKernelGetTypeParamConstraint", _S, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcGenericKernelGetNumParams", ctypes.c_int, _P, ctypes.c_int)
_declare("ewcGenericKernelGetParamName", _S, _P, ctypes.c_int, ctypes.c_int)
_declare("ewcGenericKernelGetParamTypeParam", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcGenericKernelGetParamType", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcGenericKernelParamIsTensor", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcGenericKernelInferTypes", _P, _P, ctypes.c_int,
         ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.POINTER(_P))
_declare("ewcModuleSpecialize", _P, _P, _S, ctypes.POINTER(_P))
_declare("ewcKernelGetName", _S, _P, ctypes.c_int)
_declare("ewcKernelGetSignature", _S, _P, ctypes.c_int)
_declare("ewcKernelGetDoc", _S, _P, ctypes.c_int)
_declare("ewcKernelGetNumParams", ctypes.c_int, _P, ctypes.c_int)
_declare("ewcKernelGetParamName", _S, _P, ctypes.c_int, ctypes.c_int)
_declare("ewcKernelGetParamType", ctypes.c_int, _P, ctypes.c_int, ctypes.c_int)
_declare("ewcKernelParamIsTensor", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcKernelGetParamDefault", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int, ctypes.POINTER(ctypes.c_double))
_declare("ewcKernelGetParamDefaultSlot", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int, ctypes.POINTER(EwcSlot))
_declare("ewcKernelGetNumResults", ctypes.c_int, _P, ctypes.c_int)
_declare("ewcKernelGetResultType", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcKernelGetNumDims", ctypes.c_int, _P, ctypes.c_int)
_declare("ewcKernelGetDim", _S, _P, ctypes.c_int, ctypes.c_int)
_declare("ewcKernelGetParamNumDims", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcKernelGetParamDim", _S, _P, ctypes.c_int, ctypes.c_int,
         ctypes.c_int)
_declare("ewcKernelGetResultNumDims", ctypes.c_int, _P, ctypes.c_int,
         ctypes.c_int)
_declare("ewcKernelGetResultDim", _S, _P, ctypes.c_int, ctypes.c_int,
         ctypes.c_int)
_declare("ewcModuleLaunchTensors", _P, _P, ctypes.c_int,
         ctypes.POINTER(EwcArg), ctypes.c_int, ctypes.POINTER(EwcTensor),
         ctypes.c_int, ctypes.POINTER(EwcLaunchOptions))
_declare("ewcModuleCheckLaunch", _P, _P, ctypes.c_int,
         ctypes.POINTER(EwcArg), ctypes.c_int, ctypes.POINTER(EwcTensor),
         ctypes.c_int, ctypes.POINTER(EwcLaunchOptions))
_declare("ewcModuleGetResultShapes", _P, _P, ctypes.c_int,
         ctypes.POINTER(EwcArg), ctypes.c_int,
         ctypes.POINTER(EwcLaunchOptions), ctypes.POINTER(ctypes.c_int),
         ctypes.POINTER(ctypes.c_int64), ctypes.c_int)
_declare("ewcModuleLaunch", _P, _P, ctypes.c_int, ctypes.POINTER(EwcArg),
         ctypes.c_int, ctypes.POINTER(_P), ctypes.c_int, ctypes.c_int64, _P)

# The slots go as the int64 view of the caller's array (python/ewc fills it
# through an int64 and a double view of one buffer).
_declare("ewcModuleLaunchPacked", _P, _P, ctypes.c_int,
         ctypes.POINTER(ctypes.c_int64), ctypes.c_int64, _P)
# The package's fast path: one array, its head included. No argtypes: ctypes
# then passes the array as a pointer without a conversion, 0.10 us a call
# against 0.16 us with them and 0.39 us for ewcModuleLaunchPacked's five
# arguments (measured on a function that returns at once).
lib.ewcModuleLaunchPackedArray.restype = _P


def take_string(pointer):
    """The text of a string the API returned, which is then freed."""
    if not pointer:
        return None
    text = ctypes.cast(pointer, ctypes.c_char_p).value.decode("utf-8",
                                                              "replace")
    lib.ewcStringDestroy(pointer)
    return text


def _element_types():
    """EwcElementType's names and sizes, in its order, as the library has
    them (its table: include/ewc/Frontend/DTypes.def)."""
    _declare("ewcElementTypeGetName", _S, ctypes.c_int)
    _declare("ewcElementTypeGetSize", ctypes.c_int, ctypes.c_int)
    names, sizes = [], {}
    while True:
        name = lib.ewcElementTypeGetName(len(names))
        if not name:
            return names, sizes
        names.append(name.decode())
        sizes[names[-1]] = lib.ewcElementTypeGetSize(len(names) - 1)


# EwcElementType's names in its order, and each one's bytes per element.
ELEMENT_TYPES, ELEMENT_SIZES = _element_types()
