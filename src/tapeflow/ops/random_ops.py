"""Random tensors (``tf.random``): a global seed as in TensorFlow, NumPy's PCG64 generator.

The streams differ from TensorFlow's, so seeded values are reproducible within tapeflow but
not equal to TensorFlow's (the stateless ops and ``tf.random.Generator`` give TensorFlow's
exact numbers: ``stateless_random_ops``, ``stateful_random_ops``). Every draw happens in a
primitive's forward, so a replayed (traced) program draws again.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import Primitive, nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from ._helpers import shape_tuple

__all__ = ["normal", "uniform", "set_seed", "truncated_normal", "shuffle", "get_global_seed",
           "categorical"]

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


def _snapshot():
    """The state of the global and the op-seeded generators (see :func:`_restore`)."""
    rng = _state["rng"]
    return (dict(_state), None if rng is None else rng.bit_generator.state,
            {k: g.bit_generator.state for k, g in _state["ops"].items()})


def _restore(snapshot):
    """Put the generators back as :func:`_snapshot` found them: a trace that is undone
    (a first ``tf.function`` call that created variables is traced again) has drawn
    nothing, as TensorFlow's graph building draws nothing."""
    state, rng_state, op_states = snapshot
    _state.update(state)
    _state["ops"] = dict(state["ops"])
    for key in list(_state["ops"]):
        if key not in op_states:
            del _state["ops"][key]
        else:
            _state["ops"][key].bit_generator.state = op_states[key]
    if rng_state is not None:
        _state["rng"].bit_generator.state = rng_state


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


_DRAWS = {"normal": _standard_normal, "truncated": _truncated, "uniform": _uniform01}
_NORMAL = nondifferentiable("RandomStandardNormal", _draw("normal"))
_TRUNCATED = nondifferentiable("TruncatedNormal", _draw("truncated"))
_UNIFORM = nondifferentiable("RandomUniform", _draw("uniform"))
_SHUFFLE = nondifferentiable(
    "RandomShuffle", lambda v, seed: v[_rng(seed).permutation(v.shape[0])] if v.ndim else v)


def _dynamic(kind, name):
    # The shape as an input tensor (``tf.random.uniform(tf.shape(x))`` inside a trace): a
    # relaxed program draws each call's shape. Not in the op table (its twin takes the
    # shape as an attribute).
    def forward(shape, dtype, seed):
        return _DRAWS[kind](_rng(seed), tuple(int(d) for d in shape), dtype._np)
    return Primitive(name, forward, differentiable=False, save_inputs=False)


_DYNAMIC = {_NORMAL: _dynamic("normal", "RandomStandardNormal"),
            _TRUNCATED: _dynamic("truncated", "TruncatedNormal"),
            _UNIFORM: _dynamic("uniform", "RandomUniform")}


def _draw_op(prim, shape, dtype, seed):
    """Run random primitive ``prim``; inside a trace a shape computed by ops (a 1-D int
    tensor such as ``tf.shape(x)``) stays an input of the program."""
    if ACTIVE[0] and isinstance(shape, _TensorLike) and current_tracer() is not None \
            and shape._value.ndim == 1 and shape._value.dtype.kind in "iu":
        return apply(_DYNAMIC[prim], (shape,), {"dtype": dtype, "seed": seed})
    return apply(prim, (), {"shape": shape_tuple(shape), "dtype": dtype, "seed": seed})


def _scaled(prim, shape, mean, stddev, dtype, seed, check_op=None):
    dtype = _dt.as_dtype(dtype)
    _check_float(mean, dtype)
    if ACTIVE[0] and isinstance(shape, _TensorLike) and current_tracer() is not None:
        z = _draw_op(prim, shape, dtype, seed)
    else:
        shape = shape_tuple(shape)
        if check_op is not None:
            _check_dims(shape, check_op)
        z = apply(prim, (), {"shape": shape, "dtype": dtype, "seed": seed})
    if _is_const(stddev, 1):
        if _is_const(mean, 0):
            return z
        return z + _as(mean, dtype)
    return z * _as(stddev, dtype) + _as(mean, dtype)


def _is_const(v, c):
    return not isinstance(v, _TensorLike) and not isinstance(v, np.ndarray) and v == c


def _as(v, dtype):
    return v if isinstance(v, _TensorLike) else Tensor(np.asarray(v, dtype._np)[()])


def _draw_forward(*arrays, kind, shape, dtype, seed, consts):
    # The draw happens here, in a primitive's forward: a replayed program draws again.
    it = iter(arrays)
    params = [next(it) if c is None else c for c in consts]
    rng = _rng(seed)
    if kind == "normal":
        mean, stddev = params
        out = rng.standard_normal(shape) * stddev + mean
    elif kind == "truncated":
        mean, stddev = params
        z = rng.standard_normal(shape)
        bad = np.abs(z) > 2
        while np.any(bad):
            z[bad] = rng.standard_normal(int(bad.sum()))
            bad = np.abs(z) > 2
        out = z * stddev + mean
    elif kind == "uniform_int":
        lo, hi = params
        out = rng.integers(lo, hi, size=shape)
    else:
        lo, hi = params
        out = rng.random(shape) * (hi - lo) + lo
    return np.asarray(out, dtype) if shape else dtype.type(out)


_RANDOM = nondifferentiable("RandomV2", _draw_forward)


def _draw_v2(kind, shape, dtype, seed, *params):
    tensors = tuple(p for p in params if isinstance(p, _TensorLike))
    consts = tuple(None if isinstance(p, _TensorLike) else p for p in params)
    return apply(_RANDOM, tensors, {"kind": kind, "shape": shape, "dtype": dtype._np,
                                    "seed": seed, "consts": consts})


def _check_dims(shape, op):
    from .creation_ops import check_dims
    check_dims(shape, op)


def _check_float(mean, dtype):
    """TensorFlow's error for a normal draw of a non-float dtype (it converts ``mean``)."""
    if not (dtype.is_floating or dtype.is_complex):
        from .._core.tensor import _C_NAMES
        raise TypeError(f"Cannot convert {_value(mean)!r} to EagerTensor of dtype "
                        f"{_C_NAMES.get(dtype.name, dtype.name)}")


def _value(v):
    return v._value if isinstance(v, _TensorLike) else v


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
    return _scaled(_NORMAL, shape, mean, stddev, dtype, seed, "RandomStandardNormal")


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
    if ACTIVE[0] and not dtype.is_integer and isinstance(shape, _TensorLike) \
            and current_tracer() is not None:
        u = _draw_op(_UNIFORM, shape, dtype, seed)
        hi = 1.0 if maxval is None else maxval
        if _is_const(minval, 0) and _is_const(hi, 1.0):
            return u
        lo = _as(minval, dtype)
        return u * (_as(hi, dtype) - lo) + lo
    shape = shape_tuple(shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        _check_dims(shape, "RandomUniformInt")
        if not isinstance(minval, _TensorLike) and not isinstance(maxval, _TensorLike) and \
                np.any(np.asarray(minval) >= np.asarray(maxval)):
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"Need minval < maxval, got {minval} >= {maxval}",
                                  "RandomUniformInt")
        return _draw_v2("uniform_int", shape, dtype, seed, minval, maxval)
    _check_dims(shape, "RandomUniform")
    u = apply(_UNIFORM, (), {"shape": shape, "dtype": dtype, "seed": seed})
    hi = 1.0 if maxval is None else maxval
    if _is_const(minval, 0) and _is_const(hi, 1.0):
        return u
    lo = _as(minval, dtype)
    return u * (_as(hi, dtype) - lo) + lo


def shuffle(value, seed=None, name=None):
    """``value`` with its first axis randomly permuted (``tf.random.shuffle``)."""
    v = value if isinstance(value, _TensorLike) else convert_to_tensor(value)
    return apply(_SHUFFLE, (v,), {"seed": seed})


def _categorical_forward(logits, num_samples, dtype, seed):
    # Drawn in the forward, so a replayed program draws again (as a stateful op).
    u = _rng(seed).random((logits.shape[0], num_samples))
    out = np.empty(u.shape, dtype)
    for b, row in enumerate(logits.astype(np.float64)):
        finite = np.isfinite(row)
        top = row[finite].max() if finite.any() else 0.0
        cdf = np.cumsum(np.where(finite, np.exp(row - top), 0.0))
        out[b] = np.searchsorted(cdf, u[b] * cdf[-1], side="right")
    return out


_MULTINOMIAL = nondifferentiable("Multinomial", _categorical_forward)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Class indices drawn from ``softmax(logits)`` for each row (``tf.random.categorical``).

    The stream is tapeflow's (seeded by ``tf.random.set_seed`` and ``seed``); TensorFlow's
    exact numbers come from ``tf.random.stateless_categorical`` or a ``tf.random.Generator``.

    Args:
        logits: ``[batch, num_classes]`` unnormalised log-probabilities.
        num_samples: draws per row.
        dtype: int64 (default) or int32.
        seed: an op-level seed.

    Returns:
        A ``[batch, num_samples]`` integer tensor.

    Raises:
        ValueError: if ``logits`` is not 2-D.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.categorical(tf.math.log([[0.0, 1.0]]), 3).numpy()
        array([[1, 1, 1]])
    """
    x = logits if isinstance(logits, _TensorLike) else convert_to_tensor(logits)
    if x._value.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {x.shape}")
    dtype = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    return apply(_MULTINOMIAL, (x,), {"num_samples": int(num_samples), "dtype": dtype._np,
                                      "seed": seed})
