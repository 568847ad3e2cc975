"""Collectives as tapeflow ops, so a traced ``tf.function`` records them like any other op.

``all_reduce(x, comm, op)`` and ``broadcast(x, comm, root)`` are primitives whose forwards call
the communicator on the op's own output buffer; ``pack_all_reduce`` packs a list of tensors
into one contiguous buffer per dtype (one collective call each) and unpacks the result.
"""
from .._core import dispatch
from .._core.backend import np
from .._core.registry import nondifferentiable
from .._core.tensor import convert_to_tensor

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


def _packed_forward(*arrays, comm, op):
    # Pack: one copy of each gradient into a fresh contiguous buffer; reduce it in place in
    # one call; unpack: the outputs are views of the buffer (no second copy).
    sizes = [a.size for a in arrays]
    buf = np.empty(sum(sizes), dtype=arrays[0].dtype)
    offset = 0
    for a, n in zip(arrays, sizes):
        buf[offset:offset + n] = a.reshape(-1)
        offset += n
    comm.allreduce(buf, "sum" if op == "mean" else op)
    if op == "mean":
        buf /= buf.dtype.type(comm.size)
    out, offset = [], 0
    for a, n in zip(arrays, sizes):
        out.append(buf[offset:offset + n].reshape(a.shape))
        offset += n
    return tuple(out)


_packed = {}


def _packed_primitive(n):
    prim = _packed.get(n)
    if prim is None:
        prim = _packed[n] = nondifferentiable(f"CollectiveReduceV2Packed{n}", _packed_forward,
                                              n_outputs=n)
    return prim


def pack_all_reduce(tensors, comm, op="sum"):
    """All-reduce a list of tensors with one collective call per dtype.

    Tensors of one dtype are copied into one contiguous buffer (as Horovod's fusion buffer
    and TF's ``bytes_per_pack=0``), reduced in place in one call, and handed back as views of
    it, all inside one op. ``None`` entries stay ``None``.
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
        reduced = dispatch.apply(_packed_primitive(len(idx)), [out[i] for i in idx],
                                 {"comm": comm, "op": op})
        for i, t in zip(idx, reduced):
            out[i] = t
    return out
