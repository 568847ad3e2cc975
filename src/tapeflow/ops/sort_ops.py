"""Sorting and ranking: ``top_k``, ``sort``, ``argsort``, ``in_top_k`` and ``unique``
(TensorFlow's ``sort_ops``, ``nn.top_k``, ``math.in_top_k``, ``unique``).

The op names stay public in ``math_ops`` too (re-exported at its end).
"""
import builtins
import math

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
    """The order TF's TopKV2 gives a whole row (``k`` = its length) holding NaN: libstdc++'s
    ``std::sort`` of the indices by "``v[b] < v[a]``" (an insertion sort up to 16 values;
    introsort above: median-of-three pivots, unguarded partitions, a final insertion pass),
    then each run of equal neighbours in index order. NaN, equivalent to every value under
    that comparator, lands where the sort leaves it (checked against TF on random rows). A
    partition that would run off the row (undefined in C++) falls back to NumPy's order."""
    vals = v.tolist()

    def comp(a, b):
        return vals[b] < vals[a]

    seq = list(builtins.range(len(vals)))
    try:
        _std_sort(seq, comp)
    except IndexError:
        return np.argsort(_descending_key(v), kind="stable").astype(np.int32)
    i, n = 0, len(seq)
    while i < n - 1:
        j = i + 1
        while j < n and vals[seq[j]] == vals[seq[i]]:
            j += 1
        if j - i > 1:
            seq[i:j] = sorted(seq[i:j])
        i = j
    return np.asarray(seq, np.int32)


def _insertion_sort(seq, lo, hi, comp):
    for i in builtins.range(lo + 1, hi):
        val = seq[i]
        if comp(val, seq[lo]):
            seq[lo + 1:i + 1] = seq[lo:i]
            seq[lo] = val
        else:
            _linear_insert(seq, i, comp)


def _linear_insert(seq, i, comp):
    # libstdc++'s __unguarded_linear_insert: no bound check (IndexError if it runs off)
    val = seq[i]
    j = i - 1
    while comp(val, seq[j]):
        if j < 0:
            raise IndexError
        seq[j + 1] = seq[j]
        j -= 1
    seq[j + 1] = val


def _std_sort(seq, comp):
    n = len(seq)
    if n < 2:
        return
    _introsort(seq, 0, n, 2 * (n.bit_length() - 1), comp)
    if n > 16:
        _insertion_sort(seq, 0, 16, comp)
        for i in builtins.range(16, n):
            _linear_insert(seq, i, comp)
    else:
        _insertion_sort(seq, 0, n, comp)


def _introsort(seq, lo, hi, depth, comp):
    while hi - lo > 16:
        if depth == 0:           # libstdc++'s heap sort fallback
            h = seq[lo:hi]
            m = len(h)
            for parent in builtins.range((m - 2) // 2, -1, -1):
                _adjust_heap(h, parent, m, h[parent], comp)
            for last in builtins.range(m, 1, -1):
                _pop_heap(h, last, comp)
            seq[lo:hi] = h
            return
        depth -= 1
        cut = _partition_pivot(seq, lo, hi, comp)
        _introsort(seq, cut, hi, depth, comp)
        hi = cut


def _partition_pivot(seq, lo, hi, comp):
    mid = lo + (hi - lo) // 2
    a, b, c = lo + 1, mid, hi - 1
    # __move_median_to_first
    if comp(seq[a], seq[b]):
        if comp(seq[b], seq[c]):
            pick = b
        elif comp(seq[a], seq[c]):
            pick = c
        else:
            pick = a
    elif comp(seq[a], seq[c]):
        pick = a
    elif comp(seq[b], seq[c]):
        pick = c
    else:
        pick = b
    seq[lo], seq[pick] = seq[pick], seq[lo]
    # __unguarded_partition of [lo + 1, hi) around seq[lo]
    first, last, pivot = lo + 1, hi, seq[lo]
    while True:
        while comp(seq[first], pivot):
            first += 1
            if first >= hi:
                raise IndexError
        last -= 1
        while comp(pivot, seq[last]):
            last -= 1
            if last < lo:
                raise IndexError
        if not first < last:
            return first
        seq[first], seq[last] = seq[last], seq[first]
        first += 1


def _push_heap(h, hole, top, value, comp):
    # libstdc++'s __push_heap: the hole climbs while its parent compares below ``value``
    parent = (hole - 1) // 2
    while hole > top and comp(h[parent], value):
        h[hole] = h[parent]
        hole = parent
        parent = (hole - 1) // 2
    h[hole] = value


def _adjust_heap(h, hole, n, value, comp):
    # libstdc++'s __adjust_heap: the hole sinks to a leaf by the larger child, then
    # ``value`` climbs back
    top = hole
    child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if comp(h[child], h[child - 1]):
            child -= 1
        h[hole] = h[child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        h[hole] = h[child - 1]
        hole = child - 1
    _push_heap(h, hole, top, value, comp)


def _pop_heap(h, n, comp):
    # libstdc++'s pop_heap over h[:n]: the front goes to h[n - 1]
    if n > 1:
        value = h[n - 1]
        h[n - 1] = h[0]
        _adjust_heap(h, 0, n - 1, value, comp)


def _topn_order(v, k, ordered):
    """The indices TF's TopKV2 gives for ``1 < k < len(v)``: ``gtl::TopN`` over the column
    indices with the comparator "``v[a] > v[b]``, else (equal or NaN) ``a < b``": the first
    ``k + 1`` made a libstdc++ heap (worst at the root) and the worst popped off; each later
    column better than the root pops it and is pushed in its place. ``ordered``
    (``sorted=True``) extracts the heap by ``sort_heap``, else its ``k`` slots as they lie
    (checked against TF on random rows with ties and NaN)."""
    vals = v.tolist()

    def comp(a, b):
        return vals[b] < vals[a] or (not vals[b] > vals[a] and a < b)

    h = list(builtins.range(k + 1))
    n = k + 1
    for parent in builtins.range((n - 2) // 2, -1, -1):     # make_heap
        _adjust_heap(h, parent, n, h[parent], comp)
    _pop_heap(h, n, comp)
    for c in builtins.range(k + 1, len(vals)):
        if comp(c, h[0]):       # better than the heap's worst: it leaves, c comes in
            _pop_heap(h, k, comp)
            h[k - 1] = c
            _push_heap(h, k - 1, 0, c, comp)
    h = h[:k]
    if ordered:
        for last in builtins.range(k, 1, -1):                # sort_heap
            _pop_heap(h, last, comp)
    return np.asarray(h, np.int32)


def _top_k_forward(x, k, ordered):
    """TopKV2's indices of the last axis of ``x``: NumPy's stable descending sort, or TF's
    ``gtl::TopN`` heap where its order differs from a sort (``sorted=False`` with
    ``1 < k < n``; a row holding NaN, whose comparator is no order)."""
    n = x.shape[-1]
    rows = x.reshape(-1, n) if x.size else x.reshape(0, n)
    heap = 1 < k < n
    out = np.argsort(_descending_key(rows), axis=-1, kind="stable").astype(np.int32)
    nan = np.isnan(rows).any(axis=1) if rows.dtype.kind == "f" else np.zeros(len(rows), bool)
    for r in builtins.range(len(rows)):
        if heap and (not ordered or nan[r]):
            out[r, :k] = _topn_order(rows[r], k, ordered)
        elif nan[r] and k == n:
            out[r] = _topk_order(rows[r])
        elif nan[r] and k == 1:
            out[r, 0] = _top_one(rows[r])
    return out[:, :k].reshape(x.shape[:-1] + (k,))


def _top_one(v):
    """TopKV2's ``k = 1`` of a row holding NaN: Eigen's max reduction of the row (whole AVX
    packets skip NaN, ``t > acc ? t : acc`` per lane; the values past the last packet are taken
    one by one as ``t < acc ? acc : t``, which keeps a NaN until the next value; then
    ``tail < packets ? packets : tail``), and the first index holding that maximum, 0 when
    it is NaN (checked against TF on random rows)."""
    p = 4 if v.dtype.itemsize == 8 else 8
    vals = v.tolist()
    n = len(vals)
    whole = n // p * p if n >= p else 0
    best = -math.inf
    for t in vals[:whole]:
        if t > best:
            best = t
    acc = -math.inf
    for t in vals[whole:]:
        acc = acc if t < acc else t
    top = best if acc < best else acc
    for i, t in enumerate(vals):
        if t == top:
            return i
    return 0


_TOP_K = nondifferentiable("TopKIndices", _top_k_forward)


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
    v = x
    if v._value.dtype.kind == "b":
        v = cast(v, _dt.int32)
    idx = apply(_TOP_K, (v,), {"k": k, "ordered": bool(sorted)})
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
