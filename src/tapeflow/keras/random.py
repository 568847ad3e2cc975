"""``keras.random``: seeded random tensors and ``SeedGenerator`` (Keras 3 on TensorFlow).

A ``seed`` is an int (the same values on every call, as in Keras), a ``SeedGenerator``
(whose state variable ``[seed, counter]`` advances by ``assign`` on each draw), or None
(the global generator, re-made by ``keras.utils.set_random_seed``, which advances by
Keras's unordered rule). As Keras's TensorFlow backend, each draw is a TensorFlow stateless
op (``tf.random.stateless_*``) with the seed ``[seed, counter] mod (2**31 - 2)`` as int32, so
the numbers are Keras-on-TensorFlow's. A default seed comes from Python's ``random`` module
(``random.randint(1, 10**9)``), as Keras's ``make_default_seed``. ``gamma``, ``beta`` and
``binomial`` go through ``tf.random.stateless_gamma``/``stateless_binomial`` as Keras does.
"""
import random as _py_random

from .._core import dtypes as _dt
from .._core.dispatch import ACTIVE, current_tracer
from .._core.tensor import _TensorLike, convert_to_tensor
from ..ops import array_ops as _a
from ..ops import indexing_ops as _ix
from ..ops import math_ops as _m
from ..ops import sort_ops as _sort
from ..ops import stateless_random_ops as _sl
from . import _naming
from ._variable import KerasVariable
from .backend import floatx

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
            seed = make_default_seed()
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
        _global.append(SeedGenerator())
    return _global[0]


def reset_global_seed_generator():
    """Forget the global SeedGenerator (``keras.utils.set_random_seed``): the next draw
    without a seed makes a new one from Python's reseeded ``random``."""
    _global.clear()


def make_default_seed() -> int:
    """A seed from Python's ``random`` module, as Keras's ``make_default_seed``."""
    return _py_random.randint(1, int(1e9))


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
        return global_seed_generator().next(ordered=False)
    if isinstance(seed, _TensorLike):
        return seed
    raise ValueError("Argument `seed` must be either an integer or an instance of "
                     f"`SeedGenerator`. Received: seed={seed} (of type {type(seed)})")


def _float(dtype):
    return _dt.as_dtype(dtype or floatx())


def tf_seed(seed):
    """The int32 seed of a stateless op for ``seed`` (Keras's ``_cast_seed``): the drawn
    ``[seed, counter]`` modulo ``2**31 - 2``."""
    s = draw_seed(seed)
    if s.dtype == _dt.int32:
        return s
    return _a.cast(_m.floormod(s, 2**31 - 2), _dt.int32)


def _shape(shape):
    if isinstance(shape, _TensorLike):   # a traced call's shape (tf.shape(x))
        return shape
    return tuple(int(d) for d in shape)


def shape_of(x, noise_shape=None):
    """The shape of a draw over ``x`` (``None`` entries of ``noise_shape``: ``x``'s sizes):
    this call's sizes eagerly, a shape tensor inside a trace (as Keras's ``tf.shape``), so a
    relaxed traced program draws each call's shape."""
    if ACTIVE[0] and current_tracer() is not None:
        full = _a.shape(x)
        if noise_shape is None:
            return full
        return _a.stack([full[i] if d is None else int(d) for i, d in enumerate(noise_shape)])
    full = tuple(x.shape)
    if noise_shape is None:
        return full
    return tuple(full[i] if d is None else int(d) for i, d in enumerate(noise_shape))


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples of N(mean, stddev**2) (``keras.random.normal``): Keras on TensorFlow's
    numbers (``tf.random.stateless_normal``)."""
    return _sl.stateless_normal(_shape(shape), tf_seed(seed), mean, stddev, _float(dtype))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples of U[minval, maxval) (``keras.random.uniform``): Keras on TensorFlow's
    numbers (``tf.random.stateless_uniform``).

    Raises:
        ValueError: for an integer dtype (use ``randint``).
    """
    dtype = _float(dtype)
    if not dtype.is_floating:
        raise ValueError("`keras.random.uniform` requires a floating point `dtype`. "
                         f"Received: dtype={dtype.name} ")
    return _sl.stateless_uniform(_shape(shape), tf_seed(seed), _a.cast(minval, dtype),
                                 _a.cast(maxval, dtype), dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers uniform in ``[minval, maxval)`` (``keras.random.randint``)."""
    dtype = _dt.as_dtype(dtype)
    inner = dtype if dtype.name in ("int32", "int64") else _dt.int64
    out = _sl.stateless_uniform(_shape(shape), tf_seed(seed), minval, maxval, inner)
    return out if inner == dtype else _a.cast(out, dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples within two standard deviations (``keras.random.truncated_normal``):
    ``tf.random.stateless_truncated_normal``'s numbers."""
    return _sl.stateless_truncated_normal(_shape(shape), tf_seed(seed), mean, stddev,
                                          _float(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """``inputs`` with each element zeroed with probability ``rate`` and the rest scaled by
    ``1 / (1 - rate)`` (``keras.random.dropout``): TensorFlow's
    ``tf.nn.experimental.stateless_dropout`` (kept where a uniform draw is ``>= rate``)."""
    x = inputs if isinstance(inputs, _TensorLike) else convert_to_tensor(inputs)
    if rate == 1.0:
        return _a.zeros_like(x)
    if rate == 0.0:
        return x
    seed = tf_seed(seed)
    shape = shape_of(x, noise_shape)
    scaled = _m.multiply(x, convert_to_tensor(1.0 / (1.0 - rate), x.dtype))
    keep = _m.greater_equal(_sl.stateless_uniform(shape, seed, dtype=x.dtype), rate)
    return _a.where(keep, scaled, convert_to_tensor(0, x.dtype))


def shuffle(x, axis=0, seed=None):
    """``x`` with its slices along ``axis`` in a random order (``keras.random.shuffle``):
    the order that sorts ``tf.random.stateless_uniform`` draws, as Keras on TensorFlow."""
    x = x if isinstance(x, _TensorLike) else convert_to_tensor(x)
    u = _sl.stateless_uniform([x.shape[axis]], tf_seed(seed))
    return _ix.gather(x, _sort.argsort(u), axis=axis)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Class ids drawn from the rows of ``logits`` (``keras.random.categorical``):
    ``tf.random.stateless_categorical``'s numbers.

    Raises:
        ValueError: if ``logits`` is not 2-D.
    """
    logits = logits if isinstance(logits, _TensorLike) else convert_to_tensor(logits)
    if logits.ndim != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, "
                         f"num_classes]. Received: logits={logits}")
    out = _sl.stateless_categorical(logits, num_samples, tf_seed(seed))
    return _a.cast(out, _dt.as_dtype(dtype))


def _inner(dtype):
    # Keras draws bfloat16 gammas/binomials in float32 and casts them
    return _dt.float32 if dtype.name == "bfloat16" else dtype


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples of Gamma(alpha, 1) (``keras.random.gamma``): Keras on TensorFlow's numbers
    (``tf.random.stateless_gamma``)."""
    dtype = _float(dtype)
    out = _sl.stateless_gamma(_shape(shape), tf_seed(seed), alpha, dtype=_inner(dtype))
    return out if _inner(dtype) == dtype else _a.cast(out, dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples of Beta(alpha, beta) (``keras.random.beta``): ``X / (X + Y)`` for gamma
    draws ``X`` (seed ``s``) and ``Y`` (seed ``s + 12``), as Keras on TensorFlow."""
    dtype = _float(dtype)
    inner = _inner(dtype)
    s1 = tf_seed(seed)
    s2 = _m.add(s1, convert_to_tensor(12, _dt.int32))
    shape = _shape(shape)
    a = _a.broadcast_to(_a.cast(convert_to_tensor(alpha), inner), shape)
    b = _a.broadcast_to(_a.cast(convert_to_tensor(beta), inner), shape)
    ga = _a.cast(_sl.stateless_gamma(shape, s1, a, dtype=inner), dtype)
    gb = _a.cast(_sl.stateless_gamma(shape, s2, b, dtype=inner), dtype)
    return _m.divide(ga, _m.add(ga, gb))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Successes in ``counts`` trials of probability ``probabilities``
    (``keras.random.binomial``), as floats by default: Keras on TensorFlow's numbers
    (``tf.random.stateless_binomial``)."""
    dtype = _float(dtype)
    out = _sl.stateless_binomial(_shape(shape), tf_seed(seed), counts, probabilities,
                                 output_dtype=_inner(dtype))
    return out if _inner(dtype) == dtype else _a.cast(out, dtype)
