"""Random tensors (``tf.random``): a global seed as in TensorFlow, NumPy's PCG64 generator.

The streams differ from TensorFlow's Philox, so seeded values are reproducible within
tapeflow but not equal to TensorFlow's.
"""
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, static_value
from ._helpers import shape_tuple

__all__ = ["normal", "uniform", "set_seed", "truncated_normal", "shuffle", "get_global_seed"]

# The generator is made on first use: numpy.random stays off ``import tapeflow``.
_state = {"seed": None, "rng": None, "ops": {}}


def set_seed(seed):
    """Set the global random seed (``tf.random.set_seed``); ``None`` clears it.

    Every later op draws from a generator restarted from this seed, so a program that
    sets it prints the same numbers on every run.
    """
    _state["seed"] = None if seed is None else int(seed)
    _state["rng"] = np.random.default_rng(seed)
    _state["ops"] = {}


def get_global_seed():
    return _state["seed"]


def _rng(seed):
    if seed is None:
        rng = _state["rng"]
        if rng is None:
            rng = _state["rng"] = np.random.default_rng(_state["seed"])
        return rng
    key = (_state["seed"], int(seed))
    rng = _state["ops"].get(key)
    if rng is None:
        rng = _state["ops"][key] = np.random.default_rng([int(seed), _state["seed"] or 0])
    return rng


def _draw(kind):
    # The forward of a random primitive: it draws again each time it runs, so a replayed
    # tf.function program gives fresh values on every call, as TensorFlow's random ops do.
    def forward(shape, dtype, seed, **kw):
        return _DRAWS[kind](_rng(seed), shape, dtype._np, **kw)
    return forward


def _standard_normal(rng, shape, npdt):
    out = rng.standard_normal(shape)
    return np.asarray(out, npdt) if shape else npdt.type(out)


def _truncated(rng, shape, npdt):
    z = rng.standard_normal(shape)
    bad = np.abs(z) > 2
    while np.any(bad):
        z[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2
    return np.asarray(z, npdt) if shape else npdt.type(z)


def _uniform01(rng, shape, npdt):
    out = rng.random(shape)
    return np.asarray(out, npdt) if shape else npdt.type(out)


def _uniform_int(rng, shape, npdt, low, high):
    out = rng.integers(low, high, size=shape)
    return np.asarray(out, npdt) if shape else npdt.type(out)


_DRAWS = {"normal": _standard_normal, "truncated": _truncated, "uniform": _uniform01,
          "int": _uniform_int}
_NORMAL = nondifferentiable("RandomStandardNormal", _draw("normal"))
_TRUNCATED = nondifferentiable("TruncatedNormal", _draw("truncated"))
_UNIFORM = nondifferentiable("RandomUniform", _draw("uniform"))
_UNIFORM_INT = nondifferentiable("RandomUniformInt", _draw("int"))
_SHUFFLE = nondifferentiable(
    "RandomShuffle", lambda v, seed: v[_rng(seed).permutation(v.shape[0])] if v.ndim else v)


def _scaled(prim, shape, mean, stddev, dtype, seed):
    dtype = _dt.as_dtype(dtype)
    z = apply(prim, (), {"shape": shape_tuple(shape), "dtype": dtype, "seed": seed})
    if _is_const(stddev, 1):
        if _is_const(mean, 0):
            return z
        return z + _as(mean, dtype)
    return z * _as(stddev, dtype) + _as(mean, dtype)


def _is_const(v, c):
    return not isinstance(v, _TensorLike) and not isinstance(v, np.ndarray) and v == c


def _as(v, dtype):
    return v if isinstance(v, _TensorLike) else Tensor(np.asarray(v, dtype._np)[()])


def normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2) (``tf.random.normal``).

    Args:
        shape: the output shape (list, tuple, TensorShape or 1-D int tensor).
        mean, stddev: scalars or tensors broadcastable to ``shape``.
        dtype: a floating DType (default float32).
        seed: an op-level seed; with the global seed it fixes the stream.

    Returns:
        A Tensor of ``shape`` and ``dtype``.
    """
    return _scaled(_NORMAL, shape, mean, stddev, dtype, seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Normal samples, redrawn beyond two standard deviations (``tf.random.truncated_normal``)."""
    return _scaled(_TRUNCATED, shape, mean, stddev, dtype, seed)


def uniform(shape, minval=0, maxval=None, dtype=_dt.float32, seed=None, name=None):
    """Samples from the uniform distribution on ``[minval, maxval)`` (``tf.random.uniform``).

    Args:
        shape: the output shape.
        minval, maxval: the range; ``maxval`` defaults to 1 for floats and is required for
            integer dtypes.
        dtype: float16/32/64 or int32/int64.

    Raises:
        ValueError: for an integer dtype without ``maxval``.
    """
    dtype = _dt.as_dtype(dtype)
    shape = shape_tuple(shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        return apply(_UNIFORM_INT, (), {"shape": shape, "dtype": dtype, "seed": seed,
                                        "low": _static(minval), "high": _static(maxval)})
    u = apply(_UNIFORM, (), {"shape": shape, "dtype": dtype, "seed": seed})
    hi = 1.0 if maxval is None else maxval
    if _is_const(minval, 0) and _is_const(hi, 1.0):
        return u
    lo = _as(minval, dtype)
    return u * (_as(hi, dtype) - lo) + lo


def _static(v):
    return static_value(v)[()] if isinstance(v, _TensorLike) else v


def shuffle(value, seed=None, name=None):
    """``value`` with its first axis randomly permuted (``tf.random.shuffle``)."""
    v = value if isinstance(value, _TensorLike) else Tensor(np.asarray(value))
    return apply(_SHUFFLE, (v,), {"seed": seed})
