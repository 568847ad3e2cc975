"""Reductions (sum, mean, max, min, prod, all, any, logsumexp, variance...) and cumulative
sums and products: forward and derivative side by side.

The gradient of a reduction spreads the upstream gradient back over the reduced axes of the
input. It is one primitive, ``SumGrad`` (``MeanGrad`` also divides by the number of reduced
elements), that takes the input itself and reads only its *shape*, at run time: a traced
``tf.function`` then computes the spread for whatever batch size it is called with, as
TensorFlow's ``_SumGrad`` does with ``tf.shape(x)``, instead of holding the traced one.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply, current_tracer
from .._core.registry import defjvp, defvjp, nondifferentiable, primitive
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value
from . import _kernels
from . import array_ops as _a
from . import composite_dispatch as _composite
from . import half_reduce as _half
from . import math_ops as _m
from ._helpers import check_kind, kind_of, norm_axis, op_doc, public_op, to_tensor

__all__ = [
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all",
    "reduce_any", "cumsum", "cumprod", "reduce_logsumexp", "reduce_variance", "reduce_std",
    "reduce_euclidean_norm", "count_nonzero", "cumulative_logsumexp",
]


def _reduce_error(values, attrs, exc):
    return errors.InvalidArgumentError, str(exc)


def _sum_forward(x, axis, keepdims):
    if axis and axis[-1] == len(axis) - 1:   # leading axes (a bias gradient): tiled
        out = _kernels.sum_leading(x, len(axis), keepdims)
        if out is not None:
            return out
    if x.dtype.itemsize == 2 and x.dtype.kind in "fV" and x.ndim:  # half, bfloat16: TF order
        return _half.sum_half(x, axis, keepdims)
    return np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _mean_forward(x, axis, keepdims):
    if x.dtype.kind in "iu":
        n = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        # An int64 sum wraps as TensorFlow's does; the quotient truncates toward zero,
        # in integers (a float quotient loses the low bits of a large int64).
        acc = np.uint64 if x.dtype.kind == "u" else np.int64
        total = np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=acc)
        q = np.abs(total) // acc(max(n, 1)) if x.dtype.kind != "u" else total // max(n, 1)
        return (np.where(total < 0, -q, q) if x.dtype.kind != "u" else q).astype(x.dtype)
    if x.dtype.itemsize == 2 and x.dtype.kind in "fV" and x.ndim:  # half, bfloat16: TF order
        return _half.mean_half(x, axis, keepdims)
    if x.dtype.kind == "f":
        return _kernels.mean(x, axis, keepdims)
    return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


# Sum and Mean keep their input: their gradient reads its shape at run time (SumGrad).
_SUM = primitive("Sum", _sum_forward, error=_reduce_error)
_MEAN = primitive("Mean", _mean_forward, error=_reduce_error)
def _lowest(dtype):
    return np.iinfo(dtype).min if dtype.kind in "iu" else -np.inf


def _highest(dtype):
    return np.iinfo(dtype).max if dtype.kind in "iu" else np.inf


def _max_forward(x, axis, keepdims):
    if x.size:
        return np.max(x, axis=axis, keepdims=keepdims)
    # over a size-0 axis: the identity, -inf (the lowest integer), as TensorFlow's
    return np.max(x, axis=axis, keepdims=keepdims, initial=_lowest(x.dtype))


def _min_forward(x, axis, keepdims):
    if x.size:
        return np.min(x, axis=axis, keepdims=keepdims)
    return np.min(x, axis=axis, keepdims=keepdims, initial=_highest(x.dtype))


_RMAX = primitive("Max", _max_forward, save_output=True, error=_reduce_error)
_RMIN = primitive("Min", _min_forward, save_output=True, error=_reduce_error)
_PROD = primitive("Prod", lambda x, axis, keepdims: _kernels.complex_prod(x, axis, keepdims)
                  if x.dtype.kind == "c" else np.prod(x, axis=axis, keepdims=keepdims,
                                                      dtype=x.dtype),
                  save_output=True, error=_reduce_error)
_ALL = nondifferentiable("All", lambda x, axis, keepdims: np.all(x, axis=axis,
                                                                 keepdims=keepdims))
_ANY = nondifferentiable("Any", lambda x, axis, keepdims: np.any(x, axis=axis,
                                                                 keepdims=keepdims))


# ----------------------------------------------------------------- the spread-back primitives


def _sum_grad_forward(g, x, axis, keepdims):
    """``g`` (shaped like a reduction of ``x`` over ``axis``) broadcast back to ``x``'s shape;
    only the shape of ``x`` is read."""
    shape = x.shape
    if g.ndim == 0:
        # A scalar (the gradient of a full sum or mean): np.full is quicker than the view.
        return np.full(shape, g, dtype=g.dtype)
    if not keepdims and axis != tuple(range(len(axis))):
        # Reduced axes that are not leading come back as length-1 axes first; leading
        # ones broadcasting restores by itself.
        g = g.reshape([1 if i in axis else d for i, d in enumerate(shape)])
    # A read-only view: tensors are immutable, so the stretched copy is never needed.
    return np.broadcast_to(g, shape)


def _count(shape, axis):
    n = 1
    for a in axis:
        n *= shape[a]
    return max(n, 1)


def _mean_grad_forward(g, x, axis, keepdims):
    """``SumGrad`` of ``g / n``, ``n`` the number of elements each mean averaged (from
    ``x``'s shape). Dividing first runs the division on the small, reduced tensor; each
    element gets the same value as TensorFlow's ``sum_grad / cast(factor)``."""
    return _sum_grad_forward(g / g.dtype.type(_count(x.shape, axis)), x, axis, keepdims)


def _spread_error(values, attrs, exc):
    return errors.InvalidArgumentError, str(exc)


_SUM_GRAD = primitive("SumGrad", _sum_grad_forward, error=_spread_error, shape_inputs=(1,))
_MEAN_GRAD = primitive("MeanGrad", _mean_grad_forward, error=_spread_error,
                       shape_inputs=(1,))


def spread(g, x, axis, keepdims):
    """The gradient ``g`` of a sum of ``x`` over ``axis`` spread back over ``x``'s shape
    (``broadcast_to(expand_dims(g, axis), tf.shape(x))``); ``x`` is read for its shape."""
    return apply(_SUM_GRAD, (g, x), {"axis": axis, "keepdims": keepdims})


# Both are linear in g; the adjoint of spreading is summing (of spreading g / n, averaging).
defvjp(_SUM_GRAD, lambda gg, y, g, x, axis, keepdims: reduce_sum(gg, axis, keepdims), None)
defvjp(_MEAN_GRAD, lambda gg, y, g, x, axis, keepdims: reduce_mean(gg, axis, keepdims), None)
defjvp(_SUM_GRAD, lambda ts, y, g, x, axis, keepdims: None if ts[0] is None else apply(
    _SUM_GRAD, (ts[0], x), {"axis": axis, "keepdims": keepdims}))
defjvp(_MEAN_GRAD, lambda ts, y, g, x, axis, keepdims: None if ts[0] is None else apply(
    _MEAN_GRAD, (ts[0], x), {"axis": axis, "keepdims": keepdims}))


def _sum_rule(g, y, x, axis, keepdims):
    return apply(_SUM_GRAD, (g, x), {"axis": axis, "keepdims": keepdims})


def _mean_rule(g, y, x, axis, keepdims):
    return apply(_MEAN_GRAD, (g, x), {"axis": axis, "keepdims": keepdims})


def _extremum_rule(g, y, x, axis, keepdims):
    hits = _a.cast(_m.equal(spread(y, x, axis, keepdims), x), g.dtype)
    count = reduce_sum(hits, axis, keepdims=True)
    return _m._realdiv(_m.multiply(spread(g, x, axis, keepdims), hits), count)


def _prod_rule(g, y, x, axis, keepdims):
    # TensorFlow's rule whatever the values: the product of the others, as the exclusive
    # cumulative products from both ends over the reduced axes moved to the front (exact
    # with zeros, no prod / x overflowing where the others' product is finite, and its own
    # second derivative)
    g = spread(g, x, axis, keepdims)
    shape = x._value.shape
    rest = [i for i in range(len(shape)) if i not in axis]
    perm = list(axis) + rest
    xt = _a.transpose(x, perm)
    if current_tracer() is None:
        lead = int(np.prod([shape[a] for a in axis])) if axis else 1
        other = int(np.prod([shape[a] for a in rest])) if rest else 1
        flat = _a.reshape(xt, (lead, other))
    else:  # traced: the sizes from the tensor's shape, so a relaxed program stays generic
        dims = _a.shape(xt)
        k = len(axis)
        flat = _a.reshape(xt, _a.stack([reduce_prod(dims[:k]), reduce_prod(dims[k:])]))
    left = cumprod(flat, axis=0, exclusive=True)
    right = cumprod(flat, axis=0, exclusive=True, reverse=True)
    # complex products as Eigen's (C's past the last whole packet)
    mul = _m._cmul if g._value.dtype.kind == "c" else _m.multiply
    others = _a.reshape_like(mul(left, right), xt)
    inv = np.argsort(perm)
    return mul(g, _a.transpose(others, inv.tolist()))


# ------------------------------------------------ a sum in TensorFlow's order, off the hot path


def _ordered_sum_forward(x, axis, keepdims):
    # float32 / float64 in Eigen's order (half_reduce: packet lanes, leaf tree, shards);
    # the rest as Sum
    if x.dtype.kind == "f" and x.ndim and x.dtype.itemsize in (4, 8):
        with np.errstate(over="ignore", invalid="ignore"):
            return _half.reduce_sum(x, axis, keepdims)
    return _sum_forward(x, axis, keepdims)


# Sum and its spread-back, the sums of both summed in TF's kernel order: used where a
# cancelling sum is the whole answer (Keras dice of +-1e30), never by reduce_sum itself
_OSUM = primitive("OrderedSum", _ordered_sum_forward, error=_reduce_error)
_OSUM_GRAD = primitive("OrderedSumGrad", _sum_grad_forward, error=_spread_error,
                       shape_inputs=(1,))


def reduce_sum_in_tf_order(input_tensor, axis=None, keepdims=False):
    """``tf.reduce_sum`` of a float32 / float64 tensor summed in the order TensorFlow's CPU
    kernel adds (Eigen's AVX packets: four packet accumulators, lanes folded as a tree,
    ``ops/half_reduce.py``), as are its forward-mode tangent and the sums of its gradients'
    gradients. NumPy's pairwise order and Eigen's agree to rounding; they part only where the
    sum cancels (``1e30 - 1e30`` among small values). Several times slower than
    ``reduce_sum``: for the few callers whose answer is such a sum. Other dtypes sum as
    ``reduce_sum``."""
    x = to_tensor(input_tensor)
    ax = norm_axis(axis, x._value.ndim)
    return apply(_OSUM, (x,), {"axis": ax, "keepdims": bool(keepdims)})


defvjp(_OSUM, lambda g, y, x, axis, keepdims: apply(_OSUM_GRAD, (g, x), {
    "axis": axis, "keepdims": keepdims}))
defjvp(_OSUM, lambda ts, y, x, axis, keepdims: None if ts[0] is None else apply(
    _OSUM, (ts[0],), {"axis": axis, "keepdims": keepdims}))
defvjp(_OSUM_GRAD, lambda gg, y, g, x, axis, keepdims: apply(
    _OSUM, (gg,), {"axis": axis, "keepdims": keepdims}), None)
defjvp(_OSUM_GRAD, lambda ts, y, g, x, axis, keepdims: None if ts[0] is None else apply(
    _OSUM_GRAD, (ts[0], x), {"axis": axis, "keepdims": keepdims}))
defvjp(_SUM, _sum_rule)
defvjp(_MEAN, _mean_rule)
defvjp(_RMAX, _extremum_rule)
defvjp(_RMIN, _extremum_rule)
defvjp(_PROD, _m._conj_aware(_prod_rule))


def _reducer(prim, name, what, kinds=None, ragged=False, allowed="bool"):
    op_name, public = prim.name, name
    classes, ragged_ops = _composite.CLASSES, _composite.RAGGED_OPS

    def op(input_tensor, axis=None, keepdims=False, name=None):
        if isinstance(input_tensor, _TensorLike):
            x = input_tensor
        elif ragged and type(input_tensor) is classes[0]:
            return ragged_ops[public](input_tensor, axis, keepdims)
        else:
            x = convert_to_tensor(input_tensor)
        kind = x._value.dtype.kind
        if kind in "OSU":
            raise errors.InvalidArgumentError(
                None, None, "Value for attr 'T' of string is not in the list of allowed "
                "values: float, double, int32, uint8, int16, int8, complex64, int64, qint8, "
                "quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, "
                "uint64")
        if kinds is not None and kind not in kinds:
            check_kind(x, kinds, op_name, allowed)
        try:
            ax = norm_axis(axis, x._value.ndim)
        except ValueError as err:
            if "duplicate" in str(err):  # TensorFlow's check of an axis list ends at [Op:]
                raise errors.InvalidArgumentError(None, None,
                                                  f"{err} [Op:{op_name}]") from None
            raise errors.op_error(errors.InvalidArgumentError, str(err), op_name) from None
        return apply(prim, (x,), {"axis": ax, "keepdims": bool(keepdims)})

    dtypes = "dtype bool" if kinds == "b" else "a numeric dtype"
    ragged_note = " A RaggedTensor reduces as ragged." if ragged else ""
    return public_op(op, name, op_doc(
        prim, name, what,
        [f"input_tensor: a tensor of {dtypes}, of any shape.",
         "axis: None (all axes), an int, or a list of ints in ``[-rank, rank)``.",
         "keepdims: keep the reduced axes, with length 1."],
        "A tensor of the input's dtype: its shape without the reduced axes (or with them as "
        "1).",
        ["tf.errors.InvalidArgumentError: for an axis out of range, or a repeated one."],
        notes=ragged_note, tf_name=f"tf.math.{name}"))


# The dtypes TensorFlow's sums and scans take (its error lists them in this order), and
# those of its ordering reductions.
_NUMBER_TYPES = ("float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
                 "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64")
_REAL_NUMBER_TYPES = ("float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, "
                      "half, uint32, uint64, qint8, quint8, qint32, qint16, quint16")

reduce_sum = _reducer(_SUM, "reduce_sum", "The sum over ``axis``", "fiuc", True, _NUMBER_TYPES)
reduce_mean = _reducer(_MEAN, "reduce_mean", "The mean over ``axis`` (integers: truncated)",
                       "fiuc", True, _NUMBER_TYPES)
reduce_max = _reducer(_RMAX, "reduce_max", "The largest value over ``axis``", "fiu", True,
                      _REAL_NUMBER_TYPES)
reduce_min = _reducer(_RMIN, "reduce_min", "The smallest value over ``axis``", "fiu", True,
                      _REAL_NUMBER_TYPES)
reduce_prod = _reducer(_PROD, "reduce_prod", "The product over ``axis``", "fiuc", True,
                       _NUMBER_TYPES)
reduce_all = _reducer(_ALL, "reduce_all", "Whether all values over ``axis`` are true", "b", True)
reduce_any = _reducer(_ANY, "reduce_any", "Whether any value over ``axis`` is true", "b", True)


def _bool_only(fn, op_name):
    # TensorFlow's generated All/Any wrappers: a non-bool tensor meets the kernel's input
    # check (InvalidArgumentError), except with a Python list or tuple of axes, whose slow
    # path converts the input to bool first (ValueError)
    def wrapped(input_tensor, axis=None, keepdims=False, name=None):
        if isinstance(input_tensor, _TensorLike) and input_tensor._value.dtype.kind != "b":
            if isinstance(axis, (list, tuple)):
                raise ValueError(f"Tensor conversion requested dtype bool for Tensor with "
                                 f"dtype {input_tensor.dtype.name}: {input_tensor!r}")
            from ._helpers import dtype_mismatch
            raise dtype_mismatch(op_name, 0, np.dtype(bool), input_tensor._value.dtype)
        return fn(input_tensor, axis, keepdims, name)
    wrapped.__doc__ = fn.__doc__
    wrapped.__name__ = fn.__name__
    wrapped.__qualname__ = fn.__qualname__
    wrapped.__module__ = fn.__module__
    return wrapped


reduce_all = _bool_only(reduce_all, "All")
reduce_any = _bool_only(reduce_any, "Any")


def _cumulative(accumulate, identity):
    """The forward of tf.math.cumsum/cumprod from ``np.cumsum``/``np.cumprod``: exclusive
    shifts in ``identity`` (0 or 1), reverse runs from the end of ``axis``."""
    def forward(x, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        out = accumulate(x, axis=axis, dtype=x.dtype)
        if exclusive and out.shape[axis]:
            first = np.full_like(np.take(out, [0], axis), identity)
            out = np.concatenate([first, np.take(out, range(out.shape[axis] - 1), axis)], axis)
        if reverse:
            out = np.flip(out, axis)
        return out
    return forward


_cumsum_forward = _cumulative(np.cumsum, 0)
_cumprod_real = _cumulative(np.cumprod, 1)


def _cumprod_forward(x, axis, exclusive, reverse):
    if x.dtype.kind == "c":
        return _kernels.complex_cumprod(x, axis, exclusive, reverse)
    return _cumprod_real(x, axis, exclusive, reverse)


def _logaddexp_accumulate(x, axis, dtype):
    # TF's LogSumExp reducer, one step per element from -inf, in the input's dtype:
    # acc = max + log1p(exp(min - max)), min/max as std::min/max (a NaN element is taken
    # as acc itself: acc + log 2; -inf with -inf stays -inf, inf with inf is nan)
    x = np.moveaxis(np.asarray(x), axis, 0)
    out = np.empty_like(x)
    acc = np.full(x.shape[1:], -np.inf, x.dtype)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        for i in range(x.shape[0]):
            t = x[i]
            lo = np.where(t < acc, t, acc)
            hi = np.where(acc < t, t, acc)
            acc = np.where(hi == -np.inf, hi, hi + np.log1p(np.exp(lo - hi)))
            out[i] = acc
    return np.moveaxis(out, 0, axis)


# log(cumsum(exp(x))) as a scan of logaddexp, as TensorFlow's kernel: no common shift, so
# entries far below the maximum keep their value.
_cumlogsumexp_forward = _cumulative(_logaddexp_accumulate, -np.inf)


_CUMSUM = primitive("Cumsum", _cumsum_forward, save_inputs=False)
_CUMPROD = primitive("Cumprod", _cumprod_forward, save_output=True)
defvjp(_CUMSUM, lambda g, y, x, axis, exclusive, reverse:
       cumsum(g, axis, exclusive=exclusive, reverse=not reverse))


def _cumprod_rule(g, y, x, axis, exclusive, reverse):
    # TensorFlow's rule: exact where x has no zeros, and 0 (div_no_nan) where it has.
    if g._value.dtype.kind == "c":  # TF's cumsum(prod * g) / x (div_no_nan) as Eigen's
        out = cumsum(_m._cmul(y, g), axis, exclusive=exclusive, reverse=not reverse)
        return _m.divide_no_nan(out, x)
    out = cumsum(_m.multiply(g, y), axis, exclusive=exclusive, reverse=not reverse)
    nonzero = _m.not_equal(x, 0)
    safe = _a.where(nonzero, x, _a.ones_like(x))
    return _a.where(nonzero, _m._realdiv(out, safe), _a.zeros_like(x))


defvjp(_CUMPROD, _cumprod_rule)


_CUMLOGSUMEXP = primitive("CumulativeLogsumexp", _cumlogsumexp_forward, save_output=True)


def _cumlogsumexp_rule(g, y, x, axis, exclusive, reverse):
    # TensorFlow's rule as it is written: d y_j / d x_i = exp(x_i - y_j) for the i that y_j
    # sums, the positive and negative parts of g apart in log space, a missing part the
    # dtype's lowest value (not -inf): exp(scan(log g - y, reversed) + x)
    attrs = {"axis": axis, "exclusive": exclusive, "reverse": not reverse}
    low = _a.zeros_like(g) + np.finfo(g._value.dtype).min
    zero = _a.zeros_like(g)
    parts = []
    for keep, mag in ((_m.greater(g, zero), g), (_m.less(g, zero), _m.negative(g))):
        with np.errstate(invalid="ignore", divide="ignore"):
            log_g = _a.where(keep, _m.log(mag), low)
        parts.append(_m.exp(_m.add(apply(_CUMLOGSUMEXP, (_m.subtract(log_g, y),), attrs), x)))
    return _m.subtract(parts[0], parts[1])


def _cumlogsumexp_jvp(tangents, y, x, axis, exclusive, reverse):
    # TensorFlow's forward mode transposes the gradient above at an upstream u of ones, op by
    # op: through exp(scan(log u - y) + x) that is the rule again, at the upstream t * p (p the
    # positive part's exp) over scan(-y) (so inf and nan fall where TF's do; the negative
    # part, its log selected away, adds zeros)
    t = tangents[0]
    if t is None:
        return None
    z = _m.subtract(_a.zeros_like(y), y)
    yz = apply(_CUMLOGSUMEXP, (z,), {"axis": axis, "exclusive": exclusive,
                                      "reverse": not reverse})
    p = _m.exp(_m.add(yz, x))
    out = _cumlogsumexp_rule(_m.multiply(t, p), yz, z, axis, exclusive, not reverse)
    return _m.add(out, _a.zeros_like(out))


defvjp(_CUMLOGSUMEXP, _cumlogsumexp_rule)
defjvp(_CUMLOGSUMEXP, _cumlogsumexp_jvp)


def _scan_axis(x, axis, op_name):
    """``axis`` in ``[-rank, rank)`` as a non-negative int, after TensorFlow's dtype check."""
    if x._value.dtype.kind not in "fiuc":
        check_kind(x, "fiuc", op_name, _NUMBER_TYPES)
    n = x._value.ndim
    ax = int(static_value(axis) if isinstance(axis, _TensorLike) else axis)
    if not -n <= ax < n:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"ScanOp: Expected scan axis in the range [{-n}, {n}), but got "
                              f"{ax}", op_name)
    return ax % n


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum along ``axis`` (``tf.math.cumsum``).

    Args:
        x: a numeric tensor.
        axis: the axis to accumulate along, in ``[-rank, rank)``.
        exclusive: if true, each output leaves out its own element (the first is 0).
        reverse: if true, accumulate from the end of ``axis``.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``x``'s shape and dtype; the gradient is the reversed cumulative sum.
    """
    try:
        x = to_tensor(x)
    except ValueError:  # a RaggedTensor (else re-raised)
        return _composite.call("cumsum", x, axis, exclusive, reverse)
    ax = _scan_axis(x, axis, "Cumsum")
    return apply(_CUMSUM, (x,), {"axis": ax, "exclusive": bool(exclusive),
                                 "reverse": bool(reverse)})


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product along ``axis`` (``tf.math.cumprod``)."""
    x = to_tensor(x)
    ax = _scan_axis(x, axis, "Cumprod")
    return apply(_CUMPROD, (x,), {"axis": ax, "exclusive": bool(exclusive),
                                  "reverse": bool(reverse)})

def _axis_arg(axis, ndim, op_name):
    try:
        return norm_axis(axis, ndim)
    except ValueError as err:
        raise errors.op_error(errors.InvalidArgumentError, str(err), op_name) from None


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """``_m.log(sum(_m.exp(x), axis))`` computed stably (``tf.math.reduce_logsumexp``).

    The maximum is subtracted first (and held constant for the gradient, which is then
    ``softmax(x)``). Infinite maxima are replaced by 0 so that ``-inf`` inputs give
    ``-inf``.

    Args:
        input_tensor: a float tensor.
        axis: None, an int or a list of ints.
        keepdims: keep the reduced axes with length 1.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([[0.0, 0.0], [1000.0, 1000.0]])
        >>> print(tf.math.reduce_logsumexp(x, axis=1).numpy())
        [6.9314718e-01 1.0006932e+03]
    """
    x = to_tensor(input_tensor)
    ax = _axis_arg(axis, x._value.ndim, "Max")
    raw = reduce_max(x, ax, keepdims=True)
    m = _a.stop_gradient(_a.where(_m.is_finite(raw), raw, _a.zeros_like(raw)))
    out = _m.add(_m.log(reduce_sum(_m.exp(_m.subtract(x, m)), ax, keepdims=True)), m)
    if not keepdims:
        out = _a._squeeze_axes(out, ax)   # axes, not sizes: a traced program serves any
    return out


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The population variance over ``axis`` (``tf.math.reduce_variance``).

    Raises:
        TypeError: for integer inputs, as TensorFlow.
    """
    try:
        x = to_tensor(input_tensor)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("reduce_variance", input_tensor, axis, keepdims)
    if x._value.dtype.kind not in "fiuc":
        check_kind(x, "fiuc", "Mean", _NUMBER_TYPES)
    if kind_of(x._value.dtype) not in "fc":
        raise TypeError(f"Input must be either real or complex. Received integer type "
                        f"{x.dtype!r}.")
    ax = _axis_arg(axis, x._value.ndim, "Mean")
    mean = reduce_mean(x, ax, keepdims=True)
    d = _m.subtract(x, mean)
    if x._value.dtype.kind == "c":
        sq = _m.real(_m.multiply(d, _a.conj(d)))
    else:
        sq = _m.square(d)
    return reduce_mean(sq, ax, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The population standard deviation over ``axis`` (``tf.math.reduce_std``)."""
    return _m.sqrt(reduce_variance(input_tensor, axis, keepdims))


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """``_m.sqrt(sum(x**2, axis))`` (``tf.math.reduce_euclidean_norm``).

    Integer inputs give an integer result (the root truncated), as TensorFlow.
    """
    x = to_tensor(input_tensor)
    if x._value.dtype.kind in "iu":
        s = reduce_sum(_m.square(x), axis, keepdims)
        return Tensor(np.asarray(np.sqrt(s._value)).astype(x._value.dtype)[()])
    if x._value.dtype.kind == "c":  # |x|^2, kept complex as TensorFlow's
        return _m.sqrt(reduce_sum(_m.multiply(x, _a.conj(x)), axis, keepdims))
    try:
        ax = norm_axis(axis, x._value.ndim)
    except ValueError:
        ax = None
    if ax is None or kind_of(x._value.dtype) != "f":  # reduce_sum's errors
        return _m.sqrt(reduce_sum(_m.square(x), axis, keepdims))
    return apply(_EUCLID, (x,), {"axis": ax, "keepdims": bool(keepdims)})


def _euclidean_forward(x, axis, keepdims):
    with np.errstate(over="ignore"):
        return np.sqrt(_sum_forward(x * x, axis, keepdims))


# One op as TensorFlow's EuclideanNorm, with its gradient x / (norm / g) (so its nan and inf,
# its forward mode over a size-0 input, its second derivative)
_EUCLID = primitive("EuclideanNorm", _euclidean_forward, save_output=True,
                    error=_reduce_error)
defvjp(_EUCLID, lambda g, y, x, axis, keepdims: _m.divide(
    x, spread(_m.divide(y, g), x, axis, keepdims)))


def _euclid_jvp(ts, y, x, axis, keepdims):
    # TensorFlow transposes the rule above at a cotangent u of ones, each step as it is:
    # through x / z (z = y / u spread) and z = y / u: sum(t ((-x / z) / z)) ((-y / u) / u)
    t = ts[0]
    if t is None:
        return None
    z = spread(y, x, axis, keepdims)
    s = reduce_sum(_m.multiply(t, _m.divide(_m.divide(_m.negative(x), z), z)), axis, keepdims)
    return _m.multiply(s, _m.negative(y))


defjvp(_EUCLID, _euclid_jvp)


def count_nonzero(input, axis=None, keepdims=None, dtype=_dt.int64, name=None):  # noqa: A002
    """The number of non-zero elements over ``axis`` (``tf.math.count_nonzero``).

    Returns:
        An int64 tensor (or ``dtype``); no gradient.
    """
    x = to_tensor(input)
    kind = x._value.dtype.kind
    if kind in "OSU":   # strings: non-empty ones count (TF compares with "")
        v = x._value
        nz = Tensor(np.array([len(s) > 0 for s in v.reshape(-1)], dtype=bool).reshape(v.shape))
    else:
        nz = _m.not_equal(x, _a.zeros_like(x)) if kind != "b" else x
    return _a.cast(reduce_sum(_a.cast(nz, _dt.int64), axis, bool(keepdims)), dtype)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """``log(cumsum(exp(x)))`` along ``axis``, computed stably.

    TensorFlow counterpart: ``tf.math.cumulative_logsumexp``. An exclusive sum starts at
    ``-inf``.
    """
    x = to_tensor(x)
    if x._value.dtype.kind != "f":
        check_kind(x, "f", "CumulativeLogsumexp", "half, float, double")
    ax = _scan_axis(x, axis, "CumulativeLogsumexp")
    return apply(_CUMLOGSUMEXP, (x,), {"axis": ax, "exclusive": bool(exclusive),
                                       "reverse": bool(reverse)})
