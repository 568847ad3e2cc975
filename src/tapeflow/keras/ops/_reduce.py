"""``keras.ops.numpy``'s reductions, cumulative and order statistics."""
import numpy as np

from ._base import axes, cast, dt, family, float_of, floatx, result_type, tensor, tf

__all__ = [
    "sum", "prod", "mean", "max", "min", "amax", "amin", "all", "any", "std", "var", "argmax",
    "argmin", "count_nonzero", "median", "ptp", "nanmax", "nanmin", "nansum", "nanprod",
    "nanmean", "nanstd", "nanvar", "nanargmax", "nanargmin", "nanmedian", "cumsum", "cumprod",
    "nancumsum", "nancumprod", "average", "quantile", "percentile", "nanquantile",
    "nanpercentile",
]

_DOC = """{what} over ``axis`` (``keras.ops.{name}``).

    Args:
        x: a tensor of any shape.
        axis: None (all axes), an int or a tuple of ints.
        keepdims: whether reduced axes stay with size 1.

    Returns:
        A tensor; {dtype}.

    Raises:
        ValueError or tf.errors.InvalidArgumentError: for an axis out of range.
    """


def _doc(fn, what, dtype):
    fn.__doc__ = _DOC.format(what=what, name=fn.__name__, dtype=dtype)
    return fn


def _axis(axis):
    if isinstance(axis, (list, tuple)):
        return list(axis)
    return axis


def _sum_dtype(d):
    if d in ("bool", "int8", "int16"):
        return "int32"
    if d in ("uint8", "uint16"):
        return "uint32"
    return d


def sum(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    x = tensor(x)
    return tf.reduce_sum(cast(x, _sum_dtype(dt(x))), axis=_axis(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = tensor(x)
    d = dtype or _sum_dtype(dt(x))
    return tf.reduce_prod(cast(x, d), axis=_axis(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    x = tensor(x)
    d = dt(x)
    compute = result_type(d, "float32")
    out = d if family(d) == "f" else compute
    return cast(tf.reduce_mean(cast(x, compute), axis=_axis(axis), keepdims=keepdims), out)


def _extreme(reducer, combine):
    def fn(x, axis=None, keepdims=False, initial=None):
        x = tensor(x)
        if dt(x) == "bool":
            y = cast(reducer(cast(x, "int32"), axis=_axis(axis), keepdims=keepdims), "bool")
        else:
            y = reducer(x, axis=_axis(axis), keepdims=keepdims)
        if initial is not None:
            y = combine(y, cast(initial, dt(y)))
        return y
    return fn


max = _extreme(tf.reduce_max, tf.maximum)  # noqa: A001 - Keras's name
min = _extreme(tf.reduce_min, tf.minimum)  # noqa: A001 - Keras's name
max.__name__, min.__name__ = "max", "min"
_doc(max, "The largest entry", "``x``'s dtype")
_doc(min, "The smallest entry", "``x``'s dtype")


def amax(x, axis=None, keepdims=False):
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    return tf.reduce_all(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    return tf.reduce_any(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    x = tensor(x)
    d = dt(x)
    compute = result_type(d, "float32")
    out = result_type(d, float)
    xc = cast(x, compute)
    m = tf.reduce_mean(xc, axis=_axis(axis), keepdims=True)
    v = tf.reduce_mean(tf.square(xc - m), axis=_axis(axis), keepdims=keepdims)
    return cast(v, out)


def std(x, axis=None, keepdims=False):
    x = tensor(x)
    out = result_type(dt(x), float)
    v = var(cast(x, result_type(dt(x), "float32")), axis=axis, keepdims=keepdims)
    return cast(tf.sqrt(v), out)


for _f, _w, _d in ((sum, "The sum", "int8/int16/bool give int32, uint8/16 uint32"),
                   (prod, "The product", "as ``sum``"),
                   (mean, "The mean", "integers give float32, floats keep theirs"),
                   (amax, "The largest entry", "``x``'s dtype"),
                   (amin, "The smallest entry", "``x``'s dtype"),
                   (all, "Whether all entries are true", "bool"),
                   (any, "Whether any entry is true", "bool"),
                   (var, "The variance", "float (integers give float32)"),
                   (std, "The standard deviation", "float (integers give float32)")):
    _doc(_f, _w, _d)


def _arg(reducer, name):
    def fn(x, axis=None, keepdims=False):
        x = tensor(x)
        if dt(x) == "bool":
            x = cast(x, "int32")
        nd = len(x.shape)
        if axis is None:
            y = reducer(tf.reshape(x, [-1]), axis=0, output_type=tf.int32)
            if keepdims:
                y = tf.reshape(y, [1] * nd)
            return y
        y = reducer(x, axis=axis, output_type=tf.int32)
        if keepdims:
            y = tf.expand_dims(y, axis)
        return y
    fn.__name__ = name
    return _doc(fn, f"The index of the {'largest' if 'max' in name else 'smallest'} entry",
                "int32")


argmax = _arg(tf.math.argmax, "argmax")
argmin = _arg(tf.math.argmin, "argmin")


def count_nonzero(x, axis=None):
    """The number of non-zero entries over ``axis`` (``keras.ops.count_nonzero``).

    Args:
        x: a tensor of any shape.
        axis: None, an int or a tuple of ints.

    Returns:
        An int32 tensor.
    """
    x = tensor(x)
    return tf.reduce_sum(cast(tf.not_equal(x, tf.zeros_like(x)), "int32"), axis=_axis(axis))


def ptp(x, axis=None, keepdims=False):
    return max(x, axis, keepdims) - min(x, axis, keepdims)


_doc(ptp, "The range (max - min)", "``x``'s dtype")


def _nan_fill(x, value):
    x = tensor(x)
    if family(dt(x)) != "f":
        return x
    return tf.where(tf.math.is_nan(x), tf.cast(value, x.dtype) * tf.ones_like(x), x)


def _nan_guard(x, y, axis, keepdims):
    """NaN where every entry of a reduced slice is NaN."""
    if family(dt(x)) != "f":
        return y
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.cast(np.nan, y.dtype) * tf.ones_like(y), y)


def nanmax(x, axis=None, keepdims=False):
    x = tensor(x)
    return _nan_guard(x, max(_nan_fill(x, -np.inf), axis, keepdims), axis, keepdims)


def nanmin(x, axis=None, keepdims=False):
    x = tensor(x)
    return _nan_guard(x, min(_nan_fill(x, np.inf), axis, keepdims), axis, keepdims)


def nansum(x, axis=None, keepdims=False):
    return sum(_nan_fill(x, 0), axis, keepdims)


def nanprod(x, axis=None, keepdims=False):
    return prod(_nan_fill(x, 1), axis, keepdims)


def nanmean(x, axis=None, keepdims=False):
    x = tensor(x)
    if family(dt(x)) != "f":
        return mean(x, axis, keepdims)
    ok = cast(tf.logical_not(tf.math.is_nan(x)), dt(x))
    return sum(_nan_fill(x, 0), axis, keepdims) / sum(ok, axis, keepdims)


def nanvar(x, axis=None, keepdims=False):
    x = tensor(x)
    if family(dt(x)) != "f":
        return var(x, axis, keepdims)
    m = nanmean(x, axis, True)
    ok = cast(tf.logical_not(tf.math.is_nan(x)), dt(x))
    dev = _nan_fill(tf.square(x - m), 0)
    return sum(dev, axis, keepdims) / sum(ok, axis, keepdims)


def nanstd(x, axis=None, keepdims=False):
    return tf.sqrt(nanvar(x, axis, keepdims)) if family(dt(tensor(x))) == "f" \
        else std(x, axis, keepdims)


for _f, _w, _d in ((nanmax, "The largest non-NaN entry", "``x``'s dtype"),
                   (nanmin, "The smallest non-NaN entry", "``x``'s dtype"),
                   (nansum, "The sum of the non-NaN entries", "as ``sum``"),
                   (nanprod, "The product of the non-NaN entries", "as ``prod``"),
                   (nanmean, "The mean of the non-NaN entries", "as ``mean``"),
                   (nanvar, "The variance of the non-NaN entries", "as ``var``"),
                   (nanstd, "The standard deviation of the non-NaN entries", "as ``std``")):
    _doc(_f, _w, _d)


def _nanarg(name, fill, base):
    def fn(x, axis=None, keepdims=False):
        x = tensor(x)
        if family(dt(x)) != "f":
            return base(x, axis, keepdims)
        y = base(_nan_fill(x, fill), axis, keepdims)
        all_nan = tf.reduce_all(tf.math.is_nan(x), axis=axis, keepdims=keepdims)
        return tf.where(all_nan, -tf.ones_like(y), y)
    fn.__name__ = name
    return _doc(fn, "The index of the extreme non-NaN entry (-1 where all are NaN)", "int32")


nanargmax = _nanarg("nanargmax", -np.inf, argmax)
nanargmin = _nanarg("nanargmin", np.inf, argmin)


# ----------------------------------------------------------------------------- cumulative


def _cum(op, name, fill=None):
    def fn(x, axis=None, dtype=None):
        x = tensor(x)
        if fill is not None:
            x = _nan_fill(x, fill)
        if dtype is not None:
            x = cast(x, dtype)
        elif dt(x) == "bool":
            x = cast(x, "int32")
        if axis is None:
            x = tf.reshape(x, [-1])
            axis = 0
        return op(x, axis=axis)
    fn.__name__ = name
    fn.__doc__ = f"""The cumulative {name.replace('nan', '').replace('cum', '')} along ``axis``
    (``keras.ops.{name}``){', NaN counted as ' + str(fill) if fill is not None else ''}.

    Args:
        x: a tensor of any shape.
        axis: an int, or None for the flattened tensor.
        dtype: the dtype to accumulate in (default ``x``'s; bool gives int32).

    Returns:
        A tensor of ``x``'s shape (flattened when ``axis`` is None).
    """
    return fn


cumsum = _cum(tf.math.cumsum, "cumsum")
cumprod = _cum(tf.math.cumprod, "cumprod")
nancumsum = _cum(tf.math.cumsum, "nancumsum", 0)
nancumprod = _cum(tf.math.cumprod, "nancumprod", 1)


def average(x, axis=None, weights=None):
    """The weighted mean along ``axis`` (``keras.ops.average``).

    Args:
        x: a tensor.
        axis: None or an int.
        weights: None, or a tensor of ``x``'s shape or 1-D of ``x.shape[axis]``.

    Returns:
        A float tensor (``result_type(x.dtype, weights.dtype, float)``).
    """
    x = tensor(x)
    if weights is None:
        return mean(cast(x, result_type(dt(x), float)), axis=axis)
    w = tensor(weights)
    d = result_type(dt(x), dt(w), float)
    x, w = cast(x, d), cast(w, d)
    if axis is not None and len(w.shape) == 1 and len(x.shape) > 1:
        shape = [1] * len(x.shape)
        shape[axis] = -1
        w = tf.reshape(w, shape)
    w = tf.broadcast_to(w, tf.shape(x))
    return tf.reduce_sum(x * w, axis=axis) / tf.reduce_sum(w, axis=axis)


# ----------------------------------------------------------------------------- order statistics


def _quantile(x, q, axis, method, keepdims, nan=False):
    x = tensor(x)
    d = result_type(dt(x), float)
    x = cast(x, d)
    q = cast(q, d)
    nd = len(x.shape)
    ax = axes(axis, nd)
    rest = [a for a in range(nd) if a not in ax]
    xt = tf.transpose(x, rest + list(ax)) if nd else x
    kept = [x.shape[a] for a in rest]
    flat = tf.reshape(xt, kept + [-1])
    if nan:
        flat = tf.where(tf.math.is_nan(flat), tf.cast(np.inf, flat.dtype) * tf.ones_like(flat),
                        flat)
        n = tf.reduce_sum(cast(tf.logical_not(tf.math.is_nan(
            tf.reshape(xt, kept + [-1]))), d), axis=-1, keepdims=True)
    else:
        n = tf.cast(tf.shape(flat)[-1], d) * tf.ones_like(flat[..., :1])
    s = tf.sort(flat, axis=-1)
    q_scalar = len(q.shape) == 0
    qv = tf.reshape(q, [-1])
    outs = []
    for i in range(int(qv.shape[0])):
        pos = qv[i] * (n - 1)
        lo = tf.math.floor(pos)
        hi = tf.math.ceil(pos)
        if method == "lower":
            pos = lo
        elif method == "higher":
            pos = hi
        elif method == "nearest":
            pos = tf.round(pos)
        elif method == "midpoint":
            pass
        lo_i = cast(tf.math.floor(pos), "int32")
        hi_i = cast(tf.math.ceil(pos), "int32")
        a = tf.gather(s, lo_i, axis=-1, batch_dims=len(kept))
        b = tf.gather(s, hi_i, axis=-1, batch_dims=len(kept))
        if method == "midpoint":
            val = (a + b) / tf.cast(2, d)
        else:
            frac = pos - tf.math.floor(pos)
            val = a + (b - a) * frac
        val = tf.reshape(val, kept)
        if keepdims:
            full = [1 if a_ in ax else x.shape[a_] for a_ in range(nd)]
            val = tf.reshape(val, full)
        outs.append(val)
    return outs[0] if q_scalar else tf.stack(outs)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The ``q``-th quantiles along ``axis`` (``keras.ops.quantile``).

    Args:
        x: a tensor.
        q: a number or 1-D tensor in [0, 1].
        axis: None, an int or a tuple of ints.
        method: "linear", "lower", "higher", "midpoint" or "nearest".
        keepdims: whether reduced axes stay with size 1.

    Returns:
        A float tensor; a leading axis per quantile when ``q`` is 1-D.
    """
    return _quantile(x, q, axis, method, keepdims)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """``quantile(x, q / 100)`` (``keras.ops.percentile``)."""
    return _quantile(x, float_of(q) / 100.0, axis, method, keepdims)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """``quantile`` ignoring NaN (``keras.ops.nanquantile``)."""
    return _quantile(x, q, axis, method, keepdims, nan=True)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """``percentile`` ignoring NaN (``keras.ops.nanpercentile``)."""
    return _quantile(x, float_of(q) / 100.0, axis, method, keepdims, nan=True)


def median(x, axis=None, keepdims=False):
    """The median along ``axis`` (``keras.ops.median``); float dtype."""
    return _quantile(x, 0.5, axis, "linear", keepdims)


def nanmedian(x, axis=None, keepdims=False):
    """The median ignoring NaN (``keras.ops.nanmedian``); float dtype."""
    return _quantile(x, 0.5, axis, "linear", keepdims, nan=True)


del _f, _w, _d, floatx
