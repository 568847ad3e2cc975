"""Stateless random ops (``tf.random.stateless_*``): the same seed gives the same numbers.

TensorFlow's own streams: its seed scrambling, Philox4x32-10 and its transformations
(``philox.py``), so ``stateless_normal([3], seed=[1, 2])`` equals TensorFlow's (normals to
within float32 rounding of ``sin``/``cos``/``log``). Each draw is a primitive with the seed
as its input.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import Primitive, nondifferentiable
from .._core.tensor import _TensorLike, convert_to_tensor
from . import math_ops as _m
from . import philox
from ._helpers import shape_tuple

__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal",
           "stateless_categorical", "stateless_gamma", "stateless_poisson", "stateless_binomial",
           "split", "fold_in",
           "bits", "uniform_ints", "full_ints"]

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def bits(kind, key, counter, n, np_dtype):
    """``n`` draws of ``kind`` (uniform, normal, truncated) as ``np_dtype``, from
    ``key``/``counter``, as TensorFlow's CPU kernels compute them: float64 from two words
    per uniform (four per normal pair), float16/bfloat16 uniforms from 10/7 bits of one
    word, their normals in float32 then rounded."""
    np_dtype = np.dtype(np_dtype)
    double = np_dtype == np.float64
    if kind == "uniform":
        if np_dtype.itemsize == 2:
            return philox.uniform_half(key, counter, n, np_dtype)
        out = philox.uniform_double(key, counter, n) if double else \
            philox.uniform_float(key, counter, n)
    elif kind == "normal":
        out = philox.normal_double(key, counter, n) if double else \
            philox.normal_float(key, counter, n)
    else:
        out = philox.truncated_normal_double(key, counter, n) if double else \
            philox.truncated_normal_float(key, counter, n)
    return out.astype(np_dtype, copy=False)


def full_ints(key, counter, n, np_dtype):
    """``n`` integers over the whole range of ``np_dtype`` (32- or 64-bit)."""
    if np.dtype(np_dtype).itemsize == 4:
        return philox.philox(key, counter, -(-n // 4))[:n].view(np_dtype)
    w = philox.philox(key, counter, -(-n // 2)).astype(np.uint64)
    return ((w[1::2] << np.uint64(32)) | w[0::2])[:n].view(np_dtype)


def uniform_ints(key, counter, n, lo, hi, np_dtype):
    """``n`` integers in ``[lo, hi)``: ``lo + bits % (hi - lo)``, as TensorFlow."""
    span = int(hi) - int(lo)
    wide = np.dtype(np_dtype).itemsize == 8
    raw = full_ints(key, counter, n, np.uint64 if wide else np.uint32)
    return (int(lo) + (raw % np.uint64(span) if wide else raw % np.uint32(span))
            .astype(np.int64)).astype(np_dtype)


def _seed_words(seed):
    s = np.asarray(seed).reshape(-1).tolist()
    return philox.key_counter_from_seed(s[0], s[1])


def _stateless_forward(seed, shape, kind, dtype, lo=None, hi=None):
    key, counter = _seed_words(seed)
    n = int(np.prod(shape)) if shape else 1
    if kind == "int":
        out = uniform_ints(key, counter, n, lo, hi, dtype)
    elif kind == "full":
        out = full_ints(key, counter, n, dtype)
    else:
        out = bits(kind, key, counter, n, dtype)
    return out.reshape(shape)


_STATELESS = nondifferentiable("StatelessRandomV2", _stateless_forward)


def _dynamic_forward(seed, shape, kind, dtype, lo=None, hi=None):
    return _stateless_forward(seed, tuple(int(d) for d in shape), kind, dtype, lo, hi)


# The shape as an input (``tf.shape(x)`` inside a trace): a relaxed program draws each
# call's shape. Not in the op table (its twin takes the shape as an attribute).
_STATELESS_SHAPED = Primitive("StatelessRandomV2Shaped", _dynamic_forward,
                              differentiable=False, save_inputs=False)


def _seed(seed):
    s = seed if isinstance(seed, _TensorLike) else convert_to_tensor(seed)
    if s._value.shape != (2,):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"seed must have shape [2], not {list(s._value.shape)}",
                              "StatelessRandomGetKeyCounter")
    if s._value.dtype.kind not in "iu":
        raise TypeError(f"seed must be an int32 or int64 tensor, got {s.dtype.name}")
    return s


def _draw(shape, seed, kind, dtype, **attrs):
    if ACTIVE[0] and isinstance(shape, _TensorLike) and current_tracer() is not None \
            and shape._value.ndim == 1 and shape._value.dtype.kind in "iu":
        return apply(_STATELESS_SHAPED, (_seed(seed), shape),
                     dict(kind=kind, dtype=dtype._np, **attrs))
    shape = shape_tuple(shape)
    return apply(_STATELESS, (_seed(seed),), dict(shape=shape, kind=kind,
                                                  dtype=dtype._np, **attrs))


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=_dt.float32, name=None,
                      alg="auto_select"):
    """Uniform samples in ``[minval, maxval)``, a function of ``seed``.

    TensorFlow counterpart: ``tf.random.stateless_uniform`` (the same numbers).

    Args:
        shape: the output shape.
        seed: a shape ``[2]`` int32/int64 tensor.
        minval, maxval: the range (``maxval`` defaults to 1 for floats; for integer
            dtypes both are required, or both ``None`` for the full range).
        dtype: float16/32/64, int32/int64, uint32/uint64.

    Returns:
        A Tensor of ``shape`` and ``dtype``.

    Raises:
        ValueError: for an integer dtype with only one of ``minval``/``maxval``.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_uniform([3], seed=[1, 2]).numpy()
        array([0.8440604 , 0.19204533, 0.9962232 ], dtype=float32)
    """
    dtype = _dt.as_dtype(dtype)
    if dtype.is_integer:
        if minval is None and maxval is None:
            return _draw(shape, seed, "full", dtype)
        if minval is None or maxval is None:
            raise ValueError("For integer `dtype` argument "
                             f"{dtype!r}, argument `minval` and `maxval` must be both None "
                             f"or not None. Got `minval`={minval} and `maxval`={maxval}.")
        if dtype.name.startswith("uint"):
            raise ValueError(f"Argument `dtype` got invalid value {dtype!r}. For unsigned "
                             "integer dtype, argument `minval` and `maxval` must be None.")
        lo, hi = (int(v._value) if isinstance(v, _TensorLike) else int(v)
                  for v in (minval, maxval))
        if hi <= lo:
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"Need minval < maxval, got {lo} >= {hi}",
                                  "StatelessRandomUniformIntV2")
        return _draw(shape, seed, "int", dtype, lo=lo, hi=hi)
    if dtype.name not in _FLOATS:
        raise ValueError(f"Invalid dtype {dtype!r}: a float or integer dtype is needed")
    u = _draw(shape, seed, "uniform", dtype)
    maxval = 1 if maxval is None else maxval
    lo, hi = (v if isinstance(v, _TensorLike) else convert_to_tensor(v, dtype)
              for v in (minval, maxval))
    return _m.add(_m.multiply(u, _m.subtract(hi, lo)), lo)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None,
                     alg="auto_select"):
    """Normal samples ``mean + stddev * z``, a function of ``seed``.

    TensorFlow counterpart: ``tf.random.stateless_normal`` (the same numbers).

    Args:
        shape: the output shape.
        seed: a shape ``[2]`` int32/int64 tensor.
        mean, stddev: scalars or tensors broadcastable to ``shape`` (differentiable).
        dtype: float16/32/64.

    Returns:
        A Tensor of ``shape`` and ``dtype``.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_normal([2], seed=[1, 2]).numpy().round(5)
        array([0.54411, 0.20738], dtype=float32)
    """
    dtype = _dt.as_dtype(dtype)
    z = _draw(shape, seed, "normal", dtype)
    return _affine(z, mean, stddev, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32,
                               name=None, alg="auto_select"):
    """Normal samples within two standard deviations, a function of ``seed``.

    TensorFlow counterpart: ``tf.random.stateless_truncated_normal`` (the same numbers).

    Args:
        shape: the output shape.
        seed: a shape ``[2]`` int32/int64 tensor.
        mean, stddev: scalars or tensors broadcastable to ``shape``.
        dtype: float16/32/64.

    Returns:
        A Tensor of ``shape`` and ``dtype``, every value within ``mean +- 2 stddev``.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.stateless_truncated_normal([100], seed=[3, 4])
        >>> bool(tf.reduce_all(tf.abs(x) < 2.0))
        True
    """
    dtype = _dt.as_dtype(dtype)
    z = _draw(shape, seed, "truncated", dtype)
    return _affine(z, mean, stddev, dtype)


def _affine(z, mean, stddev, dtype):
    m, s = (v if isinstance(v, _TensorLike) else convert_to_tensor(v, dtype)
            for v in (mean, stddev))
    return _m.add(_m.multiply(z, s), m)


def _categorical_forward(logits, seed, num_samples, dtype):
    key, counter = _seed_words(seed)
    return categorical_rows(key, counter, logits, num_samples, dtype)


def categorical_rows(key, counter, logits, num_samples, np_dtype):
    """TensorFlow's multinomial sampler: per row, a cumulative sum of ``exp(logit - max)``
    in float64 and one uniform double (two words) per sample, rows drawn in turn."""
    batch, classes = logits.shape
    out = np.empty((batch, num_samples), np_dtype)
    need = batch * num_samples * 2
    words = philox.philox(key, counter, -(-need // 4))
    u = philox._to_double(words[0:need:2], words[1:need:2]).reshape(batch, num_samples) \
        if need else np.zeros((batch, num_samples))
    for b in range(batch):
        row = logits[b].astype(np.float64)
        finite = np.isfinite(row)
        top = row[finite].max() if finite.any() else np.finfo(np.float64).min
        cdf = np.cumsum(np.where(finite, np.exp(row - top), 0.0))
        out[b] = np.searchsorted(cdf, u[b] * cdf[-1], side="right")
    return out


_CATEGORICAL = nondifferentiable("StatelessMultinomial", _categorical_forward)


def stateless_categorical(logits, num_samples, seed, dtype=_dt.int64, name=None):
    """Class indices drawn from ``softmax(logits)`` per row, a function of ``seed``.

    TensorFlow counterpart: ``tf.random.stateless_categorical`` (the same numbers).

    Args:
        logits: ``[batch, num_classes]`` float tensor (unnormalised log-probabilities).
        num_samples: how many draws per row.
        seed: a shape ``[2]`` int32/int64 tensor.
        dtype: int32 or int64 (default).

    Returns:
        A ``[batch, num_samples]`` integer tensor.

    Raises:
        ValueError: if ``logits`` is not 2-D.

    Example:
        >>> import tapeflow as tf
        >>> logits = tf.math.log([[0.1, 0.9]])
        >>> tf.random.stateless_categorical(logits, 5, seed=[7, 1]).shape
        TensorShape([1, 5])
    """
    x = logits if isinstance(logits, _TensorLike) else convert_to_tensor(logits)
    if x._value.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {x.shape}")
    return apply(_CATEGORICAL, (x, _seed(seed)),
                 {"num_samples": int(num_samples), "dtype": _dt.as_dtype(dtype)._np})


def split(seed, num=2, alg="auto_select"):
    """``num`` new seeds drawn from ``seed`` (``tf.random.split``): a ``[num, 2]`` tensor of
    ``seed``'s dtype, TensorFlow's numbers.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.split(tf.constant([1, 2]), 3).shape
        TensorShape([3, 2])
    """
    s = _seed(seed)
    return stateless_uniform([int(num), 2], s, minval=None, maxval=None, dtype=s.dtype)


def fold_in(seed, data, alg="auto_select"):
    """A new seed from ``seed`` and an integer ``data`` (``tf.random.fold_in``):
    ``[draw, data]`` as TensorFlow makes it.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.fold_in(tf.constant([1, 2]), 5).shape
        TensorShape([2])
    """
    from . import array_ops as _a
    d = data if isinstance(data, _TensorLike) else convert_to_tensor(data)
    first = stateless_uniform([], _seed(seed), minval=None, maxval=None, dtype=d.dtype)
    return _a.stack([first, d])


def gamma_samples(key, counter, alphas, shape, np_dtype):
    """TensorFlow's gamma kernel (``philox.gamma``) for ``alphas`` (flat float64), ``shape``
    ending in ``alphas``' count: float64 samples rounded to ``np_dtype`` through float32
    for the 16-bit types, as ``static_cast<T>``."""
    n = int(np.prod(shape)) if shape else 1
    per = n // max(len(alphas), 1)
    out = philox.gamma(key, counter, alphas, per)
    if np.dtype(np_dtype).itemsize == 2:
        out = out.astype(np.float32)
    return out.astype(np_dtype).reshape(shape)


def _gamma_forward(seed, alpha, shape, dtype):
    key, counter = _seed_words(seed)
    if int(np.prod(shape)) == 0:
        return np.zeros(shape, dtype)
    return gamma_samples(key, counter, np.ravel(alpha).astype(np.float64), shape, dtype)


_GAMMA = nondifferentiable("StatelessRandomGammaV3", _gamma_forward)


def gamma_tail(rnd, alpha_dtype, beta):
    """``maximum(tiny, rnd / beta)``, the last step of TensorFlow's gamma samplers."""
    tiny = convert_to_tensor(np.finfo(alpha_dtype._np).tiny, alpha_dtype)
    return _m.maximum(tiny, _m.divide(rnd, beta))


def stateless_gamma(shape, seed, alpha, beta=None, dtype=_dt.float32, name=None):
    """Gamma(alpha, beta) samples (``beta`` the rate), a function of ``seed``.

    TensorFlow counterpart: ``tf.random.stateless_gamma`` (the same numbers on CPU:
    Marsaglia-Tsang on TensorFlow's Philox stream, 256 counters per output). Not
    differentiable here (TensorFlow differentiates with respect to ``alpha``).

    Args:
        shape: the output shape; it must end with the broadcast shape of ``alpha`` and
            ``beta``.
        seed: a shape ``[2]`` int32/int64 tensor.
        alpha: concentration(s), float.
        beta: rate(s) (default 1), broadcastable with ``alpha``.
        dtype: float16, bfloat16, float32 or float64.

    Returns:
        A Tensor of ``shape`` and ``dtype``, every value at least the dtype's ``tiny``.

    Raises:
        tf.errors.InvalidArgumentError: if ``shape`` does not end with ``alpha``'s shape
            or ``alpha`` is empty.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_gamma([3], seed=[1, 2], alpha=2.0).numpy()
        array([2.8172736, 1.9241365, 3.3360066], dtype=float32)
    """
    dtype = _dt.as_dtype(dtype)
    a = convert_to_tensor(alpha, dtype)
    b = convert_to_tensor(1 if beta is None else beta, dtype)
    bshape = np.broadcast_shapes(a._value.shape, b._value.shape)
    if a._value.shape != bshape:
        from . import array_ops as _a
        a = _a.broadcast_to(a, bshape)
    shape = shape_tuple(shape)
    if len(shape) < len(bshape) or tuple(shape[len(shape) - len(bshape):]) != bshape:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Shape passed in must end with broadcasted shape.",
                              "StatelessRandomGammaV3")
    if a._value.size == 0 and int(np.prod(shape)):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Input alpha should have non-zero element count, got: 0",
                              "StatelessRandomGammaV3")
    rnd = apply(_GAMMA, (_seed(seed), a), dict(shape=shape, dtype=dtype._np))
    return gamma_tail(rnd, dtype, b)


def poisson_samples(key, counter, lam, shape, np_dtype):
    """TensorFlow's Poisson kernel (``philox.poisson``, in float64) for the rates ``lam``
    (an array), ``shape`` ending in ``lam``'s element count, as ``np_dtype``."""
    n = int(np.prod(shape)) if shape else 1
    rates = np.ravel(lam)
    per = n // max(rates.size, 1)
    out = philox.poisson(key, counter, rates.astype(np.float64), per)
    return out.astype(np_dtype).reshape(shape)


def _poisson_forward(seed, lam, shape, dtype):
    if int(np.prod(shape)) == 0:
        return np.zeros(shape, dtype)
    key, counter = _seed_words(seed)
    return poisson_samples(key, counter, lam, shape, dtype)


_POISSON = nondifferentiable("StatelessRandomPoisson", _poisson_forward)
_POISSON_DTYPES = ("float16", "float32", "float64", "int32", "int64")


def stateless_poisson(shape, seed, lam, dtype=_dt.int32, name=None):
    """Poisson(lam) samples, a function of ``seed``.

    TensorFlow counterpart: ``tf.random.stateless_poisson`` (the same numbers on CPU:
    Knuth's method below rate 10, Hormann's transformed rejection above, on TensorFlow's
    Philox stream with 256 counters per output, computed in float64).

    Args:
        shape: the output shape; it must end with ``lam``'s shape.
        seed: a shape ``[2]`` int32/int64 tensor.
        lam: the rate(s): float16/32/64 or int32/int64.
        dtype: float16/32/64, int32 or int64.

    Returns:
        A Tensor of ``shape`` and ``dtype``.

    Raises:
        tf.errors.InvalidArgumentError: if ``shape`` does not end with ``lam``'s shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_poisson([3], seed=[1, 2], lam=4.0).numpy()
        array([6, 5, 6], dtype=int32)
    """
    dtype = _dt.as_dtype(dtype)
    if dtype.name not in _POISSON_DTYPES:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not "
                        f"in list of allowed values: float16, float32, float64, int32, int64")
    rate = lam if isinstance(lam, _TensorLike) else convert_to_tensor(lam)
    shape = shape_tuple(shape)
    rshape = rate._value.shape
    if len(shape) < len(rshape) or tuple(shape[len(shape) - len(rshape):]) != rshape:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Shape passed in must end with broadcasted shape.",
                              "StatelessRandomPoisson")
    return apply(_POISSON, (_seed(seed), rate), dict(shape=shape, dtype=dtype._np))


def _binomial_forward(seed, counts, probs, shape, dtype):
    if int(np.prod(shape)) == 0:
        return np.zeros(shape, dtype)
    key, counter = _seed_words(seed)
    bshape = np.broadcast_shapes(counts.shape, probs.shape)
    c = np.broadcast_to(counts, bshape).reshape(-1)
    p = np.broadcast_to(probs, bshape).reshape(-1)
    per = int(np.prod(shape[:len(shape) - len(bshape)]))
    out = philox.binomial(key, counter, c, p, per)
    if np.dtype(dtype).kind in "iu":
        out = np.trunc(np.nan_to_num(out))
    return out.astype(dtype).reshape(shape)


_BINOMIAL = nondifferentiable("StatelessRandomBinomial", _binomial_forward)


def stateless_binomial(shape, seed, counts, probs, output_dtype=_dt.int32, name=None):
    """Binomial(counts, probs) samples, a function of ``seed``.

    TensorFlow counterpart: ``tf.random.stateless_binomial`` (the same numbers on CPU:
    inversion by geometric sums where ``counts * min(p, 1 - p) < 10``, Hormann's BTRS
    otherwise, on TensorFlow's Philox stream).

    Args:
        shape: the output shape; it must end with the broadcast shape of ``counts`` and
            ``probs``.
        seed: a shape ``[2]`` int32/int64 tensor.
        counts: numbers of trials (float16/32/64, the dtype of ``probs``).
        probs: success probabilities (float; float32 by default).
        output_dtype: float16/32/64, int32 or int64.

    Returns:
        A Tensor of ``shape`` and ``output_dtype``.

    Raises:
        tf.errors.InvalidArgumentError: if ``shape`` does not end with the parameters'
            broadcast shape, or they do not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_binomial([4], seed=[1, 2], counts=10.0, probs=0.5).numpy()
        array([6, 6, 7, 7], dtype=int32)
    """
    dtype = _dt.as_dtype(output_dtype)
    if dtype.name not in _POISSON_DTYPES:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not "
                        f"in list of allowed values: float16, float32, float64, int32, int64")
    p = probs if isinstance(probs, _TensorLike) else convert_to_tensor(
        probs, dtype_hint=_dt.float32)
    c = counts if isinstance(counts, _TensorLike) else convert_to_tensor(
        counts, dtype_hint=p.dtype)
    shape = shape_tuple(shape)
    try:
        bshape = np.broadcast_shapes(c._value.shape, p._value.shape)
    except ValueError:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"counts and probs must have compatible batch dimensions: "
                              f"{list(c._value.shape)} vs. {list(p._value.shape)}",
                              "StatelessRandomBinomial") from None
    if len(shape) < len(bshape) or tuple(shape[len(shape) - len(bshape):]) != bshape:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Shape passed in must end with broadcasted shape.",
                              "StatelessRandomBinomial")
    return apply(_BINOMIAL, (_seed(seed), c, p), dict(shape=shape, dtype=dtype._np))
