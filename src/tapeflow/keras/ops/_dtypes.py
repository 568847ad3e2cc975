"""Keras 3's dtype rules (``keras.backend.result_type``): a promotion lattice with weak types.

Keras promotes as JAX does, not as TensorFlow: ``int32 + float32`` is ``float32``, a Python
number is *weak* (``int8 + 2`` stays ``int8``, ``int32 + 2.5`` is ``float32``), and a weak
type left alone resolves to the 32-bit type of its kind (``backend.floatx()``'s precision).
"""
import functools

import numpy as np

from ..._core.dtypes import DType
from .. import backend as _backend
from ..backend import floatx

__all__ = ["standardize_dtype", "result_type", "dtype_of", "is_float", "is_int"]

# Each dtype and the dtypes directly above it; "int" and "float" are the weak Python kinds.
_ABOVE = {
    "bool": ("int",),
    "int": ("uint8", "int8", "complex64"),
    "uint8": ("int16", "uint16"), "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"), "uint64": ("float",),
    "int8": ("int16",), "int16": ("int32",), "int32": ("int64",), "int64": ("float",),
    "float": ("bfloat16", "float16"),
    "bfloat16": ("float32",), "float16": ("float32",),
    "float32": ("float64", "complex64"), "float64": ("complex128",),
    "complex64": ("complex128",), "complex128": (),
}


def _reach(node):
    seen = {node}
    todo = [node]
    while todo:
        for up in _ABOVE[todo.pop()]:
            if up not in seen:
                seen.add(up)
                todo.append(up)
    return frozenset(seen)


_REACH = {n: _reach(n) for n in _ABOVE}


@functools.lru_cache(256)
def _join(nodes):
    common = frozenset.intersection(*(_REACH[n] for n in nodes))
    least = [c for c in common if common <= _REACH[c]]
    if len(least) != 1:
        raise ValueError(f"Input dtypes {tuple(nodes)} have no available implicit dtype "
                         "promotion path. Try explicitly casting inputs to the desired "
                         "output type.")
    return least[0]


def standardize_dtype(dtype) -> str:
    """A dtype's Keras name (``"float32"``, ``"int64"``, ...) from a string, NumPy or TF dtype,
    or a Python type (``int`` is ``"int64"`` on the TensorFlow backend, ``float``
    ``"float32"``)."""
    if dtype is None:
        return floatx()
    if isinstance(dtype, str) and dtype.startswith("float8"):
        raise ValueError("There is no implicit conversions from float8 dtypes to others. "
                         f"You must cast it internally. Received: {dtype}")
    if dtype is bool:
        return "bool"
    if dtype is int:
        return "int64"
    if dtype is float:
        return "float32"
    if dtype is complex:
        return "complex128"
    if isinstance(dtype, DType):
        return dtype.name
    if hasattr(dtype, "name") and not isinstance(dtype, str):
        dtype = dtype.name
    if dtype in ("double",):
        return "float64"
    if dtype in ("half",):
        return "float16"
    return np.dtype(dtype).name if dtype != "bfloat16" else "bfloat16"


def _weak_kind(dtype):
    if dtype == "bool":
        return "bool"
    return "float" if ("float" in dtype) else "int" if "int" in dtype else "complex"


def result_type(*dtypes) -> str:
    """The dtype Keras 3 gives an op on inputs of ``dtypes`` (``keras.backend.result_type``).

    Args:
        *dtypes: dtypes (strings, NumPy or tapeflow dtypes), or the Python types ``int`` /
            ``float`` / ``bool`` for Python numbers (weak types). ``None`` is ``floatx``.

    Returns:
        A dtype name, e.g. ``result_type("int32", "float32") == "float32"``,
        ``result_type("int8", int) == "int8"``, ``result_type("int32", float) == "float32"``.

    Raises:
        ValueError: for dtypes with no promotion path.
    """
    if not dtypes:
        return floatx()
    names, weak = [], []
    for d in dtypes:
        w = d is int or d is float
        names.append(standardize_dtype(d))
        weak.append(w)
    if len(names) == 1:
        out, out_weak = names[0], weak[0]
    elif len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = _join(frozenset(names)), True
    else:
        out = _join(frozenset(_weak_kind(n) if w else n for n, w in zip(names, weak)))
        out_weak = out in ("int", "float")
    if out_weak and out != "bool":   # a weak type takes floatx's precision, as in Keras
        kind = "f" if out in ("bfloat16",) else out[0]
        bits = floatx()[-2:]
        out = {"b": "bool", "i": f"int{bits}", "u": f"uint{bits}"}.get(kind, f"float{bits}")
    # the TensorFlow backend narrows these two (and keeps int64 and float64)
    return {"uint64": "uint32", "complex128": "complex64"}.get(out, out)


def dtype_of(x):
    """The Keras dtype of an op argument, or the Python type for a Python number (weak)."""
    if isinstance(x, bool):
        return bool
    if isinstance(x, int):
        return int
    if isinstance(x, float):
        return float
    d = getattr(x, "dtype", None)
    if d is not None:
        return standardize_dtype(d)
    return standardize_dtype(np.asarray(x).dtype) if not isinstance(x, (list, tuple)) \
        else _list_dtype(x)


def _list_dtype(x):
    a = np.asarray(x)
    if a.dtype.kind == "f":
        return "float32"
    if a.dtype.kind in "iu":
        return "int32"
    return standardize_dtype(a.dtype)


def is_float(dtype) -> bool:
    return "float" in standardize_dtype(dtype)


def is_int(dtype) -> bool:
    return "int" in standardize_dtype(dtype)


_backend._PROMOTION.update(result_type=result_type, standardize_dtype=standardize_dtype)
