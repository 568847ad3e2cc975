"""The numpy-behaviour mode of ``tf.experimental.numpy`` (TF's ``np_config``).

Off by default and then free: enabling it installs NumPy methods (``T``, ``reshape``,
``astype``...) on tensors and rebinds the Python binary operators of tensors to promote their
operands as NumPy does; nothing is checked per op while it is off.
"""
_MODE = {"numpy_behavior": False, "prefer_float32": False}
_SAVED = {}

_BINARY = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
           "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
           "__rpow__", "__matmul__", "__rmatmul__", "__lt__", "__le__", "__gt__", "__ge__")


def is_prefer_float32():
    return _MODE["prefer_float32"]


def is_numpy_behavior():
    return _MODE["numpy_behavior"]


def _promoting(orig):
    from ..._core.tensor import is_tensor
    from . import _np_result, _to

    def op(self, other, *rest):
        if is_tensor(other) and other.dtype == self.dtype:
            return orig(self, other, *rest)   # nothing to promote
        dtype = _np_result(self, other)
        a = self if self.dtype.as_numpy_dtype == dtype else _to(self, dtype)
        return orig(a, _to(other, dtype), *rest)
    op.__name__ = getattr(orig, "__name__", "op")
    return op


def _methods():
    import numpy as np

    import tapeflow as tf

    from . import amax, amin, clip, mean, ravel, reshape, transpose

    def _reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return reshape(self, shape)

    return {
        "T": property(lambda self: transpose(self)),
        "ndim": property(lambda self: len(self.shape)),
        "size": property(lambda self: np.prod(list(self._value.shape))),
        "__pos__": lambda self: self,
        "tolist": lambda self: self.numpy().tolist(),
        "transpose": transpose, "flatten": ravel, "ravel": ravel, "reshape": _reshape,
        "clip": clip, "astype": lambda self, dtype, name=None: tf.cast(self, dtype),
        "__round__": lambda self, ndigits=None: _around(self, ndigits),
        "max": amax, "mean": mean, "min": amin, "data": property(lambda self: self),
    }


def _around(x, ndigits):
    from . import around
    return around(x, ndigits or 0)


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Switch tensors to NumPy behaviour: NumPy methods on ``tf.Tensor`` (``T``, ``ndim``,
    ``size``, ``reshape``, ``astype``, ``ravel``, ``flatten``, ``transpose``, ``clip``, ``max``,
    ``min``, ``mean``, ``tolist``) and NumPy type promotion in the Python operators of tensors
    (``tf.constant([1.]) + tf.constant([1])`` is float64; ``tf.add`` itself still refuses mixed
    dtypes).  ``prefer_float32`` types Python floats as float32 in ``tnp``.  TF's
    ``tf.experimental.numpy.experimental_enable_numpy_behavior``; there is no way back but the
    private ``_disable_numpy_behavior`` (tests)."""
    from ..._core.tensor import _TensorLike
    _MODE["prefer_float32"] = bool(prefer_float32)
    if _MODE["numpy_behavior"]:
        return
    for name in _BINARY:
        _SAVED[name] = _TensorLike.__dict__.get(name)
        setattr(_TensorLike, name, _promoting(getattr(_TensorLike, name)))
    for name, value in _methods().items():
        _SAVED[name] = _TensorLike.__dict__.get(name)
        setattr(_TensorLike, name, value)
    _MODE["numpy_behavior"] = True


def _disable_numpy_behavior():
    """Undo ``experimental_enable_numpy_behavior`` (tests only; TF has no way back)."""
    from ..._core.tensor import _TensorLike
    for name, value in _SAVED.items():
        if value is None:
            delattr(_TensorLike, name)
        else:
            setattr(_TensorLike, name, value)
    _SAVED.clear()
    _MODE.update(numpy_behavior=False, prefer_float32=False)
