"""Segment reductions (``tf.math.segment_*`` and ``unsorted_segment_*``): sum, mean,
sqrt-n, max and min of the slices that share a segment id.

The op names stay public in ``math_ops`` too (re-exported at its end).
"""
from .._core import errors
from .._core import recording as _rec
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defjvp, defvjp, primitive
from .._core.tensor import Tensor, _TensorLike, static_value
from . import _helpers as _h
from . import _kernels
from . import array_ops as _a
from . import indexing_ops as _ix
from ._helpers import to_tensor
from .array_ops import cast, ones_like, zeros_like
from .math_ops import divide, divide_no_nan, equal, greater, less, multiply, sqrt, truncatediv

__all__ = [
    "unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_sqrt_n",
    "unsorted_segment_max", "unsorted_segment_min", "segment_sum", "segment_mean",
    "segment_max", "segment_min",
]


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sum the slices of ``data`` that share a segment id (``tf.math.unsorted_segment_sum``).

    Args:
        data: a tensor of shape ``segment_ids.shape + rest``.
        segment_ids: an int tensor; ids outside ``[0, num_segments)`` are dropped.
        num_segments: the number of output rows.

    Returns:
        A tensor of shape ``[num_segments] + rest``; the gradient is ``gather(g, ids)``.

    Example:
        >>> import tapeflow as tf
        >>> data, ids = tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 0, 1])
        >>> print(tf.math.unsorted_segment_sum(data, ids, num_segments=2).numpy())
        [2. 4.]
    """
    d = to_tensor(data)
    if d._value.dtype.kind not in "fiuc":
        _h.check_kind(d, "fiuc", "UnsortedSegmentSum", _NUMBER_TYPES)
    ids = to_tensor(segment_ids)
    n = int(static_value(num_segments) if isinstance(num_segments, _TensorLike) else num_segments)
    iv = ids._value
    rest = d._value.shape[iv.ndim:]
    if d._value.shape[:iv.ndim] != iv.shape:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"data.shape = {_h._show(d._value.shape)} does not start with segment_ids.shape "
            f"= {_h._show(iv.shape)}", "UnsortedSegmentSum")
    _check_below(iv, n, "UnsortedSegmentSum")
    flat_ids = _a.reshape(ids, [-1])
    # -1 keeps a traced program generic in the batch; it is ambiguous when a slice is
    # empty, and then the count is given
    flat = _a.reshape(d, (-1 if all(rest) else int(iv.size),) + tuple(rest))
    if not _rec.executing_eagerly():
        # traced: which ids are negative is known per call only (a guard on the values would
        # tie the program to them): they go to an extra row n, cut off after the scatter
        neg = less(flat_ids, 0)
        flat_ids = _a.where(neg, multiply(ones_like(flat_ids), n), flat_ids)
        out = _ix.scatter_nd(_a.expand_dims(flat_ids, -1), flat, (n + 1,) + tuple(rest))
        return out[:n]
    valid = (iv.reshape(-1) >= 0) & (iv.reshape(-1) < n)
    if not valid.all():
        keep = Tensor(np.flatnonzero(valid).astype(np.int64))
        flat_ids = _ix._gather_dense(flat_ids, keep)
        flat = _ix._gather_dense(flat, keep)
    return _ix.scatter_nd_sum(_a.expand_dims(flat_ids, -1), flat, (n,) + tuple(rest))


def _check_below(ids, n, op_name):
    """TensorFlow's unsorted segment ops refuse an id >= num_segments (and drop negatives)."""
    flat = ids.reshape(-1)
    if flat.size and flat.max() >= n:
        i = int(np.flatnonzero(flat >= n)[0])
        raise errors.InvalidArgumentError(
            None, None, f"segment_ids[{i}] = {int(flat[i])} is out of range [0, {n}) "
            f"[Op:{op_name}]")


def _check_sorted_ids(ids, op_name):
    """The ids of a sorted segment op: non-negative and increasing; the number of rows."""
    n = int(ids[-1]) + 1 if ids.size else 0
    if ids.size and ids[0] < 0:
        raise errors.InvalidArgumentError(
            None, None, f"Segment id {int(ids[0])} out of range [0, {n}), possibly because "
            f"'segment_ids' input is not sorted. [Op:{op_name}]")
    if ids.size and np.any(np.diff(ids) < 0):
        raise errors.op_error(errors.InvalidArgumentError,
                              "segment ids are not increasing", op_name)
    return n


def segment_sum(data, segment_ids, name=None):
    """Sum over sorted segments (``tf.math.segment_sum``); rows ``0..max(ids)``.

    Raises:
        tf.errors.InvalidArgumentError: if the ids are not sorted.
    """
    # the ids' values decide the output's row count: under a tf.function trace the read is
    # a guard, so a call with other ids re-traces (TF's SegmentSum counts rows per call)
    ids = static_value(to_tensor(segment_ids))
    d = to_tensor(data)
    if d._value.dtype.kind not in "fiuc":
        _h.check_kind(d, "fiuc", "SegmentSum", _NUMBER_TYPES)
    if ids.ndim != 1 or ids.shape[0] != d._value.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, "segment_ids should be the same size as dimension 0 of input. "
            "[Op:SegmentSum]")
    n = _check_sorted_ids(ids, "SegmentSum")
    return unsorted_segment_sum(data, segment_ids, n)


def segment_mean(data, segment_ids, name=None):
    """Mean over sorted segments (``tf.math.segment_mean``); empty segments give 0."""
    d = to_tensor(data)
    total = segment_sum(d, segment_ids)
    ones = ones_like(to_tensor(segment_ids), dtype=d.dtype)
    count = _a.reshape(segment_sum(ones, segment_ids), [-1] + [1] * (total._value.ndim - 1))
    if d._value.dtype.kind in "iu":
        # integers keep their dtype, the quotient truncated (TensorFlow's SegmentMean)
        nonempty = greater(count, zeros_like(count))
        q = truncatediv(total, _a.where(nonempty, count, ones_like(count)))
        return _a.where(nonempty, q, zeros_like(q))
    return apply(_MEAN_DIV, (total, count))


def _mean_div_forward(total, count):
    with np.errstate(divide="ignore", invalid="ignore"):
        if total.dtype.kind == "c":
            # TF copies a one-row segment (no division: -0.2 + nan j stays so, where dividing
            # by 1 + 0j gives nan + nan j)
            q = _kernels.complex_div(total, np.where(count == 0, 1, count).astype(count.dtype))
            q = np.where(count == 1, total, q)
        else:
            q = total / np.where(count == 0, 1, count).astype(count.dtype)
    return np.where(count == 0, np.zeros((), total.dtype), q).astype(total.dtype)


# The sum over each segment divided by its size, 0 for an empty one. Its derivatives are
# TF's SegmentMean gradient, ``g / count`` (gathered by the sum's gradient), and that
# transposed: the tangent's sum / count, 0 / 0 = nan in an empty segment.
_MEAN_DIV = primitive("SegmentMeanDiv", _mean_div_forward)
defvjp(_MEAN_DIV, lambda g, y, total, count: divide(g, count), None)
defjvp(_MEAN_DIV, lambda ts, y, total, count: None if ts[0] is None else divide(ts[0], count))


_NUMBER_TYPES = ("float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
                 "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64")


def _segment_ids_and_count(data, segment_ids, num_segments):
    d = to_tensor(data)
    if d._value.dtype.kind not in "fiu":  # the mean and sqrt-n kernels take real numbers
        _h.check_kind(d, "fiu", "UnsortedSegmentSum", "bfloat16, half, float, double, int8, "
                      "uint8, int16, uint16, int32, uint32, int64, uint64")
    ids = to_tensor(segment_ids)
    n = int(static_value(num_segments) if isinstance(num_segments, _TensorLike) else num_segments)
    ones = ones_like(ids, dtype=d.dtype)
    return d, ids, n, unsorted_segment_sum(ones, ids, n)


def _per_segment(count, rest_rank):
    return _a.reshape(count, [-1] + [1] * rest_rank)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Mean of the slices of ``data`` sharing a segment id; 0 for empty segments.

    TensorFlow counterpart: ``tf.math.unsorted_segment_mean``.
    """
    d, ids, n, count = _segment_ids_and_count(data, segment_ids, num_segments)
    total = unsorted_segment_sum(d, ids, n)
    rest = total._value.ndim - 1
    return divide_no_nan(total, _per_segment(count, rest))


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Sum over each segment divided by the square root of its size.

    TensorFlow counterpart: ``tf.math.unsorted_segment_sqrt_n``.
    """
    d, ids, n, count = _segment_ids_and_count(data, segment_ids, num_segments)
    total = unsorted_segment_sum(d, ids, n)
    return divide_no_nan(total, _per_segment(sqrt(count), total._value.ndim - 1))


def _finfo(dtype):
    if dtype.kind == "V":  # bfloat16 comes from ml_dtypes, whose finfo knows it
        import ml_dtypes
        return ml_dtypes.finfo(dtype)
    return np.finfo(dtype)


def _segment_extremum_forward(data, ids, num_segments, is_max, first=False):
    rest = data.shape[ids.ndim:]
    flat_ids = ids.reshape(-1)
    flat = data.reshape((ids.size,) + rest)
    floating = data.dtype.kind not in "iu"
    info = _finfo(data.dtype) if floating else np.iinfo(data.dtype)
    keep = (flat_ids >= 0) & (flat_ids < num_segments)
    flat_ids, flat = flat_ids[keep], flat[keep]
    fold = np.maximum if is_max else np.minimum
    # The unsorted kernels start from the lowest (largest) finite value, so an inf loses to
    # it; the sorted ones start from a segment's first element (``first``).
    start = (-np.inf if is_max else np.inf) if floating and first else (
        info.min if is_max else info.max)
    out = np.full((num_segments,) + rest, start, data.dtype)
    nan = np.isnan(flat) if floating else None
    if nan is not None and nan.any():
        # Eigen folds ``acc = x unless x < acc`` (> for min): a NaN replaces the running
        # value and the next number replaces the NaN, so a segment gives the extremum of what
        # follows its last NaN, or NaN when a NaN comes last.
        order = np.broadcast_to(np.arange(len(flat)).reshape((-1,) + (1,) * len(rest)),
                                flat.shape)
        last_nan = np.full(out.shape, -1)
        np.maximum.at(last_nan, flat_ids, np.where(nan, order, -1))
        after = order > last_nan[flat_ids]
        fold.at(out, flat_ids, np.where(after, flat, data.dtype.type(start)))
        any_after = np.zeros(out.shape, bool)
        np.logical_or.at(any_after, flat_ids, after)
        out[(last_nan >= 0) & ~any_after] = np.nan
        inner = int(np.prod(rest))
        vec = inner // (4 if data.dtype.itemsize == 8 else 8) * (4 if data.dtype.itemsize == 8
                                                                 else 8)
        if first and vec:
            # The sorted kernels reduce a segment of two or more rows by Eigen's packets
            # (8 float32/float16, 4 float64 positions of a row): a NaN never replaces the
            # running value there (an all-NaN column keeps the start, +-inf); the positions
            # past the last whole packet fold as above, a one-row segment is copied.
            skip = np.full(out.shape, start, data.dtype)
            (np.fmax if is_max else np.fmin).at(skip, flat_ids, flat)
            counts = np.bincount(flat_ids, minlength=num_segments)[:num_segments]
            cols = (np.arange(inner) < vec).reshape(rest)
            use = (counts >= 2).reshape((-1,) + (1,) * len(rest)) & cols
            out = np.where(use, skip, out)
    else:
        fold.at(out, flat_ids, flat)
    # empty segments hold the dtype's lowest (largest) finite value, as TensorFlow's
    # unsorted kernels; 0 in the sorted ones
    empty = np.bincount(flat_ids, minlength=num_segments)[:num_segments] == 0
    out[empty] = 0 if first else (info.min if is_max else info.max)
    return out


def _selected(y, data, ids, dtype):
    """1 where an entry equals its segment's extremum, else 0; a negative id (a dropped
    entry) reads segment 0 and is masked, as TF's ``_GatherDropNegatives``."""
    iv = ids._value
    if not isinstance(iv, np.ndarray) or not (iv < 0).any():
        return cast(equal(data, _ix._gather_dense(y, ids)), dtype)
    kept = Tensor((iv >= 0).reshape(iv.shape + (1,) * (data._value.ndim - iv.ndim)))
    picked = _ix._gather_dense(y, Tensor(np.maximum(iv, 0)))
    return cast(_a.where(kept, equal(data, picked), zeros_like(kept)), dtype)


def _segment_extremum_rule(g, y, data, ids, num_segments, is_max, first=False):
    # The gradient goes to the entries equal to their segment's extremum, shared equally
    # among ties, as TensorFlow's.
    if data._value.size == 0:  # nothing to share (the ids may name absent segments)
        return zeros_like(data)
    hit = _selected(y, data, ids, g.dtype)
    share = divide_no_nan(g, unsorted_segment_sum(hit, ids, num_segments))
    iv = ids._value
    if isinstance(iv, np.ndarray) and (iv < 0).any():
        ids = Tensor(np.maximum(iv, 0))  # a dropped entry is no hit: any segment will do
    return multiply(_ix._gather_dense(share, ids), hit)


_SEG_MAX = primitive("UnsortedSegmentMax", _segment_extremum_forward, save_output=True)
defvjp(_SEG_MAX, _segment_extremum_rule, None)


def _segment_extremum_jvp(ts, y, data, ids, num_segments, is_max, first=False):
    # the tangents of the tied entries averaged: 0 / 0 (NaN) in an empty segment, as the
    # forward mode TensorFlow derives from its gradient
    if ts[0] is None:
        return None
    hit = _selected(y, data, ids, ts[0].dtype)
    return divide(unsorted_segment_sum(multiply(ts[0], hit), ids, num_segments),
                  unsorted_segment_sum(hit, ids, num_segments))


defjvp(_SEG_MAX, _segment_extremum_jvp)


def _segment_extremum(data, segment_ids, num_segments, is_max, op_name, first=False):
    d = to_tensor(data)
    if d._value.dtype.kind not in "fiu":
        _h.check_kind(d, "fiu", op_name, "float, double, int32, uint8, int16, int8, int64, "
                      "bfloat16, uint16, half, uint32, uint64")
    ids = to_tensor(segment_ids)
    n = int(static_value(num_segments) if isinstance(num_segments, _TensorLike) else num_segments)
    if d._value.shape[:ids._value.ndim] != ids._value.shape:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"data.shape = {_h._show(d._value.shape)} does not start with segment_ids.shape "
            f"= {_h._show(ids._value.shape)}", op_name)
    if d._value.size:  # TF's kernel checks the ids as it reads the data: none when empty
        _check_below(ids._value, n, op_name)
    return apply(_SEG_MAX, (d, ids), {"num_segments": n, "is_max": is_max, "first": first})


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """Maximum over the slices of ``data`` sharing a segment id.

    Empty segments hold the dtype's lowest value, as TensorFlow. TensorFlow counterpart:
    ``tf.math.unsorted_segment_max``; the gradient is shared among tied maxima.
    """
    return _segment_extremum(data, segment_ids, num_segments, True, "UnsortedSegmentMax")


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """Minimum over each segment; empty segments hold the dtype's largest value.

    TensorFlow counterpart: ``tf.math.unsorted_segment_min``.
    """
    return _segment_extremum(data, segment_ids, num_segments, False, "UnsortedSegmentMin")


def _sorted_count(segment_ids):
    # a guard under a trace, as in segment_sum: the row count is the ids' last value + 1
    return _check_sorted_ids(static_value(to_tensor(segment_ids)), "SegmentMax")


def segment_max(data, segment_ids, name=None):
    """Maximum over sorted segments (``tf.math.segment_max``); empty segments give 0."""
    n = _sorted_count(segment_ids)
    # (the kernel gives 0 in an empty segment: its tangent there is 0 / 0, nan, as the
    # forward mode TF derives from its gradient)
    return _segment_extremum(data, segment_ids, n, True, "SegmentMax", first=True)


def segment_min(data, segment_ids, name=None):
    """Minimum over sorted segments (``tf.math.segment_min``); empty segments give 0."""
    n = _sorted_count(segment_ids)
    # (the kernel gives 0 in an empty segment: its tangent there is 0 / 0, nan, as the
    # forward mode TF derives from its gradient)
    return _segment_extremum(data, segment_ids, n, False, "SegmentMin", first=True)
