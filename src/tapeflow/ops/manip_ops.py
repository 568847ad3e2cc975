"""Rearranging a tensor's entries: tile, pad, reverse, roll, repeat and reverse_sequence,
forward and derivative side by side."""
import builtins
import math

from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defjvp, defvjp, primitive
from .._core.tensor import Tensor, _TensorLike, static_value
from . import composite_dispatch as _composite
from ._helpers import (
    _err,
    _final_error,
    _int_list,
    _show,
    shape_tuple,
    tf_type_name,
    to_tensor,
)
from .array_ops import _strided_slice, identity, reshape, static_dim
from .indexing_ops import _gather_dense, _gather_scatter

__all__ = ["tile", "pad", "reverse", "roll", "repeat", "reverse_sequence", "space_to_batch_nd",
           "space_to_batch", "batch_to_space_nd", "batch_to_space", "space_to_batch_v1",
           "batch_to_space_v1"]


# Tile keeps its input: the gradient reads its shape at run time (TileGrad), so a traced
# program serves other batch sizes.
_TILE = primitive("Tile", lambda x, multiples: np.tile(x, multiples))


def _tile_grad_forward(g, x, multiples):
    """The gradient of ``tile(x, multiples)``: ``g`` folded back onto ``x``'s shape (read
    at run time) by summing the copies."""
    split = []
    for m, d in zip(multiples, np.shape(x)):
        split += [m, d]
    return np.add.reduce(g.reshape(split), axis=tuple(builtins.range(0, len(split), 2)))


# TensorFlow's Tile gradient: reshape to interleaved (multiple, size) axes, sum the first.
_TILE_GRAD = primitive("TileGrad", _tile_grad_forward, shape_inputs=(1,))
defvjp(_TILE, lambda g, y, x, multiples: apply(_TILE_GRAD, (g, x), {"multiples": multiples}))
defvjp(_TILE_GRAD, lambda gg, y, g, x, multiples: apply(_TILE, (gg,), {"multiples": multiples}),
       None)


def tile(input, multiples, name=None):  # noqa: A002 - TensorFlow's name
    """Repeat ``input`` ``multiples[i]`` times along axis i (``tf.tile``).

    Args:
        input: a tensor of any dtype.
        multiples: one non-negative int per axis of ``input`` (a list or a 1-D int tensor).
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of shape ``input.shape[i] * multiples[i]`` and ``input``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: if ``len(multiples)`` differs from the rank.
    """
    try:
        x = to_tensor(input)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("tile", input, multiples)
    mult = shape_tuple(multiples)
    if len(mult) != x._value.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"Expected multiples argument to be a vector of length "
            f"{x._value.ndim} but got length {len(mult)} [Op:Tile]")
    for i, m in enumerate(mult):
        if m < 0:
            raise errors.InvalidArgumentError(
                None, None, f"Expected multiples[{i}] >= 0, but got {m} [Op:Tile]")
    return apply(_TILE, (x,), {"multiples": mult})




def _pad_forward(x, paddings, value):
    return np.pad(x, paddings, mode="constant", constant_values=value)


_PAD = primitive("PadV2", _pad_forward, save_inputs=False)


def _pad_rule(g, y, x_shape, paddings, value):
    # slice bounds from the paddings alone (not x's sizes): any size of unpadded axes
    key = tuple(builtins.slice(lo, -hi if hi else None) for lo, hi in paddings)
    return _strided_slice(g, key)


defvjp(_PAD, _pad_rule)


def _mirror_index(n, lo, hi, mode):
    """Source positions along one axis for reflect/symmetric padding."""
    shift = 1 if mode == "REFLECT" else 0
    idx = np.arange(-lo, n + hi)
    period = 2 * n - 2 * shift
    idx = np.mod(idx, period) if period else np.zeros_like(idx)
    if shift:
        return np.where(idx >= n, period - idx, idx)
    return np.where(idx >= n, period - 1 - idx, idx)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pad ``tensor`` with ``paddings[i] = [before, after]`` on axis i (``tf.pad``).

    Args:
        tensor: a tensor.
        paddings: an int ``[rank, 2]`` list or tensor.
        mode: ``CONSTANT``, ``REFLECT`` (edge not repeated) or ``SYMMETRIC`` (repeated),
            case-insensitive.
        constant_values: the fill for ``CONSTANT``.

    Raises:
        ValueError: for an unknown mode.
        tf.errors.InvalidArgumentError: if ``paddings`` does not fit the rank, or mirror
            padding is wider than the axis allows.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.pad(tf.constant([1, 2, 3]), [[2, 1]], 'REFLECT').numpy())
        [3 2 1 2 3 2]
    """
    x = to_tensor(tensor)
    pv = static_value(paddings).tolist() if isinstance(paddings, _TensorLike) else paddings
    if np.ndim(pv) != 2 or np.shape(pv)[1] != 2:
        raise _err(f"paddings must be a matrix with 2 columns: {_show(np.shape(pv))}",
                   "Pad", None)
    pads = tuple((int(a), int(b)) for a, b in pv)
    n = x._value.ndim
    mode = mode.upper()
    if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f"Value of argument `mode` expected to be one of \"CONSTANT\", "
                         f"\"REFLECT\", or \"SYMMETRIC\". Received `mode` = {mode}")
    cv = constant_values._value if isinstance(constant_values, _TensorLike) \
        else constant_values
    op_name = "MirrorPad" if mode != "CONSTANT" else ("Pad" if not np.any(cv) else "PadV2")
    if len(pads) != n:
        raise _err(f"The first dimension of paddings must be the rank of inputs"
                   f"[{len(pads)},2] {_show(x._value.shape)}", op_name, None)
    if builtins.any(a < 0 or b < 0 for a, b in pads):
        raise _err(f"Paddings must be non-negative: {pads[0][0]} {pads[0][1]}", op_name, None)
    if mode == "CONSTANT":
        return apply(_PAD, (x,), {"paddings": pads, "value": np.asarray(cv, x._value.dtype)})
    shift = 1 if mode == "REFLECT" else 0
    out = x
    for ax, (lo, hi) in enumerate(pads):
        d = x._value.shape[ax]
        if lo > d - shift or hi > d - shift:
            raise _err(f"paddings must be less than the dimension size: {lo}, {hi} not less "
                       f"than {d}" if shift else
                       f"paddings must be no greater than the dimension size: {lo}, {hi} "
                       f"greater than {d}", op_name, None)
        if lo or hi:
            out = _gather_dense(out, Tensor(_mirror_index(d, lo, hi, mode).astype(np.int32)),
                         axis=ax)
    return out if out is not x else identity(x)




def reverse(tensor, axis, name=None):
    """``tensor`` reversed along the axes in ``axis`` (``tf.reverse``).

    Raises:
        tf.errors.InvalidArgumentError: for an axis out of range.
    """
    try:
        x = to_tensor(tensor)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("reverse", tensor, axis)
    n = x._value.ndim
    axes = _int_list(axis)
    if n == 0:
        return identity(x)   # TF's ReverseV2 passes a scalar through, whatever the axes
    seen = set()
    for a in axes:
        if not -n <= a < n:
            # (sic: TensorFlow's message lacks the closing bracket)
            raise _err(f"'axis'[0] = {a} is out of valid range [0, {n - 1}", "ReverseV2", None)
        if a % n in seen:
            raise _err(f"axis {a % n} specified more than once.", "ReverseV2", None)
        seen.add(a % n)
    axes = seen
    key = tuple(builtins.slice(None, None, -1) if i in axes else builtins.slice(None)
                for i in builtins.range(n))
    return _strided_slice(x, key)


def roll(input, shift, axis, name=None):  # noqa: A002 - TensorFlow's name
    """Shift elements cyclically by ``shift`` along ``axis`` (``tf.roll``).

    Raises:
        tf.errors.InvalidArgumentError: if shift and axis lengths differ.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.roll(tf.constant([1, 2, 3, 4]), shift=1, axis=0).numpy())
        [4 1 2 3]
    """
    x = to_tensor(input)
    shifts = _int_list(shift)
    axes = _int_list(axis)
    if len(shifts) != len(axes):
        raise _err("shift and axis must have the same size", "Roll", None)
    n = x._value.ndim
    total = {}
    for s, a in zip(shifts, axes, strict=True):
        if not -n <= a < n:
            raise _err(f"axis {a} is out of range", "Roll", None)
        total[a % n] = total.get(a % n, 0) + s
    ax = tuple(sorted(total))
    return apply(_ROLL, (x,), {"shift": tuple(total[a] for a in ax), "axis": ax})


# The shifts are taken modulo each call's sizes when the op runs (TensorFlow's Roll), so a
# program traced with relaxed sizes rolls any size.
_ROLL = primitive("Roll", lambda x, shift, axis: np.roll(x, shift, axis) if x.size else x,
                  save_inputs=False)
defvjp(_ROLL, lambda g, y, x_shape, shift, axis: apply(
    _ROLL, (g,), {"shift": tuple(-s for s in shift), "axis": axis}))


def repeat(input, repeats, axis=None, name=None):  # noqa: A002 - TensorFlow's name
    """Repeat each element ``repeats`` times along ``axis`` (``tf.repeat``).

    With ``axis=None`` the input is flattened first.
    """
    x = to_tensor(input)
    if axis is None:
        x = reshape(x, [-1])
        axis = 0
    n = max(x._value.ndim, 1)   # TF makes a scalar a vector first
    if not -n <= int(axis) < n:
        raise ValueError(f"axis={int(axis)} out of bounds: expected {-n}<=axis<{n}")
    if x._value.ndim == 0:
        x = reshape(x, [1])
    ax = int(axis) % n
    r = _int_list(repeats)
    if len(r) == 1:
        # one count for every element: the op repeats each call's size
        return apply(_REPEAT, (x,), {"repeats": r[0], "axis": ax})
    d = static_dim(x, ax)   # a count per element: made for this size
    if len(r) != d:
        raise ValueError(f"Dimensions {d} and {len(r)} are not compatible")
    shape = x._value.shape
    if ax > 0 and shape[0] == 0 and sum(r) != 0:
        # TF's tf.repeat broadcasts the counts over the axes before ``axis`` and then pins
        # the result's ``axis`` to 0 when that broadcast's first dimension is 0
        have = shape[:ax] + (sum(r),) + shape[ax + 1:]
        pinned = shape[:ax] + (0,) + shape[ax + 1:]
        raise ValueError(f"Tensor's shape {have} is not compatible with supplied shape "
                         f"{pinned}.")
    return apply(_REPEAT, (x,), {"repeats": tuple(r), "axis": ax})


def _repeat_grad_forward(g, x, repeats, axis):
    """The gradient of ``repeat(x, repeats, axis)``: the copies of each element summed,
    onto ``x``'s shape read when the op runs."""
    shape = np.shape(x)
    if isinstance(repeats, tuple):
        return _gather_scatter(g, np.repeat(np.arange(shape[axis]), repeats), shape, axis)
    return np.add.reduce(g.reshape(shape[:axis] + (shape[axis], repeats) + shape[axis + 1:]),
                         axis=axis + 1)


# (TensorFlow's tf.repeat is a composite of reshapes and a tile: no op of its own.)
_REPEAT = primitive("Repeat", lambda x, repeats, axis: np.repeat(x, repeats, axis))
_REPEAT_GRAD = primitive("RepeatGrad", _repeat_grad_forward, shape_inputs=(1,))
defvjp(_REPEAT, lambda g, y, x, repeats, axis: apply(
    _REPEAT_GRAD, (g, x), {"repeats": repeats, "axis": axis}))
defvjp(_REPEAT_GRAD, lambda gg, y, g, x, repeats, axis: apply(
    _REPEAT, (gg,), {"repeats": repeats, "axis": axis}), None)




def _reverse_sequence_forward(x, lens, seq_dim, batch_dim):
    xt = np.moveaxis(x, (batch_dim, seq_dim), (0, 1))
    nb, ns = xt.shape[:2]
    if lens.shape != (nb,):
        raise ValueError(f"Length of seq_lengths != input.dims({batch_dim}), ({lens.shape[0]} "
                         f"vs. {nb})" if lens.ndim == 1 else
                         f"seq_lengths must be 1-dim, not {lens.ndim}")
    if nb and (lens.max() > ns or lens.min() < 0):
        b = int(np.argmax((lens > ns) | (lens < 0)))
        raise ValueError(f"seq_lens({b}) > input.dims({seq_dim})" if lens[b] > ns else
                         f"seq_lens({b}) < 0")
    j = np.arange(ns)
    size = lens.astype(np.int64)[:, None]
    idx = np.where(j < size, size - 1 - j, j)     # (nb, ns): the first lens[b] reversed
    idx = idx.reshape(idx.shape + (1,) * (xt.ndim - 2))
    return np.moveaxis(np.take_along_axis(xt, idx, axis=1), (0, 1), (batch_dim, seq_dim))


# The reversed positions are made from each call's lengths and sizes when the op runs.
_REVERSE_SEQUENCE = primitive(
    "ReverseSequence", _reverse_sequence_forward,
    error=lambda v, a, e: (errors.InvalidArgumentError, str(e)))
defvjp(_REVERSE_SEQUENCE, lambda g, y, x, lens, seq_dim, batch_dim: apply(
    _REVERSE_SEQUENCE, (g, lens), {"seq_dim": seq_dim, "batch_dim": batch_dim}), None)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Reverse the first ``seq_lengths[b]`` entries of each batch row (``tf.reverse_sequence``).

    Args:
        input: a tensor of rank >= 2.
        seq_lengths: a 1-D int tensor of ``input.shape[batch_axis]`` lengths, each at most
            ``input.shape[seq_axis]``.
        seq_axis, batch_axis: the axes (batch_axis default 0).

    Returns:
        A tensor of ``input``'s shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a length out of range or a lengths vector of
            another size.
    """
    x = to_tensor(input)
    lens = to_tensor(seq_lengths)
    n = x._value.ndim
    sa = int(seq_axis)
    ba = 0 if batch_axis is None else int(batch_axis)
    # TensorFlow's checks, in its order (it takes no negative axis here)
    text = f"Invalid batch_dim {ba}" if ba < 0 else f"Invalid seq_dim {sa}" if sa < 0 else \
        f"batch_dim == seq_dim == {sa}" if ba == sa else \
        f"seq_dim must be < input rank ( {sa} vs. {n})" if sa >= n else \
        f"batch_dim must be < input rank ( {ba} vs. {n})" if ba >= n else None
    if text:
        raise errors.op_error(errors.InvalidArgumentError, text, "ReverseSequence")
    return apply(_REVERSE_SEQUENCE, (x, lens), {"seq_dim": sa, "batch_dim": ba})


_final_error(_TILE, None)


# ----------------------------------------------------------- space_to_batch / batch_to_space
# Both ops take block_shape and paddings/crops as attributes; the sizes they must divide are
# checked when the op runs (a program traced with relaxed sizes checks each call's).


def _space_to_batch_forward(x, block_shape, paddings):
    m = len(block_shape)
    if not m:
        return x
    batch, rest = x.shape[0], x.shape[1 + m:]
    padded = []
    for i, (b, (lo, hi)) in enumerate(zip(block_shape, paddings, strict=True)):
        size = x.shape[1 + i] + lo + hi
        if size % b:
            raise ValueError(f"padded_shape[{i}]={size} is not divisible by "
                             f"block_shape[{i}]={b}")
        padded.append(size)
    if builtins.any(lo or hi for lo, hi in paddings):
        xp = np.zeros((batch, *padded, *rest), x.dtype)
        xp[(builtins.slice(None),) + tuple(builtins.slice(lo, lo + x.shape[1 + i])
                                           for i, (lo, _) in enumerate(paddings))] = x
    else:
        xp = x
    # [batch, P1/b1, b1, ..., PM/bM, bM, rest] -> [b1, ..., bM, batch, P1/b1, ..., PM/bM, rest]
    split = [batch]
    for p, b in zip(padded, block_shape, strict=True):
        split += [p // b, b]
    xs = xp.reshape(split + list(rest))
    perm = ([2 + 2 * i for i in builtins.range(m)] + [0] + [1 + 2 * i for i in builtins.range(m)]
            + list(builtins.range(1 + 2 * m, 1 + 2 * m + len(rest))))
    out_shape = ((batch * math.prod(block_shape),) + tuple(p // b for p, b in zip(
        padded, block_shape, strict=True)) + tuple(rest))
    return np.ascontiguousarray(xs.transpose(perm)).reshape(out_shape)


def _batch_to_space_forward(x, block_shape, crops):
    m = len(block_shape)
    if not m:
        return x
    prod = math.prod(block_shape)
    if x.shape[0] % prod:
        raise ValueError(f"Input batch dimension ({x.shape[0]}) is not divisible by product of "
                         f"block sizes ({prod})")
    batch, sizes, rest = x.shape[0] // prod, x.shape[1:1 + m], x.shape[1 + m:]
    for i, (s, b, (lo, hi)) in enumerate(zip(sizes, block_shape, crops, strict=True)):
        if s * b - lo - hi < 0:
            raise ValueError(f"cropped_shape[{i}]={s * b - lo - hi} must be non-negative")
    # [b1, ..., bM, batch, s1, ..., sM, rest] -> [batch, s1, b1, ..., sM, bM, rest]
    xs = x.reshape(tuple(block_shape) + (batch,) + tuple(sizes) + tuple(rest))
    perm = [m]
    for i in builtins.range(m):
        perm += [m + 1 + i, i]
    perm += list(builtins.range(2 * m + 1, 2 * m + 1 + len(rest)))
    full = xs.transpose(perm).reshape((batch,) + tuple(
        s * b for s, b in zip(sizes, block_shape, strict=True)) + tuple(rest))
    key = (builtins.slice(None),) + tuple(builtins.slice(lo, s * b - hi) for s, b, (lo, hi)
                                          in zip(sizes, block_shape, crops, strict=True))
    return np.ascontiguousarray(full[key])


def _invalid(values, attrs, exc):
    return errors.InvalidArgumentError, str(exc)


_SPACE_TO_BATCH = primitive("SpaceToBatchND", _space_to_batch_forward, save_inputs=False,
                            error=_invalid)
_BATCH_TO_SPACE = primitive("BatchToSpaceND", _batch_to_space_forward, save_inputs=False,
                            error=_invalid)
# each one's gradient is the other with the same blocks, paddings as crops (a linear map and
# its transpose), as TensorFlow's
defvjp(_SPACE_TO_BATCH, lambda g, y, x_shape, block_shape, paddings: apply(
    _BATCH_TO_SPACE, (g,), {"block_shape": block_shape, "crops": paddings}))
defvjp(_BATCH_TO_SPACE, lambda g, y, x_shape, block_shape, crops: apply(
    _SPACE_TO_BATCH, (g,), {"block_shape": block_shape, "paddings": crops}))
defjvp(_SPACE_TO_BATCH, lambda ts, y, x_shape, block_shape, paddings: None if ts[0] is None
       else apply(_SPACE_TO_BATCH, (ts[0],), {"block_shape": block_shape, "paddings": paddings}))
defjvp(_BATCH_TO_SPACE, lambda ts, y, x_shape, block_shape, crops: None if ts[0] is None
       else apply(_BATCH_TO_SPACE, (ts[0],), {"block_shape": block_shape, "crops": crops}))
_final_error(_SPACE_TO_BATCH, None)
_final_error(_BATCH_TO_SPACE, None)


def _int_arg(v, what, op_name):
    """``block_shape``/``paddings``/``crops`` as an int array (TF takes int32 or int64)."""
    a = static_value(v) if isinstance(v, _TensorLike) else \
        v if isinstance(v, np.ndarray) else to_tensor(v)._value
    if a.dtype.kind not in "iu" and not (a.size == 0 and a.dtype.kind == "f"):
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Value for attr 'T{what}' of {_tf_name(a.dtype)} is not in the list of allowed "
            f"values: int32, int64\n\t; NodeDef: {{{{node {op_name}}}}}", op_name)
    return a


def _tf_name(dt):
    try:
        return tf_type_name(dt)
    except KeyError:
        return str(dt)


def _block_args(x, block_shape, pads, what, op_name):
    """TensorFlow's checks of ``block_shape`` and ``paddings``/``crops`` against ``x``, in its
    order: the attributes as int tuples."""
    block = _int_arg(block_shape, "block_shape", op_name)
    pv = _int_arg(pads, what, op_name)
    _check_dtype(x, op_name, block, pv, what)
    if block.ndim != 1:
        raise _err(f"block_shape rank should be 1 instead of {block.ndim}", op_name, None)
    m = block.shape[0]
    rank = x._value.ndim
    if rank < 1 + m:
        raise _err(f"input rank should be >= {1 + m} instead of {rank}", op_name, None)
    if pv.ndim != 2 or pv.shape[0] != m or pv.shape[1] != 2:
        raise _err(f"{what} should have shape [{m}, 2] instead of {_show(pv.shape)}", op_name,
                   None)
    blocks = tuple(int(b) for b in block)
    pairs = tuple((int(a), int(b)) for a, b in pv)
    if op_name == "SpaceToBatchND":
        for i, b in enumerate(blocks):
            if b < 1:
                raise _err(f"All values in block_shape must be positive, got value, {b} at "
                           f"index {i}.", op_name, None)
        if builtins.any(a < 0 or b < 0 for a, b in pairs):
            raise _err("Paddings must be non-negative", op_name, None)
    else:
        if builtins.any(a < 0 or b < 0 for a, b in pairs):
            raise _err("Crops must be non-negative", op_name, None)
        if math.prod(blocks) <= 0:
            raise _err(f"Product of block sizes must be positive, got {math.prod(blocks)}",
                       op_name, None)
    return blocks, pairs


def _check_dtype(x, op_name, block, pads, what):
    """TensorFlow's NotFoundError for a dtype without a CPU kernel (bool, complex, string)."""
    k = x._value.dtype.kind
    if k in "bcOSUV" and x._value.dtype.name != "bfloat16":
        names = [_tf_name(a.dtype).upper() if a.dtype.kind in "iu" else "INT32"
                 for a in (block, pads)]
        raise errors.op_error(
            errors.NotFoundError, f"Could not find device for node: {{{{node {op_name}}}}} = "
            f"{op_name}[T=DT_{_tf_name(x._value.dtype).upper()}, Tblock_shape=DT_{names[0]}, "
            f"T{what}=DT_{names[1]}]", op_name)


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002 - TF's name
    """Spatial blocks moved into the batch (``tf.space_to_batch_nd``, ``tf.space_to_batch``).

    The ``M`` axes after the batch are zero-padded by ``paddings``, cut into blocks of
    ``block_shape``, and the offsets inside a block become batch entries: output element
    ``[(i_1 * b_2 + i_2 ... ) * batch + n, y_1, ..., y_M, ...]`` is the padded input's
    ``[n, y_1 * b_1 + i_1, ..., y_M * b_M + i_M, ...]``.

    Args:
        input: ``[batch, s_1, ..., s_M, *rest]``, a real (float, int or unsigned) dtype.
        block_shape: ``M`` ints >= 1 (a list or int32/int64 tensor).
        paddings: ``[M, 2]`` ints >= 0; each ``s_i + paddings[i][0] + paddings[i][1]`` must
            be divisible by ``block_shape[i]``.
        name: TensorFlow's op name; unused.

    Returns:
        ``[batch * prod(block_shape), (s_1 + pad_1) / b_1, ..., *rest]`` of ``input``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a block_shape not a vector, or a value below 1;
            ``paddings`` not ``[M, 2]`` or negative; an input of rank below ``M + 1``; a padded
            size not divisible by its block.
        tf.errors.NotFoundError: for bool, complex and string inputs (no CPU kernel).

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(4.), [1, 2, 2, 1])
        >>> print(tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]])[:, 0, 0, 0].numpy())
        [0. 1. 2. 3.]
    """
    x = to_tensor(input)
    blocks, pads = _block_args(x, block_shape, paddings, "paddings", "SpaceToBatchND")
    return apply(_SPACE_TO_BATCH, (x,), {"block_shape": blocks, "paddings": pads})


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002 - TF's name
    """TF 2's ``tf.space_to_batch`` (``tf.nn.space_to_batch``): :func:`space_to_batch_nd`."""
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002 - TF's name
    """The inverse of :func:`space_to_batch_nd` (``tf.compat.v1.batch_to_space_nd``).

    The batch is cut into ``prod(block_shape)`` groups that are interleaved back into blocks
    of the ``M`` axes after the batch, which are then cropped by ``crops``.

    Args:
        input: ``[batch, s_1, ..., s_M, *rest]``, a real dtype; ``batch`` divisible by
            ``prod(block_shape)``.
        block_shape: ``M`` ints >= 1 (a list or int32/int64 tensor).
        crops: ``[M, 2]`` ints >= 0, at most ``s_i * block_shape[i]`` in total per axis.
        name: TensorFlow's op name; unused.

    Returns:
        ``[batch / prod(block_shape), s_1 * b_1 - crops_1, ..., *rest]``, ``input``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a block_shape not a vector or of product < 1,
            ``crops`` not ``[M, 2]``, negative or larger than the axis, a batch not divisible
            by the product, an input of rank below ``M + 1``.
        tf.errors.NotFoundError: for bool, complex and string inputs (no CPU kernel).
    """
    x = to_tensor(input)
    blocks, crop = _block_args(x, block_shape, crops, "crops", "BatchToSpaceND")
    return apply(_BATCH_TO_SPACE, (x,), {"block_shape": blocks, "crops": crop})


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002 - TF's name
    """TF 2's ``tf.batch_to_space``: :func:`batch_to_space_nd`; an int ``block_shape``
    is the same block on two axes.

    Example:
        >>> import tapeflow as tf
        >>> y = tf.reshape(tf.range(4.), [4, 1, 1, 1])
        >>> print(tf.batch_to_space(y, [2, 2], [[0, 0], [0, 0]])[0, :, :, 0].numpy())
        [[0. 1.]
         [2. 3.]]
    """
    if isinstance(block_shape, int):  # (a Python int only, as TF)
        block_shape = np.array([block_shape, block_shape], np.int64)
    return batch_to_space_nd(input, block_shape, crops, name)


def space_to_batch_v1(input, paddings, block_size=None, name=None,  # noqa: A002 - TF's name
                      block_shape=None):
    """TF 1's ``tf.compat.v1.space_to_batch`` (``tf.compat.v1.nn.space_to_batch``): a square
    ``block_size`` block on the two axes after the batch of a 4-D ``input``."""
    size = _v1_block(block_size, block_shape)
    return space_to_batch_nd(input, np.array([size, size], np.int64), paddings, name)


def batch_to_space_v1(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """TF 1's ``tf.compat.v1.batch_to_space``: the inverse of :func:`space_to_batch_v1`."""
    size = _v1_block(block_size, block_shape)
    return batch_to_space_nd(input, np.array([size, size], np.int64), crops, name)


def _v1_block(block_size, block_shape):
    if block_shape is not None:
        if block_size is not None:
            raise ValueError("Cannot specify both 'block_size' and 'block_shape'.")
        block_size = block_shape
    return static_value(block_size) if isinstance(block_size, _TensorLike) else block_size
