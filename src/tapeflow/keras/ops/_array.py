"""``keras.ops.numpy``'s array functions: creation, shapes, joining, indexing, products."""
import builtins
import math

import numpy as np

from ._base import (
    axes,
    cast,
    dt,
    dtype_of,
    family,
    float_of,
    floatx,
    promote,
    result_type,
    standardize_dtype,
    tensor,
    tf,
)

__all__ = [
    "arange", "linspace", "logspace", "geomspace", "zeros", "ones", "full", "empty", "eye",
    "identity", "tri", "zeros_like", "ones_like", "full_like", "empty_like", "array",
    "hamming", "hanning", "bartlett", "blackman", "kaiser", "reshape", "ravel", "expand_dims",
    "squeeze", "transpose", "swapaxes", "moveaxis", "concatenate", "stack", "hstack", "vstack",
    "dstack", "append", "split", "array_split", "hsplit", "vsplit", "dsplit", "tile", "repeat",
    "broadcast_to", "flip", "fliplr", "flipud", "rot90", "roll", "pad", "take",
    "take_along_axis", "diff", "sort", "argsort", "argpartition", "unique", "searchsorted",
    "digitize", "bincount", "histogram", "trace", "diagonal", "diag", "diagflat", "tril",
    "triu", "vander", "matmul", "dot", "inner", "outer", "vdot", "cross", "kron", "tensordot",
    "einsum", "meshgrid", "isin", "select", "nonzero", "size", "ndim", "shape_of",
    "corrcoef", "correlate", "trapezoid", "unravel_index", "get_item", "view", "vectorize",
    "slogdet",
]

# ----------------------------------------------------------------------------- creation


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)`` (``keras.ops.arange``).

    Args:
        start, stop, step: Python numbers (``arange(n)`` counts from 0 by 1).
        dtype: the result dtype (default: ints give int32, floats float32).

    Returns:
        A 1-D tensor.
    """
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None:
        kinds = [dtype_of(v) for v in (start, stop, step)]
        dtype = result_type(*kinds)
        if dtype == "int64":
            dtype = "int32"
    dtype = standardize_dtype(dtype)
    return tf.range(cast(start, dtype), cast(stop, dtype), cast(step, dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` (``keras.ops.linspace``).

    Args:
        start, stop: numbers or tensors.
        num: how many values.
        endpoint: whether ``stop`` is included.
        retstep: also return the step.
        dtype: the result dtype (default float32; integer dtypes floor the values).
        axis: where the new axis goes for tensor ``start``/``stop``.

    Returns:
        A tensor (and the step when ``retstep``).
    """
    d = standardize_dtype(dtype) if dtype is not None else \
        result_type(dtype_of(start), dtype_of(stop), float)
    compute = "float64" if d == "float64" else "float32"
    a, b = cast(start, compute), cast(stop, compute)
    div = (num - 1) if endpoint else num
    step = (b - a) / tf.cast(builtins.max(div, 1), compute)
    idx = tf.cast(tf.range(num), compute)
    shape = [-1] + [1] * len(a.shape)
    vals = tf.expand_dims(a, 0) + tf.reshape(idx, shape) * tf.expand_dims(step, 0)
    if endpoint and num > 1:
        vals = tf.concat([vals[:-1], tf.expand_dims(b, 0)], 0)
    if axis != 0:
        vals = moveaxis(vals, 0, axis)
    if family(d) in "iu":
        vals = tf.math.floor(vals)
    vals = cast(vals, d)
    return (vals, cast(step, d)) if retstep else vals


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """``base ** linspace(start, stop, num)`` (``keras.ops.logspace``)."""
    d = standardize_dtype(dtype) if dtype is not None else \
        result_type(dtype_of(start), dtype_of(stop), float)
    e = linspace(start, stop, num, endpoint=endpoint, dtype=d if family(d) == "f" else
                 "float32", axis=axis)
    return cast(tf.pow(tf.cast(base, e.dtype), e), d)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Values spaced evenly on a log scale from ``start`` to ``stop``
    (``keras.ops.geomspace``)."""
    d = standardize_dtype(dtype) if dtype is not None else \
        result_type(dtype_of(start), dtype_of(stop), float)
    a, b = float_of(start), float_of(stop)
    e = linspace(tf.math.log(tf.abs(a)), tf.math.log(tf.abs(b)), num, endpoint=endpoint,
                 axis=axis)
    out = tf.sign(a) * tf.exp(e)
    if num > 0:
        out = tf.concat([tf.expand_dims(a, 0), out[1:]], 0)
        if endpoint and num > 1:
            out = tf.concat([out[:-1], tf.expand_dims(b, 0)], 0)
    return cast(out, d)


def _shape(shape):
    if isinstance(shape, int):
        return [shape]
    return [int(s) for s in shape]


def zeros(shape, dtype=None):
    """A tensor of zeros (``keras.ops.zeros``); dtype default float32."""
    return tf.zeros(_shape(shape), standardize_dtype(dtype or floatx()))


def ones(shape, dtype=None):
    """A tensor of ones (``keras.ops.ones``); dtype default float32."""
    return tf.ones(_shape(shape), standardize_dtype(dtype or floatx()))


def empty(shape, dtype=None):
    """A tensor of ``shape`` (zeros, as Keras on TensorFlow) (``keras.ops.empty``)."""
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    """A tensor of ``shape`` filled with ``fill_value`` (``keras.ops.full``).

    Args:
        shape: an int or a tuple of ints.
        fill_value: a number or a tensor broadcast to ``shape``.
        dtype: default float32.
    """
    d = standardize_dtype(dtype or floatx())
    return tf.broadcast_to(cast(fill_value, d), _shape(shape))


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 - Keras's names
    """An ``N x M`` matrix with ones on diagonal ``k`` (``keras.ops.eye``)."""
    d = standardize_dtype(dtype or floatx())
    M = N if M is None else M  # noqa: N806
    return cast(tf.constant(np.eye(N, M, k)), d)


def identity(n, dtype=None):
    """The ``n x n`` identity (``keras.ops.identity``); dtype default float32."""
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803 - Keras's names
    """Ones at and below diagonal ``k`` (``keras.ops.tri``)."""
    d = standardize_dtype(dtype or floatx())
    M = N if M is None else M  # noqa: N806
    return cast(tf.constant(np.tri(N, M, k)), d)


def zeros_like(x, dtype=None):
    """Zeros of ``x``'s shape (``keras.ops.zeros_like``)."""
    x = tensor(x)
    return tf.zeros(tf.shape(x), standardize_dtype(dtype or x.dtype))


def ones_like(x, dtype=None):
    """Ones of ``x``'s shape (``keras.ops.ones_like``)."""
    x = tensor(x)
    return tf.ones(tf.shape(x), standardize_dtype(dtype or x.dtype))


def full_like(x, fill_value, dtype=None):
    """``fill_value`` in ``x``'s shape (``keras.ops.full_like``)."""
    x = tensor(x)
    d = standardize_dtype(dtype or x.dtype)
    return tf.broadcast_to(cast(fill_value, d), tf.shape(x))


def empty_like(x, dtype=None):
    """A tensor of ``x``'s shape (zeros) (``keras.ops.empty_like``)."""
    return zeros_like(x, dtype)


def array(x, dtype=None):
    """``x`` as a tensor (``keras.ops.array``)."""
    return tensor(x, dtype)


def _window(name, values):
    def fn(x):
        n = int(x)
        return tf.constant(values(n).astype(np.float32))
    fn.__name__ = name
    fn.__doc__ = f"""The {name.capitalize()} window of ``x`` points (``keras.ops.{name}``);
    a float32 1-D tensor."""
    return fn


hamming = _window("hamming", np.hamming)
hanning = _window("hanning", np.hanning)
bartlett = _window("bartlett", np.bartlett)
blackman = _window("blackman", np.blackman)


def kaiser(x, beta):
    """The Kaiser window of ``x`` points and shape ``beta`` (``keras.ops.kaiser``)."""
    return tf.constant(np.kaiser(int(x), float(beta)).astype(np.float32))


# ----------------------------------------------------------------------------- shapes


def reshape(x, newshape):
    """``x`` with shape ``newshape`` (one entry may be -1) (``keras.ops.reshape``)."""
    if isinstance(newshape, int):
        newshape = [newshape]
    return tf.reshape(tensor(x), list(newshape) if isinstance(newshape, tuple) else newshape)


def ravel(x):
    """``x`` flattened to 1-D (``keras.ops.ravel``)."""
    return tf.reshape(tensor(x), [-1])


def expand_dims(x, axis):
    """``x`` with new axes of size 1 at ``axis`` (an int or tuple) (``keras.ops.expand_dims``)."""
    x = tensor(x)
    if isinstance(axis, (list, tuple)):
        nd = len(x.shape) + len(axis)
        for a in sorted(a % nd for a in axis):
            x = tf.expand_dims(x, a)
        return x
    return tf.expand_dims(x, axis)


def squeeze(x, axis=None):
    """``x`` without size-1 axes (``keras.ops.squeeze``).

    Raises:
        ValueError: for an ``axis`` whose size is not 1.
    """
    x = tensor(x)
    if axis is None:
        return tf.squeeze(x)
    nd = len(x.shape)
    for a in axes(axis, nd):
        if x.shape[a] != 1:
            raise ValueError(f"Cannot squeeze axis={a}, because the dimension is not 1.")
    return tf.squeeze(x, axis=list(axes(axis, nd)))


def transpose(x, axes=None):
    """``x`` with its axes permuted (reversed by default) (``keras.ops.transpose``)."""
    return tf.transpose(tensor(x), None if axes is None else list(axes))


def swapaxes(x, axis1, axis2):
    """``x`` with two axes exchanged (``keras.ops.swapaxes``)."""
    x = tensor(x)
    perm = list(range(len(x.shape)))
    a, b = axis1 % len(perm), axis2 % len(perm)
    perm[a], perm[b] = perm[b], perm[a]
    return tf.transpose(x, perm)


def moveaxis(x, source, destination):
    """``x`` with axes moved from ``source`` to ``destination`` (``keras.ops.moveaxis``)."""
    x = tensor(x)
    nd = len(x.shape)
    src = [s % nd for s in (source if isinstance(source, (list, tuple)) else [source])]
    dst = [d % nd for d in (destination if isinstance(destination, (list, tuple))
                            else [destination])]
    order = [a for a in range(nd) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return tf.transpose(x, order)


def _common(xs):
    xs = [tensor(x) for x in xs]
    d = result_type(*[dt(x) for x in xs])
    return [cast(x, d) for x in xs]


def concatenate(xs, axis=0):
    """The tensors of ``xs`` joined along ``axis`` (None: flattened), promoted to a common
    dtype (``keras.ops.concatenate``)."""
    xs = _common(xs)
    if axis is None:
        xs = [tf.reshape(x, [-1]) for x in xs]
        axis = 0
    return tf.concat(xs, axis)


def stack(x, axis=0):
    """The tensors of ``x`` stacked on a new ``axis``, promoted (``keras.ops.stack``)."""
    return tf.stack(_common(x), axis)


def hstack(xs):
    """Joined along axis 1 (axis 0 for 1-D) (``keras.ops.hstack``)."""
    xs = _common(xs)
    return tf.concat(xs, 0 if len(xs[0].shape) == 1 else 1)


def vstack(xs):
    """Joined along axis 0, 1-D taken as rows (``keras.ops.vstack``)."""
    xs = [tf.reshape(x, [1, -1]) if len(x.shape) < 2 else x for x in _common(xs)]
    return tf.concat(xs, 0)


def dstack(xs):
    """Joined along axis 2 (``keras.ops.dstack``)."""
    out = []
    for x in _common(xs):
        if len(x.shape) == 1:
            x = tf.reshape(x, [1, -1, 1])
        elif len(x.shape) == 2:
            x = tf.expand_dims(x, -1)
        out.append(x)
    return tf.concat(out, 2)


def append(x1, x2, axis=None):
    """``x2`` appended to ``x1`` (flattened when ``axis`` is None) (``keras.ops.append``)."""
    return concatenate([x1, x2], axis=axis)


def split(x, indices_or_sections, axis=0):
    """``x`` cut into equal sections or at indices along ``axis`` (``keras.ops.split``).

    Returns:
        A list of tensors.

    Raises:
        tf.errors.InvalidArgumentError: for sections that do not divide the axis.
    """
    x = tensor(x)
    n = x.shape[axis]
    if isinstance(indices_or_sections, int):
        return list(tf.split(x, indices_or_sections, axis))
    cuts = [0] + [int(i) for i in indices_or_sections] + [n]
    sizes = [builtins.max(b - a, 0) for a, b in zip(cuts[:-1], cuts[1:])]
    return list(tf.split(x, sizes, axis))


def array_split(x, indices_or_sections, axis=0):
    """``x`` cut into ``n`` nearly equal parts along ``axis`` (``keras.ops.array_split``)."""
    x = tensor(x)
    if not isinstance(indices_or_sections, int):
        return split(x, indices_or_sections, axis)
    n, k = x.shape[axis], indices_or_sections
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    return list(tf.split(x, sizes, axis))


def hsplit(x, indices_or_sections):
    """``split`` along axis 1 (0 for 1-D) (``keras.ops.hsplit``)."""
    x = tensor(x)
    return split(x, indices_or_sections, 0 if len(x.shape) == 1 else 1)


def vsplit(x, indices_or_sections):
    """``split`` along axis 0 (``keras.ops.vsplit``)."""
    return split(x, indices_or_sections, 0)


def dsplit(x, indices_or_sections):
    """``split`` along axis 2 (``keras.ops.dsplit``)."""
    return split(x, indices_or_sections, 2)


def tile(x, repeats):
    """``x`` repeated ``repeats`` times per axis (``keras.ops.tile``)."""
    x = tensor(x)
    reps = [repeats] if isinstance(repeats, int) else list(repeats)
    nd = len(x.shape)
    if len(reps) < nd:
        reps = [1] * (nd - len(reps)) + reps
    elif len(reps) > nd:
        x = tf.reshape(x, [1] * (len(reps) - nd) + x.shape.as_list())
    return tf.tile(x, reps)


def repeat(x, repeats, axis=None):
    """Each entry repeated ``repeats`` times (``keras.ops.repeat``)."""
    x = tensor(x)
    if axis is None:
        x = tf.reshape(x, [-1])
        axis = 0
    return tf.repeat(x, repeats, axis=axis)


def broadcast_to(x, shape):
    """``x`` broadcast to ``shape`` (``keras.ops.broadcast_to``).

    Raises:
        tf.errors.InvalidArgumentError: for an incompatible shape.
    """
    return tf.broadcast_to(tensor(x), list(shape))


def flip(x, axis=None):
    """``x`` reversed along ``axis`` (all axes by default) (``keras.ops.flip``)."""
    x = tensor(x)
    return tf.reverse(x, list(axes(axis, len(x.shape))))


def fliplr(x):
    """``x`` reversed along axis 1 (``keras.ops.fliplr``)."""
    return flip(x, 1)


def flipud(x):
    """``x`` reversed along axis 0 (``keras.ops.flipud``)."""
    return flip(x, 0)


def rot90(array, k=1, axes=(0, 1)):
    """``array`` rotated by 90 degrees ``k`` times in the plane ``axes`` (``keras.ops.rot90``)."""
    x = tensor(array)
    k = k % 4
    a, b = axes
    for _ in range(k):
        x = swapaxes(flip(x, b), a, b)
    return x


def roll(x, shift, axis=None):
    """``x`` shifted circularly by ``shift`` along ``axis`` (``keras.ops.roll``)."""
    x = tensor(x)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def pad(x, pad_width, mode="constant", constant_values=None):
    """``x`` padded by ``pad_width`` (``keras.ops.pad``).

    Args:
        x: a tensor.
        pad_width: an int, a (before, after) pair, or one pair per axis.
        mode: "constant", "reflect" or "symmetric".
        constant_values: the fill value for "constant" (default 0).
    """
    x = tensor(x)
    nd = len(x.shape)
    w = np.broadcast_to(np.asarray(pad_width, dtype=np.int64).reshape(-1, 2)
                        if np.ndim(pad_width) else np.full((1, 2), pad_width), (nd, 2))
    if mode == "constant":
        cv = 0 if constant_values is None else constant_values
        return tf.pad(x, w.tolist(), constant_values=cast(cv, dt(x)))
    return tf.pad(x, w.tolist(), mode=mode.upper())


def take(x, indices, axis=None):
    """Entries of ``x`` at ``indices`` along ``axis`` (flattened when None); negative indices
    count from the end (``keras.ops.take``)."""
    x = tensor(x)
    idx = tensor(indices)
    if family(dt(idx)) == "f":
        idx = cast(idx, "int32")
    if axis is None:
        x = tf.reshape(x, [-1])
        axis = 0
    n = tf.cast(tf.shape(x)[axis], idx.dtype)
    idx = tf.where(idx < 0, idx + n, idx)
    return tf.gather(x, idx, axis=axis)


def take_along_axis(x, indices, axis=None):
    """Entries of ``x`` picked by ``indices`` along ``axis`` (``keras.ops.take_along_axis``)."""
    x = tensor(x)
    idx = cast(indices, "int32")
    if axis is None:
        x = tf.reshape(x, [-1])
        axis = 0
    nd = len(x.shape)
    axis = axis % nd
    n = x.shape[axis]
    idx = tf.where(idx < 0, idx + n, idx)
    shape = [builtins.max(a, b) for a, b in zip(x.shape.as_list(), idx.shape.as_list())]
    xs = list(shape)
    xs[axis] = n
    x = tf.broadcast_to(x, xs)
    shape[axis] = idx.shape[axis]
    idx = tf.broadcast_to(idx, shape)
    perm = [a for a in range(nd) if a != axis] + [axis]
    inv = list(np.argsort(perm))
    out = tf.gather(tf.transpose(x, perm), tf.transpose(idx, perm), axis=nd - 1,
                    batch_dims=nd - 1)
    return tf.transpose(out, inv)


def diff(a, n=1, axis=-1):
    """The ``n``-th discrete difference along ``axis`` (``keras.ops.diff``)."""
    x = tensor(a)
    nd = len(x.shape)
    axis = axis % nd
    for _ in range(n):
        hi = [slice(None)] * nd
        lo = [slice(None)] * nd
        hi[axis] = slice(1, None)
        lo[axis] = slice(None, -1)
        x = x[tuple(hi)] - x[tuple(lo)]
    return x


def sort(x, axis=-1):
    """``x`` sorted ascending along ``axis`` (``keras.ops.sort``)."""
    x = tensor(x)
    if axis is None:
        return tf.sort(tf.reshape(x, [-1]))
    return tf.sort(x, axis=axis)


def argsort(x, axis=-1):
    """The indices that sort ``x`` along ``axis`` (None: flattened); int32
    (``keras.ops.argsort``)."""
    x = tensor(x)
    if axis is None:
        x = tf.reshape(x, [-1])
        axis = 0
    if dt(x) == "bool":
        x = cast(x, "int32")
    return cast(tf.argsort(x, axis=axis, stable=True), "int32")


def argpartition(x, kth, axis=-1):
    """Indices that put the ``kth`` entry in its sorted place along ``axis``, smaller ones
    before it (``keras.ops.argpartition``); this binding returns a full argsort, which is one
    such partition."""
    return argsort(x, axis)


def unique(x, sorted=True, return_inverse=False, return_counts=False, axis=None,  # noqa: A002
           size=None, fill_value=None):
    """The distinct values of ``x`` (flattened), sorted (``keras.ops.unique``).

    Returns:
        The values, and with ``return_inverse`` / ``return_counts`` a tuple adding the
        index of each input entry in the values and the count of each value.
    """
    flat = tf.reshape(tensor(x), [-1])
    s = tf.sort(flat)
    n = int(s.shape[0])
    if n == 0:
        vals = s
    else:
        first = tf.concat([tf.ones([1], tf.bool), tf.not_equal(s[1:], s[:-1])], 0)
        vals = tf.boolean_mask(s, first)
    out = [vals]
    if return_inverse:
        inv = tf.searchsorted(vals, flat, side="left") if hasattr(tf, "searchsorted") else \
            _searchsorted(vals, flat, "left")
        out.append(cast(tf.reshape(inv, tf.shape(tensor(x))), "int32"))
    if return_counts:
        eq = cast(tf.equal(tf.expand_dims(vals, 1), tf.expand_dims(flat, 0)), "int32")
        out.append(tf.reduce_sum(eq, axis=1))
    return out[0] if len(out) == 1 else tuple(out)


def _searchsorted(seq, values, side):
    seq = tensor(seq)
    v = tensor(values)
    cmp = tf.less_equal if side == "right" else tf.less
    hits = cmp(tf.expand_dims(seq, 0), tf.expand_dims(tf.reshape(v, [-1]), 1))
    count = tf.reduce_sum(cast(hits, "int32"), axis=1)
    return tf.reshape(count, tf.shape(v))


def searchsorted(sorted_sequence, values, side="left"):
    """Where ``values`` go in the sorted 1-D ``sorted_sequence`` to keep it sorted; int32
    (``keras.ops.searchsorted``).

    Raises:
        ValueError: for a ``sorted_sequence`` that is not 1-D, or another ``side``.
    """
    if side not in ("left", "right"):
        raise ValueError(f"`side` must be 'left' or 'right'. Received: side={side}")
    seq = tensor(sorted_sequence)
    if len(seq.shape) != 1:
        raise ValueError("`searchsorted` only supports 1-D sorted sequences.")
    a, b, _ = promote(seq, values)
    return _searchsorted(a, b, side)


def digitize(x, bins):
    """The index of the bin each entry of ``x`` falls in (``keras.ops.digitize``); int32."""
    x = tensor(x)
    bins_t = tensor(bins)
    a, b, _ = promote(x, bins_t)
    return _searchsorted(b, a, "right")


def bincount(x, weights=None, minlength=0, sparse=False):
    """How often each non-negative int occurs in ``x`` (weighted) (``keras.ops.bincount``).

    Returns:
        A 1-D tensor of length ``max(max(x) + 1, minlength)``: int32, or ``weights``' dtype.
    """
    x = cast(x, "int32")
    return tf.math.bincount(x, weights=None if weights is None else tensor(weights),
                            minlength=minlength or None,
                            dtype=tf.int32 if weights is None else tensor(weights).dtype)


def histogram(x, bins=10, range=None):  # noqa: A002 - Keras's name
    """Counts of ``x`` in ``bins`` equal bins over ``range`` (``keras.ops.histogram``).

    Returns:
        (counts as int32, bin edges as ``x``'s float dtype).
    """
    x = tf.reshape(tensor(x), [-1])
    lo, hi = (tf.reduce_min(x), tf.reduce_max(x)) if range is None else \
        (cast(range[0], dt(x)), cast(range[1], dt(x)))
    edges = linspace(lo, hi, bins + 1, dtype=dt(x))
    idx = cast(tf.math.floor((x - lo) / (hi - lo) * tf.cast(bins, x.dtype)), "int32")
    idx = tf.minimum(idx, bins - 1)
    ok = tf.logical_and(x >= lo, x <= hi)
    counts = tf.reduce_sum(cast(tf.logical_and(tf.equal(tf.expand_dims(idx, 1),
                                                         tf.range(bins)),
                                                tf.expand_dims(ok, 1)), "int32"), axis=0)
    return cast(counts, dt(x)), edges


# ----------------------------------------------------------------------------- matrices


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum along a diagonal (``keras.ops.trace``); int8/int16/bool sum in int32."""
    x = tensor(x)
    d = dt(x)
    if d in ("bool", "int8", "int16"):
        x = cast(x, "int32")
    elif d in ("uint8", "uint16"):
        x = cast(x, "uint32")
    return tf.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal ``offset`` of the planes ``(axis1, axis2)``, moved last
    (``keras.ops.diagonal``)."""
    x = tensor(x)
    x = moveaxis(x, [axis1, axis2], [-2, -1])
    if offset > 0:
        x = x[..., :, offset:]
    elif offset < 0:
        x = x[..., -offset:, :]
    return tf.linalg.diag_part(x)


def diag(x, k=0):
    """A 1-D ``x`` as a matrix with it on diagonal ``k``, or a 2-D ``x``'s diagonal ``k``
    (``keras.ops.diag``)."""
    x = tensor(x)
    if len(x.shape) == 1:
        n = x.shape[0] + builtins.abs(k)
        m = tf.linalg.diag(x)
        lo, hi = (k, 0) if k > 0 else (0, -k)
        return tf.pad(m, [[hi, lo], [lo, hi]])[:n, :n] if k else m
    if len(x.shape) == 2:
        return diagonal(x, k)
    raise ValueError(f"`x` must be 1-D or 2-D. Received: x.shape={x.shape}")


def diagflat(x, k=0):
    """``diag`` of the flattened ``x`` (``keras.ops.diagflat``)."""
    return diag(tf.reshape(tensor(x), [-1]), k)


def _band(x, k, lower):
    x = tensor(x)
    n, m = x.shape[-2], x.shape[-1]
    mask = np.tri(n, m, k, dtype=bool)
    if not lower:
        mask = ~np.tri(n, m, k - 1, dtype=bool)
    return tf.where(tf.constant(mask), x, tf.zeros_like(x))


def tril(x, k=0):
    """``x`` with entries above diagonal ``k`` zeroed (``keras.ops.tril``)."""
    return _band(x, k, True)


def triu(x, k=0):
    """``x`` with entries below diagonal ``k`` zeroed (``keras.ops.triu``)."""
    return _band(x, k, False)


def vander(x, N=None, increasing=False):  # noqa: N803 - Keras's name
    """The Vandermonde matrix of a 1-D ``x`` (``keras.ops.vander``).

    Raises:
        ValueError: for ``x`` not 1-D or ``N`` negative.
    """
    x = tensor(x)
    if len(x.shape) != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: x.shape={x.shape}")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise ValueError("N must be nonnegative.")
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    d = dt(x)
    if d == "bool":
        x = cast(x, "int32")
    return tf.pow(tf.expand_dims(x, 1), cast(tf.constant(powers), dt(x)))


def matmul(x1, x2):
    """The matrix product, NumPy's rules for 1-D operands (``keras.ops.matmul``).

    Returns:
        ``result_type(x1.dtype, x2.dtype)`` (int8 x int8 gives int32).

    Raises:
        tf.errors.InvalidArgumentError: for inner dimensions that differ.
    """
    a, b = tensor(x1), tensor(x2)
    d = result_type(dt(a), dt(b))
    if dt(a) == "int8" and dt(b) == "int8":
        d = "int32"
    a, b = cast(a, d), cast(b, d)
    if len(a.shape) == 1 and len(b.shape) == 1:
        return tf.reduce_sum(a * b)
    if len(a.shape) == 1:
        return tf.squeeze(tf.matmul(tf.expand_dims(a, 0), b), -2)
    if len(b.shape) == 1:
        return tf.squeeze(tf.matmul(a, tf.expand_dims(b, 1)), -1)
    return tf.matmul(a, b)


def dot(x1, x2):
    """The dot product: products for scalars, ``matmul`` for 1-D/2-D, sum over ``x1``'s last
    and ``x2``'s second-to-last axis beyond (``keras.ops.dot``)."""
    a, b, d = promote(tensor(x1) if not isinstance(x1, (int, float)) else x1,
                      tensor(x2) if not isinstance(x2, (int, float)) else x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    if len(b.shape) <= 2:
        return matmul(a, b)
    return tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 2]])


def inner(x1, x2):
    """The sum over the last axes of ``x1`` and ``x2`` (``keras.ops.inner``)."""
    a, b, _ = promote(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 1]])


def outer(x1, x2):
    """The outer product of the flattened inputs (``keras.ops.outer``)."""
    a, b, _ = promote(x1, x2)
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1])


def vdot(x1, x2):
    """The dot product of the flattened inputs, ``x1`` conjugated (``keras.ops.vdot``)."""
    a, b, _ = promote(x1, x2)
    return tf.reduce_sum(tf.math.conj(tf.reshape(a, [-1])) * tf.reshape(b, [-1]))


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors taken with z = 0) (``keras.ops.cross``)."""
    a, b, _ = promote(x1, x2)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, axisa, -1)
    b = moveaxis(b, axisb, -1)
    if a.shape[-1] == 2:
        a = tf.concat([a, tf.zeros_like(a[..., :1])], -1)
    if b.shape[-1] == 2:
        b = tf.concat([b, tf.zeros_like(b[..., :1])], -1)
    c = tf.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                  a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                  a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], -1)
    return moveaxis(c, -1, axisc)


def kron(x1, x2):
    """The Kronecker product (``keras.ops.kron``)."""
    a, b, _ = promote(x1, x2)
    nd = builtins.max(len(a.shape), len(b.shape))
    a = tf.reshape(a, [1] * (nd - len(a.shape)) + a.shape.as_list())
    b = tf.reshape(b, [1] * (nd - len(b.shape)) + b.shape.as_list())
    ea, eb = [], []
    for i in range(nd):
        ea += [a.shape[i], 1]
        eb += [1, b.shape[i]]
    out = tf.reshape(a, ea) * tf.reshape(b, eb)
    return tf.reshape(out, [a.shape[i] * b.shape[i] for i in range(nd)])


def tensordot(x1, x2, axes=2):
    """The sum of products over ``axes`` (an int, or two lists of axes)
    (``keras.ops.tensordot``)."""
    a, b, _ = promote(x1, x2)
    return tf.tensordot(a, b, axes)


def einsum(subscripts, *operands, **kwargs):
    """Einstein summation over ``operands`` by ``subscripts`` (``keras.ops.einsum``);
    promoted dtype (int8 operands give int32)."""
    xs = [tensor(x) for x in operands]
    d = result_type(*[dt(x) for x in xs])
    if builtins.all(dt(x) == "int8" for x in xs):
        d = "int32"
    return tf.einsum(subscripts, *[cast(x, d) for x in xs])


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D tensors (``keras.ops.meshgrid``).

    Raises:
        ValueError: for ``indexing`` other than "xy" or "ij".
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'. "
                         f"Received: indexing={indexing}")
    return list(tf.meshgrid(*[tensor(v) for v in x], indexing=indexing))


def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each entry of ``x1`` occurs in ``x2`` (``keras.ops.isin``)."""
    a, b, _ = promote(x1, x2)
    hit = tf.reduce_any(tf.equal(tf.expand_dims(a, -1), tf.reshape(b, [-1])), axis=-1)
    return tf.logical_not(hit) if invert else hit


def select(condlist, choicelist, default=0):
    """The entry of the first true condition's choice, else ``default``
    (``keras.ops.select``).

    Raises:
        ValueError: for lists of different lengths or empty lists.
    """
    if len(condlist) != len(choicelist):
        raise ValueError("condlist and choicelist must have the same length.")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible.")
    choices = [tensor(c) for c in choicelist]
    d = result_type(*[dt(c) for c in choices], dtype_of(default))
    out = cast(default, d)
    for c, v in reversed(list(zip(condlist, choices))):
        c = cast(c, "bool")
        v = cast(v, d)
        shape = tf.shape(tf.zeros_like(cast(c, "int8")) + tf.zeros_like(cast(v, "int8"))
                         + tf.zeros_like(cast(out, "int8")))
        out = tf.where(tf.broadcast_to(c, shape), tf.broadcast_to(v, shape),
                       tf.broadcast_to(out, shape))
    return out


def nonzero(x):
    """The indices of the non-zero entries, one int32 tensor per axis
    (``keras.ops.nonzero``)."""
    x = tensor(x)
    idx = tf.where(tf.not_equal(x, tf.zeros_like(x)))
    return tuple(cast(idx[:, i], "int32") for i in range(len(x.shape)))


def size(x):
    """The number of entries of ``x`` (``keras.ops.size``); an int32 scalar tensor."""
    return tf.size(tensor(x))


def ndim(x):
    """The rank of ``x`` (``keras.ops.ndim``), a Python int."""
    return len(tensor(x).shape)


def shape_of(x):
    return tuple(tensor(x).shape.as_list())


def corrcoef(x):
    """Pearson correlation coefficients of the rows of ``x`` (``keras.ops.corrcoef``)."""
    x = float_of(x)
    if len(x.shape) == 1:
        x = tf.expand_dims(x, 0)
    xc = x - tf.reduce_mean(x, axis=1, keepdims=True)
    cov = tf.matmul(xc, xc, transpose_b=True)
    dvec = tf.sqrt(tf.linalg.diag_part(cov))
    return cov / (tf.expand_dims(dvec, 1) * tf.expand_dims(dvec, 0))


def correlate(x1, x2, mode="valid"):
    """The cross-correlation of two 1-D tensors (``keras.ops.correlate``).

    Args:
        mode: "valid", "same" or "full".

    Raises:
        ValueError: for another ``mode``.
    """
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"`mode` must be 'valid', 'same' or 'full'. Received: {mode}")
    a, b, d = promote(x1, x2, extra=(float,))
    if d == "int64":
        a, b = cast(a, "float64"), cast(b, "float64")
    n, m = a.shape[0], b.shape[0]
    if mode == "full":
        a = tf.pad(a, [[m - 1, m - 1]])
    elif mode == "same":
        a = tf.pad(a, [[(m - 1) // 2, m - 1 - (m - 1) // 2]])
    length = a.shape[0] - m + 1
    rows = tf.stack([a[i:i + m] for i in range(length)])
    out = tf.reduce_sum(rows * tf.math.conj(b), axis=1)
    del n
    return out


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of ``y`` by the trapezoidal rule along ``axis``
    (``keras.ops.trapezoid``)."""
    y = float_of(y)
    nd = len(y.shape)
    axis = axis % nd
    hi = [slice(None)] * nd
    lo = [slice(None)] * nd
    hi[axis] = slice(1, None)
    lo[axis] = slice(None, -1)
    avg = (y[tuple(hi)] + y[tuple(lo)]) / tf.cast(2.0, y.dtype)
    if x is None:
        return tf.reduce_sum(avg, axis=axis) * tf.cast(dx, y.dtype)
    xd = diff(cast(x, dt(y)), axis=axis if len(tensor(x).shape) > 1 else 0)
    if len(xd.shape) == 1 and nd > 1:
        shape = [1] * nd
        shape[axis] = -1
        xd = tf.reshape(xd, shape)
    return tf.reduce_sum(avg * xd, axis=axis)


def unravel_index(indices, shape):
    """The coordinates of flat ``indices`` in an array of ``shape``
    (``keras.ops.unravel_index``); a tuple of tensors of ``indices``' dtype."""
    idx = tensor(indices)
    out = []
    for dim in reversed(list(shape)):
        out.append(tf.math.floormod(idx, cast(dim, dt(idx))))
        idx = tf.math.floordiv(idx, cast(dim, dt(idx)))
    return tuple(reversed(out))


def get_item(x, key):
    """``x[key]`` (``keras.ops.get_item``)."""
    return tensor(x)[key]


def view(x, dtype=None):
    """``x``'s bytes read as ``dtype`` (``keras.ops.view``); not differentiable."""
    x = tensor(x)
    if dtype is None:
        return x
    arr = np.asarray(x).view(standardize_dtype(dtype))
    return tf.constant(arr)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` mapped over the leading axis of its tensor arguments
    (``keras.ops.vectorize``); scalar functions are mapped element by element."""
    def run(*args):
        ts = [tensor(a) for a in args]
        shape = tf.shape(ts[0])
        flat = [tf.reshape(t, [-1]) for t in ts]
        out = tf.map_fn(lambda row: pyfunc(*row), tuple(flat),
                        fn_output_signature=flat[0].dtype)
        return tf.reshape(out, shape)
    return run


del math


def slogdet(x):
    """The sign and log of the absolute determinant (``keras.ops.slogdet``)."""
    s, ld = tf.linalg.slogdet(float_of(x))
    return s, ld
