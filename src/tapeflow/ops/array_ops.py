"""Shapes, slicing, joining and creating tensors: forward and derivative side by side."""
import builtins

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply
from .._core.registry import defvjp, nondifferentiable, primitive
from .._core.tensor import Tensor, TensorShape, _TensorLike, convert_to_tensor
from . import math_ops as _m
from ._helpers import pair, shape_tuple, to_tensor

__all__ = [
    "reshape", "broadcast_to", "transpose", "where", "identity", "stop_gradient", "conj",
    "expand_dims", "squeeze", "concat", "stack", "unstack", "gather", "one_hot", "fill",
    "zeros", "ones", "range", "shape", "size", "rank", "tile", "strided_slice_getitem",
    "newaxis",
]

newaxis = None


def _show(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _reshape_forward(x, shape):
    return np.reshape(x, shape)


def _reshape_error(values, attrs, exc):
    (x,) = values
    shape = attrs["shape"]
    size = int(np.size(x))
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1]))
        return errors.InvalidArgumentError, (
            f"Only one input size may be -1, not both 0 and 1" if shape.count(-1) > 1 else
            f"Input to reshape is a tensor with {size} values, but the requested shape "
            f"requires a multiple of {known}")
    return errors.InvalidArgumentError, (
        f"Input to reshape is a tensor with {size} values, but the requested shape has "
        f"{int(np.prod(shape))}")


_RESHAPE = primitive("Reshape", _reshape_forward, save_inputs=False, error=_reshape_error)
defvjp(_RESHAPE, lambda g, y, x_shape, shape: reshape(g, x_shape))


def reshape(tensor, shape, name=None):
    """``tensor`` with a new shape of as many elements (``tf.reshape``).

    Args:
        tensor: any tensor.
        shape: a list/tuple/TensorShape/int tensor; one entry may be -1 (inferred).

    Raises:
        tf.errors.InvalidArgumentError: if the element counts differ.
    """
    return apply(_RESHAPE, (to_tensor(tensor),), {"shape": shape_tuple(shape)})


def _broadcast_forward(x, shape):
    # A read-only view: tensors are immutable, so the stretched copy is never needed.
    return np.broadcast_to(x, shape)


_BROADCAST = primitive("BroadcastTo", _broadcast_forward, save_inputs=False,
                       error=lambda v, a, e: (errors.InvalidArgumentError,
                                              f"Incompatible shapes: {_show(np.shape(v[0]))} "
                                              f"vs. {_show(a['shape'])}"))
# The engine sums the gradient back to the input's shape.
defvjp(_BROADCAST, lambda g, y, x_shape, shape: g)


def broadcast_to(input, shape, name=None):  # noqa: A002 - TensorFlow's name
    """``input`` broadcast to ``shape`` (``tf.broadcast_to``).

    Raises:
        tf.errors.InvalidArgumentError: if the shapes are not broadcast-compatible.
    """
    x = to_tensor(input)
    return apply(_BROADCAST, (x,), {"shape": shape_tuple(shape)})


_TRANSPOSE = primitive("Transpose", lambda x, perm: np.transpose(x, perm), save_inputs=False)
defvjp(_TRANSPOSE, lambda g, y, x_shape, perm: transpose(g, np.argsort(perm).tolist()))


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permute the axes of ``a`` (``tf.transpose``); default reverses them.

    Raises:
        tf.errors.InvalidArgumentError: if ``perm`` is not a permutation of the axes.
    """
    x = to_tensor(a)
    n = x._value.ndim
    perm = tuple(range(n))[::-1] if perm is None else tuple(int(p) % max(n, 1)
                                                             for p in shape_tuple(perm))
    if sorted(perm) != list(builtins.range(n)):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"transpose expects a vector of size {n}. But input(1) is a "
                              f"vector of size {len(perm)}", "Transpose")
    out = apply(_TRANSPOSE, (x,), {"perm": perm})
    return conj(out) if conjugate else out


_CONJ = primitive("Conj", np.conj, save_inputs=False)
defvjp(_CONJ, lambda g, y, x_shape: conj(g))


def conj(x, name=None):
    """Complex conjugate (``tf.math.conj``); real tensors are returned unchanged."""
    x = to_tensor(x)
    if x._value.dtype.kind != "c":
        return x
    return apply(_CONJ, (x,))


_IDENTITY = primitive("Identity", lambda x: x, save_inputs=False)
defvjp(_IDENTITY, lambda g, y, x_shape: g)


def identity(input, name=None):  # noqa: A002 - TensorFlow's name
    """The same value as a new tensor (``tf.identity``); the gradient passes through."""
    return apply(_IDENTITY, (to_tensor(input),))


_STOP = nondifferentiable("StopGradient", lambda x: x)


def stop_gradient(input, name=None):  # noqa: A002 - TensorFlow's name
    """The same value, but no gradient flows back through it (``tf.stop_gradient``)."""
    return apply(_STOP, (to_tensor(input),))


_SELECT = primitive("SelectV2", lambda c, x, y: np.where(c, x, y),
                    error=lambda v, a, e: (errors.InvalidArgumentError,
                                           "condition [" + ",".join(map(str, np.shape(v[0])))
                                           + "], then [" + ",".join(map(str, np.shape(v[1])))
                                           + "], and else [" + ",".join(map(str, np.shape(v[2])))
                                           + "] must be broadcastable"))
defvjp(_SELECT, None,
       lambda g, y, c, x1, x2: where(c, g, _m.zeros_like(g)),
       lambda g, y, c, x1, x2: where(c, _m.zeros_like(g), g))
_WHERE_INDEX = nondifferentiable("Where", lambda c: np.argwhere(c).astype(np.int64))


def where(condition, x=None, y=None, name=None):
    """Pick from ``x`` where ``condition`` is true, else from ``y`` (``tf.where``).

    Args:
        condition: a bool tensor; broadcasts with ``x`` and ``y``.
        x, y: tensors of one dtype, or both None.

    Returns:
        The selection; with ``x`` and ``y`` None, the int64 ``[n, rank]`` indices of the
        true elements.

    Raises:
        ValueError: if only one of ``x`` and ``y`` is given.
    """
    c = to_tensor(condition)
    if x is None and y is None:
        return apply(_WHERE_INDEX, (c,))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    x, y = pair(x, y, "SelectV2")
    if c._value.dtype.kind != "b":
        c = _m.cast(c, _dt.bool)
    return apply(_SELECT, (c, x, y))


def expand_dims(input, axis, name=None):  # noqa: A002 - TensorFlow's name
    """Insert a length-1 axis at ``axis`` (``tf.expand_dims``)."""
    x = to_tensor(input)
    shape = list(x._value.shape)
    n = len(shape)
    axis = int(axis)
    if not -n - 1 <= axis <= n:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Tried to expand dim index {axis} for tensor with {n} "
                              f"dimensions.", "ExpandDims")
    shape.insert(axis % (n + 1), 1)
    return reshape(x, shape)


def squeeze(input, axis=None, name=None):  # noqa: A002 - TensorFlow's name
    """Remove length-1 axes (all, or those in ``axis``) (``tf.squeeze``).

    Raises:
        tf.errors.InvalidArgumentError: if a named axis is not of length 1.
    """
    x = to_tensor(input)
    shape = x._value.shape
    n = len(shape)
    if axis is None:
        keep = [d for d in shape if d != 1]
    else:
        axes = {int(a) % n for a in ([axis] if isinstance(axis, int) else axis)}
        for a in sorted(axes):
            if shape[a] != 1:
                raise errors.op_error(
                    errors.InvalidArgumentError,
                    f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}",
                    "Squeeze")
        keep = [d for i, d in enumerate(shape) if i not in axes]
    return reshape(x, keep)


def _concat_forward(*xs, axis):
    return np.concatenate(xs, axis=axis)


def _concat_error(values, attrs, exc):
    return errors.InvalidArgumentError, (
        "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = "
        f"{_show(np.shape(values[0]))} vs. shape[1] = {_show(np.shape(values[1]))}")


_CONCAT = primitive("ConcatV2", _concat_forward, save_inputs=False, error=_concat_error)


def _concat_rule(k):
    def rule(g, y, *shapes, axis):
        start = builtins.sum(s[axis] for s in shapes[:k])
        return _slice_axis(g, axis, start, start + shapes[k][axis])
    return rule


def _slice_axis(g, axis, start, stop):
    key = (slice(None),) * axis + (slice(start, stop),)
    return strided_slice_getitem(g, key)


def concat(values, axis, name="concat"):
    """Join tensors along an existing axis (``tf.concat``).

    Raises:
        tf.errors.InvalidArgumentError: if the other dimensions or the dtypes differ.
    """
    xs = [to_tensor(v) for v in values]
    if len(xs) == 1:
        return identity(xs[0])
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype is not xs[0]._value.dtype:
            from ._helpers import dtype_mismatch
            raise dtype_mismatch("ConcatV2", i, xs[0]._value.dtype, t._value.dtype)
    n = xs[0]._value.ndim
    ax = int(axis) % max(n, 1)
    if len(_CONCAT.vjps) < len(xs):
        _CONCAT.vjps = tuple(_concat_rule(k) for k in builtins.range(len(xs)))
    return apply(_CONCAT, xs, {"axis": ax})


def _stack_forward(*xs, axis):
    return np.stack(xs, axis=axis)


_PACK = primitive("Pack", _stack_forward, save_inputs=False,
                  error=lambda v, a, e: (errors.InvalidArgumentError,
                                         f"Shapes of all inputs must match: values[0].shape = "
                                         f"{_show(np.shape(v[0]))} != values[1].shape = "
                                         f"{_show(np.shape(v[1]))}"))


def _stack_rule(k):
    def rule(g, y, *shapes, axis):
        key = (slice(None),) * axis + (k,)
        return strided_slice_getitem(g, key)
    return rule


def stack(values, axis=0, name="stack"):
    """Join tensors of one shape along a new axis (``tf.stack``)."""
    xs = [to_tensor(v) for v in values]
    if not xs:
        raise ValueError("values must be a non-empty list of tensors")
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype is not xs[0]._value.dtype:
            from ._helpers import dtype_mismatch
            raise dtype_mismatch("Pack", i, xs[0]._value.dtype, t._value.dtype)
    n = xs[0]._value.ndim + 1
    ax = int(axis)
    if not -n <= ax < n:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
    if len(_PACK.vjps) < len(xs):
        _PACK.vjps = tuple(_stack_rule(k) for k in builtins.range(len(xs)))
    return apply(_PACK, xs, {"axis": ax % n})


def unstack(value, num=None, axis=0, name="unstack"):
    """Split a tensor along ``axis`` into a list of tensors (``tf.unstack``)."""
    x = to_tensor(value)
    n = x._value.ndim
    ax = int(axis) % n
    return [strided_slice_getitem(x, (slice(None),) * ax + (i,))
            for i in builtins.range(x._value.shape[ax])]


# ------------------------------------------------------------------ slicing (__getitem__)


def _norm_key(key):
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if isinstance(k, _TensorLike):
            v = k._value
            if v.ndim == 0 and v.dtype.kind in "iu":
                k = int(v)
            else:
                raise TypeError(
                    "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                    "scalar tf.int32/tf.int64 tensors are valid indices, got " + repr(k))
        elif isinstance(k, slice):
            k = slice(*(int(p) if isinstance(p, _TensorLike) else p
                        for p in (k.start, k.stop, k.step)))
        elif isinstance(k, (list, np.ndarray)) or isinstance(k, builtins.bool):
            raise TypeError(
                "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                f"scalar tf.int32/tf.int64 tensors are valid indices, got {k!r}")
        elif not (k is None or k is Ellipsis or isinstance(k, (int, np.integer))):
            raise TypeError(
                "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                f"scalar tf.int32/tf.int64 tensors are valid indices, got {k!r}")
        out.append(k)
    return tuple(out)


def _getitem_forward(x, key):
    out = x[key]
    return out


def _getitem_error(values, attrs, exc):
    (x,) = values
    key = attrs["key"]
    for i, k in enumerate(k for k in key if k is not None and k is not Ellipsis):
        if isinstance(k, int) and i < np.ndim(x):
            size = np.shape(x)[i]
            if not -size <= k < size:
                return errors.InvalidArgumentError, (
                    f"slice index {k} of dimension {i} out of bounds.")
    return errors.InvalidArgumentError, str(exc)


_STRIDED_SLICE = primitive("StridedSlice", _getitem_forward, save_inputs=False,
                           error=_getitem_error)


def _scatter_forward(g, shape, key):
    out = np.zeros(shape, g.dtype)
    out[key] = g
    return out


_STRIDED_SLICE_GRAD = primitive("StridedSliceGrad", _scatter_forward, save_inputs=False)
defvjp(_STRIDED_SLICE, lambda g, y, x_shape, key: apply(
    _STRIDED_SLICE_GRAD, (g,), {"shape": x_shape, "key": key}))
defvjp(_STRIDED_SLICE_GRAD, lambda g, y, g_shape, shape, key: strided_slice_getitem(g, key))


def strided_slice_getitem(x, key):
    """``x[key]`` for ints, slices, strides, ``None`` and ``...`` (``Tensor.__getitem__``).

    Raises:
        tf.errors.InvalidArgumentError: for an index out of bounds.
        TypeError: for an index of another kind.
    """
    x = to_tensor(x)
    key = _norm_key(key)
    if x._value.ndim == 0 and any(k is not None and k is not Ellipsis for k in key):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Attempting to slice scalar input.",
                              "StridedSlice")
    return apply(_STRIDED_SLICE, (x,), {"key": key})


# ----------------------------------------------------------------------------- gather


def _gather_forward(params, indices, axis, batch_dims):
    if batch_dims:
        raise NotImplementedError("batch_dims")
    n = params.shape[axis]
    if indices.size and (indices.min() < -0 or indices.max() >= n):
        bad = indices[(indices < 0) | (indices >= n)].ravel()[0]
        raise IndexError(f"indices[{int(np.argmax((indices.ravel() < 0) | (indices.ravel() >= n)))}]"
                         f" = {int(bad)} is not in [0, {n})")
    return np.take(params, indices, axis=axis)


def _gather_scatter(g, indices, shape, axis):
    out = np.zeros(shape, g.dtype)
    moved = np.moveaxis(out, axis, 0)
    # The index axes of g are flattened into one before it moves to the front.
    gm = np.moveaxis(g.reshape(shape[:axis] + (indices.size,) + shape[axis + 1:]), axis, 0)
    np.add.at(moved, indices.reshape(-1), gm)
    return out


_GATHER = primitive("GatherV2", _gather_forward,
                    error=lambda v, a, e: (errors.InvalidArgumentError, str(e).strip("'\"")))
_GATHER_GRAD = primitive("GatherGrad", lambda g, indices, shape, axis: _gather_scatter(
    g, indices, shape, axis))
defvjp(_GATHER, lambda g, y, params, indices, axis, batch_dims: apply(
    _GATHER_GRAD, (g, indices), {"shape": params._value.shape, "axis": axis}), None)
defvjp(_GATHER_GRAD, lambda g, y, gg, indices, shape, axis: gather(g, indices, axis=axis),
       None)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Take slices of ``params`` along ``axis`` at ``indices`` (``tf.gather``).

    Args:
        params: a tensor of rank >= 1.
        indices: an int32/int64 tensor of any shape, values in ``[0, params.shape[axis])``.
        axis: the axis to gather from (default 0).

    Returns:
        A tensor of shape ``params.shape[:axis] + indices.shape + params.shape[axis+1:]``.

    Raises:
        tf.errors.InvalidArgumentError: for an index out of range.
    """
    p = to_tensor(params)
    i = to_tensor(indices)
    ax = 0 if axis is None else int(axis) % p._value.ndim
    return apply(_GATHER, (p, i), {"axis": ax, "batch_dims": int(batch_dims)})


# ----------------------------------------------------------------------------- creation


_ONE_HOT = nondifferentiable(
    "OneHot", lambda idx, depth, on, off, axis, dtype: _one_hot(idx, depth, on, off, axis,
                                                                dtype))


def _one_hot(idx, depth, on, off, axis, dtype):
    idx = np.asarray(idx)
    hot = idx[..., None] == np.arange(depth)
    out = np.where(hot, np.asarray(on, dtype), np.asarray(off, dtype)).astype(dtype)
    if axis != -1 and axis != idx.ndim:
        out = np.moveaxis(out, -1, axis)
    return out


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot rows for integer ``indices`` (``tf.one_hot``); out-of-range indices give zeros.

    Args:
        indices: an integer tensor of any shape.
        depth: the number of classes.
        on_value, off_value: the fill values (default 1 and 0).
        axis: where the new axis goes (default last).
        dtype: the result dtype (default float32, or that of ``on_value``).

    Returns:
        A tensor of shape ``indices.shape + [depth]`` (axis moved as asked).
    """
    idx = to_tensor(indices)
    if dtype is None:
        dtype = (on_value.dtype if isinstance(on_value, _TensorLike) else
                 off_value.dtype if isinstance(off_value, _TensorLike) else _dt.float32)
    dtype = _dt.as_dtype(dtype)
    on = 1 if on_value is None else (on_value._value if isinstance(on_value, _TensorLike)
                                     else on_value)
    off = 0 if off_value is None else (off_value._value if isinstance(off_value, _TensorLike)
                                       else off_value)
    return apply(_ONE_HOT, (idx,), {"depth": int(depth), "on": on, "off": off,
                                    "axis": -1 if axis is None else int(axis),
                                    "dtype": dtype._np})


def _creation_shape(shape):
    try:
        return shape_tuple(TensorShape(shape).as_list() if isinstance(shape, TensorShape)
                           else shape)
    except TypeError as err:
        raise TypeError(f"Invalid shape {shape!r}") from err


def zeros(shape, dtype=_dt.float32, name=None, layout=None):
    """A tensor of zeros (``tf.zeros``).

    Args:
        shape: a list/tuple/TensorShape of non-negative ints, or an int.
        dtype: the DType (default float32).
    """
    npd = _dt.as_dtype(dtype)._np
    shape = _creation_shape(shape)
    return Tensor(np.zeros(shape, npd) if shape else npd.type(0))


def ones(shape, dtype=_dt.float32, name=None, layout=None):
    """A tensor of ones (``tf.ones``); arguments as :func:`zeros`."""
    npd = _dt.as_dtype(dtype)._np
    shape = _creation_shape(shape)
    return Tensor(np.ones(shape, npd) if shape else npd.type(1))


def fill(dims, value, name=None, layout=None):
    """A tensor of shape ``dims`` filled with the scalar ``value`` (``tf.fill``).

    Raises:
        tf.errors.InvalidArgumentError: if ``value`` is not a scalar.
    """
    v = to_tensor(value)
    if v._value.ndim != 0:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"value must be a scalar. Got {v._value.ndim}", "Fill")
    shape = _creation_shape(dims)
    if ACTIVE[0]:  # the gradient flows to ``value`` (summed), as TensorFlow's Fill
        return broadcast_to(v, shape)
    return Tensor(np.full(shape, v._value, v._value.dtype) if shape else v._value)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """Numbers from ``start`` up to ``limit`` (exclusive) by ``delta`` (``tf.range``).

    With one argument it is ``limit`` and counting starts at 0. The dtype is int32 for
    integer arguments, float32 if any is a float, unless ``dtype`` is given.

    Raises:
        tf.errors.InvalidArgumentError: for ``delta == 0`` or a range that runs backwards.
    """
    if limit is None:
        start, limit = 0, start
    vals = [v._value[()] if isinstance(v, _TensorLike) else v for v in (start, limit, delta)]
    if dtype is None:
        kinds = [np.asarray(v).dtype.kind for v in vals]
        tdts = [v.dtype for v in (start, limit, delta) if isinstance(v, _TensorLike)]
        if tdts:
            dtype = max(tdts, key=lambda d: (d.is_floating, d.size))
        else:
            dtype = _dt.float32 if "f" in kinds else _dt.int32
    dtype = _dt.as_dtype(dtype)
    s, lim, d = vals
    if d == 0:
        raise errors.op_error(errors.InvalidArgumentError, "Requires delta != 0: 0", "Range")
    if (d > 0 and s > lim) or (d < 0 and s < lim):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Requires start <= limit when delta > 0: {s}/{lim}"
                              if d > 0 else f"Requires start >= limit when delta < 0: {s}/{lim}",
                              "Range")
    return Tensor(np.arange(s, lim, d).astype(dtype._np))


def shape(input, out_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's name
    """The shape of ``input`` as a 1-D int32 tensor (``tf.shape``)."""
    x = to_tensor(input)
    return Tensor(np.array(x._value.shape, _dt.as_dtype(out_type)._np))


def size(input, out_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's name
    """The number of elements of ``input`` as a scalar tensor (``tf.size``)."""
    x = to_tensor(input)
    return Tensor(_dt.as_dtype(out_type)._np.type(x._value.size))


def rank(input, name=None):  # noqa: A002 - TensorFlow's name
    """The number of axes of ``input`` as a scalar int32 tensor (``tf.rank``)."""
    return Tensor(np.int32(to_tensor(input)._value.ndim))


_TILE = primitive("Tile", lambda x, multiples: np.tile(x, multiples), save_inputs=False)


def _tile_rule(g, y, x_shape, multiples):
    split = []
    for m, d in zip(multiples, x_shape):
        split += [m, d]
    g = reshape(g, split)
    return _m.reduce_sum(g, axis=list(builtins.range(0, 2 * len(x_shape), 2)))


defvjp(_TILE, _tile_rule)


def tile(input, multiples, name=None):  # noqa: A002 - TensorFlow's name
    """Repeat ``input`` ``multiples[i]`` times along axis i (``tf.tile``).

    Raises:
        tf.errors.InvalidArgumentError: if ``len(multiples)`` differs from the rank.
    """
    x = to_tensor(input)
    mult = shape_tuple(multiples)
    if len(mult) != x._value.ndim:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Expected multiples argument to be a vector of length {x._value.ndim} but got "
            f"length {len(mult)}", "Tile")
    return apply(_TILE, (x,), {"multiples": mult})
