"""Ops on SparseTensors (``tf.sparse``): conversion, reductions, products and reshaping.

Whatever depends on the values is made of ordinary differentiable ops (scatter, gather,
segment sums), so gradients reach ``values`` and the dense operands; the indices are
integers and get none, as in TensorFlow.
"""
from ..._core import dtypes as _dt
from ..._core import errors
from ..._core.backend import np
from ..._core.tensor import Tensor, _TensorLike, convert_to_tensor
from .. import array_ops as _a
from .. import composite_dispatch as _composite
from .. import creation_ops as _cr
from .. import indexing_ops as _ix
from .. import math_ops as _m
from .. import reduction_ops as _r
from .. import segment_ops as _seg
from .sparse_tensor import SparseTensor

__all__ = ["to_dense", "from_dense", "reduce_sum", "reduce_max", "sparse_dense_matmul",
           "add", "reorder", "transpose", "reshape", "retain", "slice", "maximum",
           "minimum", "expand_dims", "concat", "map_values"]


def _sparse(sp, name="sp_input"):
    if not isinstance(sp, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(sp).__name__} for {name}.")
    return sp


def to_dense(sp_input, default_value=None, validate_indices=True, name=None) -> Tensor:
    """The dense tensor: ``values`` at ``indices``, ``default_value`` (0) elsewhere.

    TensorFlow counterpart: ``tf.sparse.to_dense``. Differentiable in ``values``.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.SparseTensor([[0, 1]], [5.0], [2, 2])
        >>> print(tf.sparse.to_dense(st).numpy())
        [[0. 5.]
         [0. 0.]]
    """
    sp = _sparse(sp_input)
    shape = sp.dense_shape._value.tolist()
    if sp.dtype == _dt.string:
        out = np.full(shape, b"" if default_value is None else (
            default_value.encode() if isinstance(default_value, str) else default_value),
            object)
        out[tuple(sp.indices._value.T)] = sp.values._value
        return Tensor(out)
    if default_value is None:
        base = _a.zeros_like(Tensor(np.zeros(shape, sp.values._value.dtype)))
    else:
        base = _cr.fill(shape, convert_to_tensor(default_value, sp.dtype) if not isinstance(
            default_value, _TensorLike) else default_value)
    return _ix.tensor_scatter_nd_update(base, sp.indices, sp.values)


def from_dense(tensor, name=None) -> SparseTensor:
    """The non-zero entries of a dense tensor, in row-major order (``tf.sparse.from_dense``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.from_dense(tf.constant([[0, 1], [2, 0]])).indices.numpy()
        array([[0, 1],
               [1, 0]])
    """
    t = tensor if isinstance(tensor, _TensorLike) else convert_to_tensor(tensor)
    v = np.asarray(t._value)
    zero = b"" if t.dtype == _dt.string else 0
    idx = np.argwhere(v != zero).astype(np.int64)
    return SparseTensor(Tensor(idx), _ix.gather_nd(t, Tensor(idx)),
                        Tensor(np.array(v.shape, np.int64)))


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of the entries along ``axis`` (all by default) (``tf.sparse.reduce_sum``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.reduce_sum(tf.sparse.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2]),
        ...     axis=1).numpy()
        array([1., 2.], dtype=float32)
    """
    sp = _sparse(sp_input)
    if axis is None:
        out = _r.reduce_sum(sp.values)
        if keepdims:
            out = _a.reshape(out, [1] * sp.ndim)
        return out
    return _r.reduce_sum(to_dense(sp), axis=axis, keepdims=bool(keepdims))


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The maximum of the stored entries along ``axis``; positions with none give 0 as
    for a dense tensor of zeros elsewhere (``tf.sparse.reduce_max``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.reduce_max(tf.sparse.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2]),
        ...     axis=0).numpy()
        array([2., 1.], dtype=float32)
    """
    sp = _sparse(sp_input)
    low = np.finfo(sp.values._value.dtype).min if sp.dtype.is_floating else \
        np.iinfo(sp.values._value.dtype).min
    dense = to_dense(sp, default_value=low)
    out = _r.reduce_max(dense, axis=axis, keepdims=bool(keepdims))
    return _a.where(_m.equal(out, low), _a.zeros_like(out), out)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None) -> Tensor:
    """``A @ B`` for a sparse ``[m, k]`` A and a dense ``[k, n]`` B.

    TensorFlow counterpart: ``tf.sparse.sparse_dense_matmul``. Differentiable in A's
    values and in B.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
        >>> print(tf.sparse.sparse_dense_matmul(st, tf.ones((3, 2))).numpy())
        [[1. 1.]
         [2. 2.]]
    """
    sp = _sparse(sp_a, "sp_a")
    b = b if isinstance(b, _TensorLike) else convert_to_tensor(b, sp.dtype)
    if adjoint_b:
        b = _a.conj(_a.transpose(b))
    idx = sp.indices._value
    rows, cols = (idx[:, 1], idx[:, 0]) if adjoint_a else (idx[:, 0], idx[:, 1])
    m, k = sp.dense_shape._value.tolist()
    if adjoint_a:
        m, k = k, m
    if b._value.shape[0] != k:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Cannot multiply A and B because inner dimension does not "
                              f"match: {k} vs. {b._value.shape[0]}.  Did you forget a "
                              "transpose?  Dimensions of A: [{m}, {k}).  Dimensions of B: "
                              f"{list(b._value.shape)}", "SparseTensorDenseMatMul")
    picked = _ix._gather_dense(b, Tensor(cols.astype(np.int64)))
    terms = _m.multiply(_a.expand_dims(sp.values, 1), picked)
    return _seg.unsorted_segment_sum(terms, Tensor(rows.astype(np.int64)), m)


def add(a, b, threshold=0) -> "SparseTensor | Tensor":
    """``a + b``: sparse + sparse is sparse (entries at the same index add up), sparse +
    dense is dense (``tf.sparse.add``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.add(tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 2]), tf.ones((2, 2))).numpy()
        array([[1., 2.],
               [1., 1.]], dtype=float32)
    """
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        # TensorFlow's merge of two index lists taken as sorted: equal indices add up.
        ia, ib = a.indices._value.tolist(), b.indices._value.tolist()
        seg_a, seg_b, out_idx = [], [], []
        i = j = 0
        while i < len(ia) or j < len(ib):
            if j >= len(ib) or (i < len(ia) and ia[i] < ib[j]):
                seg_a.append(len(out_idx))
                out_idx.append(ia[i])
                i += 1
            elif i >= len(ia) or ib[j] < ia[i]:
                seg_b.append(len(out_idx))
                out_idx.append(ib[j])
                j += 1
            else:
                seg_a.append(len(out_idx))
                seg_b.append(len(out_idx))
                out_idx.append(ia[i])
                i += 1
                j += 1
        vals = _seg.unsorted_segment_sum(_a.concat([a.values, b.values], 0),
                                       Tensor(np.array(seg_a + seg_b, np.int64)),
                                       len(out_idx))
        rank = a.ndim
        return SparseTensor(Tensor(np.array(out_idx, np.int64).reshape(-1, rank)), vals,
                            a.dense_shape)
    if isinstance(a, SparseTensor):
        return _m.add(to_dense(a), b)
    return _m.add(a, to_dense(_sparse(b, "b")))


def reorder(sp_input, name=None) -> SparseTensor:
    """The entries sorted in row-major order of their indices (``tf.sparse.reorder``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.reorder(tf.sparse.SparseTensor([[1, 0], [0, 1]], [1, 2], [2,
        ...     2])).values.numpy()
        array([2, 1], dtype=int32)
    """
    sp = _sparse(sp_input)
    idx = sp.indices._value
    order = np.lexsort(idx.T[::-1]) if idx.size else np.zeros(0, np.int64)
    return SparseTensor(Tensor(idx[order]), _ix._gather_dense(sp.values, Tensor(order)),
                        sp.dense_shape)


def transpose(sp_input, perm=None, name=None) -> SparseTensor:
    """Axes permuted (reversed by default), entries reordered (``tf.sparse.transpose``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.transpose(tf.sparse.SparseTensor([[0, 1]], [5], [2, 3])).indices.numpy()
        array([[1, 0]])
    """
    sp = _sparse(sp_input)
    rank = sp.ndim
    perm = list(range(rank))[::-1] if perm is None else [int(p) for p in perm]
    idx = sp.indices._value[:, perm]
    shape = sp.dense_shape._value[perm]
    return reorder(SparseTensor(Tensor(idx), sp.values, Tensor(shape)))


def reshape(sp_input, shape, name=None) -> SparseTensor:
    """The same entries in a dense tensor of a new ``shape`` (one ``-1`` allowed).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.reshape(tf.sparse.SparseTensor([[0, 2]], [5], [2, 3]), [3, 2]).indices.numpy()
        array([[1, 0]])
    """
    sp = _sparse(sp_input)
    old = sp.dense_shape._value
    new = np.array([int(d) for d in (shape._value.tolist() if isinstance(shape, _TensorLike)
                                     else shape)], np.int64)
    if (new == -1).any():
        new[new == -1] = int(np.prod(old)) // int(np.prod(new[new != -1]))
    flat = np.ravel_multi_index(sp.indices._value.T, old) if sp.indices._value.size else \
        np.zeros(0, np.int64)
    idx = np.stack(np.unravel_index(flat, new), axis=1).astype(np.int64)
    return SparseTensor(Tensor(idx.reshape(-1, len(new))), sp.values, Tensor(new))


def retain(sp_input, to_retain) -> SparseTensor:
    """Only the entries where the bool vector ``to_retain`` is true (``tf.sparse.retain``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.retain(tf.sparse.SparseTensor([[0, 0], [1, 1]], [1, 2], [2, 2]), [False,
        ...     True]).values.numpy()
        array([2], dtype=int32)
    """
    sp = _sparse(sp_input)
    keep = np.flatnonzero(np.asarray(
        to_retain._value if isinstance(to_retain, _TensorLike) else to_retain, bool))
    return SparseTensor(Tensor(sp.indices._value[keep]),
                        _ix._gather_dense(sp.values, Tensor(keep.astype(np.int64))),
                        sp.dense_shape)


def slice(sp_input, start, size, name=None) -> SparseTensor:  # noqa: A001 - TensorFlow's name
    """The entries inside the box ``[start, start + size)``, re-based (``tf.sparse.slice``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.slice(tf.sparse.SparseTensor([[0, 0], [1, 1]], [1, 2], [2, 2]), [1, 0], [1,
        ...     2]).indices.numpy()
        array([[0, 1]])
    """
    sp = _sparse(sp_input)
    start = np.asarray(start, np.int64)
    shape = sp.dense_shape._value
    stop = np.minimum(start + np.asarray(size, np.int64), shape)
    idx = sp.indices._value
    keep = np.flatnonzero(np.all((idx >= start) & (idx < stop), axis=1))
    return SparseTensor(Tensor(idx[keep] - start),
                        _ix._gather_dense(sp.values, Tensor(keep.astype(np.int64))),
                        Tensor(np.maximum(stop - start, 0)))


def _elementwise(a, b, fn):
    return from_dense(fn(to_dense(_sparse(a, "sp_a")), to_dense(_sparse(b, "sp_b"))))


def maximum(sp_a, sp_b, name=None) -> SparseTensor:
    """The element-wise maximum of two SparseTensors (``tf.sparse.maximum``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.to_dense(tf.sparse.maximum(tf.sparse.SparseTensor([[0, 0]], [1.0], [1, 2]),
        ...     tf.sparse.SparseTensor([[0, 1]], [3.0], [1, 2]))).numpy()
        array([[1., 3.]], dtype=float32)
    """
    return _elementwise(sp_a, sp_b, _m.maximum)


def minimum(sp_a, sp_b, name=None) -> SparseTensor:
    """The element-wise minimum of two SparseTensors (``tf.sparse.minimum``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.to_dense(tf.sparse.minimum(tf.sparse.SparseTensor([[0, 0]], [-1.0], [1, 2]),
        ...     tf.sparse.SparseTensor([[0, 1]], [3.0], [1, 2]))).numpy()
        array([[-1.,  0.]], dtype=float32)
    """
    return _elementwise(sp_a, sp_b, _m.minimum)


def expand_dims(sp_input, axis=None, name=None) -> SparseTensor:
    """A new axis of size 1 at ``axis`` (``tf.sparse.expand_dims``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.expand_dims(tf.sparse.SparseTensor([[0, 1]], [5], [2, 3]), 0).shape
        TensorShape([1, 2, 3])
    """
    sp = _sparse(sp_input)
    rank = sp.ndim
    ax = 0 if axis is None else int(axis) % (rank + 1)
    idx = np.insert(sp.indices._value, ax, 0, axis=1)
    shape = np.insert(sp.dense_shape._value, ax, 1)
    return SparseTensor(Tensor(idx), sp.values, Tensor(shape))


def concat(axis, sp_inputs, name=None, expand_nonconcat_dims=False) -> SparseTensor:
    """SparseTensors joined along ``axis`` (``tf.sparse.concat``).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.concat(0, [tf.sparse.SparseTensor([[0, 1]], [5], [1, 2])] * 2).indices.numpy()
        array([[0, 1],
               [1, 1]])
    """
    sps = [_sparse(s) for s in sp_inputs]
    ax = int(axis) % sps[0].ndim
    offset, idxs = 0, []
    for s in sps:
        i = s.indices._value.copy()
        i[:, ax] += offset
        idxs.append(i)
        offset += int(s.dense_shape._value[ax])
    shape = sps[0].dense_shape._value.copy()
    shape[ax] = offset
    return reorder(SparseTensor(Tensor(np.concatenate(idxs)),
                                _a.concat([s.values for s in sps], 0), Tensor(shape)))


def map_values(op, *args, **kwargs):
    """``op`` applied to the values of the SparseTensor arguments, which must share their
    indices and dense shape (``tf.sparse.map_values``); other arguments pass as they are.

    Raises:
        ValueError: when no argument is a SparseTensor, or the SparseTensors' indices differ.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.SparseTensor([[0, 1]], [-2.0], [2, 2])
        >>> tf.sparse.map_values(tf.abs, st).values.numpy()
        array([2.], dtype=float32)
    """
    sparse = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not sparse:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = sparse[0]
    for s in sparse[1:]:
        if not (np.array_equal(s.indices._value, first.indices._value) and
                np.array_equal(s.dense_shape._value, first.dense_shape._value)):
            raise errors.InvalidArgumentError(
                None, None, "SparseTensors in argument list of map_values must have the "
                "same indices and dense_shape")
    args = [a.values if isinstance(a, SparseTensor) else a for a in args]
    kwargs = {k: v.values if isinstance(v, SparseTensor) else v for k, v in kwargs.items()}
    return first.with_values(op(*args, **kwargs))


def _unary_values(op, x, *args, **kwargs):
    # an element-wise op on a SparseTensor: its stored values only (TensorFlow's dispatch)
    return x.with_values(op(x.values, *args, **kwargs))


_composite.register(elementwise={SparseTensor: {"unary": _unary_values, "binary": None}})
