"""Segment reductions (``tf.math.segment_*`` and ``unsorted_segment_*``): sum, mean,
sqrt-n, max and min of the slices that share a segment id.

The op names stay public in ``math_ops`` too (re-exported at its end).
"""
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive
from .._core.tensor import Tensor, _TensorLike, static_value
from . import _helpers as _h
from . import array_ops as _a
from . import indexing_ops as _ix
from ._helpers import to_tensor
from .array_ops import cast, ones_like, zeros_like
from .math_ops import divide_no_nan, equal, multiply, sqrt

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
    ids = to_tensor(segment_ids)
    n = int(static_value(num_segments) if isinstance(num_segments, _TensorLike) else num_segments)
    iv = ids._value
    rest = d._value.shape[iv.ndim:]
    if d._value.shape[:iv.ndim] != iv.shape:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"data.shape = {_h._show(d._value.shape)} does not start with segment_ids.shape "
            f"= {_h._show(iv.shape)}", "UnsortedSegmentSum")
    flat_ids = _a.reshape(ids, [-1])
    flat = _a.reshape(d, (-1,) + tuple(rest))
    valid = (iv.reshape(-1) >= 0) & (iv.reshape(-1) < n)
    if not valid.all():
        keep = Tensor(np.flatnonzero(valid).astype(np.int64))
        flat_ids = _ix._gather_dense(flat_ids, keep)
        flat = _ix._gather_dense(flat, keep)
    return _ix.scatter_nd(_a.expand_dims(flat_ids, -1), flat, (n,) + tuple(rest))


def segment_sum(data, segment_ids, name=None):
    """Sum over sorted segments (``tf.math.segment_sum``); rows ``0..max(ids)``.

    Raises:
        tf.errors.InvalidArgumentError: if the ids are not sorted.
    """
    ids = to_tensor(segment_ids)._value
    if ids.ndim != 1 or ids.shape[0] != to_tensor(data)._value.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, "segment_ids should be the same size as dimension 0 of input. "
            "[Op:SegmentSum]")
    if ids.size and np.any(np.diff(ids) < 0):
        raise errors.op_error(errors.InvalidArgumentError,
                              "segment ids are not increasing", "SegmentSum")
    n = int(ids[-1]) + 1 if ids.size else 0
    return unsorted_segment_sum(data, segment_ids, n)


def segment_mean(data, segment_ids, name=None):
    """Mean over sorted segments (``tf.math.segment_mean``); empty segments give 0."""
    d = to_tensor(data)
    total = segment_sum(d, segment_ids)
    ones = ones_like(to_tensor(segment_ids), dtype=d.dtype)
    count = segment_sum(ones, segment_ids)
    shape = [-1] + [1] * (total._value.ndim - 1)
    return divide_no_nan(total, _a.reshape(count, shape))


def _segment_ids_and_count(data, segment_ids, num_segments):
    d = to_tensor(data)
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


def _segment_extremum_forward(data, ids, num_segments, is_max):
    rest = data.shape[ids.ndim:]
    flat_ids = ids.reshape(-1)
    flat = data.reshape((-1,) + rest)
    info = np.finfo(data.dtype) if data.dtype.kind == "f" else np.iinfo(data.dtype)
    out = np.full((num_segments,) + rest, info.min if is_max else info.max, data.dtype)
    keep = (flat_ids >= 0) & (flat_ids < num_segments)
    (np.maximum if is_max else np.minimum).at(out, flat_ids[keep], flat[keep])
    return out


def _segment_extremum_rule(g, y, data, ids, num_segments, is_max):
    # The gradient goes to the entries equal to their segment's extremum, shared equally
    # among ties, as TensorFlow's.
    picked = _ix._gather_dense(y, ids)
    hit = cast(equal(data, picked), g.dtype)
    share = divide_no_nan(g, unsorted_segment_sum(hit, ids, num_segments))
    return multiply(_ix._gather_dense(share, ids), hit)


_SEG_MAX = primitive("UnsortedSegmentMax", _segment_extremum_forward, save_output=True)
defvjp(_SEG_MAX, _segment_extremum_rule, None)


def _segment_extremum(data, segment_ids, num_segments, is_max, op_name):
    d = to_tensor(data)
    ids = to_tensor(segment_ids)
    n = int(static_value(num_segments) if isinstance(num_segments, _TensorLike) else num_segments)
    if d._value.shape[:ids._value.ndim] != ids._value.shape:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"data.shape = {_h._show(d._value.shape)} does not start with segment_ids.shape "
            f"= {_h._show(ids._value.shape)}", op_name)
    return apply(_SEG_MAX, (d, ids), {"num_segments": n, "is_max": is_max})


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
    ids = to_tensor(segment_ids)._value
    if ids.size and np.any(np.diff(ids) < 0):
        raise errors.op_error(errors.InvalidArgumentError,
                              "segment ids are not increasing", "SegmentMax")
    return int(ids[-1]) + 1 if ids.size else 0


def segment_max(data, segment_ids, name=None):
    """Maximum over sorted segments (``tf.math.segment_max``); empty segments give 0."""
    n = _sorted_count(segment_ids)
    out = unsorted_segment_max(data, segment_ids, n)
    present = Tensor(np.isin(np.arange(n), to_tensor(segment_ids)._value))
    shape = [-1] + [1] * (out._value.ndim - 1)
    return _a.where(_a.reshape(present, shape), out, zeros_like(out))


def segment_min(data, segment_ids, name=None):
    """Minimum over sorted segments (``tf.math.segment_min``); empty segments give 0."""
    n = _sorted_count(segment_ids)
    out = unsorted_segment_min(data, segment_ids, n)
    present = Tensor(np.isin(np.arange(n), to_tensor(segment_ids)._value))
    shape = [-1] + [1] * (out._value.ndim - 1)
    return _a.where(_a.reshape(present, shape), out, zeros_like(out))
