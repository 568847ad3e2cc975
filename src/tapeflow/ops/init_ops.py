"""TensorFlow's own (non-Keras) initializers: ``tf.zeros_initializer``, ``tf.ones_initializer``,
``tf.constant_initializer``, ``tf.random_uniform_initializer``, ``tf.random_normal_initializer``.

Each is a callable ``init(shape, dtype=tf.float32)`` returning a tensor. A seeded random
initializer draws from the stateless Philox stream with seed ``[seed, 0]`` as TF 2.21 does,
so it returns TF's values and the same values on every call; unseeded, it draws from the
global random stream.
"""
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import constant
from . import random_ops as _random
from . import stateless_random_ops as _stateless
from ._helpers import shape_tuple
from .creation_ops import ones, zeros

__all__ = ["Initializer", "constant_initializer", "ones_initializer",
           "random_normal_initializer", "random_uniform_initializer", "zeros_initializer"]


class Initializer:
    """The base of TF's initializers (``tf.keras``-free ``init_ops_v2.Initializer``)."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError("Initializer subclasses must implement the `__call__()` "
                                  "method.")

    def get_config(self):
        """The constructor's arguments as a dict."""
        return {}

    @classmethod
    def from_config(cls, config):
        """The initializer ``cls(**config)``."""
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)


def _float_or_int(dtype, what):
    dtype = _dt.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"Expected float or integer dtype, got {dtype.name}.")
    return dtype


class zeros_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Zeros of the asked shape and dtype (``tf.zeros_initializer``).

    ``zeros_initializer()(shape, dtype=tf.float32)``; any numeric, bool or string dtype.
    """

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        return zeros(shape_tuple(shape), _dt.as_dtype(dtype))


class ones_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Ones of the asked shape and dtype (``tf.ones_initializer``).

    ``ones_initializer()(shape, dtype=tf.float32)``; numeric or bool dtypes.

    Raises:
        ValueError: a string dtype.
    """

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        dtype = _dt.as_dtype(dtype)
        if dtype == _dt.string:
            raise ValueError(f"Expected numeric or boolean dtype, got {dtype.name}.")
        return ones(shape_tuple(shape), dtype)


class constant_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """A constant value (``tf.constant_initializer(value=0)``).

    ``value`` is a Python scalar, list or array; a scalar fills the shape, a list or array
    must have as many elements as the shape and is reshaped to it. Called as
    ``init(shape, dtype=None)``: without a dtype the result has the value's (int32 for
    Python ints, float32 for floats).

    Raises:
        TypeError: ``value`` not a scalar, list, tuple or array (at construction).
        TypeError: a list whose size is not the shape's (at call; TF's message).
    """

    def __init__(self, value=0):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))
                or hasattr(value, "numpy")):
            raise TypeError(f"Invalid type for initial value={value} of type: "
                            f"{type(value).__name__}. Expected Python scalar, list or tuple of "
                            "values, or numpy.ndarray.")
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        shape = shape_tuple(shape)
        value = self.value.numpy() if hasattr(self.value, "numpy") else self.value
        if dtype is None:   # the value's own dtype, as tf.constant infers it
            dtype = constant(value).dtype
        dtype = _dt.as_dtype(dtype)
        arr = np.asarray(value)
        if arr.ndim == 0:
            return constant(np.full(shape, arr), dtype)
        if arr.size != int(np.prod(shape)):
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor "
                            f"{constant(arr, dtype)} (converted from {value}) has "
                            f"{arr.size} elements, but got `shape` {shape} with "
                            f"{int(np.prod(shape))} elements).")
        return constant(arr.reshape(shape), dtype)

    def get_config(self):
        return {"value": self.value}


class random_uniform_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Uniform values in ``[minval, maxval)`` (``tf.random_uniform_initializer``).

    Args:
        minval, maxval: the bounds (defaults -0.05 and 0.05).
        seed: a Python int: the values are TF's stateless draw with seed ``[seed, 0]``;
            None draws from the global stream.

    Calling it: ``init(shape, dtype=tf.float32)``, float or integer dtypes.

    Raises:
        ValueError: another dtype ("Expected float or integer dtype, got ...").
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        dtype = _float_or_int(dtype, "uniform")
        shape = shape_tuple(shape)
        if self.seed is None:
            return _random.uniform(shape, self.minval, self.maxval, dtype=dtype)
        return _stateless.stateless_uniform(shape, [self.seed, 0], self.minval, self.maxval,
                                            dtype=dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class random_normal_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Normal values (``tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)``).

    A seeded initializer returns TF's stateless draw with seed ``[seed, 0]``; call it as
    ``init(shape, dtype=tf.float32)`` with a floating dtype.

    Raises:
        ValueError: a non-floating dtype ("Argument `dtype` is expected to be floating
            point. ...").
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=_dt.float32, **kwargs):
        dtype = _dt.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError("Argument `dtype` is expected to be floating point. "
                             f"Received: <dtype: '{dtype.name}'>.")
        shape = shape_tuple(shape)
        if self.seed is None:
            return _random.normal(shape, self.mean, self.stddev, dtype=dtype)
        return _stateless.stateless_normal(shape, [self.seed, 0], self.mean, self.stddev,
                                           dtype=dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}
