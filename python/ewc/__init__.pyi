# Type stubs of the public API of python/ewc (PEP 561; py.typed marks the
# package as typed). Kernels are made at run time from a .ew program, so a
# kernel's own parameters are known only then: inspect.signature(kernel)
# gives them; a checker sees Kernel.__call__ below.
import os
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__version__: str
__revision__: str

ArrayLike = Any  # a NumPy array, torch tensor, CuPy array, DLPack object or Bits
Shape = Tuple[int, ...]


class CompileError(Exception): ...


class CompileWarning(UserWarning): ...


class LaunchError(RuntimeError): ...


class Bits:
    array: ArrayLike
    dtype: str

    def __init__(self, array: ArrayLike, dtype: str) -> None: ...


def bits(array: ArrayLike, dtype: str) -> Bits: ...


class Param:
    name: str
    type: str
    is_tensor: bool
    dims: Tuple[str, ...]
    default: Union[float, int, bool, None]

    def annotation(self) -> str: ...


class Result:
    type: str
    dims: Tuple[str, ...]

    def annotation(self) -> str: ...


class Kernel:
    name: str
    signature: str
    doc: str
    dims: Tuple[str, ...]
    params: List[Param]
    results: List[Result]

    def __call__(self, *args: Union[ArrayLike, float, int, bool],
                 out: Union[ArrayLike, Sequence[ArrayLike], None] = ...,
                 stream: Any = ...,
                 dims: Optional[Dict[str, int]] = ...,
                 **kwargs: Union[ArrayLike, float, int, bool]) -> Any: ...

    def result_shapes(self, *args: Union[ArrayLike, float, int, bool],
                      dims: Optional[Dict[str, int]] = ...,
                      **kwargs: Union[ArrayLike, float, int, bool]
                      ) -> List[Shape]: ...


class Module:
    device: str
    kernels: Dict[str, Kernel]

    def __getitem__(self, name: str) -> Kernel: ...
    def __contains__(self, name: object) -> bool: ...
    def __getattr__(self, name: str) -> Kernel: ...


def compile(path: Union[str, bytes, "os.PathLike[str]", None] = ..., *,
            source: Optional[str] = ..., device: str = ...,
            chip: Optional[str] = ..., name: Optional[str] = ...,
            cache_dir: Union[str, "os.PathLike[str]", None] = ...,
            cache: bool = ...) -> Module: ...
