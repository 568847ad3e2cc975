"""Keras 3's core ops (``keras.src.ops.core``): conversion, casts, control flow, scatter."""
import builtins

import numpy as np

from ._base import cast as _cast
from ._base import dt, standardize_dtype, tensor, tf

__all__ = ["cast", "convert_to_tensor", "convert_to_numpy", "is_tensor", "shape", "dtype",
           "stop_gradient", "saturate_cast", "slice", "slice_update", "scatter",
           "scatter_update", "cond", "switch", "while_loop", "fori_loop", "scan",
           "associative_scan", "map", "vectorized_map", "custom_gradient", "unstack",
           "rearrange"]


def cast(x, dtype):
    """``x`` in ``dtype`` (``keras.ops.cast``); floats to integers truncate toward zero, as
    TensorFlow.

    Args:
        x: a tensor, array-like or number.
        dtype: a dtype name or object.

    Returns:
        A tensor of ``x``'s shape in ``dtype``.
    """
    return _cast(x, dtype)


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """``x`` as a tensor (``keras.ops.convert_to_tensor``): Python floats float32, Python
    ints int32, NumPy arrays keep their dtype; ``dtype`` casts."""
    return tensor(x, dtype)


def convert_to_numpy(x):
    """``x`` as a NumPy array (``keras.ops.convert_to_numpy``)."""
    return np.asarray(tensor(x))


def is_tensor(x):
    """Whether ``x`` is a native tensor (``keras.ops.is_tensor``)."""
    return bool(tf.is_tensor(x))


def shape(x):
    """The shape of ``x`` as a tuple (``keras.ops.shape``): its static sizes, and where one is
    unknown (a ``tf.function`` traced with relaxed shapes) a scalar tensor of each call's
    size, as Keras's TensorFlow backend."""
    t = tensor(x)
    static = t.shape.as_list()
    if None not in static:
        return tuple(static)
    dynamic = tf.shape(t)
    return tuple(dynamic[i] if d is None else d for i, d in enumerate(static))


def dtype(x):
    """The Keras dtype name of ``x`` (``keras.ops.dtype``), e.g. ``"float32"``."""
    return dt(tensor(x))


def stop_gradient(variable):
    """``variable`` with no gradient flowing through (``keras.ops.stop_gradient``)."""
    return tf.stop_gradient(tensor(variable))


def saturate_cast(x, dtype):
    """A cast that clips to ``dtype``'s range first (``keras.ops.saturate_cast``)."""
    x = tensor(x)
    d = standardize_dtype(dtype)
    if d in ("bool",) or "float" in d:
        return _cast(x, d)
    info = np.iinfo(d)
    src = dt(x)
    if "float" in src:
        lo = builtins.max(float(info.min), float(np.finfo(src).min))
        hi = builtins.min(float(info.max), float(np.finfo(src).max))
        # the largest float below the integer maximum, so the cast never wraps
        hi = float(np.nextafter(np.asarray(hi, src), np.asarray(-np.inf, src))) \
            if float(np.asarray(hi, src)) > info.max else hi
        x = tf.clip_by_value(x, tf.cast(lo, x.dtype), tf.cast(hi, x.dtype))
    else:
        si = np.iinfo(src) if src != "bool" else np.iinfo("uint8")
        lo, hi = builtins.max(info.min, si.min), builtins.min(info.max, si.max)
        x = tf.clip_by_value(x, tf.cast(lo, x.dtype), tf.cast(hi, x.dtype))
    return _cast(x, d)


def slice(inputs, start_indices, shape):  # noqa: A001 - Keras's name
    """The block of ``shape`` at ``start_indices`` (``keras.ops.slice``)."""
    return tf.slice(tensor(inputs), list(start_indices), list(shape))


def slice_update(inputs, start_indices, updates):
    """``inputs`` with the block at ``start_indices`` replaced by ``updates``
    (``keras.ops.slice_update``)."""
    x = tensor(inputs)
    u = _cast(updates, dt(x))
    starts = [int(s) for s in start_indices]
    grids = np.meshgrid(*[np.arange(s, s + n) for s, n in zip(starts, u.shape.as_list())],
                        indexing="ij")
    idx = np.stack(grids, -1).astype(np.int32)
    return tf.tensor_scatter_nd_update(x, tf.constant(idx), u)


def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices``
    (``keras.ops.scatter``)."""
    v = tensor(values)
    return tf.scatter_nd(_cast(indices, "int32"), v, list(shape))


def scatter_update(inputs, indices, updates):
    """``inputs`` with the entries at ``indices`` set to ``updates``
    (``keras.ops.scatter_update``)."""
    x = tensor(inputs)
    return tf.tensor_scatter_nd_update(x, _cast(indices, "int32"), _cast(updates, dt(x)))


def cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()``, traced as one conditional inside a
    ``tf.function`` (``keras.ops.cond``)."""
    return tf.cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    """``branches[index](*operands)``, the index clamped to the branches
    (``keras.ops.switch``)."""
    i = tf.clip_by_value(_cast(index, "int32"), 0, len(branches) - 1)
    return tf.switch_case(i, [lambda b=b: b(*operands) for b in branches])


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Run ``body`` while ``cond`` holds (``keras.ops.while_loop``); a tuple or list of loop
    variables is passed positionally, and the result keeps ``loop_vars``' structure."""
    is_seq = isinstance(loop_vars, (tuple, list))
    lv = tuple(loop_vars) if is_seq else (loop_vars,)

    def c(*v):
        return cond(*v) if is_seq else cond(v[0])

    def b(*v):
        out = body(*v) if is_seq else body(v[0])
        return tuple(out) if is_seq else (out,)
    out = tf.while_loop(c, b, lv, maximum_iterations=maximum_iterations)
    out = tuple(out)
    if not is_seq:
        return out[0]
    return list(out) if isinstance(loop_vars, list) else out


def fori_loop(lower, upper, body_fun, init_val):
    """``body_fun(i, val)`` for ``i`` from ``lower`` to ``upper`` (``keras.ops.fori_loop``)."""
    def c(i, v):
        return i < upper

    def b(i, v):
        return i + 1, body_fun(i, v)
    return tf.while_loop(c, b, (tensor(lower), init_val))[1]


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Fold ``f(carry, x) -> (carry, y)`` over the leading axis of ``xs``
    (``keras.ops.scan``).

    Returns:
        (final carry, the stacked ``y``).
    """
    n = length if xs is None else tensor(tf.nest.flatten(xs)[0]).shape[0]
    carry = init
    ys = []
    order = range(n - 1, -1, -1) if reverse else range(n)
    for i in order:
        x = None if xs is None else tf.nest.map_structure(lambda a, i=i: tensor(a)[i], xs)
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys or ys[0] is None:
        return carry, None
    return carry, tf.nest.map_structure(lambda *v: tf.stack(v), *ys)


def associative_scan(f, elems, reverse=False, axis=0):
    """The inclusive scan of an associative ``f`` along ``axis``
    (``keras.ops.associative_scan``)."""
    flat = [tensor(e) for e in tf.nest.flatten(elems)]
    n = flat[0].shape[axis]
    idx = range(n - 1, -1, -1) if reverse else range(n)

    def at(t, i):
        return tf.gather(t, i, axis=axis)
    acc = None
    outs = []
    for i in idx:
        cur = tf.nest.pack_sequence_as(elems, [at(t, i) for t in flat])
        acc = cur if acc is None else f(acc, cur)
        outs.append(acc)
    if reverse:
        outs.reverse()
    return tf.nest.map_structure(lambda *v: tf.stack(v, axis=axis), *outs)


def map(f, xs):  # noqa: A001 - Keras's name
    """``f`` applied to each slice of ``xs`` along axis 0, results stacked
    (``keras.ops.map``)."""
    first = tf.nest.flatten(xs)[0]
    n = tensor(first).shape[0]
    ys = [f(tf.nest.map_structure(lambda a, i=i: tensor(a)[i], xs)) for i in range(n)]
    return tf.nest.map_structure(lambda *v: tf.stack(v), *ys)


def vectorized_map(function, elements):
    """``function`` applied to each slice of ``elements`` along axis 0
    (``keras.ops.vectorized_map``)."""
    return map(function, elements)


def custom_gradient(f):
    """Decorate ``f`` returning ``(y, grad_fn)`` with its own gradient
    (``keras.ops.custom_gradient``); ``grad_fn(*upstream)`` as in ``tf.custom_gradient``."""
    return tf.custom_gradient(f)


def unstack(x, num=None, axis=0):
    """The slices of ``x`` along ``axis`` as a list (``keras.ops.unstack``)."""
    return list(tf.unstack(tensor(x), num=num, axis=axis))


def _einops_side(side):
    groups, cur = [], None
    for tok in side.replace("(", " ( ").replace(")", " ) ").split():
        if tok == "(":
            if cur is not None:
                raise ValueError(f"Nested parentheses in einops pattern: {side!r}")
            cur = []
        elif tok == ")":
            if cur is None:
                raise ValueError(f"Unbalanced parentheses in einops pattern: {side!r}")
            groups.append(cur)
            cur = None
        elif cur is not None:
            cur.append(tok)
        else:
            groups.append([tok])
    if cur is not None:
        raise ValueError(f"Unbalanced parentheses in einops pattern: {side!r}")
    return groups


def rearrange(tensor, pattern, **axes_lengths):  # noqa: A002 - Keras's name (shadows tensor)
    """Axes reordered, split and merged by an einops pattern (``keras.ops.rearrange``), e.g.
    ``"b h w c -> b c h w"``, ``"b h w c -> (b h) w c"``, ``"b (h p) c -> b h p c"`` with
    ``p=2``.

    Args:
        tensor: a tensor whose rank is the number of groups left of ``->``.
        pattern: the einops pattern.
        **axes_lengths: the sizes of axes split from a group.

    Returns:
        A tensor with the right side's groups as axes.

    Raises:
        ValueError: for a malformed pattern.
        tf.errors.InvalidArgumentError: for names that differ between the sides or sizes
            that do not divide (where Keras on TensorFlow fails in its reshape).
    """
    from ._base import tensor as _to_tensor

    x = _to_tensor(tensor)
    if pattern.count("->") != 1:
        raise ValueError(f"Pattern must contain exactly one '->'. Received: {pattern!r}")
    left, right = (_einops_side(s) for s in pattern.split("->"))
    shape = x.shape.as_list()
    if len(left) != len(shape):
        raise ValueError(f"Pattern {pattern!r} names {len(left)} axes; the tensor has rank "
                         f"{len(shape)}")
    sizes = {}
    for group, dim in zip(left, shape):
        unknown = [n for n in group if n not in axes_lengths]
        known = int(np.prod([axes_lengths[n] for n in group if n in axes_lengths]))
        if len(unknown) > 1:
            raise ValueError(f"Could not infer sizes for {unknown} in {pattern!r}")
        if unknown:
            if dim % known:
                raise tf.errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: {dim} is not divisible by {known}")
            sizes[unknown[0]] = dim // known
        elif known != dim:
            raise ValueError(f"Shape mismatch: {group} has size {known}, the axis {dim}")
        for n in group:
            sizes.setdefault(n, axes_lengths.get(n))
    names = [n for g in left for n in g]
    out_names = [n for g in right for n in g]
    if sorted(names) != sorted(out_names) or len(set(names)) != len(names):
        raise tf.errors.InvalidArgumentError(
            None, None, f"Identifiers differ between the sides of {pattern!r}")
    x = tf.reshape(x, [sizes[n] for n in names])
    x = tf.transpose(x, [names.index(n) for n in out_names])
    return tf.reshape(x, [int(np.prod([sizes[n] for n in g])) for g in right])
