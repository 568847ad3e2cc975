"""What every ``keras.ops`` binding shares: Keras's tensor conversion, casts and promotion."""
import numpy as np

import tapeflow as tf

from ..backend import floatx
from ._dtypes import dtype_of, result_type, standardize_dtype

__all__ = ["tf", "tensor", "dt", "cast", "promote", "floatx", "result_type",
           "standardize_dtype", "dtype_of", "float_of", "family", "static_shape", "axes"]



def tensor(x, dtype=None):
    """``x`` as a tapeflow Tensor as Keras's ``convert_to_tensor`` makes it: Python floats
    are float32, Python ints int32, NumPy arrays keep their dtype; with ``dtype``, a cast."""
    if dtype is not None:
        dtype = standardize_dtype(dtype)
    if tf.is_tensor(x):
        if dtype is not None and dt(x) != dtype:
            return tf.cast(x, dtype)
        return tf.convert_to_tensor(x) if not isinstance(x, tf.Tensor) else x
    if dtype is not None:
        if isinstance(x, (list, tuple)) and any(tf.is_tensor(v) for v in _flat(x)):
            return tf.cast(tf.stack([tensor(v) for v in x]), dtype)
        if dtype == "bfloat16":
            return tf.cast(tf.convert_to_tensor(x), dtype)
        return tf.convert_to_tensor(np.asarray(x, dtype=dtype))
    if isinstance(x, (list, tuple)) and any(tf.is_tensor(v) for v in _flat(x)):
        parts = [tensor(v) for v in x]
        common = result_type(*[dt(p) for p in parts])
        return tf.stack([cast(p, common) for p in parts])
    return tf.convert_to_tensor(x)


def _flat(x):
    for v in x:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


def dt(x) -> str:
    """The Keras dtype name of a tensor."""
    return standardize_dtype(x.dtype)


def cast(x, dtype):
    dtype = standardize_dtype(dtype)
    x = tensor(x)
    return x if dt(x) == dtype else tf.cast(x, dtype)


def promote(*xs, extra=()):
    """The arguments converted and cast to their Keras result dtype (Python numbers weak);
    ``extra`` joins more dtypes into the promotion (``float`` for ops that compute in
    floating point)."""
    dtype = result_type(*[dtype_of(x) for x in xs], *extra)
    return [cast(x, dtype) for x in xs] + [dtype]


def float_of(x):
    """``x`` as a tensor in Keras's float dtype for a float-valued op on it: integers and
    bools in ``floatx`` (int64 too), floats unchanged."""
    x = tensor(x)
    d = dt(x)
    if d == "int64":
        return cast(x, floatx())
    return cast(x, result_type(d, float))


def family(dtype) -> str:
    d = standardize_dtype(dtype)
    if d == "bool":
        return "b"
    if d.startswith("uint"):
        return "u"
    if d.startswith("int"):
        return "i"
    if d.startswith("complex"):
        return "c"
    return "f"


def static_shape(x):
    return tuple(tensor(x).shape.as_list())


def axes(axis, ndim):
    """``axis`` (None, an int or a sequence) as a tuple of non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        return tuple(int(a) % ndim if ndim else 0 for a in axis)
    return (int(axis) % ndim if ndim else 0,)
