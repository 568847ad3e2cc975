"""``tf.experimental.numpy.random``: NumPy's random API on tapeflow's generator.

Values come from tapeflow's global generator (``seed`` re-seeds it), so they match NumPy's
distributions, not TF's bit streams; dtypes and shapes are TF's: float64 draws, int64 ints.
"""
import numpy as _np

import tapeflow as _tf


def _size(size):
    if size is None:
        return []
    return [int(size)] if isinstance(size, (int, _np.integer)) else [int(s) for s in size]


def seed(s):
    """Seed the generator the draws below use (``tf.random.set_seed``); ``tnp.random.seed``."""
    _tf.random.set_seed(int(s))


def standard_normal(size=None):
    """Standard normal float64 draws of shape ``size``; ``np.random.standard_normal``."""
    return _tf.random.normal(_size(size), dtype=_tf.float64)


def randn(*args):
    """Standard normal float64 draws of shape ``args``; ``np.random.randn``."""
    return standard_normal(args)


def uniform(low=0.0, high=1.0, size=None):
    """Uniform float64 draws in ``[low, high)`` of shape ``size``; ``np.random.uniform``."""
    low = _tf.cast(low, _tf.float64)
    high = _tf.cast(high, _tf.float64)
    return _tf.random.uniform(_size(size), dtype=_tf.float64) * (high - low) + low


def random(size=None):
    """Uniform float64 draws in ``[0, 1)``; ``np.random.random``."""
    return uniform(size=size)


def rand(*size):
    """Uniform float64 draws in ``[0, 1)`` of shape ``size``; ``np.random.rand``."""
    return uniform(size=size)


def randint(low, high=None, size=None, dtype=_np.int64):
    """Integers in ``[low, high)`` (``[0, low)`` without ``high``), int64 by default."""
    if high is None:
        low, high = 0, low
    dtype = _tf.as_dtype(dtype)
    return _tf.random.uniform(_size(size), int(low), int(high), dtype=_tf.int64 if dtype not in
                              (_tf.int32, _tf.int64) else dtype)


def poisson(lam=1.0, size=None):
    """Poisson int64 draws of rate ``lam``; ``np.random.poisson``."""
    g = _np.random.default_rng(int(_tf.random.uniform([], 0, 2**31 - 1, dtype=_tf.int64)))
    return _tf.constant(g.poisson(lam, _size(size)).astype(_np.int64))
