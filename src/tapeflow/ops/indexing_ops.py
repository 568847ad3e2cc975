"""Indexing: gather, gather_nd, scatter into tensors, boolean masks, and slices by begin
and size or by strides: forward and derivative side by side."""
import builtins

from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import Primitive, defjvp, defvjp, primitive
from .._core.tensor import Tensor, TensorShape, _TensorLike
from . import array_ops as _a
from . import composite_dispatch as _composite
from . import math_ops as _m
from . import reduction_ops as _r
from ._helpers import _err, _int_list, _show, to_tensor
from .array_ops import (
    _RESHAPE_DYNAMIC,
    _SHAPE,
    _strided_slice,
    concat,
    reshape,
    shape,
    transpose,
    where,
)

__all__ = [
    "gather", "gather_nd", "scatter_nd", "tensor_scatter_nd_update",
    "tensor_scatter_nd_add", "tensor_scatter_nd_sub", "tensor_scatter_nd_max",
    "tensor_scatter_nd_min", "boolean_mask", "slice_", "strided_slice",
    "strided_slice_getitem",
]


def strided_slice_getitem(x, key):
    """``x[key]`` for ints, slices, strides, ``None`` and ``...`` (``Tensor.__getitem__``); a
    bool key (a tensor, a NumPy array or a Python bool) masks (``tf.boolean_mask``; a scalar
    mask raises ValueError), and inside a trace a scalar int tensor key gathers.

    Raises:
        tf.errors.InvalidArgumentError: for an index out of bounds.
        TypeError: for an index of another kind.
    """
    x = to_tensor(x)
    kind = type(key)
    if kind is bool or kind is np.ndarray and key.dtype.kind == "b" or \
            isinstance(key, _TensorLike) and key._value.dtype.kind == "b":
        return boolean_mask(x, key)  # x[mask], as TensorFlow's __getitem__
    if ACTIVE[0] and isinstance(key, _TensorLike) and key._value.ndim == 0 \
            and key._value.dtype.kind in "iu" and x._value.ndim and current_tracer():
        # Inside a trace a tensor index stays a tensor (a traced loop's ``x[i]``): a gather,
        # not a slice whose position would be baked into the program.
        return gather(x, key)
    return _strided_slice(x, key)


# ----------------------------------------------------------------------------- gather


def _gather_forward(params, indices, axis, batch_dims, sparse=False):
    if batch_dims:
        raise NotImplementedError("batch_dims")
    n = params.shape[axis]
    if indices.size and (indices.min() < -0 or indices.max() >= n):
        out_shape = params.shape[:axis] + indices.shape + params.shape[axis + 1:]
        if not np.prod(params.shape[:axis] + params.shape[axis + 1:]):
            # slices of size 0: TensorFlow's kernel copies nothing and checks no index
            return np.zeros(out_shape, params.dtype)
        bad = indices[(indices < 0) | (indices >= n)].ravel()[0]
        pos = np.argwhere((indices < 0) | (indices >= n))[0]
        raise IndexError(f"indices[{','.join(str(int(p)) for p in pos)}] = {int(bad)} is not "
                         f"in [0, {n})")
    return np.take(params, indices, axis=axis)


def _gather_scatter(g, indices, shape, axis):
    out = np.zeros(shape, g.dtype)
    if not g.size:
        return out   # (an empty gather reads no index, valid or not)
    moved = np.moveaxis(out, axis, 0)
    # The index axes of g are flattened into one before it moves to the front.
    gm = np.moveaxis(g.reshape(shape[:axis] + (indices.size,) + shape[axis + 1:]), axis, 0)
    np.add.at(moved, indices.reshape(-1), gm)
    return out


_GATHER = primitive("GatherV2", _gather_forward,
                    error=lambda v, a, e: (errors.InvalidArgumentError, str(e).strip("'\"")))
# The dense gradient of a gather: a scatter into ``params``' shape, read when it runs
# (params is a shape-only input), so a gather from a batch-sized tensor stays generic in a
# traced program.
_GATHER_GRAD = primitive("GatherGrad", lambda g, indices, params, axis: _gather_scatter(
    g, indices, params.shape, axis), shape_inputs=(2,))
defvjp(_GATHER, lambda g, y, params, indices, axis, batch_dims, sparse=False: apply(
    _GATHER_GRAD, (g, indices, params), {"axis": axis}), None)
defvjp(_GATHER_GRAD, lambda gg, y, g, indices, params, axis: _gather_dense(
    gg, indices, axis=axis), None, None)
defjvp(_GATHER_GRAD, lambda ts, y, g, indices, params, axis: None if ts[0] is None else
       apply(_GATHER_GRAD, (ts[0], indices, params), {"axis": axis}))


def shape_stand_in(shape, dtype):
    """A zero-strided tensor of ``shape``: what an op that reads only a shape is given
    when the caller has a shape, not a tensor."""
    return Tensor(np.broadcast_to(np.zeros((), dtype), tuple(shape)))


def _gather_sparse_rule(g, y, params, indices, axis, batch_dims, sparse=False):
    # What tf.gather's gradient is for a source it reads: IndexedSlices (axis 0 only).
    # Ops composed of gathers (pad, roll, top_k) keep TensorFlow's dense gradients.
    if not sparse or axis != 0 or batch_dims:
        return _GATHER.vjps[0](g, y, params, indices, axis, batch_dims)
    from .._core.indexed_slices import IndexedSlices
    shape = params._value.shape
    n = indices._value.size
    dt = indices._value.dtype
    if current_tracer() is None:
        values = reshape(g, (n,) + shape[1:]) if g._value.ndim != len(shape) or \
            g._value.shape[0] != n else g
        dense = Tensor(np.array(shape, dt))
    else:
        # Traced: the dense shape (and the rows' shape) is params' shape when the program
        # runs (TensorFlow's ``tf.shape(params)``), so a relaxed program serves other sizes.
        dense = apply(_SHAPE, (params,), {"dtype": dt})
        values = g if g._value.ndim == len(shape) and indices._value.ndim == 1 else apply(
            _RESHAPE_DYNAMIC, (g, concat([Tensor(np.array([-1], dt)), dense[1:]], 0)))
    flat = indices if indices._value.ndim == 1 else reshape(indices, (-1,))
    return IndexedSlices(values, flat, dense)


_GATHER.sparse_vjps = (_gather_sparse_rule,)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Take slices of ``params`` along ``axis`` at ``indices`` (``tf.gather``).

    The gradient with respect to ``params``, when ``params`` is itself the source
    (a Variable, say) and ``axis`` is 0, is an ``IndexedSlices``, as in TensorFlow.

    Args:
        params: a tensor of rank >= 1.
        indices: an int32/int64 tensor of any shape, values in ``[0, params.shape[axis])``.
        axis: the axis to gather from (default 0).

    Returns:
        A tensor of shape ``params.shape[:axis] + indices.shape + params.shape[axis+1:]``.

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range.
    """
    return _gather(params, indices, axis, batch_dims, True)


def _gather_dense(params, indices, axis=None, batch_dims=0):
    """``gather`` whose gradient is always dense: for ops composed of gathers."""
    return _gather(params, indices, axis, batch_dims, False)


def _gather(params, indices, axis, batch_dims, sparse):
    try:
        p = to_tensor(params)
        i = to_tensor(indices)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("gather", params, indices, None, axis, batch_dims)
    if i._value.dtype.kind not in "iu":
        from ._helpers import tf_type_name
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'Tindices' of {tf_type_name(i._value.dtype)} is not in "
            "the list of allowed values: int16, int32, int64\n\t; NodeDef: {{node GatherV2}} "
            "[Op:GatherV2]")
    if batch_dims:
        nb = int(batch_dims)
        nb = nb + i._value.ndim if nb < 0 else nb
        ax = nb if axis is None else int(axis) % p._value.ndim
        return _batched_gather(p, i, ax, nb)
    ax = 0 if axis is None else int(axis)
    if not -p._value.ndim <= ax < p._value.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"Shape must be at least rank {ax + 1 if ax >= 0 else -ax} but is rank "
            f"{p._value.ndim} [Op:GatherV2]")
    ax %= p._value.ndim
    try:
        attrs = {"axis": ax, "batch_dims": 0, "sparse": True} if sparse else \
            {"axis": ax, "batch_dims": 0}
        return apply(_GATHER, (p, i), attrs)
    except errors.InvalidArgumentError as exc:
        # TensorFlow's eager fast path (all inputs tensors) ends its message with
        # ``name: ``; its fallback for Python indices ends at ``[Op:GatherV2]``.
        if isinstance(indices, _TensorLike) and exc.message.endswith("[Op:GatherV2]"):
            raise type(exc)(None, None, exc.message + " name: ") from None
        raise




def _batched_gather(p, i, axis, batch_dims):
    """gather with leading batch axes, written as a flat gather so gradients come free."""
    pshape = p._value.shape
    ishape = i._value.shape
    if len(pshape) < batch_dims + 1:
        raise _err(f"Shape must be at least rank {batch_dims + 1} but is rank {len(pshape)}",
                   "GatherV2", None)
    for d in builtins.range(batch_dims):
        if pshape[d] != ishape[d]:
            raise _err(f"params.shape[{d}]: {pshape[d]} should be equal to "
                       f"indices.shape[{d}]: {ishape[d]}", "GatherV2")
    batch = pshape[:batch_dims]
    nb = int(np.prod(batch)) if batch else 1
    mid = pshape[batch_dims:axis]
    n = pshape[axis]
    rest = pshape[axis + 1:]
    iv = i._value
    if iv.size and (iv.min() < 0 or iv.max() >= n):
        pos = np.argwhere((iv < 0) | (iv >= n))[0]
        raise _err(f"indices[{','.join(str(int(q)) for q in pos)}] = "
                   f"{int(iv[tuple(pos)])} is not in [0, {n})", "GatherV2")
    # [batch, n, mid, rest] flattened to [nb * n, mid + rest].
    perm = (list(builtins.range(batch_dims)) + [axis]
            + list(builtins.range(batch_dims, axis))
            + list(builtins.range(axis + 1, len(pshape))))
    inner = ishape[batch_dims:]
    if batch_dims == 1 and ACTIVE[0] and current_tracer() is not None and 0 not in inner:
        # traced: the batch size is never baked (offsets made by ops), so a relaxed program
        # serves any batch size
        flat = reshape(transpose(p, perm), (-1,) + tuple(mid) + tuple(rest))
        first = strided_slice_getitem(i, (slice(None),) + (slice(0, 1),) * len(inner))
        offsets = _m.multiply(_r.cumsum(_a.ones_like(first), 0, exclusive=True),
                              Tensor(iv.dtype.type(n)))
        out = _gather_dense(flat, _m.add(i, offsets))  # [batch, inner, mid, rest]
    else:
        flat = reshape(transpose(p, perm), (nb * n,) + tuple(mid) + tuple(rest))
        offsets = (np.arange(nb) * n).reshape((nb,) + (1,) * len(inner)).astype(iv.dtype)
        # an op on the index tensor, not its value: a traced program gathers where it is told
        idx = _m.add(reshape(i, (nb,) + tuple(inner)), Tensor(offsets))
        out = _gather_dense(flat, idx)  # [nb, inner, mid, rest]
        out = reshape(out, tuple(batch) + tuple(inner) + tuple(mid) + tuple(rest))
    b, ni, nm = len(batch), len(inner), len(mid)
    perm = (list(builtins.range(b)) + list(builtins.range(b + ni, b + ni + nm))
            + list(builtins.range(b, b + ni))
            + list(builtins.range(b + ni + nm, b + ni + nm + len(rest))))
    return transpose(out, perm)




def _nd_flat_index(p_shape, iv, op_name):
    k = iv.shape[-1]
    if k > len(p_shape):
        raise _err(f"index innermost dimension length must be <= params rank; saw: {k} vs. "
                   f"{len(p_shape)}", op_name, None)
    lead = p_shape[:k]
    flat_iv = iv.reshape(-1, k) if iv.size else iv.reshape(0, k)
    bad = np.any((flat_iv < 0) | (flat_iv >= np.array(lead, dtype=np.int64)), axis=1)
    if bad.any():
        j = int(np.argmax(bad))
        pos = np.unravel_index(j, iv.shape[:-1]) if iv.ndim > 1 else ()
        where_ = ",".join(str(int(q)) for q in pos)
        return None, (where_, flat_iv[j], k)
    strides = np.array([int(np.prod(lead[i + 1:])) for i in builtins.range(k)], np.int64)
    return (flat_iv.astype(np.int64) @ strides).reshape(iv.shape[:-1]), None


def gather_nd(params, indices, batch_dims=0, name=None):
    """Gather slices of ``params`` at index tuples (``tf.gather_nd``).

    Args:
        params: a tensor of rank >= ``indices.shape[-1]``.
        indices: an int tensor whose last axis holds index tuples into ``params``.
        batch_dims: leading axes shared by ``params`` and ``indices``.

    Returns:
        A tensor of shape ``indices.shape[:-1] + params.shape[indices.shape[-1]:]``.

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 1]]).numpy())
        [3 2]
    """
    return _gather_nd(params, indices, batch_dims, True)


def _gather_nd(params, indices, batch_dims, empty_check):
    # (``empty_check`` False: the gradients of the scatters, whose cotangent is empty where
    # their output is, take no error TF's forward GatherNd would raise)
    try:
        p = to_tensor(params)
        i = to_tensor(indices)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("gather_nd", params, indices, batch_dims)
    iv = i._value
    if batch_dims:
        b = int(batch_dims)
        batch = p._value.shape[:b]
        nb = int(np.prod(batch))
        pr = reshape(p, (nb,) + p._value.shape[b:])
        ir = iv.reshape((nb,) + iv.shape[b:])
        bidx = np.broadcast_to(np.arange(nb).reshape((nb,) + (1,) * (ir.ndim - 1)),
                               ir.shape[:-1] + (1,)).astype(iv.dtype)
        out = _gather_nd(pr, Tensor(np.concatenate([bidx, ir], -1)), 0, empty_check)
        return reshape(out, tuple(batch) + out._value.shape[1:])
    pshape = p._value.shape
    if (empty_check and not p._value.size and iv.ndim and iv.shape[-1] <= len(pshape)
            and int(np.prod(iv.shape[:-1]))):
        # TF's GatherNd: index tuples into an empty params fail before any range check
        raise _err("Requested more than 0 entries, but params is empty.  Params shape: "
                   f"{_show(pshape)}", "GatherNd", None)
    flat_idx, bad = _nd_flat_index(pshape, iv, "GatherNd")
    if bad is not None:
        where_, tup, k = bad
        raise _err(f"indices[{where_}] = [{', '.join(str(int(t)) for t in tup)}] does not "
                   f"index into param shape {_show(pshape)}, node name: GatherNd", "GatherNd")
    k = iv.shape[-1]
    if ACTIVE[0] and current_tracer() is not None:
        # traced: the flat index is made by ops from the index tensor (its value was baked
        # into the program before); the check above ran on the traced value only
        strides = np.array([int(np.prod(pshape[j + 1:k])) for j in builtins.range(k)],
                           iv.dtype)
        idx = _r.reduce_sum(_m.multiply(i, Tensor(strides)), axis=-1)
        rest = pshape[k:]
        flat = reshape(p, ((-1,) if int(np.prod(rest)) else (int(np.prod(pshape[:k])),))
                       + rest)
        return _gather_dense(flat, idx)
    flat = reshape(p, (int(np.prod(pshape[:k])),) + pshape[k:])
    return _gather_dense(flat, Tensor(flat_idx))


def _scatter_nd_forward(indices, updates, shape):
    out = np.zeros(shape, updates.dtype)
    k = indices.shape[-1]
    idx = tuple(np.moveaxis(indices, -1, 0)) if k else ()
    np.add.at(out, idx, updates)
    return out


_SCATTER_ND = primitive("ScatterNd", _scatter_nd_forward, save_inputs=True)
defvjp(_SCATTER_ND, None, lambda g, y, indices, updates, shape: _gather_nd(g, indices, 0, False))


def _valid_empty(n_out, n_indices, n_updates):
    # TF's ValidEmptyOutputShape: no indices and no updates, or all three non-empty
    return (n_indices == 0 and n_updates == 0) or (n_out and n_indices and n_updates)


def _check_scatter(iv, u_shape, shape, op_name, empty_ok=False):
    k = iv.shape[-1]
    name = None if op_name == "ScatterNd" else ""
    outer = iv.ndim - 1
    if u_shape[:outer] != iv.shape[:-1]:
        raise _err(f"Dimensions [0,{outer}) of indices[shape={_show(iv.shape)}] must match "
                   f"dimensions [0,{outer}) of updates[shape={_show(u_shape)}]", op_name, name)
    if u_shape != iv.shape[:-1] + tuple(shape[k:]):
        if op_name != "ScatterNd":
            inner = len(shape) - k
            raise _err(f"The inner {inner} dimensions of output.shape={_show(shape)} must "
                       f"match the inner {inner} dimensions of updates.shape="
                       f"{_show(u_shape)}", op_name, name)
        raise _err(f"Dimensions [{iv.ndim - 1},{len(u_shape)}) of updates[shape="
                   f"{_show(u_shape)}] = {_show(u_shape[iv.ndim - 1:])} must match "
                   f"dimensions [{k},{len(shape)}) of output[shape={_show(shape)}] = "
                   f"{_show(shape[k:])}", op_name, name)
    if op_name == "ScatterNd" and not empty_ok and not _valid_empty(
            int(np.prod(shape)), iv.size, int(np.prod(u_shape))):
        raise _err("Indices and updates specified for empty output.  indices shape: "
                   f"{_show(iv.shape)}", op_name, name)
    flat = iv.reshape(-1, k)
    bad = np.any((flat < 0) | (flat >= np.array(shape[:k], dtype=np.int64)), axis=1)
    if bad.any():
        j = int(np.argmax(bad))
        raise _err(f"indices[{j}] = [{', '.join(str(int(t)) for t in flat[j])}] does not "
                   f"index into shape {_show(shape)}", op_name, name)


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of ``shape`` with ``updates`` added at ``indices`` (``tf.scatter_nd``).

    Duplicate indices add up. The gradient with respect to ``updates`` is
    ``gather_nd(g, indices)``.

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range or mismatched shapes.

    Example:
        >>> import tapeflow as tf
        >>> indices, updates = tf.constant([[1], [3], [1]]), tf.constant([1.0, 2.0, 5.0])
        >>> print(tf.scatter_nd(indices, updates, [4]).numpy())
        [0. 6. 0. 2.]
    """
    i = to_tensor(indices)
    u = to_tensor(updates)
    shp = tuple(_int_list(shape))
    if not _valid_empty(len(shp), i._value.size, u._value.size):
        # (TF's first test counts the entries of the shape vector, not of the output)
        raise _err("Indices and updates specified for empty output shape", "ScatterNd", None)
    _check_scatter(i._value, u._value.shape, shp, "ScatterNd")
    return apply(_SCATTER_ND, (i, u), {"shape": shp})


def scatter_nd_sum(indices, updates, shape):
    """``scatter_nd`` without TF's refusal of indices into an empty output (for the segment
    sums, whose TF kernels take empty slices)."""
    i = to_tensor(indices)
    u = to_tensor(updates)
    shp = tuple(_int_list(shape))
    _check_scatter(i._value, u._value.shape, shp, "ScatterNd", empty_ok=True)
    return apply(_SCATTER_ND, (i, u), {"shape": shp})


def _tensor_scatter_update_forward(tensor, indices, updates):
    out = np.array(tensor, copy=True)
    k = indices.shape[-1]
    out[tuple(np.moveaxis(indices, -1, 0)) if k else ()] = updates
    return out


_TS_UPDATE = primitive("TensorScatterUpdate", _tensor_scatter_update_forward)


def _ts_update_tensor_rule(g, y, tensor, indices, updates):
    # g with zeros where an update landed (TensorFlow's rule): shaped by g when it runs
    return apply(_TS_UPDATE, (g, indices, _a.zeros_like(updates)))


defvjp(_TS_UPDATE, _ts_update_tensor_rule, None,
       lambda g, y, tensor, indices, updates: _gather_nd(g, indices, 0, False))


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """``tensor`` with the slices at ``indices`` replaced by ``updates``.

    TensorFlow counterpart: ``tf.tensor_scatter_nd_update``. For duplicate indices the
    last update wins (TF leaves the order unspecified).

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range or mismatched shapes.
    """
    t, i, u = _scatter_args(tensor, indices, updates, "TensorScatterUpdate")
    return apply(_TS_UPDATE, (t, i, u))


# TF 2.21's CPU kernels of TensorScatterAdd/Sub/Max/Min: numbers only (no complex for
# Max/Min); bool and string tensors have none (NotFoundError), unlike TensorScatterUpdate.
_NO_KERNEL_KINDS = {"TensorScatterAdd": "bOSU", "TensorScatterSub": "bOSU",
                    "TensorScatterMax": "bOSUc", "TensorScatterMin": "bOSUc"}


def _scatter_args(tensor, indices, updates, op_name):
    """The three tensors of a tensor_scatter_nd_* call, checked as TensorFlow checks them."""
    t = to_tensor(tensor)
    i = to_tensor(indices)
    u = _a.cast(to_tensor(updates), t.dtype) if not isinstance(updates, _TensorLike) \
        else updates
    kind = t._value.dtype.kind
    if op_name in _NO_KERNEL_KINDS and kind in _NO_KERNEL_KINDS[op_name] \
            and u._value.dtype is t._value.dtype:
        # TF's kernel lookup comes before any shape check: no CPU kernel for these dtypes
        from ._helpers import no_kernel
        raise no_kernel(t, op_name)
    if i._value.size and not t._value.size:
        # TensorFlow's first check: any index into an empty tensor (even a size-0 slice)
        raise _err("Indices and updates specified for empty output shape", op_name, "")
    _check_scatter(i._value, u._value.shape, t._value.shape, op_name)
    if u._value.dtype is not t._value.dtype:
        from ._helpers import dtype_mismatch
        raise dtype_mismatch(op_name, 2, t._value.dtype, u._value.dtype)
    return t, i, u


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """``tensor`` plus ``updates`` added at ``indices`` (``tf.tensor_scatter_nd_add``).

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range or mismatched shapes.
    """
    t, i, u = _scatter_args(tensor, indices, updates, "TensorScatterAdd")
    return apply(_TS_ADD, (t, i, u))


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """``tensor`` minus ``updates`` at ``indices`` (``tf.tensor_scatter_nd_sub``).

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range or mismatched shapes.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_sub(tf.ones((3,)), [[0], [2]], [1.0, 2.0]).numpy()
        array([ 0.,  1., -1.], dtype=float32)
    """
    t, i, u = _scatter_args(tensor, indices, updates, "TensorScatterSub")
    return apply(_TS_SUB, (t, i, u))


def _ts_add_forward(tensor, indices, updates, sign=1):
    out = np.array(tensor, copy=True)
    k = indices.shape[-1]
    np.add.at(out, tuple(np.moveaxis(indices, -1, 0)) if k else (),
              updates if sign > 0 else np.negative(updates))
    return out


# The tensor is an input (not a ScatterNd into a shape attribute added to it), so a program
# traced with relaxed sizes scatters into each call's tensor.
_TS_ADD = primitive("TensorScatterAdd", _ts_add_forward)
_TS_SUB = primitive("TensorScatterSub", lambda t, i, u: _ts_add_forward(t, i, u, -1))
defvjp(_TS_ADD, lambda g, y, tensor, indices, updates: g, None,
       lambda g, y, tensor, indices, updates: _gather_nd(g, indices, 0, False))
defvjp(_TS_SUB, lambda g, y, tensor, indices, updates: g, None,
       lambda g, y, tensor, indices, updates: _m.negative(_gather_nd(g, indices, 0, False)))


def _ts_extremum_forward(tensor, indices, updates, ufunc):
    out = np.array(tensor, copy=True)
    k = indices.shape[-1]
    if updates.dtype.kind in "fc" and np.isnan(updates).any():
        # Eigen's cwiseMin/Max keep the entry against a NaN update (std::min(entry, update)
        # is ``update < entry ? update : entry``) and a NaN entry against any update
        updates = np.where(np.isnan(updates), np.inf if ufunc is np.minimum else -np.inf,
                           updates).astype(updates.dtype)
    ufunc.at(out, tuple(np.moveaxis(indices, -1, 0)) if k else (), updates)
    return out


def _ts_extremum_rules():
    # TensorFlow's rule: the gradient is shared equally among the inputs that reached the
    # extremum (the tensor's entry and every update equal to the output).
    def split(g, y, tensor, indices, updates):
        x_hit = _a.cast(_m.equal(tensor, y), g.dtype)
        u_hit = _a.cast(_m.equal(updates, _gather_nd(y, indices, 0, False)), g.dtype)
        count = apply(_TS_ADD, (x_hit, indices, u_hit))
        share = _m.divide(g, count)
        return share, x_hit, u_hit

    def tensor_rule(g, y, tensor, indices, updates, ufunc):
        share, x_hit, _ = split(g, y, tensor, indices, updates)
        return _m.multiply(share, x_hit)

    def updates_rule(g, y, tensor, indices, updates, ufunc):
        share, _, u_hit = split(g, y, tensor, indices, updates)
        return _m.multiply(_gather_nd(share, indices, 0, False), u_hit)
    return tensor_rule, None, updates_rule


_TS_MAX = primitive("TensorScatterMax", _ts_extremum_forward, save_output=True)
_TS_MIN = primitive("TensorScatterMin", _ts_extremum_forward, save_output=True)
defvjp(_TS_MAX, *_ts_extremum_rules())
defvjp(_TS_MIN, *_ts_extremum_rules())


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """``tensor`` with each indexed entry raised to the update if larger.

    TensorFlow counterpart: ``tf.tensor_scatter_nd_max``.

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range or mismatched shapes.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_max(tf.ones((3,)), [[0], [2]], [5.0, -1.0]).numpy()
        array([5., 1., 1.], dtype=float32)
    """
    t, i, u = _scatter_args(tensor, indices, updates, "TensorScatterMax")
    return apply(_TS_MAX, (t, i, u), {"ufunc": np.maximum})


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """``tensor`` with each indexed entry lowered to the update if smaller.

    TensorFlow counterpart: ``tf.tensor_scatter_nd_min``.

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range or mismatched shapes.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_min(tf.ones((3,)), [[0], [2]], [5.0, -1.0]).numpy()
        array([ 1.,  1., -1.], dtype=float32)
    """
    t, i, u = _scatter_args(tensor, indices, updates, "TensorScatterMin")
    return apply(_TS_MIN, (t, i, u), {"ufunc": np.minimum})


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The entries of ``tensor`` where ``mask`` is true, flattened over the mask's axes.

    TensorFlow counterpart: ``tf.boolean_mask``.

    Args:
        tensor: a tensor of rank >= ``mask``'s rank.
        mask: a bool tensor matching ``tensor.shape[axis:axis + mask.ndim]``.
        axis: where the mask starts (default 0).

    Raises:
        ValueError: for a scalar mask or mismatched shapes.

    Example:
        >>> import tapeflow as tf
        >>> mask = tf.constant([True, False, True])
        >>> print(tf.boolean_mask(tf.constant([1, 2, 3]), mask).numpy())
        [1 3]
    """
    try:
        x = to_tensor(tensor)
        m = to_tensor(mask)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("boolean_mask", tensor, mask, axis)
    mv = m._value
    k = mv.ndim
    ax = 0 if axis is None else int(axis) % max(x._value.ndim, 1)
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    xs = x._value.shape
    if xs[ax:ax + k] != mv.shape:
        raise ValueError(f"Shapes {TensorShape(xs[ax:ax + k])} and {TensorShape(mv.shape)} "
                         f"are incompatible")
    if ACTIVE[0] and current_tracer() is not None:
        # the kept positions from each call's mask, and its size, as TensorFlow's graph
        flat = reshape(x, xs[:ax] + (-1,) + xs[ax + k:])
        keep = reshape(where(reshape(m, [-1])), [-1])
        return _gather_dense(flat, keep, axis=ax)
    flat = reshape(x, xs[:ax] + (int(np.prod(mv.shape)),) + xs[ax + k:])
    keep = Tensor(np.flatnonzero(mv.reshape(-1)).astype(np.int64))
    return _gather_dense(flat, keep, axis=ax)


def slice_(input_, begin, size, name=None):
    """The block of ``size`` starting at ``begin`` (``tf.slice``); size -1 means the rest.

    Named ``slice_`` here so the module keeps Python's ``slice``; exported as ``slice``.

    Raises:
        tf.errors.InvalidArgumentError: if the block does not fit.
    """
    x = to_tensor(input_)
    b = _int_list(begin)
    s = _int_list(size)
    shp = x._value.shape
    if len(b) != len(shp) or len(s) != len(shp):
        raise _err(f"Expected begin and size arguments to be 1-D tensors of size "
                   f"{len(shp)}, but got shapes [{len(b)}] and [{len(s)}] instead.", "Slice", None)
    key = []
    for i, (bi, si, d) in enumerate(zip(b, s, shp, strict=True)):
        if si == -1:
            si = d - bi
        if not (0 <= bi <= d and 0 <= si and bi + si <= d):
            raise _err(f"Expected size[{i}] in [0, {d - bi}], but got {si}"
                       if 0 <= bi <= d else
                       f"Expected begin[{i}] in [0, {d}], but got {bi}", "Slice", None)
        key.append(builtins.slice(bi, bi + si))
    return strided_slice_getitem(x, tuple(key))


# TensorFlow's name (``tf.slice``); the module keeps ``slice_`` so as not to shadow the builtin
slice_.__name__ = slice_.__qualname__ = "slice"


def _slice_key(begin, size):
    return tuple(builtins.slice(int(b), None if s < 0 else int(b) + int(s))
                 for b, s in zip(begin, size))


def _slice_grad_forward(g, x, begin):
    out = np.zeros(np.shape(x), g.dtype)
    out[tuple(builtins.slice(int(b), int(b) + d) for b, d in zip(begin, g.shape))] = g
    return out


# TensorFlow's Slice with ``begin`` and ``size`` as input tensors, used inside traces where
# they are computed from each call's sizes (``tf.image.central_crop``); not in the op table
# (``slice_`` slices with attributes). SliceGrad puts the gradient back into zeros shaped
# like ``x`` when it runs.
_SLICE_DYNAMIC = Primitive("Slice", lambda x, begin, size: x[_slice_key(begin, size)])
_SLICE_GRAD = Primitive("SliceGrad", _slice_grad_forward, shape_inputs=(1,))
defvjp(_SLICE_DYNAMIC, lambda g, y, x, begin, size: apply(_SLICE_GRAD, (g, x, begin)),
       None, None)
defvjp(_SLICE_GRAD, lambda gg, y, g, x, begin: apply(
    _SLICE_DYNAMIC, (gg, begin, shape(g))), None, None)


def traced_slice(x, begin, size):
    """``tf.slice(x, begin, size)`` with ``begin`` and ``size`` 1-D int tensors (computed by
    ops inside a trace): the block is cut from each call's sizes when the program runs."""
    return apply(_SLICE_DYNAMIC, (to_tensor(x), begin, size))


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0,
                  ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """``input_[begin:end:strides]`` with TensorFlow's bit masks (``tf.strided_slice``).

    Args:
        begin, end, strides: int lists of one length.
        begin_mask, end_mask: bit i set ignores ``begin[i]`` / ``end[i]``.
        ellipsis_mask: bit i makes spec i an ellipsis.
        new_axis_mask: bit i inserts a new axis.
        shrink_axis_mask: bit i takes the single index ``begin[i]``.
    """
    b = _int_list(begin)
    e = _int_list(end)
    st = _int_list(strides) if strides is not None else [1] * len(b)
    key = []
    for i in builtins.range(len(b)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            if st[i] < 0:  # TF refuses a single index taken backwards
                raise errors.op_error(errors.InvalidArgumentError,
                                      "only stride 1 allowed on non-range indexing.",
                                      "StridedSlice")
            key.append(b[i])
        else:
            key.append(builtins.slice(None if begin_mask & bit else b[i],
                                      None if end_mask & bit else e[i], st[i]))
    return strided_slice_getitem(input_, tuple(key))


