"""Routing slices by index: ``tf.dynamic_partition`` and ``tf.dynamic_stitch``.

``dynamic_partition`` is ``gather`` over positions a small non-differentiable op computes
from the partition values (so a traced program recomputes them from each call's values);
``dynamic_stitch`` is one op whose gradient gathers the upstream gradient at each index.
"""
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive
from . import composite_dispatch as _composite
from ._helpers import to_tensor
from .array_ops import reshape
from .indexing_ops import gather

__all__ = ["dynamic_partition", "dynamic_stitch"]


def _partition_positions(p, *, part, num_partitions):
    flat = p.reshape(-1)
    return np.flatnonzero(flat == part).astype(np.int32)


_PARTITION = Primitive("DynamicPartition", _partition_positions, differentiable=False,
                       save_inputs=False)


def dynamic_partition(data, partitions, num_partitions, name=None):
    """Split ``data`` into ``num_partitions`` tensors by ``partitions`` (``tf.dynamic_partition``).

    Args:
        data: a tensor whose leading dimensions have ``partitions``' shape.
        partitions: an int32 tensor of values in ``[0, num_partitions)``.
        num_partitions: a Python int >= 1.
        name: unused.

    Returns:
        A list of ``num_partitions`` tensors; the ``i``-th holds the slices
        ``data[j]`` with ``partitions[j] == i`` in order, shape ``[n_i] + data.shape[p.ndim:]``.
        Differentiable in ``data``.

    Raises:
        tf.errors.InvalidArgumentError: a partition value outside ``[0, num_partitions)`` or
            ``partitions``' shape not a prefix of ``data``'s.
    """
    try:
        data, partitions = to_tensor(data), to_tensor(partitions)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("dynamic_partition", data, partitions, num_partitions)
    num_partitions = int(num_partitions)
    p = partitions._value
    d_shape = tuple(data._value.shape)
    if not np.issubdtype(p.dtype, np.integer):
        raise TypeError(f"Value passed to parameter 'partitions' has DataType "
                        f"{partitions.dtype.name} not in list of allowed values: int32")
    if d_shape[:p.ndim] != p.shape:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"data.shape must start with partitions.shape, got data.shape = "
            f"[{','.join(map(str, d_shape))}], partitions.shape = "
            f"[{','.join(map(str, p.shape))}]", "DynamicPartition")
    flat = p.reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= num_partitions))
    if bad.size:
        i = int(bad[0])
        idx = np.unravel_index(i, p.shape) if p.ndim else ()
        where = "[" + ",".join(str(int(k)) for k in idx) + "]"
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"partitions{where} = {int(flat[i])} is not in [0, {num_partitions})",
            "DynamicPartition")
    rows = reshape(data, [-1, *d_shape[p.ndim:]])
    return [gather(rows, apply(_PARTITION, (partitions,),
                               {"part": k, "num_partitions": num_partitions}))
            for k in range(num_partitions)]


def _stitch_forward(*arrays, n, rest):
    idx = np.concatenate([i.reshape(-1) for i in arrays[:n]]).astype(np.int64)
    rows = [d.reshape((-1,) + rest) for d in arrays[n:]]
    size = int(idx.max()) + 1 if idx.size else 0
    filled = np.zeros(size, bool)
    filled[idx] = True
    if not filled.all():
        raise _MissingIndex(int(np.flatnonzero(~filled)[0]))
    out = np.zeros((size,) + rest, rows[0].dtype)
    out[idx] = np.concatenate(rows, axis=0)    # the last occurrence of an index wins
    return out


class _MissingIndex(Exception):
    pass


def _stitch_error(values, attrs, exc):
    if isinstance(exc, _MissingIndex):
        return errors.InvalidArgumentError, f"Missing index {exc.args[0]} in merged"
    return errors.InvalidArgumentError, str(exc)


_STITCH = {}


def _stitch_prim(n):
    """The DynamicStitch primitive for ``n`` index/data pairs; the gradient of ``data[m]``
    is the upstream gradient gathered at ``indices[m]`` (TF 2.21's rule: a slice another
    index overwrote still gets the gradient of the position it was written to)."""
    prim = _STITCH.get(n)
    if prim is None:
        def rule(m):
            return lambda g, y, *ins, n, rest: reshape(
                gather(g, reshape(ins[m], [-1])), ins[n + m]._value.shape)
        prim = Primitive("DynamicStitch", _stitch_forward, error=_stitch_error)
        prim.vjps = (None,) * n + tuple(rule(m) for m in range(n))
        _STITCH[n] = prim
    return prim


def dynamic_stitch(indices, data, name=None):
    """Interleave ``data`` by ``indices`` (``tf.dynamic_stitch``):
    ``merged[indices[m][i]] = data[m][i]``.

    Args:
        indices: a list of int32 tensors.
        data: a list of tensors of one dtype, ``data[m].shape = indices[m].shape + rest``.
        name: unused.

    Returns:
        A tensor of shape ``[max(indices) + 1] + rest``; where an index occurs more than
        once the later one wins. Differentiable in ``data``.

    Raises:
        tf.errors.InvalidArgumentError: a negative index, shapes that disagree, or a
            position in ``[0, max]`` that no index fills.
    """
    indices = [to_tensor(i) for i in indices]
    data = [to_tensor(d) for d in data]
    if len(indices) != len(data):
        raise ValueError(f"List argument 'data' to 'DynamicStitch' Op with length {len(data)} "
                         f"must match length {len(indices)} of argument 'indices'.")
    rest = None
    for m, (i, d) in enumerate(zip(indices, data)):
        ishape, dshape = i._value.shape, d._value.shape
        if dshape[:len(ishape)] != ishape:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"data[{m}].shape = [{','.join(map(str, dshape))}] does not start with "
                f"indices[{m}].shape = [{','.join(map(str, ishape))}]", "DynamicStitch")
        tail = tuple(dshape[len(ishape):])
        if rest is None:
            rest = tail
        elif tail != rest:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"Need data[0].shape[{len(indices[0]._value.shape)}:] = "
                f"[{','.join(map(str, dshape[len(ishape):]))}]", "DynamicStitch")
        if i._value.size and i._value.min() < 0:
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"indices[{m}] has a negative index", "DynamicStitch")
    if len({d.dtype for d in data}) > 1:
        raise TypeError("All data tensors of DynamicStitch must have the same dtype")
    return apply(_stitch_prim(len(data)), (*indices, *data), {"n": len(data), "rest": rest})


