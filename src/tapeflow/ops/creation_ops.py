"""Creating tensors: zeros, ones, fill, range, one_hot, eye, linspace, meshgrid and
sequence_mask."""
import builtins

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import Primitive, nondifferentiable
from .._core.tensor import Tensor, TensorShape, _TensorLike, convert_to_tensor, static_value
from . import array_ops as _a
from . import composite_dispatch as _composite
from . import math_ops as _m
from . import reduction_ops as _r
from ._helpers import _err, _int_list, _show, shape_tuple, to_tensor
from .array_ops import (
    _strided_slice,
    _traced_shape,
    broadcast_to,
    concat,
    expand_dims,
    reshape,
    size,
)

__all__ = [
    "one_hot", "fill", "zeros", "ones", "range", "meshgrid", "linspace", "eye",
    "sequence_mask",
]


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
    try:
        idx = to_tensor(indices)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.unary(one_hot, indices, depth, on_value, off_value, axis, dtype)
    if int(depth) < 0:
        raise errors.InvalidArgumentError(
            None, None, f"depth must be non-negative, got: {int(depth)} [Op:OneHot]")
    if idx._value.dtype.kind not in "iu":
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'TI' of {idx.dtype.name.replace('32', '')} is not in "
            "the list of allowed values: uint8, int8, int32, int64\n\t; NodeDef: "
            "{{node OneHot}}")
    # TF's wrapper: the fill values are converted with ``dtype`` as a hint, and every dtype
    # given or found must agree (TypeError)
    given = None if dtype is None else _dt.as_dtype(dtype)
    hint = given
    fills = [None if v is None else convert_to_tensor(v, dtype_hint=hint)
             for v in (on_value, off_value)]
    found = [None if f is None else f.dtype for f in fills]
    for what, f in zip(("on_value", "off_value"), found):
        if f is not None and given is not None and f != given:
            raise TypeError(f"dtype {f} of {what} does not match dtype parameter {dtype}")
    dtype = given or found[0] or found[1] or _dt.float32
    if found[0] is not None and found[1] is not None and found[0] != found[1]:
        raise TypeError(f"dtype {found[0]} of on_value does not match dtype {found[1]} of "
                        "off_value")
    dtype = _dt.as_dtype(dtype)
    for what, f in zip(("on_value", "off_value"), fills):
        if f is not None and f._value.ndim:
            raise errors.op_error(errors.InvalidArgumentError, f"{what} must be a scalar, but "
                                  f"got: {_show(f._value.shape)}", "OneHot")
    on = 1 if on_value is None else fills[0]._value
    off = 0 if off_value is None else fills[1]._value
    return apply(_ONE_HOT, (idx,), {"depth": int(depth), "on": on, "off": off,
                                    "axis": -1 if axis is None else int(axis),
                                    "dtype": dtype._np})


def _creation_shape(shape, op="Fill"):
    if isinstance(shape, (list, tuple)) and builtins.any(isinstance(d, str) for d in shape):
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    try:
        shape = shape_tuple(TensorShape(shape).as_list() if isinstance(shape, TensorShape)
                            else shape)
    except TypeError as err:
        raise TypeError(f"Invalid shape {shape!r}") from err
    check_dims(shape, op)
    return shape


def check_dims(shape, op):
    """TensorFlow's error for a negative dimension in the ``shape`` argument of ``op``."""
    for d in shape:
        if d < 0:
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"Dimension {d} must be >= 0", op)


def zeros(shape, dtype=_dt.float32, name=None, layout=None):
    """A tensor of zeros (``tf.zeros``).

    Args:
        shape: a list/tuple/TensorShape of non-negative ints, or an int.
        dtype: the DType (default float32).
    """
    npd = _dt.as_dtype(dtype)._np
    if ACTIVE[0] and current_tracer() is not None:
        dyn = _traced_shape(shape)
        if dyn is not None:   # tf.zeros(tf.shape(x)) in a trace: each call's shape
            return broadcast_to(Tensor(npd.type(0)), dyn)
    try:
        shape = _creation_shape(shape)
    except ValueError:  # a DynamicRaggedShape (else re-raised)
        return _composite.call("zeros", shape, dtype)
    return Tensor(np.zeros(shape, npd) if shape else npd.type(0))


def ones(shape, dtype=_dt.float32, name=None, layout=None):
    """A tensor of ones (``tf.ones``).

    Args:
        shape: a list of non-negative ints (or a 1-D int tensor).
        dtype: the result's DType; default ``tf.float32``.
        name: TensorFlow's op name; unused.
        layout: accepted for TensorFlow's signature (DTensor); unused.

    Returns:
        A tensor of ``shape`` and ``dtype``, all ones.

    Raises:
        tf.errors.InvalidArgumentError: for a negative dimension.
    """
    npd = _dt.as_dtype(dtype)._np
    if ACTIVE[0] and current_tracer() is not None:
        dyn = _traced_shape(shape)
        if dyn is not None:
            return broadcast_to(Tensor(npd.type(1)), dyn)
    try:
        shape = _creation_shape(shape)
    except ValueError:  # a DynamicRaggedShape (else re-raised)
        return _composite.call("ones", shape, dtype)
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
    if ACTIVE[0] and current_tracer() is not None:
        dyn = _traced_shape(dims)
        if dyn is not None:
            return broadcast_to(v, dyn)
    try:
        shape = _creation_shape(dims)
    except ValueError:  # a DynamicRaggedShape (else re-raised)
        return _composite.call("fill", dims, v)
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
    traced = ACTIVE[0] and current_tracer() is not None and builtins.any(
        isinstance(v, _TensorLike) for v in (start, limit, delta))
    # Inside a trace a bound given as a tensor (``tf.range(tf.shape(x)[0])``) is read when
    # the program runs, as TensorFlow's Range op does: no guard, no baked length.
    vals = [(v._value if traced else static_value(v))[()] if isinstance(v, _TensorLike) else v
            for v in (start, limit, delta)]
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
    if traced:
        args = [v if isinstance(v, _TensorLike) else Tensor(np.asarray(v))
                for v in (start, limit, delta)]
        return apply(_RANGE, args, {"dtype": dtype._np})
    return Tensor(np.arange(s, lim, d).astype(dtype._np))


def _range_forward(start, limit, delta, dtype):
    s, lim, d = start[()], limit[()], delta[()]
    if d == 0:
        raise ValueError("Requires delta != 0: 0")
    if (d > 0 and s > lim) or (d < 0 and s < lim):
        raise ValueError(f"Requires start <= limit when delta > 0: {s}/{lim}" if d > 0
                         else f"Requires start >= limit when delta < 0: {s}/{lim}")
    return np.arange(s, lim, d).astype(dtype)


# tf.range inside a trace with a bound given as a tensor; its length depends on values.
_RANGE = Primitive("Range", _range_forward, differentiable=False, save_inputs=False)




def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D tensors (``tf.meshgrid``).

    Args:
        *args: 1-D tensors.
        indexing: ``'xy'`` (Cartesian, default: first two outputs axes swapped) or
            ``'ij'`` (matrix).

    Returns:
        A list of N-D tensors, one per input.

    Raises:
        TypeError: for another keyword argument.
        ValueError: for an unknown ``indexing``.
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        key = list(kwargs)[0]
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    xs = [reshape(to_tensor(a), [-1]) for a in args]
    sizes = [t._value.shape[0] for t in xs]
    if ACTIVE[0] and current_tracer() is not None:
        sizes = [size(t) for t in xs]   # each call's sizes, in a traced program
    n = len(xs)
    if indexing == "xy" and n > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(xs):
        shape_ = [1] * n
        pos = i
        if indexing == "xy" and n > 1 and i < 2:
            pos = 1 - i
        shape_[pos] = -1
        grid = broadcast_to(reshape(t, shape_), sizes)
        if t.dtype.is_floating or t.dtype.is_complex:
            # TF multiplies by a grid of ones: its forward mode (Mul's, with the ones'
            # zero tangent) is nan where the input is inf or nan
            grid = _m.multiply(reshape(t, shape_), _a.ones_like(grid))
        out.append(grid)
    return out


def linspace(start, stop, num, name=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive (``tf.linspace``).

    ``start`` and ``stop`` may be tensors (they broadcast; the new axis goes at ``axis``);
    the gradient flows to both.

    Raises:
        tf.errors.InvalidArgumentError: if ``num`` is not positive.
    """
    s = to_tensor(start)
    if s._value.dtype.kind in "iu":
        s = _a.cast(s, _dt.float64 if s._value.dtype.itemsize >= 4 else _dt.float32)
    e = _a.cast(to_tensor(stop), s.dtype)
    num = int(static_value(num) if isinstance(num, _TensorLike) else num)
    if num < 0:
        raise _err(f"Requires num > 0: {num}", "LinSpace")
    s, e = expand_dims(s, axis), expand_dims(e, axis)
    n = builtins.max(s._value.ndim, e._value.ndim)
    ax = int(axis) % n
    if num == 0:
        shape = list(np.broadcast_shapes(s._value.shape, e._value.shape))
        shape[ax] = 0
        return Tensor(np.zeros(shape, s._value.dtype))
    frac = np.arange(num, dtype=s._value.dtype) / builtins.max(num - 1, 1)
    frac = Tensor(frac.reshape([num if i == ax else 1 for i in builtins.range(n)]))
    out = _m.add(s, _m.multiply(_m.subtract(e, s), frac))
    if num > 1:
        # the last value is exactly ``stop``, as TensorFlow's
        last = (builtins.slice(None),) * ax + (builtins.slice(num - 1, num),)
        head = (builtins.slice(None),) * ax + (builtins.slice(0, num - 1),)
        out = concat([_strided_slice(out, head),
                      broadcast_to(e, _strided_slice(out, last)._value.shape)], ax)
    return out


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dt.float32, name=None):
    """An identity matrix, optionally batched (``tf.eye``).

    Args:
        num_rows: the number of rows.
        num_columns: the number of columns; default ``num_rows``.
        batch_shape: leading batch dimensions (a list of ints), if any.
        dtype: the result's DType; default ``tf.float32``.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of shape ``batch_shape + [num_rows, num_columns]``: ones on the diagonal.
    """
    nc = num_rows if num_columns is None else num_columns
    for d in (num_rows, nc):
        if int(d) < 0:
            raise _err(f"Dimension {int(d)} must be >= 0", "Fill")
    m = np.eye(int(num_rows), int(nc), dtype=_dt.as_dtype(dtype)._np)
    if batch_shape is not None:
        m = np.broadcast_to(m, tuple(_int_list(batch_shape)) + m.shape).copy()
    return Tensor(m)


def sequence_mask(lengths, maxlen=None, dtype=_dt.bool, name=None):
    """``mask[..., j] = j < lengths[...]`` (``tf.sequence_mask``); no gradient.

    Args:
        lengths: an int tensor.
        maxlen: the last dimension (default ``max(lengths)``).
        dtype: the output dtype.
    """
    if ACTIVE[0] and current_tracer() is not None:
        return _traced_sequence_mask(to_tensor(lengths), maxlen, dtype)
    lv = to_tensor(lengths)._value
    n = int(lv.max()) if maxlen is None and lv.size else int(maxlen or 0)
    mask = np.arange(n) < np.asarray(lv)[..., None]
    return Tensor(mask.astype(_dt.as_dtype(dtype)._np))


def _traced_sequence_mask(lengths, maxlen, dtype):
    """``sequence_mask`` inside a trace, as TensorFlow's ops compute it: the longest length
    (when ``maxlen`` is None) and the mask are read from each call's ``lengths``."""
    if maxlen is None:
        maxlen = _m.maximum(_r.reduce_max(lengths), Tensor(lengths._value.dtype.type(0)))
    else:
        maxlen = to_tensor(maxlen)
    mdt = maxlen.dtype
    row = range(Tensor(mdt._np.type(0)), maxlen, Tensor(mdt._np.type(1)))
    mask = _m.less(row, _a.cast(expand_dims(lengths, -1), mdt))
    dtype = _dt.as_dtype(dtype)
    return mask if dtype == _dt.bool else _a.cast(mask, dtype)


