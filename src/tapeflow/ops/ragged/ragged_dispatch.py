"""The ops TensorFlow dispatches for RaggedTensor (``ragged_dispatch.py``): element-wise
ops with ragged broadcasting, and ``tile``, ``expand_dims``, ``gather``, ``boolean_mask``,
``where``, ``stack``, ``reverse``, ``ones_like``/``zeros_like``, ``shape``, ``size``,
``rank``, ``map_fn``, ``nn.embedding_lookup`` and ``strings.join`` on ragged input.

The ops find these through ``composite_dispatch`` (registered at the bottom). Element-wise
work runs on the flat values with the ordinary ops, so gradients flow to the values; the row
partitions are bookkeeping in NumPy.
"""
from ..._core import dtypes as _dt
from ..._core import errors
from ..._core.backend import np
from ..._core.tensor import Tensor, _TensorLike, convert_to_tensor, traced_shape
from .. import array_ops as _a
from .. import composite_dispatch as _composite
from .. import indexing_ops as _ix
from .dynamic_ragged_shape import DynamicRaggedShape
from .ragged_tensor import RaggedTensor, _positions, _read

__all__ = ["binary", "unary"]


def _assert_equal_text(x, y):
    """TensorFlow's ``assert_equal`` message for two int vectors (3 elements summarized)."""
    n = min(len(x), len(y))
    diff = np.flatnonzero(x[:n] != y[:n])[:3]   # TensorFlow's summarize=3
    return ("Condition x == y did not hold.\n"
            f"Indices of first {len(diff)} different values:\n{diff.reshape(-1, 1)}\n"
            f"Corresponding x values:\n{x[diff]}\nCorresponding y values:\n{y[diff]}\n"
            f"First 3 elements of x:\n{x[:3]}\nFirst 3 elements of y:\n{y[:3]}")


def _splits_mismatch(x, y):
    return errors.InvalidArgumentError(None, None, _assert_equal_text(
        np.asarray(x, np.int64), np.asarray(y, np.int64)))


def _as_dense(d, dtype):
    if isinstance(d, _TensorLike):
        return d if type(d) is Tensor else d._read()
    try:
        return convert_to_tensor(d, dtype=dtype)
    except (TypeError, ValueError):
        return convert_to_tensor(d)


def _dense_for(rt, d):
    """Dense ``d`` broadcast to ``rt``'s flat values (TensorFlow's ragged broadcasting): its
    dimensions up to the ragged rank picked per value, the rest left to NumPy broadcasting.
    """
    flat = rt.flat_values
    inner = flat._value.ndim - 1
    if d._value.ndim <= inner:
        return d
    R = rt.ragged_rank
    rank = R + 1 + inner
    if d._value.ndim > rank:
        raise ValueError(f"Unable to broadcast: dimension size mismatch in dimension "
                         f"{d._value.ndim - rank}. lengths={list(d._value.shape)}")
    dshape = (1,) * (rank - d._value.ndim) + tuple(d._value.shape)
    lead = dshape[:R + 1]
    pos = _positions(rt)
    splits = [s._value for s in rt.nested_row_splits]
    nrows = len(splits[0]) - 1
    flat_idx = np.zeros(flat._value.shape[0], np.int64)
    for k, size in enumerate(lead):
        if size != 1:
            if k == 0:
                if size != nrows:
                    raise errors.static_shape(errors.InvalidArgumentError(
                        None, None, f"Incompatible shapes: [{nrows}] vs. [{size}]"))
            else:
                s = splits[k - 1]
                if np.any(np.diff(s) != size):
                    uniform = np.arange(len(s), dtype=np.int64) * size
                    raise _splits_mismatch(uniform, s)
            flat_idx = flat_idx * size + pos[k]
        else:
            flat_idx = flat_idx * 1
    d2 = _a.reshape(d, [int(np.prod(lead))] + list(dshape[R + 1:]))
    return _ix.gather(d2, Tensor(flat_idx))


def binary(op, x, y):
    """``op(x, y)`` with a RaggedTensor operand: equal partitions combine value by value; a
    dense or Python operand broadcasts into the ragged one (TensorFlow's rules); different
    partitions raise TensorFlow's ``assert_equal`` error."""
    rx, ry = isinstance(x, RaggedTensor), isinstance(y, RaggedTensor)
    if rx and ry:
        sx, sy = x.nested_row_splits, y.nested_row_splits
        if len(sx) != len(sy):
            # one ragged rank deeper: the shallower one broadcasts as a dense-inner operand
            deep, shallow = (x, y) if len(sx) > len(sy) else (y, x)
            if not np.array_equal(deep.row_splits._value, shallow.row_splits._value):
                raise _splits_mismatch(sx[0]._value, sy[0]._value)
            out = binary(op, deep.values, shallow.values) if deep is x else \
                binary(op, shallow.values, deep.values)
            return deep.with_values(out)
        for a, b in zip(sx, sy):
            if a._value.shape != b._value.shape or not np.array_equal(a._value, b._value):
                raise _splits_mismatch(a._value, b._value)
        return x.with_flat_values(op(x.flat_values, y.flat_values))
    if rx:
        d = _dense_for(x, _as_dense(y, x.dtype))
        return x.with_flat_values(op(x.flat_values, d))
    d = _dense_for(y, _as_dense(x, y.dtype))
    return y.with_flat_values(op(d, y.flat_values))


def unary(op, x, *args, **kwargs):
    """``op`` on the flat values; the partition kept."""
    return x.with_flat_values(op(x.flat_values, *args, **kwargs))


# ---------------------------------------------------------------------- array ops


def _ragged(v):
    if isinstance(v, RaggedTensor):
        return v
    from .ragged_tensor import constant
    if isinstance(v, _TensorLike):
        return RaggedTensor.from_tensor(v)
    return constant(v)


def _norm_axis(axis, rank):
    axis = int(axis._value) if isinstance(axis, _TensorLike) else int(axis)
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    return axis + rank if axis < 0 else axis


def tile(input, multiples, name=None):  # noqa: A002 - TensorFlow's name
    """``tf.tile`` of a RaggedTensor: every row repeated along each dimension."""
    m = [int(v) for v in np.asarray(_read(multiples)).reshape(-1)]
    if len(m) != input.shape.rank:
        raise ValueError(f"Shape must be rank {input.shape.rank} but is rank {len(m)}")
    return _tile(input, m)


def _tile(rt, m):
    s = rt.row_splits._value
    values = rt.values
    if isinstance(values, RaggedTensor):
        values = _tile(values, [1] + m[2:])
        # (tiling the inner dims keeps this level's splits: repeat rows of this level)
    elif any(k != 1 for k in m[2:]):
        values = _a.tile(values, [1] + m[2:])
    idx = np.concatenate([np.tile(np.arange(a, b), m[1]) for a, b in zip(s[:-1], s[1:])] +
                         [np.zeros(0, np.int64)]).astype(np.int64)
    lens = np.diff(s) * m[1]
    idx = np.tile(idx, m[0])
    lens = np.tile(lens, m[0])
    out = RaggedTensor.from_row_lengths(_ix.gather(values, Tensor(idx)),
                                        Tensor(lens.astype(s.dtype)))
    if rt._uniform is not None:
        out._uniform = rt._uniform * m[1]
    return out


def expand_dims(input, axis, name=None):  # noqa: A002 - TensorFlow's name
    """``tf.expand_dims`` of a RaggedTensor: a new dimension of size 1 at ``axis``."""
    rank = input.shape.rank
    axis = _norm_axis(axis, rank + 1)
    if axis == 0:
        return RaggedTensor.from_uniform_row_length(input, int(input.nrows()._value), nrows=1)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(input, 1)
    if isinstance(input.values, RaggedTensor):
        return input.with_values(expand_dims(input.values, axis - 1))
    return input.with_values(_a.expand_dims(input.values, axis - 1))


def ones_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    return input.with_flat_values(_a.ones_like(input.flat_values, dtype=dtype))


def zeros_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's name
    return input.with_flat_values(_a.zeros_like(input.flat_values, dtype=dtype))


def shape(input, out_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's name
    """``tf.shape`` of a RaggedTensor: a ``DynamicRaggedShape``."""
    return DynamicRaggedShape.from_tensor(input, dtype=out_type)


def size(input, out_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's name
    n = int(np.prod(input.flat_values._value.shape))
    return Tensor(_dt.as_dtype(out_type)._np.type(n))


def rank(input, name=None):  # noqa: A002 - TensorFlow's name
    return Tensor(np.int32(input.shape.rank))


def reverse(tensor, axis, name=None):
    """``tf.reverse`` of a RaggedTensor along the given axes (a ragged axis per row)."""
    rt = tensor
    axes = [_norm_axis(a, rt.shape.rank) for a in np.asarray(
        axis._value if isinstance(axis, _TensorLike) else axis).reshape(-1)]
    for ax in sorted(axes):
        rt = _reverse(rt, ax)
    return rt


def _reverse(rt, axis):
    s = rt.row_splits._value
    if axis == 0:
        idx = np.concatenate([np.arange(a, b) for a, b in zip(s[:-1][::-1], s[1:][::-1])] +
                             [np.zeros(0, np.int64)]).astype(np.int64)
        out = RaggedTensor.from_row_lengths(_ix.gather(rt.values, Tensor(idx)),
                                            Tensor(np.diff(s)[::-1].copy()))
    elif axis == 1:
        idx = np.concatenate([np.arange(a, b)[::-1] for a, b in zip(s[:-1], s[1:])] +
                             [np.zeros(0, np.int64)]).astype(np.int64)
        out = rt.with_values(_ix.gather(rt.values, Tensor(idx)))
    elif isinstance(rt.values, RaggedTensor):
        out = rt.with_values(_reverse(rt.values, axis - 1))
    else:
        from .. import manip_ops
        out = rt.with_values(manip_ops.reverse(rt.values, [axis - 1]))
    out._uniform = rt._uniform
    return out


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """``tf.gather`` with ragged ``params`` (rows picked) or ragged ``indices`` (the result
    ragged as ``indices``)."""
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(gather(params, indices.flat_values))
    if axis not in (None, 0) or batch_dims:
        raise NotImplementedError("gather of a RaggedTensor along axis 0 only")
    idx = indices if isinstance(indices, _TensorLike) else convert_to_tensor(indices)
    if not isinstance(params, RaggedTensor):
        return _ix.gather(params, idx)
    v = np.asarray(_read(idx)).astype(np.int64)
    n = int(params.nrows()._value)
    bad = (v < 0) | (v >= n)
    if np.any(bad):
        k = int(np.flatnonzero(bad.reshape(-1))[0])
        rr = params.ragged_rank
        raise errors.InvalidArgumentError(
            None, None, f"{{{{function_node __wrapped__RaggedGather_OUTPUT_RAGGED_RANK_"
            f"{rr + v.ndim - 1}_PARAMS_RAGGED_RANK_{rr}_device_/job:localhost/replica:0/task:0/"
            f"device:CPU:0}}}} indices[{k}] = {int(v.reshape(-1)[k])} is not in [0, {n}) "
            "[Op:RaggedGather] name: ")
    s = params.row_splits._value
    flat = v.reshape(-1)
    rows_idx = np.concatenate([np.arange(s[i], s[i + 1]) for i in flat] +
                              [np.zeros(0, np.int64)]).astype(np.int64)
    out = RaggedTensor.from_row_lengths(_ix.gather(params.values, Tensor(rows_idx)),
                                        Tensor(np.diff(s)[flat].astype(s.dtype)))
    out._uniform = params._uniform
    for d in reversed(v.shape[1:]):
        out = RaggedTensor.from_uniform_row_length(out, int(d))
    return out


def boolean_mask(tensor, mask, axis=None, name=None):
    """A RaggedTensor masked by a ragged mask of the same partition (values kept per row) or
    by a 1-D mask over its rows (``tf.ragged.boolean_mask``)."""
    data = tensor
    if isinstance(mask, RaggedTensor):
        keep = np.asarray(_read(mask.flat_values)).astype(bool)
        if not isinstance(data, RaggedTensor):
            data = RaggedTensor.from_tensor(data)
        if isinstance(data.values, RaggedTensor) and mask.ragged_rank < data.ragged_rank:
            return data.with_values(boolean_mask(data.values, mask.values))
        if mask.ragged_rank > 1:
            return data.with_values(boolean_mask(data.values, mask.values))
        ids = data.value_rowids()._value
        lens = np.bincount(ids[keep], minlength=int(data.nrows()._value))
        return RaggedTensor.from_row_lengths(
            _ix.boolean_mask(data.values, Tensor(keep)),
            Tensor(lens.astype(data.row_splits._value.dtype)))
    m = np.asarray(_read(mask), bool).reshape(-1)
    return gather(data, Tensor(np.flatnonzero(m).astype(np.int64)))


def where(condition, x=None, y=None, name=None):
    """``tf.where`` on ragged input: ``x``/``y`` picked value by value (one partition), or
    the coordinates of the true values."""
    if x is None and y is None:
        from ..array_ops import where as _where
        return _where(condition.to_tensor(default_value=False)) if isinstance(
            condition, RaggedTensor) else _where(condition)
    from ..array_ops import where as _where
    c = condition if isinstance(condition, RaggedTensor) else None
    ref = c if c is not None else (x if isinstance(x, RaggedTensor) else y)
    parts = []
    for v in (condition, x, y):
        if isinstance(v, RaggedTensor):
            if not np.array_equal(v.row_splits._value, ref.row_splits._value):
                raise _splits_mismatch(ref.row_splits._value, v.row_splits._value)
            parts.append(v.flat_values)
        else:
            parts.append(_dense_for(ref, _as_dense(v, None)))
    return ref.with_flat_values(_where(*parts))


def stack(values, axis=0, name=None):
    """``tf.stack`` of RaggedTensors (and dense ones, as ragged) along ``axis``."""
    from .ragged_math_ops import concat
    dense = [_as_dense(v, None) for v in values if not isinstance(v, RaggedTensor)]
    if len(dense) == len(values) and dense and all(d._value.ndim == 1 for d in dense) and \
            int(axis) == 0:   # 1-D tensors of different lengths: each one a row
        return RaggedTensor.from_row_lengths(
            _a.concat(dense, 0), Tensor(np.array([d._value.shape[0] for d in dense],
                                                 np.int64)))
    rts = [_ragged(v) for v in values]
    rank = rts[0].shape.rank
    axis = _norm_axis(axis, rank + 1)
    if axis == 0:
        joined = concat(rts, 0)
        lens = np.array([int(r.nrows()._value) for r in rts], np.int64)
        return RaggedTensor.from_row_lengths(joined, Tensor(lens))
    return concat([expand_dims(r, axis) for r in rts], axis)


def embedding_lookup(params, ids, max_norm=None, name=None):
    """``tf.nn.embedding_lookup`` with ragged ``ids``: each id's row, ragged as ``ids``."""
    from .. import nn_ops
    return ids.with_flat_values(nn_ops.embedding_lookup(params, ids.flat_values,
                                                        max_norm=max_norm))


def string_join(join, inputs, separator=""):
    """``tf.strings.join`` (``join``, its dense version) with ragged inputs of one partition
    (dense ones broadcast)."""
    ref = next(v for v in inputs if isinstance(v, RaggedTensor))
    parts = []
    for v in inputs:
        if isinstance(v, RaggedTensor):
            if not np.array_equal(v.row_splits._value, ref.row_splits._value):
                raise _splits_mismatch(ref.row_splits._value, v.row_splits._value)
            parts.append(v.flat_values)
        else:
            parts.append(_dense_for(ref, _as_dense(v, _dt.string)))
    return ref.with_flat_values(join(parts, separator=separator))


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True,
           swap_memory=False, infer_shape=True, name=None, fn_output_signature=None):
    """``tf.map_fn`` over the rows of a RaggedTensor (or a structure holding one): ``fn``
    sees each row; its outputs are stacked densely, or as a RaggedTensor when
    ``fn_output_signature`` is a ``RaggedTensorSpec`` (the default for ragged ``elems``)."""
    from ..._core import nest
    sig = fn_output_signature if fn_output_signature is not None else dtype
    flat = nest.flatten(elems)
    n = int(flat[0].nrows()._value) if isinstance(flat[0], RaggedTensor) else \
        int(traced_shape(flat[0])[0])
    outs = []
    for i in range(n):
        row = nest.pack_sequence_as(elems, [e[i] for e in flat])
        outs.append(fn(row))
    ragged_out = sig is None or _is_ragged_spec(sig)
    if not outs:
        return RaggedTensor.from_row_lengths(Tensor(np.zeros(0, np.float32)),
                                             Tensor(np.zeros(0, np.int64)))
    if ragged_out:
        return stack(outs, 0) if isinstance(outs[0], RaggedTensor) else _stack_rows(outs)
    want = getattr(sig, "dtype", None) or sig
    from ..array_ops import stack as _stack
    return _stack([o if not isinstance(o, RaggedTensor) else o.to_tensor() for o in outs], 0) \
        if want is None else _stack([_as_dense(o, _dt.as_dtype(want)) for o in outs], 0)


def _is_ragged_spec(sig):
    return hasattr(sig, "ragged_rank") and hasattr(sig, "row_splits_dtype")


def _stack_rows(outs):
    from ..array_ops import concat as _concat
    from ..array_ops import reshape as _reshape
    dense = [o if isinstance(o, _TensorLike) else convert_to_tensor(o) for o in outs]
    lens = np.array([t._value.shape[0] if t._value.ndim else 1 for t in dense], np.int64)
    values = _concat([t if t._value.ndim else _reshape(t, [1]) for t in dense], 0)
    return RaggedTensor.from_row_lengths(values, Tensor(lens))


def add_n(inputs, name=None):
    """``tf.math.add_n`` of RaggedTensors of one partition (dense ones broadcast)."""
    from .. import math_ops
    total = inputs[0]
    for t in inputs[1:]:
        total = math_ops.add(total, t)
    return total


def dynamic_partition(data, partitions, num_partitions, name=None):
    """``tf.dynamic_partition`` of a RaggedTensor's rows: partition ``p`` gets the rows
    whose ``partitions`` entry is ``p``, in order."""
    p = np.asarray(_read(_as_dense(partitions, None))).reshape(-1)
    return [gather(data, Tensor(np.flatnonzero(p == k).astype(np.int64)))
            for k in range(int(num_partitions))]


def squeeze(input, axis=None, name=None):  # noqa: A002 - TensorFlow's name
    """``tf.squeeze`` of a RaggedTensor: only the given dimensions, each of size 1 and not
    ragged.

    Raises:
        ValueError: without ``axis``, or for a ragged dimension.
    """
    if axis is None:
        raise ValueError("Ragged.squeeze must have an axis argument.")
    rank = input.shape.rank
    axes = sorted({_norm_axis(a, rank) for a in (axis if isinstance(axis, (list, tuple))
                                                 else [axis])}, reverse=True)
    rt = input
    for ax in axes:
        rt = _squeeze(rt, ax)
    return rt


def _squeeze(rt, axis):
    if not isinstance(rt, RaggedTensor):
        return _a.squeeze(rt, [axis])
    if axis == 0:
        if int(rt.nrows()._value) != 1 or rt._uniform is None:
            raise ValueError("Can not squeeze a ragged dimension (axis 0)")
        return rt.values
    if axis == 1:
        if rt._uniform != 1:
            raise ValueError(f"Can not squeeze a ragged dimension (axis {axis})")
        return RaggedTensor.from_row_splits(rt.values.values, rt.values.row_splits,
                                            validate=False) if isinstance(
            rt.values, RaggedTensor) else rt.values
    return rt.with_values(_squeeze(rt.values, axis - 1))


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """``tf.math.cumsum`` of a RaggedTensor along a ragged axis (within each row) or an inner
    uniform one (differentiable: a cumulative sum of the flat values less each row's start).
    """
    from .. import reduction_ops
    axis = _norm_axis(axis, x.shape.rank)
    if axis == 0:
        raise ValueError("cumsum of a RaggedTensor along axis 0 is not supported")
    if axis > 1:
        inner = cumsum(x.values, axis - 1, exclusive, reverse) if isinstance(
            x.values, RaggedTensor) else reduction_ops.cumsum(x.values, axis - 1, exclusive,
                                                              reverse)
        return x.with_values(inner)
    v = x.values
    if isinstance(v, RaggedTensor):
        raise ValueError("cumsum of a RaggedTensor along an outer ragged axis is not supported")
    total = reduction_ops.cumsum(v, 0, exclusive, reverse)
    s = x.row_splits._value
    # the part of the running sum that belongs to earlier rows, per value
    if reverse:
        full = reduction_ops.cumsum(v, 0, False, True)
        after = _a.concat([full, _a.zeros_like(full[:1])], 0)
        base = _ix.gather(after, Tensor(s[1:][x.value_rowids()._value].astype(np.int64)))
    else:
        full = reduction_ops.cumsum(v, 0)
        before = _a.concat([_a.zeros_like(full[:1]), full], 0)
        base = _ix.gather(before, Tensor(s[:-1][x.value_rowids()._value].astype(np.int64)))
    from .. import math_ops
    return x.with_values(math_ops.subtract(total, base))


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_dt.int32, name=None,
             axis=None, binary_output=False):
    """``tf.math.bincount`` of a RaggedTensor: its values counted (weights ragged alike)."""
    from .. import bincount_ops
    w = weights.flat_values if isinstance(weights, RaggedTensor) else weights
    return bincount_ops.bincount(arr.flat_values, w, minlength, maxlength, dtype)


def gather_nd(params, indices, batch_dims=0, name=None):
    """``tf.gather_nd`` of a RaggedTensor: each index row picks a value (all dimensions
    given) or a row (fewer), stacked; ragged when the picks are rows."""
    if batch_dims:
        raise NotImplementedError("gather_nd of a RaggedTensor with batch_dims")
    idx = np.asarray(_read(_as_dense(indices, _dt.int64)))
    picks = [params[tuple(int(k) for k in row)] for row in idx.reshape(-1, idx.shape[-1])]
    scalars = all(isinstance(p, _TensorLike) and p._value.ndim == 0 for p in picks)
    out = _a.stack(picks, 0) if scalars else stack(picks, 0)   # values, or rows (ragged)
    for d in reversed(idx.shape[1:-1]):
        out = RaggedTensor.from_uniform_row_length(out, int(d))
    return out


def cross(inputs, name=None):
    """``tf.ragged.cross``: row ``i`` holds every combination of the inputs' row-``i``
    values (in order), joined by ``_X_`` as strings.

    Raises:
        ValueError: for inputs with different numbers of rows.
    """
    rows = []
    for v in inputs:
        if isinstance(v, RaggedTensor):
            rows.append(v.to_list())
        else:
            rows.append(np.asarray(_read(_as_dense(v, None)), object).tolist())
    n = len(rows[0])
    if any(len(r) != n for r in rows):
        raise ValueError("inputs must have the same number of rows")
    import itertools

    def text(x):
        return x if isinstance(x, bytes) else str(x).encode()
    out = [[b"_X_".join(text(x) for x in combo) for combo in itertools.product(*parts)]
           for parts in zip(*rows)]
    flat = [x for r in out for x in r]
    from ..._core.tensor import string_value
    return RaggedTensor.from_row_lengths(
        Tensor(string_value(np.array(flat + [b""], object)[:len(flat)])),
        Tensor(np.array([len(r) for r in out], np.int64)))


def _shaped(shape, flat):
    """``flat`` (the flat values) cut by a DynamicRaggedShape's row partitions."""
    result = flat
    for p in reversed(shape.row_partitions):
        result = RaggedTensor.from_row_splits(result, p.row_splits(), validate=False)
        result._uniform = p.static_uniform_row_length
    return result


def zeros(shape, dtype=_dt.float32, name=None):
    """``tf.zeros`` of a DynamicRaggedShape: a RaggedTensor of zeros."""
    from .. import creation_ops
    return _shaped(shape, creation_ops.zeros(shape.inner_shape, dtype))


def ones(shape, dtype=_dt.float32, name=None):
    """``tf.ones`` of a DynamicRaggedShape: a RaggedTensor of ones."""
    from .. import creation_ops
    return _shaped(shape, creation_ops.ones(shape.inner_shape, dtype))


def fill(dims, value, name=None):
    """``tf.fill`` of a DynamicRaggedShape: a RaggedTensor of ``value``."""
    from .. import creation_ops
    return _shaped(dims, creation_ops.fill(dims.inner_shape, value))


def reshape(tensor, shape, name=None):
    """``tf.reshape`` to a DynamicRaggedShape: the values in row-major order, cut as
    ``shape`` says."""
    flat = _a.reshape(tensor.flat_values if isinstance(tensor, RaggedTensor) else tensor, [-1])
    return _shaped(shape, _a.reshape(flat, shape.inner_shape))


_composite.register(ragged_shape=DynamicRaggedShape)
_composite.register(ragged_ops={
    "zeros": zeros, "ones": ones, "fill": fill, "reshape": reshape, "add_n": add_n,
    "dynamic_partition": dynamic_partition, "squeeze": squeeze, "cumsum": cumsum,
    "bincount": bincount, "gather_nd": gather_nd,
    "tile": tile, "expand_dims": expand_dims, "ones_like": ones_like,
    "zeros_like": zeros_like, "shape": shape, "size": size, "rank": rank, "reverse": reverse,
    "gather": gather, "where": where, "stack": stack,
    "embedding_lookup": embedding_lookup, "map_fn": map_fn},
    elementwise={RaggedTensor: {"unary": unary, "binary": binary}})


def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None,
                 row_splits_dtype=_dt.int64):
    """Row ``i`` is ``range(starts[i], limits[i], deltas[i])`` (``tf.ragged.range``);
    scalars broadcast, one argument means ``range(0, starts[i])``.

    Raises:
        tf.errors.InvalidArgumentError: for a zero delta.
    """
    if limits is None:
        starts, limits = 0, starts
    parts = [_as_dense(v, None if dtype is None else _dt.as_dtype(dtype)) for v in
             (starts, limits, deltas)]
    if dtype is None:
        kinds = [p._value.dtype for p in parts]
        dt = np.result_type(*kinds)
    else:
        dt = _dt.as_dtype(dtype)._np
    a, b, d = np.broadcast_arrays(*[np.asarray(_read(p)) for p in parts])
    if np.any(d == 0):
        raise errors.InvalidArgumentError(None, None, "Requires delta != 0 [Op:RaggedRange]")
    rows = [np.arange(x, y, z, dtype=dt) for x, y, z in zip(a.reshape(-1), b.reshape(-1),
                                                              d.reshape(-1))]
    values = np.concatenate(rows + [np.zeros(0, dt)]).astype(dt)
    lens = np.array([len(r) for r in rows], _dt.as_dtype(row_splits_dtype)._np)
    return RaggedTensor.from_row_lengths(Tensor(values), Tensor(lens))


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row id of each value (``tf.ragged.row_splits_to_segment_ids``)."""
    t = _as_dense(splits, _dt.int64)
    s = np.asarray(_read(t))
    dt = s.dtype if out_type is None else _dt.as_dtype(out_type)._np
    return Tensor(np.repeat(np.arange(len(s) - 1), np.diff(s)).astype(dt))


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits from sorted row ids (``tf.ragged.segment_ids_to_row_splits``)."""
    ids = np.asarray(_read(_as_dense(segment_ids, None)))
    n = int(ids[-1]) + 1 if num_segments is None and ids.size else int(num_segments or 0)
    dt = np.int64 if out_type is None else _dt.as_dtype(out_type)._np
    return Tensor(np.concatenate([[0], np.cumsum(np.bincount(ids, minlength=n))]).astype(dt))


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row ``p`` holds the values of ``data`` whose partition is ``p``, in order
    (``tf.ragged.stack_dynamic_partitions``)."""
    d = _as_dense(data, None)
    p = np.asarray(_read(_as_dense(partitions, None))).reshape(-1)
    order = np.argsort(p, kind="stable")
    lens = np.bincount(p, minlength=int(num_partitions)).astype(np.int64)
    return RaggedTensor.from_row_lengths(_ix.gather(d, Tensor(order.astype(np.int64))),
                                         Tensor(lens))


def ragged_stack(values, axis=0, name=None):
    """``tf.ragged.stack``: ``tf.stack`` whose result is always ragged."""
    return stack(values, axis)


def ragged_boolean_mask(data, mask, name=None):
    """``tf.ragged.boolean_mask``: the values (or rows) where ``mask`` is true, ragged."""
    if not isinstance(data, RaggedTensor) and not isinstance(mask, RaggedTensor):
        d = _as_dense(data, None)
        m = _as_dense(mask, _dt.bool)
        if m._value.ndim == 1:
            return _ix.boolean_mask(d, m)
        data = RaggedTensor.from_tensor(d)
        mask = RaggedTensor.from_tensor(m)
    elif not isinstance(mask, RaggedTensor) and _as_dense(mask, _dt.bool)._value.ndim > 1:
        mask = RaggedTensor.from_tensor(_as_dense(mask, _dt.bool))
    return boolean_mask(data, mask)
