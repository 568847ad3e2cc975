"""Reductions and concatenation of RaggedTensors; ``tf.reduce_*`` and ``tf.concat`` take them.

A reduction over the ragged axis is a segment reduction of the flat values by row id, so
gradients flow to the values as for any segment op. TensorFlow's answers for empty rows are
kept: a sum of nothing is 0, a max the dtype's lowest value, a mean ``nan``.
"""
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import Tensor
from .. import array_ops as _a
from .. import composite_dispatch as _composite
from .. import math_ops as _m
from .. import reduction_ops as _r
from .. import segment_ops as _seg
from .ragged_tensor import RaggedTensor

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
           "reduce_all", "reduce_variance", "concat"]


def _segment(kind, data, ids, n):
    if kind == "sum":
        return _seg.unsorted_segment_sum(data, ids, n)
    if kind == "max":
        return _seg.unsorted_segment_max(data, ids, n)
    if kind == "min":
        return _seg.unsorted_segment_min(data, ids, n)
    raise ValueError(kind)


def _reduce(kind, rt, axis, keepdims):
    if kind in ("any", "all"):   # over 0/1 ints: any is a positive sum, all a minimum of 1
        ints = rt.with_flat_values(_a.cast(rt.flat_values, _dt.int32))
        return _m.greater(_reduce("sum" if kind == "any" else "min", ints, axis, keepdims), 0)
    if kind == "prod" and axis is not None and rt.ragged_rank == 1:
        out = _r.reduce_prod(rt.to_tensor(default_value=1), axis=axis)
        return _a.expand_dims(out, axis) if keepdims else out
    if axis is None:
        flat = rt.flat_values
        return {"sum": _r.reduce_sum, "max": _r.reduce_max, "min": _r.reduce_min,
                "prod": _r.reduce_prod, "mean": _r.reduce_mean}[kind](flat)
    axis = int(axis) % rt.shape.rank
    if axis == 0:
        # Across rows: column j gathers the j-th value of every row that has one.
        splits = rt.row_splits._value
        rows = rt.value_rowids()._value
        cols = np.arange(len(rows)) - splits[:-1][rows] if rows.size else rows
        width = int(np.diff(splits).max()) if len(splits) > 1 else 0
        data, ids, n = rt.values, Tensor(cols.astype(np.int64)), width
    elif axis == 1 and rt.ragged_rank == 1:
        data, ids, n = rt.values, rt.value_rowids(), int(rt.nrows()._value)
    elif axis == 1 and isinstance(rt.values, RaggedTensor):
        # per row: its inner rows reduced across (an axis-0 reduction of each row)
        rows = [_reduce(kind, rt[i], 0, False) for i in range(int(rt.nrows()._value))]
        if rows and isinstance(rows[0], RaggedTensor):
            lens = np.array([int(r.nrows()._value) for r in rows], np.int64)
            out = RaggedTensor.from_row_lengths(concat(rows, 0), Tensor(lens))
        else:
            lens = np.array([r._value.shape[0] for r in rows], np.int64)
            flat = _a.concat(rows, 0) if rows else Tensor(
                np.zeros((0,), rt.dtype._np))
            out = RaggedTensor.from_row_lengths(flat, Tensor(lens))
        return _a.expand_dims(out, axis) if keepdims else out
    elif axis >= 1 and isinstance(rt.values, RaggedTensor):
        return rt.with_values(_reduce(kind, rt.values, axis - 1, keepdims))
    else:
        return rt.with_values({"sum": _r.reduce_sum, "max": _r.reduce_max,
                               "min": _r.reduce_min, "prod": _r.reduce_prod,
                               "mean": _r.reduce_mean}[kind](rt.values, axis=axis - 1))
    if kind == "mean":
        total = _segment("sum", data, ids, n)
        count = np.bincount(ids._value, minlength=n).astype(np.float64)
        if not total.dtype.is_floating:
            total = _a.cast(total, _dt.float64)
        count = Tensor(count.astype(total._value.dtype).reshape(
            (n,) + (1,) * (total._value.ndim - 1)))
        out = _m.divide(total, count)
    else:
        out = _segment(kind, data, ids, n)
    return _a.expand_dims(out, axis) if keepdims else out


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """The sum of a RaggedTensor along ``axis`` (``tf.reduce_sum`` on ragged input)."""
    return _reduce("sum", input_tensor, axis, keepdims)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """The mean along ``axis``; integer input gives float64, as in TensorFlow."""
    return _reduce("mean", input_tensor, axis, keepdims)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """The maximum along ``axis``; an empty row gives the dtype's lowest value."""
    return _reduce("max", input_tensor, axis, keepdims)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """The minimum along ``axis``; an empty row gives the dtype's highest value."""
    return _reduce("min", input_tensor, axis, keepdims)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """The product along ``axis``; an empty row gives 1."""
    return _reduce("prod", input_tensor, axis, keepdims)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Whether any value along ``axis`` is true; an empty row gives False."""
    return _reduce("any", input_tensor, axis, keepdims)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Whether every value along ``axis`` is true; an empty row gives True."""
    return _reduce("all", input_tensor, axis, keepdims)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The population variance along ``axis`` (``tf.math.reduce_variance``): the mean of
    the squared distances to the row means."""
    if axis is None:
        return _r.reduce_variance(input_tensor.flat_values)
    mean = _reduce("mean", input_tensor, axis, True)
    return _reduce("mean", _m.square(_m.subtract(input_tensor, mean)), axis, keepdims)


def concat(values, axis, name=None):
    """Ragged tensors (and dense ones, as ragged) joined along ``axis`` 0 or 1."""
    from .ragged_tensor import constant
    rts = [v if isinstance(v, RaggedTensor) else (
        RaggedTensor.from_tensor(v) if hasattr(v, "_value") else constant(v))
        for v in values]
    axis = int(axis)
    if axis == 0:
        flat = _a.concat([r.values for r in rts], 0)
        lens = np.concatenate([r.row_lengths()._value for r in rts])
        return RaggedTensor.from_row_lengths(flat, lens)
    if axis == 1:
        n = int(rts[0].nrows()._value)
        pieces, lens = [], np.zeros(n, np.int64)
        for i in range(n):
            for r in rts:
                pieces.append(r[i])
                lens[i] += r.row_lengths()._value[i]
        return RaggedTensor.from_row_lengths(_a.concat(pieces, 0), lens)
    raise ValueError(f"concat of RaggedTensors along axis {axis} is not supported")


_composite.register(ragged_ops={
    "reduce_sum": reduce_sum, "reduce_mean": reduce_mean, "reduce_max": reduce_max,
    "reduce_min": reduce_min, "reduce_prod": reduce_prod, "reduce_any": reduce_any,
    "reduce_all": reduce_all, "reduce_variance": reduce_variance, "concat": concat})
