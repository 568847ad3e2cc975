"""``keras.random``: seeded random tensors and ``SeedGenerator`` (Keras 3).

A ``seed`` is an int (the same values on every call, as in Keras), a ``SeedGenerator``
(whose state variable advances by ``assign`` on each draw), or None (a global generator).
Draws go through the seeded random primitives of ``ops/keras_random_ops.py``.
"""
import random as _py_random

from .._core import dtypes as _dt
from .._core.tensor import _TensorLike, convert_to_tensor
from ..ops import array_ops as _a
from ..ops import keras_random_ops as _kr
from ..ops import math_ops as _m
from . import _naming
from ._variable import KerasVariable

__all__ = ["SeedGenerator", "normal", "uniform", "randint", "truncated_normal", "dropout",
           "shuffle", "categorical", "gamma", "beta", "binomial"]

_INCREMENT = None


class SeedGenerator:
    """A random-seed state for ``keras.random`` functions and layers
    (``keras.random.SeedGenerator``): each draw uses the state ``[seed, counter]`` and
    then adds one to the counter.

    Args:
        seed: the initial seed (an int; default a random one).
        name: its name (default ``seed_generator``, made unique).

    Raises:
        ValueError: if ``seed`` is not an int or an unknown keyword is given.

    >>> import tapeflow as tf
    >>> g = tf.keras.random.SeedGenerator(42)
    >>> a = tf.keras.random.normal((2,), seed=g)
    >>> b = tf.keras.random.normal((2,), seed=g)
    >>> bool((a.numpy() != b.numpy()).all()), int(g.state.numpy()[1])
    (True, 2)
    """

    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name or _naming.auto_name("SeedGenerator")
        self._initial_seed = seed
        if seed is None:
            seed = _py_random.randint(1, int(1e9))
        if not isinstance(seed, int):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        with _naming.name_scope(self.name, self):
            self.state = KerasVariable(convert_to_tensor([seed, 0], dtype=_dt.int64),
                                       name="seed_generator_state", trainable=False)

    def next(self, ordered=True):
        """The current state (a Tensor), after which the state advances."""
        global _INCREMENT
        if _INCREMENT is None:
            _INCREMENT = convert_to_tensor([0, 1], dtype=_dt.int64)
        value = _a.identity(self.state)
        if ordered:
            self.state.assign(_m.add(self.state, _INCREMENT))
        else:
            self.state.assign(_m.floormod(_m.multiply(_m.add(self.state, 1), 5387), 933199))
        return value

    def get_config(self) -> dict:
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


_global = []


def global_seed_generator() -> SeedGenerator:
    if not _global:
        _global.append(SeedGenerator(name="global_seed_generator"))
    return _global[0]


def draw_seed(seed):
    """The seed tensor of one draw: ``[seed, 0]`` for an int, the generator's next state
    for a SeedGenerator, the global generator's for None.

    Raises:
        ValueError: for any other seed.
    """
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if isinstance(seed, int) and not isinstance(seed, bool):
        return convert_to_tensor([seed, 0], dtype=_dt.int64)
    if seed is None:
        return global_seed_generator().next()
    if isinstance(seed, _TensorLike):
        return seed
    raise ValueError("Argument `seed` must be either an integer or an instance of "
                     f"`SeedGenerator`. Received: seed={seed} (of type {type(seed)})")


def _float(dtype):
    return _dt.as_dtype(dtype or "float32")


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples of N(mean, stddev**2) (``keras.random.normal``)."""
    return _kr.normal(tuple(shape), draw_seed(seed), mean, stddev, _float(dtype))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples of U[minval, maxval) (``keras.random.uniform``).

    Raises:
        ValueError: for an integer dtype (use ``randint``).
    """
    dtype = _float(dtype)
    if not dtype.is_floating:
        raise ValueError("`keras.random.uniform` requires a floating point `dtype`. "
                         f"Received: dtype={dtype.name} ")
    return _kr.uniform(tuple(shape), draw_seed(seed), minval, maxval, dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers uniform in ``[minval, maxval)`` (``keras.random.randint``)."""
    return _kr.randint(tuple(shape), draw_seed(seed), minval, maxval, dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples within two standard deviations (``keras.random.truncated_normal``)."""
    return _kr.truncated_normal(tuple(shape), draw_seed(seed), mean, stddev, _float(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """``inputs`` with each element zeroed with probability ``rate`` and the rest scaled by
    ``1 / (1 - rate)`` (``keras.random.dropout``)."""
    x = inputs if isinstance(inputs, _TensorLike) else convert_to_tensor(inputs)
    shape = tuple(x.shape) if noise_shape is None else tuple(
        d if d is not None else x.shape[i] for i, d in enumerate(noise_shape))
    keep = _m.greater_equal(_kr.uniform(shape, draw_seed(seed), 0.0, 1.0, x.dtype), rate)
    return _m.multiply(x, _m.multiply(_a.cast(keep, x.dtype), 1.0 / (1.0 - rate)))


def shuffle(x, axis=0, seed=None):
    """``x`` with its slices along ``axis`` in a random order (``keras.random.shuffle``)."""
    x = x if isinstance(x, _TensorLike) else convert_to_tensor(x)
    return _kr.shuffle(x, draw_seed(seed), axis)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Class ids drawn from the rows of ``logits`` (``keras.random.categorical``).

    Raises:
        ValueError: if ``logits`` is not 2-D.
    """
    logits = logits if isinstance(logits, _TensorLike) else convert_to_tensor(logits)
    if logits.ndim != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, "
                         f"num_classes]. Received: logits={logits}")
    return _kr.categorical(logits, num_samples, draw_seed(seed), dtype)


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples of Gamma(alpha, 1) (``keras.random.gamma``)."""
    return _kr.gamma(tuple(shape), draw_seed(seed), alpha, _float(dtype))


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples of Beta(alpha, beta) (``keras.random.beta``)."""
    return _kr.beta(tuple(shape), draw_seed(seed), alpha, beta, _float(dtype))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Successes in ``counts`` trials of probability ``probabilities``
    (``keras.random.binomial``), as floats by default."""
    return _kr.binomial(tuple(shape), draw_seed(seed), counts, probabilities, _float(dtype))
