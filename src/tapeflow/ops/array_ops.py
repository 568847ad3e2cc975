"""Shapes and dtypes: reshape, broadcast, transpose, expand/squeeze, concat/stack/split,
``x[...]`` with Python keys, select, cast and zeros/ones-like; forward and derivative side
by side. The lowest op module: every other op module may import it, it imports none."""
import builtins

from .._core import dtypes as _dt
from .._core import errors
from .._core import tensor as _tensor_module
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import PerInput, Primitive, defjvp, defvjp, nondifferentiable, primitive
from .._core.tensor import (
    _C_NAMES,
    Tensor,
    TensorShape,
    _TensorLike,
    convert_to_tensor,
    static_value,
    string_value,
)
from . import composite_dispatch as _composite
from ._helpers import (
    _err,
    _final_error,
    _int_list,
    _named,
    _show,
    kind_of,
    pair,
    shape_tuple,
    to_tensor,
)
from .composite_dispatch import CLASSES as _COMPOSITES
from .composite_dispatch import RAGGED_OPS as _RAGGED_OPS

__all__ = [
    "reshape", "broadcast_to", "transpose", "where", "identity", "stop_gradient", "conj",
    "expand_dims", "squeeze", "concat", "stack", "unstack", "shape", "size", "rank", "split",
    "cast", "zeros_like", "ones_like", "invert_permutation", "newaxis", "ensure_shape",
]

newaxis = None


def _reshape_forward(x, shape):
    return np.reshape(x, shape)


def _reshape_error(values, attrs, exc):
    x = values[0]
    shape = attrs["shape"] if "shape" in attrs else np.shape(values[1])
    size = int(np.size(x))
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1]))
        if shape.count(-1) > 1:
            return errors.InvalidArgumentError, "Only one input size may be -1, not both 0 and 1"
        return errors.shape_mismatch(
            f"Input to reshape is a tensor with {size} values, but the requested shape "
            f"requires a multiple of {known}")
    return errors.shape_mismatch(
        f"Input to reshape is a tensor with {size} values, but the requested shape has "
        f"{int(np.prod(shape))}")


# Reshape keeps its input (a view of its output, most often): the gradient reshapes back
# to the input's shape read at run time, so a traced program serves other batch sizes.
_RESHAPE = primitive("Reshape", _reshape_forward, error=_reshape_error)


def _reshape_like_forward(g, x):
    return np.reshape(g, np.shape(x))


# ``tf.reshape(g, tf.shape(x))`` as one op: only the shape of ``x`` is read.
_RESHAPE_LIKE = primitive("ReshapeLike", _reshape_like_forward, error=_reshape_error,
                          shape_inputs=(1,))


def reshape_like(g, x):
    """``g`` reshaped to the shape ``x`` has when the op runs (``x`` is read for its shape)."""
    return apply(_RESHAPE_LIKE, (g, x))


defvjp(_RESHAPE, lambda g, y, x, shape: apply(_RESHAPE_LIKE, (g, x)))
defvjp(_RESHAPE_LIKE, lambda gg, y, g, x: apply(_RESHAPE_LIKE, (gg, g)), None)
defjvp(_RESHAPE_LIKE, lambda ts, y, g, x: None if ts[0] is None else apply(
    _RESHAPE_LIKE, (ts[0], x)))


def reshape(tensor, shape, name=None):
    """``tensor`` with a new shape of as many elements (``tf.reshape``).

    Args:
        tensor: any tensor.
        shape: a list/tuple/TensorShape/int tensor; one entry may be -1 (inferred).

    Raises:
        tf.errors.InvalidArgumentError: if the element counts differ.
    """
    if isinstance(shape, (list, tuple)) and builtins.any(isinstance(d, float) for d in shape):
        raise errors.InvalidArgumentError(
            None, None, "Value for attr 'Tshape' of float is not in the list of allowed values: "
            "int32, int64\n\t; NodeDef: {{node Reshape}} [Op:Reshape]")
    x = to_tensor(tensor)
    if ACTIVE[0] and current_tracer() is not None:
        dyn = _traced_shape(shape)
        if dyn is not None:
            return apply(_RESHAPE_DYNAMIC, (x, dyn))
    try:
        dims = shape_tuple(shape)
    except ValueError:  # a DynamicRaggedShape (else re-raised)
        return _composite.call("reshape", x, shape)
    return apply(_RESHAPE, (x,), {"shape": dims})


def _traced_shape(shape):
    """Inside a trace, a shape argument computed by ops (``tf.shape(x)``, or a list holding
    ``tf.shape(x)[0]``) as one int tensor, so the program computes the shape at each call
    as TensorFlow's graph does; None for a shape of Python ints (an attribute)."""
    if isinstance(shape, _TensorLike):
        return shape if shape._value.ndim == 1 else None
    if isinstance(shape, (list, tuple)) and builtins.any(
            isinstance(d, _TensorLike) for d in shape):
        dt = next(d for d in shape if isinstance(d, _TensorLike)).dtype
        return stack([cast(d, dt) if isinstance(d, _TensorLike) else
                      Tensor(dt._np.type(int(d))) for d in shape])
    return None


def _reshape_dynamic_forward(x, shape):
    return np.reshape(x, tuple(int(d) for d in shape))


def _dynamic_error(name):
    def error(values, attrs, exc):
        return _reshape_error(values[:1], {"shape": tuple(int(d) for d in values[1])}, exc) \
            if name == "Reshape" else errors.shape_mismatch(
                f"Incompatible shapes: {_show(np.shape(values[0]))} vs. "
                f"{_show([int(d) for d in values[1]])}")
    return error


# The shape as an input tensor (TensorFlow's own op signatures), used inside traces; not in
# the op table (the table's Reshape and BroadcastTo take the shape as an attribute).
_RESHAPE_DYNAMIC = Primitive("Reshape", _reshape_dynamic_forward, error=_dynamic_error("Reshape"))
defvjp(_RESHAPE_DYNAMIC, lambda g, y, x, shape: apply(_RESHAPE_LIKE, (g, x)), None)
defjvp(_RESHAPE_DYNAMIC, lambda ts, y, x, shape: None if ts[0] is None else apply(
    _RESHAPE_DYNAMIC, (ts[0], shape)))


def _broadcast_forward(x, shape):
    if x.ndim == 0:
        # A scalar (the gradient of a mean, say): np.full is 4x quicker than the view.
        return np.full(shape, x, dtype=x.dtype)
    # A read-only view: tensors are immutable, so the stretched copy is never needed.
    return np.broadcast_to(x, shape)


_BROADCAST = primitive("BroadcastTo", _broadcast_forward, save_inputs=False,
                       error=lambda v, a, e: errors.shape_mismatch(
                           f"Incompatible shapes: {_show(np.shape(v[0]))} vs. "
                           f"{_show(a['shape'])}"))
# The engine sums the gradient back to the input's shape.
defvjp(_BROADCAST, lambda g, y, x_shape, shape: g)


def broadcast_to(input, shape, name=None):  # noqa: A002 - TensorFlow's name
    """``input`` broadcast to ``shape`` (``tf.broadcast_to``).

    Args:
        input: a tensor of any dtype.
        shape: the target shape (a list of ints or a 1-D int tensor), broadcast-compatible
            with ``input``'s.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``shape`` and ``input``'s dtype; the gradient sums back to
        ``input``'s shape.

    Raises:
        tf.errors.InvalidArgumentError: if the shapes are not broadcast-compatible.
    """
    x = to_tensor(input)
    if ACTIVE[0] and current_tracer() is not None:
        dyn = _traced_shape(shape)
        if dyn is not None:
            return apply(_BROADCAST_DYNAMIC, (x, dyn))
    return apply(_BROADCAST, (x,), {"shape": shape_tuple(shape)})


_BROADCAST_DYNAMIC = Primitive(
    "BroadcastTo", lambda x, shape: _broadcast_forward(x, tuple(int(d) for d in shape)),
    error=_dynamic_error("BroadcastTo"))
# (the engine sums the gradient back to x's shape)
defvjp(_BROADCAST_DYNAMIC, lambda g, y, x, shape: g, None)
defjvp(_BROADCAST_DYNAMIC, lambda ts, y, x, shape: None if ts[0] is None else apply(
    _BROADCAST_DYNAMIC, (ts[0], shape)))


_TRANSPOSE = primitive("Transpose", lambda x, perm: np.transpose(x, perm), save_inputs=False)
defvjp(_TRANSPOSE, lambda g, y, x_shape, perm: transpose(g, np.argsort(perm).tolist()))


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permute the axes of ``a`` (``tf.transpose``); default reverses them.

    Args:
        a: a tensor of any dtype.
        perm: a permutation of ``range(rank)``; default ``[rank - 1, ..., 0]``.
        conjugate: also conjugate the entries of a complex tensor.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of shape ``[a.shape[p] for p in perm]`` and ``a``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: if ``perm`` is not a permutation of the axes.
    """
    x = to_tensor(a)
    n = x._value.ndim
    perm = tuple(builtins.range(n))[::-1] if perm is None else _check_perm(shape_tuple(perm), n)
    out = apply(_TRANSPOSE, (x,), {"perm": perm})
    return conj(out) if conjugate else out


def _check_perm(perm, n):
    """``perm`` as a tuple of axes, or TensorFlow's Transpose error for it."""
    def fail(text):
        raise errors.InvalidArgumentError(None, None, f"{text} [Op:Transpose]")
    if len(perm) != n:
        fail(f"transpose expects a vector of size {n}. But input(1) is a vector of size "
             f"{len(perm)}")
    perm = tuple(int(p) + n if int(p) < 0 else int(p) for p in perm)
    for p in perm:
        if not 0 <= p < n:
            fail(f"{p} is out of range [0 .. {n})")
    for i in builtins.range(n):
        if i not in perm:
            fail(f"{i} is missing from {{{','.join(str(p) for p in perm)}}}.")
    return perm


_CONJ = primitive("Conj", np.conj, save_inputs=False)
defvjp(_CONJ, lambda g, y, x_shape: conj(g))


def conj(x, name=None):
    """Complex conjugate (``tf.math.conj``); real tensors are returned unchanged."""
    x = to_tensor(x)
    if x._value.dtype.kind != "c":
        if kind_of(x._value.dtype) not in "fiu":
            raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")
        return x
    return apply(_CONJ, (x,))


_IDENTITY = primitive("Identity", lambda x: x, save_inputs=False)
defvjp(_IDENTITY, lambda g, y, x_shape: g)


def identity(input, name=None):  # noqa: A002 - TensorFlow's name
    """The same value as a new tensor (``tf.identity``); the gradient passes through.

    Args:
        input: a tensor (or a value ``tf.convert_to_tensor`` takes), of any shape and dtype.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``input``'s shape, dtype and values (a Variable is read).
    """
    return apply(_IDENTITY, (to_tensor(input),))


def _ensure_forward(x, shape):
    if len(shape) != x.ndim or any(d is not None and d != n for d, n in zip(shape, x.shape)):
        got = ",".join(str(n) for n in x.shape)
        want = ",".join("?" if d is None else str(d) for d in shape)
        raise ValueError(f"Shape of tensor input [{got}] is not compatible with expected shape "
                         f"[{want}].")
    return x


_ENSURE = primitive("EnsureShape", _ensure_forward, save_inputs=False)
defvjp(_ENSURE, lambda g, y, x, shape: g)


def ensure_shape(x, shape, name=None):
    """``x`` unchanged, after checking its shape is compatible with ``shape``
    (``tf.ensure_shape``). Inside a ``tf.function`` the result's static shape takes the
    sizes ``shape`` gives (a relaxed trace then knows them).

    Args:
        x: a tensor of any dtype.
        shape: a TensorShape, list or tuple (None for an unknown dimension), or None (any
            shape).
        name: TensorFlow's op name; unused.

    Returns:
        ``x``'s value as a new tensor; the gradient passes through.

    Raises:
        ValueError: inside a ``tf.function`` trace, ``shape`` contradicts ``x``'s static
            shape (as TF's graph construction).
        tf.errors.InvalidArgumentError: ``x``'s shape does not fit ``shape`` ("Shape of
            tensor input [2,3] is not compatible with expected shape [2,4].").
    """
    x = to_tensor(x)
    want = TensorShape(shape) if not isinstance(shape, TensorShape) else shape
    if want.rank is None:
        return apply(_IDENTITY, (x,))
    dims = tuple(None if d is None else int(d) for d in want.as_list())
    if ACTIVE[0] and current_tracer() is not None:
        static = x.shape   # TensorFlow's static shape: checked while the graph is built
        if static.rank is not None:
            def text(dims):
                return ",".join("?" if d is None else str(d) for d in dims)
            if static.rank != len(dims):
                raise ValueError(f"Shape must be rank {len(dims)} but is rank {static.rank}")
            for i, (a, b) in enumerate(zip(dims, static.as_list())):
                if a is not None and b is not None and a != b:
                    raise ValueError(
                        f"Dimension {i} in both shapes must be equal, but are {a} and {b}. "
                        f"Shapes are [{text(dims)}] and [{text(static.as_list())}].")
    return apply(_ENSURE, (x,), {"shape": dims})


_STOP = nondifferentiable("StopGradient", lambda x: x)


def stop_gradient(input, name=None):  # noqa: A002 - TensorFlow's name
    """The same value, but no gradient flows back through it (``tf.stop_gradient``).

    Args:
        input: a tensor (or a value ``tf.convert_to_tensor`` takes), of any shape and dtype.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``input``'s shape, dtype and values, a constant for every tape.
    """
    return apply(_STOP, (to_tensor(input),))


_SELECT = primitive("SelectV2", lambda c, x, y: np.where(c, x, y),
                    error=lambda v, a, e: (errors.InvalidArgumentError,
                                           "condition [" + ",".join(map(str, np.shape(v[0])))
                                           + "], then [" + ",".join(map(str, np.shape(v[1])))
                                           + "], and else [" + ",".join(map(str, np.shape(v[2])))
                                           + "] must be broadcastable"))
defvjp(_SELECT, None,
       lambda g, y, c, x1, x2: where(c, g, zeros_like(g)),
       lambda g, y, c, x1, x2: where(c, zeros_like(g), g))
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
    try:
        c = to_tensor(condition)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("where", condition, x, y)
    if x is None and y is None:
        if c._value.ndim == 0:
            raise errors.op_error(errors.InvalidArgumentError,
                                  "WhereOp : Unhandled input dimensions: 0", "Where")
        return apply(_WHERE_INDEX, (c,))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    x, y = pair(x, y, "SelectV2")
    if c._value.dtype.kind != "b":
        c = cast(c, _dt.bool)
    return apply(_SELECT, (c, x, y))


def _squeeze_error(values, attrs, exc):
    shape = np.shape(values[0])
    a = next((a for a in attrs["axis"] if a >= len(shape) or shape[a] != 1), None)
    if a is None or a >= len(shape):
        return errors.InvalidArgumentError, str(exc)
    return errors.InvalidArgumentError, (
        f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}")


# Axis attributes, no shapes: a traced program serves any size of the other axes.
_EXPAND_DIMS = primitive("ExpandDims", lambda x, axis: np.expand_dims(x, axis),
                         save_inputs=False)
_SQUEEZE = primitive("Squeeze", lambda x, axis: np.squeeze(x, axis), save_inputs=False,
                     error=_squeeze_error)


def _squeeze_axes(x, axis):
    return apply(_SQUEEZE, (x,), {"axis": axis})


def _expand_axes(x, axis):
    return apply(_EXPAND_DIMS, (x,), {"axis": axis})


defvjp(_EXPAND_DIMS, lambda g, y, x_shape, axis: _squeeze_axes(g, axis))
defvjp(_SQUEEZE, lambda g, y, x_shape, axis: _expand_axes(g, axis))
defjvp(_EXPAND_DIMS, lambda ts, y, x_shape, axis: None if ts[0] is None else _expand_axes(
    ts[0], axis))
defjvp(_SQUEEZE, lambda ts, y, x_shape, axis: None if ts[0] is None else _squeeze_axes(
    ts[0], axis))


def expand_dims(input, axis, name=None):  # noqa: A002 - TensorFlow's name
    """Insert a length-1 axis at ``axis`` (``tf.expand_dims``).

    Args:
        input: a tensor of any shape.
        axis: an int in ``[-rank - 1, rank]``.

    Returns:
        ``input`` with one more axis, of length 1.

    Raises:
        tf.errors.InvalidArgumentError: for an axis out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.expand_dims(tf.constant([1.0, 2.0]), -1).shape
        TensorShape([2, 1])
    """
    try:
        x = to_tensor(input)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("expand_dims", input, axis)
    n = x._value.ndim
    axis = int(static_value(axis) if isinstance(axis, _TensorLike) else axis)
    if not -n - 1 <= axis <= n:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Tried to expand dim index {axis} for tensor with {n} "
                              f"dimensions.", "ExpandDims")
    return apply(_EXPAND_DIMS, (x,), {"axis": (axis % (n + 1),)})


def squeeze(input, axis=None, name=None):  # noqa: A002 - TensorFlow's name
    """Remove length-1 axes (all, or those in ``axis``) (``tf.squeeze``).

    Args:
        input: a tensor of any shape.
        axis: None (every length-1 axis), an int or a list of ints.

    Returns:
        ``input`` without those axes.

    Raises:
        tf.errors.InvalidArgumentError: if a named axis is not of length 1.

    Example:
        >>> import tapeflow as tf
        >>> tf.squeeze(tf.ones((2, 1, 3, 1))).shape
        TensorShape([2, 3])
    """
    try:
        x = to_tensor(input)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("squeeze", input, axis)
    shape = x._value.shape
    n = len(shape)
    if axis is None:
        axes = tuple(i for i, d in enumerate(shape) if d == 1)
    else:
        given = [int(a) for a in ([axis] if isinstance(axis, int) else axis)]
        for a in given:
            if not -n <= a < n:
                raise errors.op_error(
                    errors.InvalidArgumentError,
                    f"Tried to squeeze dim index {a} for tensor with {n} dimensions.",
                    "Squeeze")
        axes = tuple(sorted({a % n for a in given}))
        for a in axes:
            if shape[a] != 1:
                raise errors.op_error(
                    errors.InvalidArgumentError,
                    f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}",
                    "Squeeze")
    return apply(_SQUEEZE, (x,), {"axis": axes})



def _concat_forward(*xs, axis):
    return np.concatenate(xs, axis=axis)


def _concat_error(values, attrs, exc):
    return errors.shape_mismatch(
        "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = "
        f"{_show(np.shape(values[0]))} vs. shape[1] = {_show(np.shape(values[1]))}")


# ConcatV2 keeps its inputs: the gradient of input k slices g at offsets read from the
# inputs' shapes when it runs (TensorFlow's ConcatOffset), so a traced program serves any
# size of the concatenated axis too.
_CONCAT = primitive("ConcatV2", _concat_forward, error=_concat_error)


def _concat_slice_forward(g, *xs, k, axis):
    start = builtins.sum(x.shape[axis] for x in xs[:k])
    return g[(slice(None),) * axis + (slice(start, start + xs[k].shape[axis]),)]


# (g, x_0, ..., x_n) -> the part of g that came from x_k; every x is read for its shape only
_CONCAT_SLICE = primitive("ConcatSlice", _concat_slice_forward,
                          shape_inputs=builtins.range(1, 1 << 30))


def _concat_slice_vjp(gg, y, g, *xs, k, axis):
    # linear in g: gg goes back to x_k's place, zeros (shaped like the others) elsewhere
    parts = [gg if j == k else zeros_like(x, dtype=gg.dtype) for j, x in enumerate(xs)]
    return concat(parts, axis)


_CONCAT_SLICE.vjps = PerInput(lambda i: _concat_slice_vjp if i == 0 else None)
defjvp(_CONCAT_SLICE, lambda ts, y, g, *xs, k, axis: None if ts[0] is None else apply(
    _CONCAT_SLICE, (ts[0],) + xs, {"k": k, "axis": axis}))


def _concat_rule(k):
    def rule(g, y, *xs, axis):
        return apply(_CONCAT_SLICE, (g,) + xs, {"k": k, "axis": axis})
    return rule


def _slice_axis(g, axis, start, stop):
    key = (slice(None),) * axis + (slice(start, stop),)
    return _strided_slice(g, key)


def concat(values, axis, name="concat"):
    """Join tensors along an existing axis (``tf.concat``); RaggedTensors join as ragged.

    Errors name the op ``concat`` whatever ``name`` is given.

    Args:
        values: a list of tensors of one dtype and rank, equal except along ``axis``.
        axis: the axis to join along, in ``[-rank, rank)``.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor whose size on ``axis`` is the sum of the inputs'; the gradient of input k
        is its slice of the incoming gradient.

    Raises:
        tf.errors.InvalidArgumentError: if the other dimensions or the dtypes differ.
    """
    if _RAGGED_OPS and type(values) is list and builtins.any(
            type(v) is _COMPOSITES[0] for v in values):
        return _RAGGED_OPS["concat"](values, axis)  # joined as ragged
    xs = [to_tensor(v) for v in values]
    if len(xs) == 1:
        return identity(xs[0])
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype is not xs[0]._value.dtype:
            from ._helpers import dtype_mismatch
            raise _named(dtype_mismatch("ConcatV2", i, xs[0]._value.dtype, t._value.dtype),
                         "concat")
    n = xs[0]._value.ndim
    for i, t in enumerate(xs[1:], 1):
        if t._value.ndim != n:
            raise _named(errors.op_error(
                errors.InvalidArgumentError, "ConcatOp : Ranks of all input tensors should "
                f"match: shape[0] = {_show(xs[0]._value.shape)} vs. shape[{i}] = "
                f"{_show(t._value.shape)}", "ConcatV2"), "concat")
    if not -n <= int(axis) < n:
        raise _named(errors.op_error(
            errors.InvalidArgumentError, "ConcatOp : Expected concatenating dimensions in the "
            f"range [{-n}, {n}), but got {int(axis)}", "ConcatV2"), "concat")
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
        return _strided_slice(g, key)
    return rule


def stack(values, axis=0, name="stack"):
    """Join tensors of one shape along a new axis (``tf.stack``).

    Args:
        values: a list of N tensors of one shape ``S`` and one dtype.
        axis: where the new axis goes, in ``[-(rank + 1), rank + 1)``.
        name: TensorFlow's op name; errors end ``name: stack``.

    Returns:
        A tensor of shape ``S`` with N inserted at ``axis``; the gradient of input k is
        slice k of the incoming gradient.

    Raises:
        tf.errors.InvalidArgumentError: if the shapes or the dtypes differ.
    """
    try:
        xs = [to_tensor(v) for v in values]
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("stack", values, axis)
    if not xs:
        raise ValueError("values must be a non-empty list of tensors")
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype is not xs[0]._value.dtype:
            from ._helpers import dtype_mismatch
            raise _named(dtype_mismatch("Pack", i, xs[0]._value.dtype, t._value.dtype), name)
    n = xs[0]._value.ndim + 1
    ax = int(axis)
    if not -n <= ax < n:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
    if len(_PACK.vjps) < len(xs):
        _PACK.vjps = tuple(_stack_rule(k) for k in builtins.range(len(xs)))
    return apply(_PACK, xs, {"axis": ax % n})


def _pack_nested(value, dtype):
    """A nested list holding tensors as one tensor of ``dtype``, by ``stack`` (what
    ``convert_to_tensor`` does with one while a tf.function traces)."""
    if isinstance(value, (list, tuple)):
        return stack([_pack_nested(v, dtype) for v in value])
    return convert_to_tensor(value, dtype)


_tensor_module.PACK_HOOK[0] = _pack_nested


def unstack(value, num=None, axis=0, name="unstack"):
    """Split a tensor along ``axis`` into a list of tensors (``tf.unstack``).

    Args:
        value: a tensor of rank >= 1.
        num: the number of pieces, or None for ``value``'s static size on ``axis``.
        axis: the axis to split, in ``[-rank, rank)``.
        name: TensorFlow's op name (in the error text).

    Returns:
        A list of ``num`` (or ``value.shape[axis]``) tensors of rank ``rank - 1``.

    Raises:
        ValueError: for a scalar, an axis out of range, or (inside a ``tf.function`` traced
            with unknown dimensions) ``num`` None and the static size unknown, as TF's
            "Cannot infer argument `num` from shape (None, 2)".
        tf.errors.InvalidArgumentError: ``num`` is not the size on ``axis``.
    """
    x = to_tensor(value)
    n = x._value.ndim
    if not -n <= int(axis) < n:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
    ax = int(axis) % n
    if num is None and ACTIVE[0]:
        static = x.shape   # TensorFlow's static shape inside a relaxed trace
        if static.rank is not None and static[ax] is None:
            raise ValueError(f"Cannot infer argument `num` from shape {static}")
    size = static_dim(x, ax)
    if num is not None and int(num) != size:
        shown = ",".join(str(d) for d in x._value.shape)
        raise _err(f"Input shape axis {ax} must equal {int(num)}, got shape [{shown}]",
                   "Unpack", name)
    return [_strided_slice(x, (slice(None),) * ax + (i,)) for i in builtins.range(size)]


def static_dim(x, axis):
    """``x``'s size along ``axis`` for a Python decision (how many pieces, which indices).
    Inside a trace with relaxed shapes the size is read through ``tf.shape`` as a guard of
    the program (unless it is a static dim of an argument): a replay at another size runs
    the body again instead of reusing the traced count."""
    tracer = current_tracer() if ACTIVE[0] else None
    if tracer is not None and tracer.relaxed_shapes:
        # (a trace with fixed shapes needs no guard; nor a static dim of a relaxed argument)
        known = tracer.relaxed_shapes.get(x._id)
        if known is None or known.rank is None or known[axis] is None:
            return int(static_value(_strided_slice(shape(x), axis)))
    return x._value.shape[axis]


# ------------------------------------------------------------------ slicing (__getitem__)


def _norm_key(key):
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if isinstance(k, _TensorLike):
            v = static_value(k)
            if v.ndim == 0 and v.dtype.kind in "iu":
                k = int(v)
            else:
                raise TypeError(
                    "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                    "scalar tf.int32/tf.int64 tensors are valid indices, got " + repr(k))
        elif isinstance(k, slice):
            k = slice(*(int(static_value(p)) if isinstance(p, _TensorLike) else p
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
    if type(out) is bytes:  # one element of a string tensor: keep it an array
        return string_value(out)
    return out


def _getitem_error(values, attrs, exc):
    (x,) = values
    key = attrs["key"]
    used = [k for k in key if k is not None and k is not Ellipsis]
    if len(used) > np.ndim(x):
        return errors.InvalidArgumentError, (
            f"Index out of range using input dim {np.ndim(x)}; input has only {np.ndim(x)} dims")
    for i, k in enumerate(used):
        if isinstance(k, int) and i < np.ndim(x):
            size = np.shape(x)[i]
            if not -size <= k < size:
                return errors.InvalidArgumentError, (
                    f"slice index {k} of dimension {i} out of bounds.")
    return errors.InvalidArgumentError, str(exc)


# StridedSlice keeps its input (its output is a view of it): the gradient scatters into
# the input's shape, read when the op runs (x is StridedSliceGrad's shape-only input).
_STRIDED_SLICE = primitive("StridedSlice", _getitem_forward, error=_getitem_error)


def _scatter_forward(g, x, key):
    out = np.zeros(x.shape, g.dtype)
    out[key] = g
    return out


_STRIDED_SLICE_GRAD = primitive("StridedSliceGrad", _scatter_forward, save_inputs=False,
                                shape_inputs=(1,))


def strided_slice_grad(g, x, key):
    """``g`` (the gradient of ``x[key]``) scattered into zeros shaped like ``x``."""
    return apply(_STRIDED_SLICE_GRAD, (g, x), {"key": key})


defvjp(_STRIDED_SLICE, lambda g, y, x, key: strided_slice_grad(g, x, key))
defvjp(_STRIDED_SLICE_GRAD, lambda gg, y, g_shape, x_shape, key: _strided_slice(gg, key),
       None)


def _strided_slice(x, key):
    """``x[key]`` for a key of ints, slices, strides, ``None`` and ``...`` (a tensor ``x``).

    Raises:
        tf.errors.InvalidArgumentError: for an index out of bounds.
        TypeError: for an index of another kind.
    """
    key = _norm_key(key)
    if x._value.ndim == 0 and any(k is not None and k is not Ellipsis for k in key):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Attempting to slice scalar input.",
                              "StridedSlice")
    return apply(_STRIDED_SLICE, (x,), {"key": key})




# Shape and Size read their input only for its shape, when the op runs: in a traced
# tf.function ``tf.shape(x)[0]`` is the batch size of each call, as in TensorFlow.
_SHAPE = nondifferentiable("Shape", lambda x, dtype: np.array(np.shape(x), dtype),
                           shape_inputs=(0,))
_SIZE = nondifferentiable("Size", lambda x, dtype: dtype.type(np.size(x)), shape_inputs=(0,))


def shape(input, out_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's name
    """The shape of ``input`` as a 1-D tensor (``tf.shape``).

    Args:
        input: a tensor of any shape.
        out_type: int32 (default) or int64.

    Returns:
        A 1-D tensor of ``rank(input)`` sizes; in a ``tf.function`` traced with relaxed
        shapes it holds each call's sizes (``x.shape`` shows the traced, static ones).

    Example:
        >>> import tapeflow as tf
        >>> print(tf.shape(tf.ones((2, 3))))
        tf.Tensor([2 3], shape=(2,), dtype=int32)
    """
    try:
        x = to_tensor(input)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("shape", input, out_type)
    return apply(_SHAPE, (x,), {"dtype": _dt.as_dtype(out_type)._np})


def size(input, out_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's name
    """The number of elements of ``input`` as a scalar tensor (``tf.size``).

    Args:
        input: a tensor of any shape.
        out_type: int32 (default) or int64.

    Returns:
        A scalar tensor; in a ``tf.function`` it is each call's count.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.size(tf.ones((2, 3))))
        tf.Tensor(6, shape=(), dtype=int32)
    """
    try:
        x = to_tensor(input)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("size", input, out_type)
    return apply(_SIZE, (x,), {"dtype": _dt.as_dtype(out_type)._np})


def rank(input, name=None):  # noqa: A002 - TensorFlow's name
    """The number of axes of ``input`` as a scalar int32 tensor (``tf.rank``).

    Args:
        input: a tensor (or a value ``tf.convert_to_tensor`` takes).
        name: TensorFlow's op name; unused.

    Returns:
        A scalar int32 tensor; no gradient.
    """
    try:
        x = to_tensor(input)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("rank", input)
    return Tensor(np.int32(x._value.ndim))




def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Split ``value`` along ``axis`` into pieces (``tf.split``).

    Args:
        value: a tensor.
        num_or_size_splits: an int (that many equal pieces) or a list of sizes, one of
            which may be -1 (the rest).
        axis: the axis to split.

    Returns:
        A list of tensors.

    Raises:
        tf.errors.InvalidArgumentError: if the pieces do not fit the axis.

    Example:
        >>> import tapeflow as tf
        >>> a, b = tf.split(tf.range(5), [2, -1])
        >>> print(a.numpy(), b.numpy())
        [0 1] [2 3 4]
    """
    x = to_tensor(value)
    n = x._value.ndim
    ax = int(static_value(axis) if isinstance(axis, _TensorLike) else axis)
    if not -n <= ax < n:
        raise _err(f"-input rank(-{n}) <= split_dim < input rank ({n}), but got {ax}" if n else
                   "-input rank(-1) <= split_dim < input rank (1), but got 0", "Split", name)
    ax %= n
    dim = x._value.shape[ax]
    if isinstance(num_or_size_splits, (int, np.integer)) or (
            isinstance(num_or_size_splits, _TensorLike)
            and num_or_size_splits._value.ndim == 0):
        k = int(num_or_size_splits)
        if k <= 0 or dim % k:
            raise _err(f"Number of ways to split should evenly divide the split dimension, "
                       f"but got split_dim {ax} (size = {dim}) and num_split {k}", "Split", name)
        sizes = [dim // k] * k
    else:
        sizes = _int_list(num_or_size_splits)
        if sizes.count(-1) > 1:
            raise _err("Only one dimensions can have a value of -1. Second one found at "
                       f"dimension {[i for i, s in enumerate(sizes) if s == -1][1]}",
                       "SplitV", name)
        if -1 in sizes:
            known = builtins.sum(s for s in sizes if s != -1)
            sizes[sizes.index(-1)] = dim - known
        if builtins.sum(sizes) != dim or builtins.min(sizes, default=0) < 0:
            raise _err("Determined shape must either match input shape along split_dim "
                       "exactly if fully specified, or be less than the size of the input "
                       f"along split_dim if not fully specified.  Got: "
                       f"{builtins.sum(sizes)}", "SplitV", name)
    out, start = [], 0
    for s in sizes:
        out.append(_slice_axis(x, ax, start, start + s))
        start += s
    return out




# ----------------------------------------------------------------------------- cast


def _cast_forward(x, dtype, src):
    return x.astype(dtype) if x.ndim else dtype.type(x)


_CAST = primitive("Cast", _cast_forward, save_inputs=False)
# Casts to or from integers and bool have no gradient: they record nothing and their
# outputs are never watched (one op type, two table entries, so not in the registry).
_CAST_NO_GRADIENT = Primitive("Cast", _cast_forward, save_inputs=False, differentiable=False)


def _cast_rule(g, y, x_shape, dtype, src):
    # The gradient flows only between floating (or complex) dtypes, and returns to ``src``.
    if src.kind in "fcV" and dtype.kind in "fcV":  # V: bfloat16
        return cast(g, _dt.FROM_NUMPY[src])
    return None



defvjp(_CAST, _cast_rule)


def cast(x, dtype, name=None):
    """``x`` converted to ``dtype`` (``tf.cast``). Float to int truncates toward zero.

    The gradient flows between floating (and complex) dtypes and is cast back.

    Args:
        x: a Tensor, Variable or value.
        dtype: the target DType.

    Returns:
        A Tensor of ``dtype`` and ``x``'s shape.

    Raises:
        tf.errors.UnimplementedError: between strings and numbers (``tf.strings.to_number``
            and ``tf.strings.as_string`` convert), as TensorFlow.
    """
    dtype = _dt.as_dtype(dtype)
    if not isinstance(x, _TensorLike):
        t = type(x)
        if t is _COMPOSITES[0]:  # a RaggedTensor: its flat values cast
            return x.with_flat_values(cast(x.flat_values, dtype))
        if t is _COMPOSITES[1]:  # a SparseTensor: its values cast
            return x.with_values(cast(x.values, dtype))
        x = convert_to_tensor(x)
    if x._value.dtype == dtype._np:
        return x if type(x) is Tensor else x._read()
    if x._value.dtype.kind == "O" or dtype._np.kind == "O":
        _cast_unsupported(x.dtype, dtype)
    prim = _CAST if x._value.dtype.kind in "fcV" and dtype._np.kind in "fcV" else \
        _CAST_NO_GRADIENT
    return apply(prim, (x,), {"dtype": dtype._np, "src": x._value.dtype})



def _cast_unsupported(src, dst):
    raise errors.op_error(errors.UnimplementedError,
                          f"Cast {_C_NAMES.get(src.name, src.name)} to "
                          f"{_C_NAMES.get(dst.name, dst.name)} is not supported", "Cast")


def _filled_like(x, npd, fill):
    return (np.ones if fill else np.zeros)(x.shape, npd) if x.ndim else npd.type(fill)


# Inside a trace these are ops that read their input's shape when the program runs (as
# TensorFlow's ZerosLike/OnesLike): a relaxed program makes each call's shape.
_ZEROS_LIKE = nondifferentiable("ZerosLike", lambda x, dtype: _filled_like(x, dtype, 0),
                                shape_inputs=(0,))
_ONES_LIKE = nondifferentiable("OnesLike", lambda x, dtype: _filled_like(x, dtype, 1),
                               shape_inputs=(0,))


def _filled_like_op(prim, fill, input, dtype):  # noqa: A002
    try:
        x = to_tensor(input)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("ones_like" if fill else "zeros_like", input, dtype)
    npd = x._value.dtype if dtype is None else _dt.as_dtype(dtype)._np
    if ACTIVE[0] and current_tracer() is not None:
        return apply(prim, (x,), {"dtype": npd})
    return Tensor(_filled_like(x._value, npd, fill))


def zeros_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    """Zeros shaped like ``input`` (``tf.zeros_like``), of its dtype unless ``dtype`` is given.

    Args:
        input: a tensor (or anything ``tf.convert_to_tensor`` takes).
        dtype: the result's DType; default ``input``'s.

    Returns:
        A tensor of ``input``'s shape.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.zeros_like(tf.constant([1.0, 2.0])))
        tf.Tensor([0. 0.], shape=(2,), dtype=float32)
    """
    return _filled_like_op(_ZEROS_LIKE, 0, input, dtype)


def ones_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    """Ones shaped like ``input`` (``tf.ones_like``), of its dtype unless ``dtype`` is given.

    Args:
        input: a tensor (or anything ``tf.convert_to_tensor`` takes).
        dtype: the result's DType; default ``input``'s.

    Returns:
        A tensor of ``input``'s shape.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.ones_like(tf.constant([1, 2])))
        tf.Tensor([1 1], shape=(2,), dtype=int32)
    """
    return _filled_like_op(_ONES_LIKE, 1, input, dtype)


def invert_permutation(x, name=None):
    """The inverse permutation of a 1-D int tensor (``tf.math.invert_permutation``)."""
    t = to_tensor(x)
    if ACTIVE[0] and current_tracer() is not None:
        return apply(_INVERT_PERMUTATION, (t,))   # each call's permutation, when it runs
    try:
        return Tensor(_invert_permutation_forward(t._value))
    except ValueError as exc:
        err = errors.op_error(errors.InvalidArgumentError, str(exc), "InvertPermutation")
        if not isinstance(x, _TensorLike):
            # TensorFlow's fallback for a Python list ends its message at ``[Op:...]``
            err = errors.InvalidArgumentError(None, None, err.message[:-len(" name: ")])
        raise err from None


def _invert_permutation_forward(v):
    n = v.size
    out = np.empty_like(v)
    # (viewed unsigned, a negative value is out of range instead of counting from the end)
    u = v.view(np.dtype(f"u{v.dtype.itemsize}"))
    try:
        ar = np.arange(n, dtype=v.dtype)
        out[u] = ar
        ok = (out[u] == ar).all()   # False for a repeated value
    except IndexError:
        ok = False
    if not ok:
        # TensorFlow's checks, in its order: the first value out of range or met twice
        seen = np.zeros(n, bool)
        for d in v.tolist():
            if not 0 <= d < n:
                raise ValueError(f"{d} is not between 0 and {n}")
            if seen[d]:
                raise ValueError(f"{d} is duplicated in the input.")
            seen[d] = True
    return out


_INVERT_PERMUTATION = nondifferentiable(
    "InvertPermutation", _invert_permutation_forward,
    error=lambda v, a, e: (errors.InvalidArgumentError, str(e)))


for _prim, _name in ((_RESHAPE, None), (_BROADCAST, None), (_CONCAT, "concat"),
                     (_PACK, "stack"), (_STRIDED_SLICE, "strided_slice/")):
    _final_error(_prim, _name)


def matmul_conj_check(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b):
    """TF's ``matmul`` conjugates a transposed operand of a batched product (an adjoint one of
    a plain product) before its kernel: for bools and strings ``conj`` raises TypeError."""
    batch = a._value.ndim > 2 or b._value.ndim > 2
    for x, t, adj in ((a, transpose_a, adjoint_a), (b, transpose_b, adjoint_b)):
        if t if batch else adj:
            conj(x)
