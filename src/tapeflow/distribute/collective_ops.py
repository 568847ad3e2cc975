"""Collectives as tapeflow ops, so a traced ``tf.function`` records them like any other op.

``all_reduce(x, comm, op)`` and ``broadcast(x, comm, root)`` are primitives whose forwards call
the communicator on the op's own output buffer; ``pack_all_reduce`` packs a list of tensors
into one contiguous buffer per dtype (one collective call each) and unpacks the result.
"""
from .._core import dispatch
from .._core.backend import np
from .._core.registry import nondifferentiable
from .._core.tensor import convert_to_tensor
from ..ops import array_ops as _a

__all__ = ["all_reduce", "broadcast", "all_gather", "pack_all_reduce"]


def _all_reduce_forward(x, comm, op):
    # The output buffer is reduced in place: one copy of the input, no second buffer.
    buf = np.array(x, order="C", copy=True)
    comm.allreduce(buf, "sum" if op == "mean" else op)
    if op == "mean":
        buf /= buf.dtype.type(comm.size)
    return buf


# Not differentiated: gradients are all-reduced after ``tape.gradient``, never through it.
_AllReduce = nondifferentiable("CollectiveReduceV2", _all_reduce_forward)


def _bcast_forward(x, comm, root):
    buf = np.array(x, order="C", copy=True)
    comm.bcast(buf, root)
    return buf


_Bcast = nondifferentiable("CollectiveBcastV2", _bcast_forward)


def _gather_forward(x, comm, axis):
    return np.concatenate(comm.allgather(x), axis=axis)


_Gather = nondifferentiable("CollectiveGatherV2", _gather_forward)


def all_reduce(x, comm, op="sum"):
    """``x`` reduced over every rank of ``comm`` (``op``: 'sum', 'mean', 'max', 'min')."""
    return dispatch.apply(_AllReduce, [convert_to_tensor(x)], {"comm": comm, "op": op})


def broadcast(x, comm, root=0):
    """Rank ``root``'s ``x`` on every rank."""
    return dispatch.apply(_Bcast, [convert_to_tensor(x)], {"comm": comm, "root": root})


def all_gather(x, comm, axis=0):
    """Every rank's ``x`` concatenated along ``axis`` in rank order."""
    return dispatch.apply(_Gather, [convert_to_tensor(x)], {"comm": comm, "axis": axis})


def pack_all_reduce(tensors, comm, op="sum"):
    """All-reduce a list of tensors with one collective call per dtype.

    Tensors of one dtype are flattened into one contiguous buffer (as Horovod's fusion buffer
    and TF's ``bytes_per_pack=0``), reduced in one call, and split back to their shapes.
    ``None`` entries stay ``None``.
    """
    out = list(tensors)
    groups = {}
    for i, t in enumerate(tensors):
        if t is not None:
            t = convert_to_tensor(t)
            out[i] = t
            groups.setdefault(t.dtype, []).append(i)
    for idx in groups.values():
        if len(idx) == 1:
            out[idx[0]] = all_reduce(out[idx[0]], comm, op)
            continue
        shapes = [out[i].shape for i in idx]
        flat = _a.concat([_a.reshape(out[i], [-1]) for i in idx], 0)
        reduced = all_reduce(flat, comm, op)
        sizes = [s.num_elements() for s in shapes]
        for i, part, shape in zip(idx, _a.split(reduced, sizes), shapes):
            out[i] = _a.reshape(part, shape.as_list())
    return out

