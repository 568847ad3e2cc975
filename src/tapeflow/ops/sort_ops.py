"""Sorting and ranking: ``top_k``, ``sort``, ``argsort``, ``in_top_k`` and ``unique``
(TensorFlow's ``sort_ops``, ``nn.top_k``, ``math.in_top_k``, ``unique``).

The op names stay public in ``math_ops`` too (re-exported at its end).
"""
import builtins

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value
from . import array_ops as _a
from . import indexing_ops as _ix
from ._helpers import check_kind, dtype_mismatch, to_tensor
from .array_ops import cast

__all__ = [
    "top_k", "sort", "argsort", "in_top_k", "unique",
]


def _descending_key(x):
    # ~x reverses the order of integers without overflow (-x of the lowest int is itself);
    # unsigned and float keys negate.
    if x.dtype.kind == "i":
        return np.invert(x)
    if x.dtype.kind == "u":
        return np.iinfo(x.dtype).max - x
    return -x


def _argsort_forward(x, descending, axis):
    out = np.argsort(_descending_key(x) if descending else x, axis=axis,
                     kind="stable").astype(np.int32)
    if x.dtype.kind == "f" and x.size and np.isnan(x).any():
        # TF sorts by TopKV2 (ascending: of -x), whose order is not one with NaN
        keys = np.moveaxis(x if descending else -x, axis, -1)
        moved = np.moveaxis(out, axis, -1).copy()
        flat, rows = moved.reshape(-1, keys.shape[-1]), keys.reshape(-1, keys.shape[-1])
        for r in np.flatnonzero(np.isnan(rows).any(axis=1)):
            flat[r] = _topk_order(rows[r])
        out = np.moveaxis(flat.reshape(moved.shape), -1, axis)
    return out


_ARGSORT = nondifferentiable("ArgSort", _argsort_forward)


def _topk_order(v):
    """The order TF's TopKV2 gives a row holding NaN, whose comparator "``v[a] > v[b]``,
    else (equal or NaN) ``a < b``" NaN leaves inconsistent: for rows of up to 16, where
    libstdc++'s ``std::sort`` is an insertion sort, that sort replayed (checked against
    TF on random rows); longer rows keep NumPy's order (NaN last)."""
    vals = v.tolist()
    if len(vals) > 16:
        return np.argsort(_descending_key(v), kind="stable").astype(np.int32)

    def comp(a, b):
        return vals[b] < vals[a] or (not vals[b] > vals[a] and a < b)

    seq = list(builtins.range(len(vals)))
    for i in builtins.range(1, len(seq)):
        val = seq[i]
        if comp(val, seq[0]):
            seq[1:i + 1] = seq[0:i]
            seq[0] = val
            continue
        j = i
        while comp(val, seq[j - 1]):
            seq[j] = seq[j - 1]
            j -= 1
        seq[j] = val
    return np.asarray(seq, np.int32)


def _topn_unsorted(vals, k):
    """TF's ``top_k(sorted=False)`` order of one row (``1 < k < len(vals)``): its TopN
    filter's heap array. The first ``k + 1`` indices are made a heap by ``make_heap`` under
    TF's comparator ("``v[a] > v[b]``, else (equal or NaN) ``a < b``", the smallest at the
    front) and the smallest popped to the back; each later index that beats the front takes
    the place of the smallest popped off the first ``k`` and is pushed onto them (checked
    against TF 2.21 on 300 random rows with ties and NaN)."""
    def greater(a, b):
        return vals[b] < vals[a] or (not vals[b] > vals[a] and a < b)

    def push(h, hole, top, value):
        parent = (hole - 1) // 2
        while hole > top and greater(h[parent], value):
            h[hole] = h[parent]
            hole, parent = parent, (parent - 1) // 2
        h[hole] = value

    def adjust(h, hole, length, value):
        top = second = hole
        while second < (length - 1) // 2:
            second = 2 * (second + 1)
            if greater(h[second], h[second - 1]):
                second -= 1
            h[hole] = h[second]
            hole = second
        if length % 2 == 0 and second == (length - 2) // 2:
            second = 2 * (second + 1)
            h[hole] = h[second - 1]
            hole = second - 1
        push(h, hole, top, value)

    def pop(h, length):  # pop_heap over h[:length]
        last = length - 1
        value, h[last] = h[last], h[0]
        adjust(h, 0, last, value)

    h = list(builtins.range(k + 1))
    for parent in builtins.range((k + 1 - 2) // 2, -1, -1):
        adjust(h, parent, k + 1, h[parent])
    pop(h, k + 1)
    for c in builtins.range(k + 1, len(vals)):
        if greater(c, h[0]):
            pop(h, k)
            h[k - 1] = c
            push(h, k - 1, 0, c)
    return h[:k]


def _topk_unsorted_forward(x, k):
    rows = x.reshape(-1, x.shape[-1])
    out = np.empty((rows.shape[0], k), np.int32)
    for r, row in enumerate(rows):
        out[r] = _topn_unsorted(row.tolist(), k)
    return out.reshape(x.shape[:-1] + (k,))


_TOPK_UNSORTED = nondifferentiable("TopKV2Unsorted", _topk_unsorted_forward)


def _check_ordered(x):
    """TopKV2 (which sort and argsort run) takes real numbers only."""
    if x._value.dtype.kind not in "fiu":
        check_kind(x, "fiu", "TopKV2", "float, double, int32, uint8, int16, int8, int64, "
                   "bfloat16, uint16, half, uint32, uint64")


def _argsort_last(x, descending):
    if x._value.dtype.kind == "b":
        x = cast(x, _dt.int32)
    return apply(_ARGSORT, (x,), {"descending": descending, "axis": -1})


def _take_last(x, idx):
    return _ix._gather_dense(x, idx, axis=x._value.ndim - 1, batch_dims=x._value.ndim - 1)


def top_k(input, k=1, sorted=True, index_type=_dt.int32, name=None):  # noqa: A002
    """The ``k`` largest entries along the last axis and their indices (``tf.math.top_k``).

    Ties keep the lower index first, as TensorFlow. The gradient flows to the chosen
    entries.

    Args:
        input: a real tensor of rank >= 1 with last dimension >= ``k``.
        k: how many entries to keep.

    Returns:
        ``(values, indices)``, each of shape ``input.shape[:-1] + [k]``; indices int32.

    Raises:
        tf.errors.InvalidArgumentError: if ``k`` is negative or exceeds the last dimension.

    Example:
        >>> import tapeflow as tf
        >>> values, indices = tf.math.top_k(tf.constant([1.0, 5.0, 3.0]), k=2)
        >>> print(values.numpy(), indices.numpy())
        [5. 3.] [1 2]
    """
    x = to_tensor(input)
    _check_ordered(x)
    if isinstance(k, float):
        raise TypeError(f"Cannot convert {k!r} to EagerTensor of dtype int32")
    k = int(static_value(k) if isinstance(k, _TensorLike) else k)
    if x._value.ndim == 0:
        raise errors.op_error(errors.InvalidArgumentError,
                              "input must be >= 1-D, got shape []", "TopKV2")
    n = x._value.shape[-1]
    if k < 0:
        raise errors.op_error(errors.InvalidArgumentError, f"Need k >= 0, got {k}", "TopKV2")
    if n < k:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"input must have at least k columns. Had {n}, needed {k}",
                              "TopKV2")
    if not sorted and 1 < k < n:  # TF's TopN heap order (k = n is sorted, k = 1 argmax)
        idx = apply(_TOPK_UNSORTED, (x,), {"k": k})
    else:
        idx = _argsort_last(x, True)[..., :k]
    return _TopK(_take_last(x, idx), cast(idx, index_type))


class _TopK(tuple):
    """``(values, indices)`` with the field names TensorFlow's namedtuple has."""

    __slots__ = ()

    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"TopKV2(values={self[0]!r}, indices={self[1]!r})"


def _sort_axis(x, axis):
    n = x._value.ndim
    ax = int(axis)
    if not -n <= ax < n:
        # TensorFlow fails while slicing the shape vector with the axis.
        raise errors.InvalidArgumentError(
            None, None, f"slice index {ax + n if ax < 0 else ax} of dimension 0 out of bounds. "
            f"[Op:StridedSlice] "
            f"name: strided_slice/")
    return ax % n


def _check_direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """Indices that sort ``values`` along ``axis`` (``tf.argsort``); int32, no gradient.

    Raises:
        ValueError: for an unknown ``direction`` or an axis out of range.
    """
    _check_direction(direction)
    x = to_tensor(values)
    _check_ordered(x)
    ax = _sort_axis(x, axis)
    return apply(_ARGSORT, (x,), {"descending": direction == "DESCENDING", "axis": ax})


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``values`` sorted along ``axis`` (``tf.sort``); the gradient follows the permutation.

    Raises:
        ValueError: for an unknown ``direction`` or an axis out of range.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.sort(tf.constant([3, 1, 2]), direction='DESCENDING').numpy())
        [3 2 1]
    """
    _check_direction(direction)
    x = to_tensor(values)
    _check_ordered(x)
    ax = _sort_axis(x, axis)
    last = x._value.ndim - 1
    perm = list(builtins.range(x._value.ndim))
    perm[ax], perm[last] = last, ax
    xt = _a.transpose(x, perm) if ax != last else x
    out = _take_last(xt, _argsort_last(xt, direction == "DESCENDING"))
    return _a.transpose(out, perm) if ax != last else out


def in_top_k(targets, predictions, k, name=None):
    """Whether each target's prediction is among the ``k`` largest (``tf.math.in_top_k``).

    Returns:
        A bool tensor of shape ``[batch]``; ties count as in (as TensorFlow).
    """
    p = to_tensor(predictions)
    if p._value.dtype != np.float32:  # InTopKV2 has a float32 kernel only
        if not isinstance(targets, _TensorLike):
            # TensorFlow's slow path converts to the op's declared dtype: its ValueError
            convert_to_tensor(p, dtype=_dt.float32)
        raise dtype_mismatch("InTopKV2", 0, np.dtype(np.float32), p._value.dtype)
    return apply(_IN_TOP_K, (p, to_tensor(targets)), {"k": int(k)})


def _in_top_k_forward(p, t, k):
    # TF's kernel "cannot say" (False) for a row holding any inf or nan, or a target out of
    # range
    valid = (t >= 0) & (t < p.shape[1])
    own = p[np.arange(p.shape[0]), np.where(valid, t, 0)] if p.shape[1] else \
        np.zeros(p.shape[0], p.dtype)
    larger = np.sum(p > own[:, None], axis=1)
    return (larger < k) & valid & np.isfinite(p).all(axis=1)


# An op (it was computed outside the op layer, so a traced program held the traced answer)
_IN_TOP_K = nondifferentiable("InTopKV2", _in_top_k_forward)


class _Unique(tuple):
    __slots__ = ()

    def __new__(cls, y, idx):
        return tuple.__new__(cls, (y, idx))

    y = property(lambda self: self[0])
    idx = property(lambda self: self[1])

    def __repr__(self):
        return f"Unique(y={self[0]!r}, idx={self[1]!r})"


def unique(x, out_idx=_dt.int32, name=None):
    """The distinct values of a 1-D tensor in order of first appearance (``tf.unique``).

    Returns:
        ``(y, idx)`` with ``x == gather(y, idx)``; no gradient.

    Raises:
        tf.errors.InvalidArgumentError: if ``x`` is not 1-D.

    Example:
        >>> import tapeflow as tf
        >>> y, idx = tf.unique(tf.constant([4, 1, 4, 2]))
        >>> print(y.numpy(), idx.numpy())
        [4 1 2] [0 1 0 2]
    """
    t = to_tensor(x)
    v = t._value
    if v.ndim != 1:
        raise errors.op_error(errors.InvalidArgumentError,
                              "unique expects a 1D vector.", "Unique")
    out_idx = _dt.as_dtype(out_idx)._np
    if ACTIVE[0] and current_tracer() is not None:
        # traced: the distinct values of each call's x (an op whose output size is a value)
        return _Unique(*apply(_UNIQUE, (t,), {"out_idx": out_idx}))
    y, idx = _unique_forward(v, out_idx)
    return _Unique(Tensor(y), Tensor(idx))


def _unique_forward(v, out_idx):
    _, first, inverse = np.unique(v, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank_of = np.empty_like(order)
    rank_of[order] = np.arange(order.size)
    return v[np.sort(first)], rank_of[inverse.reshape(-1)].astype(out_idx)


_UNIQUE = nondifferentiable("Unique", _unique_forward, n_outputs=2)
